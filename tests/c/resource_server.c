/* The HTTP server as an OAuth 2.1 resource server with the token checked in C
 * (mcp_resource_server_config, mcp_token_responder, mcp_http_server_config_set_auth), on a real
 * socket with raw HTTP/1.1: the configuration's rejections (NULL, bad UTF-8, no authorization
 * server, a bad resource or scope, timeout 0), the userdata released exactly once; the RFC 9728
 * metadata document; the exact 401, 403 and 503 answers for a missing, unknown, wrongly addressed,
 * unavailable, unanswered and late token; a token accepted at once and one accepted later from
 * another thread; per-tool scopes; and the caller as handlers see it (mcp_request_auth and the
 * subject, client id, scopes, claims and has_scope accessors). */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "check.h"
#include "raw_http.h"

#define RESOURCE "https://mcp.example.com/mcp"
#define BASE "\"audience\":[\"" RESOURCE "\"],\"clientId\":\"app\",\"subject\":\"ada\""

static const char BAD_UTF8[] = {'\xff', '\xfe'};

static atomic_int freed;                   /* verifier userdata releases */
static _Atomic(mcp_token_responder *) late; /* the "slow" token's responder, answered after the 503 */
static pthread_t answerer;                 /* answers the "later" token */
static atomic_int answerer_started;

static void count_free(void *userdata) {
  CHECK(userdata == &freed);
  atomic_fetch_add(&freed, 1);
}

static int freed_count(void) { return atomic_load(&freed); }

static void *answer_later(void *arg) {
  mcp_token_responder *r = arg;
  usleep(50 * 1000);
  OK(mcp_token_responder_accept(r, S("{" BASE ",\"scopes\":[\"mcp:read\",\"mcp:admin\"]}"), NULL));
  mcp_token_responder_free(r);
  return NULL;
}

/* The verifier: a table of test tokens. */
static void verify(void *userdata, const char *token, size_t len, mcp_token_responder *r) {
  CHECK(userdata == &freed);
  CHECK(token[len] == '\0');
  mcp_error *err = NULL;
  if (strcmp(token, "tok-read") == 0) {
    /* A wrong shape first: refused with the reason, and the responder can still answer. */
    EXPECT(MCP_STATUS_INVALID_JSON, mcp_token_responder_accept(r, S("{"), NULL));
    EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_token_responder_accept(r, S("{\"scope\":\"x\"}"), &err));
    mcp_str m = mcp_error_message(err);
    CHECK(strstr(m.data, "not a token description: unknown field `scope`") == m.data);
    mcp_error_free(err);
    err = NULL;
    EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_token_responder_reject(r, 7, S("bad kind")));
    OK(mcp_token_responder_accept(
        r, S("{" BASE ",\"scopes\":[\"mcp:read\"],\"claims\":{\"tenant\":\"t1\"}}"), NULL));
    EXPECT(MCP_STATUS_ALREADY_USED, mcp_token_responder_accept(r, S("{}"), &err));
    CHECK(mcp_error_status(err) == MCP_STATUS_ALREADY_USED);
    mcp_error_free(err);
    EXPECT(MCP_STATUS_ALREADY_USED, mcp_token_responder_reject(r, MCP_TOKEN_INVALID, NULL, 0));
    mcp_token_responder_free(r);
  } else if (strcmp(token, "tok-later") == 0) {
    CHECK(pthread_create(&answerer, NULL, answer_later, r) == 0);
    atomic_store(&answerer_started, 1);
  } else if (strcmp(token, "tok-elsewhere") == 0) {
    OK(mcp_token_responder_accept(
        r, S("{\"audience\":[\"https://other.example/mcp\"],\"scopes\":[\"mcp:read\"]}"), NULL));
    mcp_token_responder_free(r);
  } else if (strcmp(token, "tok-expired") == 0) {
    OK(mcp_token_responder_accept(r, S("{" BASE ",\"scopes\":[\"mcp:read\"],\"expiresAt\":1}"),
                                  NULL));
    mcp_token_responder_free(r);
  } else if (strcmp(token, "tok-down") == 0) {
    OK(mcp_token_responder_reject(r, MCP_TOKEN_UNAVAILABLE, S("the key set is unreachable")));
    mcp_token_responder_free(r);
  } else if (strcmp(token, "tok-lost") == 0) {
    mcp_token_responder_free(r);
  } else if (strcmp(token, "tok-slow") == 0) {
    atomic_store(&late, r);
  } else {
    OK(mcp_token_responder_reject(r, MCP_TOKEN_INVALID, S("unknown token")));
    mcp_token_responder_free(r);
  }
}

/* whoami: the caller as the accessors show it. */
static void whoami(void *userdata, const mcp_request *req, mcp_responder *r) {
  (void)userdata;
  mcp_str auth = mcp_request_auth(req), sub = mcp_request_auth_subject(req),
          client = mcp_request_auth_client_id(req), scopes = mcp_request_auth_scopes(req),
          claims = mcp_request_auth_claims(req);
  mcp_string *q = NULL;
  OK(mcp_json_quote(auth.data, auth.len, &q));
  char buf[2048];
  int n = snprintf(buf, sizeof buf,
                   "{\"content\":[],\"structuredContent\":{\"auth\":%s,\"line\":\"%.*s|%.*s|%.*s|%d%d%d\","
                   "\"claims\":%.*s}}",
                   mcp_string_data(q), (int)sub.len, sub.data, (int)client.len, client.data,
                   (int)scopes.len, scopes.data, mcp_request_has_scope(req, S("mcp:read")),
                   mcp_request_has_scope(req, S("mcp:admin")),
                   mcp_request_has_scope(req, BAD_UTF8, sizeof BAD_UTF8),
                   (int)claims.len, claims.data);
  CHECK(n > 0 && (size_t)n < sizeof buf);
  mcp_string_free(q);
  OK(mcp_responder_result(r, buf, (size_t)n));
  mcp_responder_free(r);
}

static void admin(void *userdata, const mcp_request *req, mcp_responder *r) {
  (void)userdata;
  (void)req;
  OK(mcp_responder_result(r, S("{\"content\":[{\"type\":\"text\",\"text\":\"admin done\"}]}")));
  mcp_responder_free(r);
}

/* A 2026-07-28 tools/call of `tool` with `authorization` (NULL: none). */
static char *call(unsigned short port, const char *authorization, const char *tool) {
  char body[512], req[2048], authz[256] = "";
  int n = snprintf(body, sizeof body,
                   "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\","
                   "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                   "\"io.modelcontextprotocol/clientCapabilities\":{}}}}",
                   tool);
  CHECK(n > 0 && (size_t)n < sizeof body);
  if (authorization) snprintf(authz, sizeof authz, "Authorization: %s\r\n", authorization);
  n = snprintf(req, sizeof req,
               "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
               "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
               "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: %s\r\n%s"
               "Content-Length: %d\r\n\r\n%s",
               port, tool, authz, n, body);
  CHECK(n > 0 && (size_t)n < sizeof req);
  return exchange(port, req);
}

static void expect_in(const char *answer, const char *needle) {
  if (!strstr(answer, needle)) {
    fprintf(stderr, "expected %s\nin:\n%s\n", needle, answer);
    exit(1);
  }
}

#define CHALLENGE_401 "HTTP/1.1 401 "
#define METADATA "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\""

static void config_rejections(void) {
  mcp_resource_server_config *c = NULL;
  mcp_http_server_config *http = NULL;
  mcp_error *err = NULL;
  /* The userdata is the library's from the first call on, also when it fails. */
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_resource_server_config_new(S(RESOURCE), NULL, &freed, count_free, &c));
  CHECK(freed_count() == 1);
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_resource_server_config_new(BAD_UTF8, sizeof BAD_UTF8, verify,
                                                                 &freed, count_free, &c));
  CHECK(freed_count() == 2);
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_resource_server_config_new(S(RESOURCE), verify, &freed, count_free, NULL));
  CHECK(freed_count() == 3);

  OK(mcp_http_server_config_new(&http));
  OK(mcp_resource_server_config_new(S("mcp.example.com/mcp"), verify, &freed, count_free, &c));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_auth(http, c, &err));
  CHECK(strcmp(mcp_error_message(err).data,
               "resource server: resource must be an absolute http(s) URL without a fragment: "
               "\"mcp.example.com/mcp\"") == 0);
  mcp_error_free(err);
  mcp_resource_server_config_free(c);
  CHECK(freed_count() == 4);

  OK(mcp_resource_server_config_new(S(RESOURCE), verify, &freed, count_free, &c));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_auth(http, c, &err));
  CHECK(strcmp(mcp_error_message(err).data,
               "resource server: at least one authorization server is required") == 0);
  mcp_error_free(err);
  OK(mcp_resource_server_config_add_authorization_server(c, S("auth.example.com")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_auth(http, c, &err));
  CHECK(strcmp(mcp_error_message(err).data,
               "resource server: authorization server must be an absolute http(s) URL: "
               "\"auth.example.com\"") == 0);
  mcp_error_free(err);
  mcp_resource_server_config_free(c);
  CHECK(freed_count() == 5);

  OK(mcp_resource_server_config_new(S(RESOURCE), verify, &freed, count_free, &c));
  OK(mcp_resource_server_config_add_authorization_server(c, S("https://auth.example.com")));
  OK(mcp_resource_server_config_set_required_scopes(c, S("mcp:read quo\"te")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_auth(http, c, &err));
  CHECK(strcmp(mcp_error_message(err).data, "resource server: invalid scope value: \"quo\\\"te\"") ==
        0);
  mcp_error_free(err);
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_resource_server_config_set_verify_timeout_ms(c, 0));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_resource_server_config_set_tool_scopes(c, NULL, 0, S("mcp:admin")));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_resource_server_config_set_scopes_supported(c, BAD_UTF8, sizeof BAD_UTF8));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_resource_server_config_add_authorization_server(NULL, S("https://a.example")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_config_set_auth(NULL, c, NULL));
  /* A valid configuration, then NULL turns OAuth off again; the copy keeps the userdata alive. */
  OK(mcp_resource_server_config_set_required_scopes(c, S("mcp:read")));
  OK(mcp_http_server_config_set_auth(http, c, NULL));
  mcp_resource_server_config_free(c);
  CHECK(freed_count() == 5);
  OK(mcp_http_server_config_set_auth(http, NULL, NULL));
  CHECK(freed_count() == 6);
  mcp_http_server_config_free(http);
  mcp_resource_server_config_free(NULL);
  mcp_token_responder_free(NULL);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_token_responder_accept(NULL, S("{}"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_token_responder_reject(NULL, MCP_TOKEN_INVALID, NULL, 0));
}

int main(void) {
  config_rejections();

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  const test_tool tools[] = {
      {"{\"name\":\"whoami\",\"inputSchema\":{\"type\":\"object\"}}", whoami},
      {"{\"name\":\"admin\",\"inputSchema\":{\"type\":\"object\"}}", admin},
  };
  mcp_server *server = tool_server("auth-c", tools, 2);

  mcp_resource_server_config *auth = NULL;
  OK(mcp_resource_server_config_new(S(RESOURCE), verify, &freed, count_free, &auth));
  OK(mcp_resource_server_config_add_authorization_server(auth, S("https://auth.example.com")));
  OK(mcp_resource_server_config_set_scopes_supported(auth, S("mcp:read mcp:admin")));
  OK(mcp_resource_server_config_set_required_scopes(auth, S(" mcp:read ")));
  OK(mcp_resource_server_config_set_tool_scopes(auth, S("admin"), S("mcp:admin")));
  OK(mcp_resource_server_config_set_resource_name(auth, S("C test resource")));
  OK(mcp_resource_server_config_set_check_audience(auth, true));
  OK(mcp_resource_server_config_set_verify_timeout_ms(auth, 300));
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new(&config));
  OK(mcp_http_server_config_set_bind(config, S("127.0.0.1:0")));
  OK(mcp_http_server_config_set_auth(config, auth, NULL));
  mcp_resource_server_config_free(auth);
  mcp_http_server *http = NULL;
  OK(mcp_server_serve_http(server, rt, config, &http, NULL));
  mcp_http_server_config_free(config);
  unsigned short port = mcp_http_server_port(http);

  /* The RFC 9728 document at the path-aware well-known URL. */
  char req[512];
  snprintf(req, sizeof req,
           "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
           "Connection: close\r\n\r\n",
           port);
  char *a = exchange(port, req);
  expect_in(a, "HTTP/1.1 200 ");
  expect_in(a, "\"resource\":\"" RESOURCE "\"");
  expect_in(a, "\"authorization_servers\":[\"https://auth.example.com\"]");
  expect_in(a, "\"scopes_supported\":[\"mcp:read\",\"mcp:admin\"]");
  expect_in(a, "\"resource_name\":\"C test resource\"");
  free(a);

  /* No token: 401 naming the metadata and the required scope; the verifier is not asked. */
  a = call(port, NULL, "whoami");
  expect_in(a, CHALLENGE_401);
  expect_in(a, "www-authenticate: Bearer " METADATA ", scope=\"mcp:read\"");
  free(a);
  a = call(port, "Bearer nope", "whoami");
  expect_in(a, CHALLENGE_401);
  expect_in(a, "error=\"invalid_token\", error_description=\"unknown token\"");
  free(a);
  a = call(port, "Bearer tok-elsewhere", "whoami");
  expect_in(a, CHALLENGE_401);
  expect_in(a, "error_description=\"the access token was not issued for this resource (" RESOURCE
               ")\"");
  free(a);
  a = call(port, "Bearer tok-expired", "whoami");
  expect_in(a, CHALLENGE_401);
  expect_in(a, "error_description=\"the access token has expired\"");
  free(a);
  a = call(port, "Bearer tok-down", "whoami");
  expect_in(a, "HTTP/1.1 503 ");
  expect_in(a, "the key set is unreachable");
  free(a);
  a = call(port, "Bearer tok-lost", "whoami");
  expect_in(a, "HTTP/1.1 503 ");
  expect_in(a, "the token verifier freed its responder without an answer");
  free(a);
  a = call(port, "Bearer tok-slow", "whoami");
  expect_in(a, "HTTP/1.1 503 ");
  expect_in(a, "the token verifier did not answer within 300ms");
  free(a);
  /* The late answer is taken (nobody waits for it any more). */
  mcp_token_responder *l = atomic_load(&late);
  CHECK(l != NULL);
  OK(mcp_token_responder_accept(l, S("{}"), NULL));
  mcp_token_responder_free(l);

  /* Accepted at once: the handler sees the caller. */
  a = call(port, "Bearer tok-read", "whoami");
  expect_in(a, "HTTP/1.1 200 ");
  expect_in(a, "\"line\":\"ada|app|mcp:read|100\"");
  expect_in(a, "\"claims\":{\"tenant\":\"t1\"}");
  expect_in(a, "\\\"subject\\\":\\\"ada\\\"");
  expect_in(a, "\\\"clientId\\\":\\\"app\\\"");
  expect_in(a, "\\\"expiresAt\\\":null");
  free(a);
  /* The tool's own scope: 403 naming the full set, so the client can step up. */
  a = call(port, "Bearer tok-read", "admin");
  expect_in(a, "HTTP/1.1 403 ");
  expect_in(a, "error=\"insufficient_scope\"");
  expect_in(a, "scope=\"mcp:read mcp:admin\"");
  free(a);
  /* Accepted later from another thread, with the wider scope. */
  a = call(port, "Bearer tok-later", "admin");
  expect_in(a, "HTTP/1.1 200 ");
  expect_in(a, "admin done");
  free(a);
  CHECK(atomic_load(&answerer_started));
  pthread_join(answerer, NULL);

  mcp_http_server_free(http);
  mcp_server_free(server);
  mcp_runtime_free(rt);
  /* Released once, after the last server using it stopped. */
  CHECK(freed_count() == 7);
  printf("resource_server: all checks passed\n");
  return 0;
}
