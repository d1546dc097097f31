/* OAuth and TLS of the C HTTP client. Without a peer: every setter's rejection of bad input (NULL,
 * invalid UTF-8, malformed URLs, unknown methods, text that is not PEM), mcp_string_new, the
 * userdata lifecycle of the authorization callback (released exactly once, when the last copy of
 * the configuration goes), TLS roots checked at connect, mcp_oauth_auto_redirect errors. Against a
 * small in-process OAuth-protected mock (plain sockets): the callback runs off the calling thread
 * with a NUL-terminated PKCE authorization URL, the redirect string it returns is taken over, the
 * token is exchanged and sent as a bearer token; a declining callback fails the connect. The grants
 * that need no user (mcp_oauth_config_set_grant_*: NULL, bad URL, key PEM that is not a P-256 or
 * RSA PKCS #8 key) and mcp_oauth_config_set_dpop; against the mock, client credentials with a
 * secret (HTTP Basic), with a private_key_jwt assertion, and the JWT bearer grant from a literal
 * and from a file, none of which calls the authorization callback. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

static const char BAD_UTF8[] = {'\xff', '\xfe'};

/* A self-signed P-256 certificate (public data only). */
static const char CERT[] =
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBgTCCASegAwIBAgIUMxPrhVvY7UXSlYQ1rlZnnPg00NUwCgYIKoZIzj0EAwIw\n"
    "FjEUMBIGA1UEAwwLbGlibWNwLXRlc3QwHhcNMjYxMTMwMDQ0OTMzWhcNMzYxMTI3\n"
    "MDQ0OTMzWjAWMRQwEgYDVQQDDAtsaWJtY3AtdGVzdDBZMBMGByqGSM49AgEGCCqG\n"
    "SM49AwEHA0IABOQHsx44LONhMrJFYlZBfANqIkQjQ1oqxZGehpkDHZbV4gyrR3Z1\n"
    "N9t+ehF391BirtuUuDTVuqfD4YOTnSzw7G+jUzBRMB0GA1UdDgQWBBSf+HjgxQkP\n"
    "BKc9Gqb/H6PcilNjnjAfBgNVHSMEGDAWgBSf+HjgxQkPBKc9Gqb/H6PcilNjnjAP\n"
    "BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIF3rlpGNUNG9d4EzQNZY\n"
    "FO8mf148sZlpcBjWWT9+5dtwAiEAoFGoeqasx5e3M2pDaA4ZRvW6KXk4hRFTQL9a\n"
    "pNxbKUw=\n"
    "-----END CERTIFICATE-----\n";

/* A P-256 PKCS #8 test key (made for this test with openssl genpkey; signs nothing real). */
static const char EC_KEY[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgQD8EIMFz+SF0hitG\n"
    "mx7ujZ8MWVsFKaLbKt3kdyV9UvmhRANCAATGiEZ0Vrq/lQ2ZG46ux0ib3cs5F2a6\n"
    "V8uC5XllE284UxSSVbrb99O4nXnZ38vFxr/XIoXgDImOXPxgf+1PpUbc\n"
    "-----END PRIVATE KEY-----\n";
/* An Ed25519 PKCS #8 key: valid PEM, but neither ES256 nor RS256. */
static const char ED25519_KEY[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEIGLsbh8DB0VYuNCxbjPYXWm7eF5cLRVElwHL0zwjwUBM\n"
    "-----END PRIVATE KEY-----\n";

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int freed; /* free_userdata calls */

static void count_free(void *userdata) {
  (void)userdata;
  pthread_mutex_lock(&mu);
  freed++;
  pthread_mutex_unlock(&mu);
}

static int freed_count(void) {
  pthread_mutex_lock(&mu);
  int n = freed;
  pthread_mutex_unlock(&mu);
  return n;
}

static mcp_string *decline(void *userdata, const char *url, size_t len) {
  (void)userdata, (void)url, (void)len;
  return NULL;
}

struct store;
static mcp_string *store_load(void *userdata, mcp_credential_kind kind, mcp_str issuer,
                              mcp_str resource);

static void strings(void) {
  mcp_string *s = NULL;
  OK(mcp_string_new(S("héllo"), &s));
  CHECK(mcp_string_len(s) == 6 && strcmp(mcp_string_data(s), "héllo") == 0);
  mcp_string_free(s);
  OK(mcp_string_new(NULL, 0, &s));
  CHECK(mcp_string_len(s) == 0 && mcp_string_data(s)[0] == '\0');
  mcp_string_free(s);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_string_new(NULL, 3, &s));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_string_new(BAD_UTF8, 2, &s));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_string_new(S("x"), NULL));
}

static void setters(void) {
  mcp_oauth_config *o = NULL;
  const char redirect[] = "http://localhost:3000/callback";
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_new(S("c"), S(redirect), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_new(NULL, 1, S(redirect), &o));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_oauth_config_new(BAD_UTF8, 2, S(redirect), &o));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_new(S(""), S(redirect), &o));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_new(S("c"), S("callback"), &o));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_new(S("c"), S("http:/x"), &o));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_new(S("c"), S("http://a b/"), &o));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_new(S("c"), NULL, 0, &o));
  CHECK(o == NULL);
  OK(mcp_oauth_config_new(S("c"), S("com.example.app:/oauth"), &o)); /* native-app scheme */
  mcp_oauth_config_free(o);
  OK(mcp_oauth_config_new(S("c"), S(redirect), &o));

  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_client_credentials(NULL, S("id"), NULL, 0, NULL, 0, NULL, 0));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_credentials(o, S(""), NULL, 0, NULL, 0, NULL, 0));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_oauth_config_set_client_credentials(o, S("id"), BAD_UTF8, 2, NULL, 0, NULL, 0));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_client_credentials(o, S("id"), NULL, 4, NULL, 0, NULL, 0));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_credentials(o, S("id"), S("s"), S("private_key_jwt"), NULL,
                                                 0));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_credentials(o, S("id"), S("s"), NULL, 0, S("not a url")));
  OK(mcp_oauth_config_set_client_credentials(o, S("id"), S("s"), S("client_secret_post"),
                                             S("https://auth.example.com")));
  OK(mcp_oauth_config_set_client_credentials(o, S("id"), NULL, 0, S("none"), NULL, 0));

  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_metadata_url(o, S("http://example.com/client.json")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_metadata_url(o, S("https://example.com")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_metadata_url(o, S("https://example.com/")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_client_metadata_url(o, S("https://example.com/c.json#f")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_oauth_config_set_client_metadata_url(o, BAD_UTF8, 2));
  OK(mcp_oauth_config_set_client_metadata_url(o, S("https://example.com/client.json")));
  OK(mcp_oauth_config_set_client_metadata_url(o, NULL, 0)); /* clears */

  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_set_client_uri(o, S("example.com")));
  OK(mcp_oauth_config_set_client_uri(o, S("https://example.com")));
  OK(mcp_oauth_config_set_client_uri(o, NULL, 0));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_client_uri(NULL, NULL, 0));
  OK(mcp_oauth_config_set_offline_access(o, false));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_offline_access(NULL, true));

  /* TLS roots. */
  mcp_client_config *c = NULL;
  OK(mcp_client_config_new(&c));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_add_root_certificates_pem(c, S("hello")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_add_root_certificates_pem(c, NULL, 0));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_client_config_add_root_certificates_pem(c, BAD_UTF8, 2));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_config_add_root_certificates_pem(NULL, S(CERT)));
  OK(mcp_client_config_add_root_certificates_pem(c, S(CERT)));
  OK(mcp_client_config_set_skip_default_roots(c, true));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_config_set_skip_default_roots(NULL, true));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_config_set_oauth(NULL, o));
  OK(mcp_client_config_set_oauth(c, o));
  OK(mcp_client_config_set_oauth(c, NULL)); /* off again */
  mcp_client_config_free(c);
  mcp_oauth_config_free(o);
  mcp_oauth_config_free(NULL);
}

/* Expects `st` to be MCP_STATUS_INVALID_ARGUMENT with a message containing `needle`. */
static void refused(mcp_status st, mcp_error *err, const char *needle) {
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, st);
  CHECK(err != NULL && mcp_error_status(err) == MCP_STATUS_INVALID_ARGUMENT);
  if (!view_has(mcp_error_message(err), needle)) dump_error(needle, err);
  CHECK(view_has(mcp_error_message(err), needle));
  mcp_error_free(err);
}

/* Runs `call` (which writes `err`), then refused: the call must come first, as C leaves the order
 * in which a function's arguments are evaluated unspecified. */
#define REFUSED(needle, call)            \
  do {                                   \
    mcp_status st_ = (call);             \
    refused(st_, err, (needle));         \
    err = NULL;                          \
  } while (0)

/* The grant and DPoP setters' argument checks. */
static void grant_setters(void) {
  mcp_oauth_config *o = NULL;
  mcp_error *err = NULL;
  OK(mcp_oauth_config_new(S("c"), S("http://localhost:3000/callback"), &o));

  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_grant_client_secret(NULL, S("id"), S("s")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_grant_client_secret(o, NULL, 2, S("s")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_oauth_config_set_grant_client_secret(o, S("id"), BAD_UTF8, 2));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_set_grant_client_secret(o, S(""), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_set_grant_client_secret(o, S("id"), NULL, 0));
  OK(mcp_oauth_config_set_grant_client_secret(o, S("id"), S("s")));

  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_grant_private_key_jwt(NULL, S("id"), S(EC_KEY), NULL, 0, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), NULL, 9, NULL, 0, NULL));
  REFUSED("client_id is empty",
          mcp_oauth_config_set_grant_private_key_jwt(o, S(""), S(EC_KEY), NULL, 0, &err));
  REFUSED("not PEM",
          mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S("hello"), NULL, 0, &err));
  REFUSED("a PKCS #8 \"PRIVATE KEY\" block is needed",
          mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(CERT), NULL, 0, &err));
  REFUSED("not a P-256 PKCS #8 key",
          mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(ED25519_KEY), NULL, 0, &err));
  REFUSED("not an RSA PKCS #8 key",
          mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(EC_KEY), S("RS256"), &err));
  REFUSED("\"HS256\" is not supported",
          mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(EC_KEY), S("HS256"), &err));
  /* error_out may be NULL. */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S("hello"), NULL, 0, NULL));
  OK(mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(EC_KEY), NULL, 0, NULL));
  OK(mcp_oauth_config_set_grant_private_key_jwt(o, S("id"), S(EC_KEY), S("ES256"), NULL));

  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_grant_jwt_bearer(NULL, NULL, 0, S("a.b.c"), false));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, NULL, 5, false));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, S(" "), false));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, NULL, 0, true));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_oauth_config_set_grant_jwt_bearer(o, BAD_UTF8, 2, S("a.b.c"), false));
  OK(mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, S("a.b.c"), false));
  OK(mcp_oauth_config_set_grant_jwt_bearer(o, S("id"), S("/run/token"), true));

#define IDP "https://idp.example.com/token"
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_grant_enterprise_managed(NULL, S(IDP), S("idp"), NULL, 0, S("idt"),
                                                       false, S("id"), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S("idp.example.com/token"), S("idp"),
                                                       NULL, 0, S("idt"), false, S("id"), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S("urn:example:idp"), S("idp"), NULL, 0,
                                                       S("idt"), false, S("id"), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S("https://idp example/token"),
                                                       S("idp"), NULL, 0, S("idt"), false, S("id"),
                                                       S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S(IDP), S(""), NULL, 0, S("idt"), false,
                                                       S("id"), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S(IDP), S("idp"), NULL, 0, NULL, 0, false,
                                                       S("id"), S("s")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_oauth_config_set_grant_enterprise_managed(o, S(IDP), S("idp"), NULL, 0, S("idt"),
                                                       false, NULL, 0, S("s")));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_oauth_config_set_grant_enterprise_managed(o, S(IDP), S("idp"), BAD_UTF8, 2, S("idt"),
                                                       false, S("id"), S("s")));
  OK(mcp_oauth_config_set_grant_enterprise_managed(o, S(IDP), S("idp"), S("idp-secret"), S("idt"),
                                                   false, S("id"), NULL, 0));
  OK(mcp_oauth_config_set_grant_enterprise_managed(o, S("http://127.0.0.1:9/token"), S("idp"),
                                                   NULL, 0, S("/run/id-token"), true, S("id"),
                                                   S("s")));
#undef IDP

  OK(mcp_oauth_config_set_dpop(o, true));
  OK(mcp_oauth_config_set_dpop(o, false));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_dpop(NULL, true));
  mcp_oauth_config_free(o);
}

/* free_userdata runs exactly once: on a failed call, on replacement, and when the last copy
 * goes. */
static void userdata_lifecycle(void) {
  freed = 0;
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_oauth_config_set_authorize_callback(NULL, decline, NULL, count_free));
  CHECK(freed_count() == 1);

  mcp_oauth_config *o = NULL;
  OK(mcp_oauth_config_new(S("c"), S("http://localhost/cb"), &o));
  OK(mcp_oauth_config_set_authorize_callback(o, decline, NULL, count_free));
  OK(mcp_oauth_config_set_authorize_callback(o, decline, NULL, count_free)); /* replaces */
  CHECK(freed_count() == 2);
  OK(mcp_oauth_config_set_authorize_callback(o, NULL, NULL, count_free)); /* auto-redirect */
  CHECK(freed_count() == 4); /* the replaced callback's and this unused one's */
  OK(mcp_oauth_config_set_authorize_callback(o, decline, NULL, count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_store(o, store_load, NULL, NULL, count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_config_set_store(NULL, NULL, NULL, NULL, count_free));
  OK(mcp_oauth_config_set_store(o, NULL, NULL, NULL, count_free)); /* in memory */
  CHECK(freed_count() == 7); /* none was kept */

  mcp_client_config *c = NULL;
  mcp_client_builder *b = NULL;
  OK(mcp_client_config_new(&c));
  OK(mcp_client_config_set_oauth(c, o));
  OK(mcp_client_builder_new(S("t"), S("1"), &b));
  OK(mcp_client_builder_set_config(b, c));
  mcp_oauth_config_free(o);
  CHECK(freed_count() == 7); /* the client config and the builder hold copies */
  mcp_client_config_free(c);
  CHECK(freed_count() == 7);
  mcp_client_builder_free(b);
  CHECK(freed_count() == 8);
}

/* TLS roots are checked when connecting: no roots at all, or a section that does not decode, is
 * MCP_STATUS_INVALID_ARGUMENT; good roots get as far as the (refused) connection. */
static void tls_connect(mcp_runtime *rt) {
  struct {
    const char *pem;
    mcp_status want;
  } cases[] = {
      {NULL, MCP_STATUS_INVALID_ARGUMENT},
      {"-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n",
       MCP_STATUS_INVALID_ARGUMENT},
      {CERT, MCP_STATUS_TRANSPORT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mcp_client_config *c = NULL;
    mcp_client_builder *b = NULL;
    mcp_client *client = NULL;
    mcp_error *err = NULL;
    OK(mcp_client_config_new(&c));
    OK(mcp_client_config_set_version(c, S("2025-11-25")));
    OK(mcp_client_config_set_skip_default_roots(c, true));
    const char *pem = cases[i].pem;
    if (pem) OK(mcp_client_config_add_root_certificates_pem(c, pem, strlen(pem)));
    OK(mcp_client_builder_new(S("t"), S("1"), &b));
    OK(mcp_client_builder_set_config(b, c));
    mcp_client_config_free(c);
    EXPECT(cases[i].want, mcp_client_builder_connect_http(b, rt, S("https://127.0.0.1:1/mcp"), NULL,
                                                           0, &client, &err));
    CHECK(client == NULL && err != NULL && mcp_error_message(err).len > 0);
    mcp_error_free(err);
    mcp_client_builder_free(b);
  }
}

static void auto_redirect_errors(mcp_runtime *rt) {
  mcp_string *r = NULL;
  mcp_error *err = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_auto_redirect(NULL, S("http://x/"), &r, &err));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_oauth_auto_redirect(rt, S("http://x/"), NULL, &err));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_oauth_auto_redirect(rt, BAD_UTF8, 2, &r, &err));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_oauth_auto_redirect(rt, S("nowhere"), &r, &err));
  EXPECT(MCP_STATUS_TRANSPORT,
         mcp_oauth_auto_redirect(rt, S("http://127.0.0.1:1/authorize"), &r, &err));
  CHECK(r == NULL && err != NULL);
  mcp_error_free(err);
  err = NULL;
  EXPECT(MCP_STATUS_TRANSPORT,
         mcp_oauth_auto_redirect(rt, S("http://127.0.0.1:1/authorize"), &r, NULL));
}

/* ---- an OAuth-protected mock MCP endpoint ---- */

struct mock {
  int listener;
  int port;
  int authorized_posts; /* POST /mcp carrying the bearer token */
  int token_requests;
  int client_secret_grants; /* client_credentials with HTTP Basic cc-id:cc-secret */
  int private_key_jwt_grants; /* client_credentials with a client_assertion (a JWT) */
  int jwt_bearer_grants;      /* the JWT bearer grant with the assertion wif.jwt.token */
};

static void reply(int fd, const char *status, const char *headers, const char *body) {
  char head[1024];
  int n = snprintf(head, sizeof head,
                   "HTTP/1.1 %s\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
                   strlen(body), headers);
  if (write(fd, head, (size_t)n) < 0 || write(fd, body, strlen(body)) < 0) perror("mock write");
}

/* Reads one request (head and Content-Length body) into buf; returns its length or -1. */
static int read_request(int fd, char *buf, size_t cap) {
  size_t got = 0;
  for (;;) {
    ssize_t n = read(fd, buf + got, cap - 1 - got);
    if (n <= 0) return -1;
    got += (size_t)n;
    buf[got] = '\0';
    char *end = strstr(buf, "\r\n\r\n");
    if (!end) continue;
    size_t len = 0;
    char *cl = strstr(buf, "content-length:");
    if (!cl) cl = strstr(buf, "Content-Length:");
    if (cl && cl < end) len = strtoul(cl + 15, NULL, 10);
    if (got >= (size_t)(end + 4 - buf) + len) return (int)got;
    if (got + 1 >= cap) return -1;
  }
}

/* The JSON-RPC id of a request body ("1" from `"id":1,`), copied into out. */
static void json_id(const char *body, char *out, size_t cap) {
  const char *p = strstr(body, "\"id\":");
  snprintf(out, cap, "null");
  if (!p) return;
  p += 5;
  size_t n = strcspn(p, ",}");
  if (n < cap) snprintf(out, cap, "%.*s", (int)n, p);
}

static void *mock_main(void *arg) {
  struct mock *m = arg;
  char origin[64], buf[16384], body[2048], hdr[512], id[64];
  snprintf(origin, sizeof origin, "http://127.0.0.1:%d", m->port);
  for (;;) {
    int fd = accept(m->listener, NULL, NULL);
    if (fd < 0) return NULL;
    if (read_request(fd, buf, sizeof buf) < 0) {
      close(fd);
      continue;
    }
    const char *payload = strstr(buf, "\r\n\r\n") + 4;
    int bearer = strstr(buf, "Bearer tok-1") != NULL;
    if (!strncmp(buf, "GET /quit ", 10)) {
      reply(fd, "200 OK", "", "");
      close(fd);
      return NULL;
    } else if (!strncmp(buf, "GET /.well-known/oauth-protected-resource", 41)) {
      snprintf(body, sizeof body, "{\"resource\":\"%s/mcp\",\"authorization_servers\":[\"%s\"]}",
               origin, origin);
      reply(fd, "200 OK", "Content-Type: application/json\r\n", body);
    } else if (!strncmp(buf, "GET /.well-known/oauth-authorization-server ", 44)) {
      snprintf(body, sizeof body,
               "{\"issuer\":\"%s\",\"authorization_endpoint\":\"%s/authorize\","
               "\"token_endpoint\":\"%s/token\",\"response_types_supported\":[\"code\"],"
               "\"code_challenge_methods_supported\":[\"S256\"]}",
               origin, origin, origin);
      reply(fd, "200 OK", "Content-Type: application/json\r\n", body);
    } else if (!strncmp(buf, "POST /token ", 12)) {
      m->token_requests++;
      int cc = strstr(payload, "grant_type=client_credentials") != NULL;
      int cc_basic = cc && strstr(buf, "Basic Y2MtaWQ6Y2Mtc2VjcmV0"); /* cc-id:cc-secret */
      int cc_jwt = cc &&
                   strstr(payload, "client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-"
                                   "assertion-type%3Ajwt-bearer") &&
                   strstr(payload, "client_assertion=ey");
      int jwt_bearer =
          strstr(payload, "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer") &&
          strstr(payload, "assertion=wif.jwt.token");
      m->client_secret_grants += cc_basic;
      m->private_key_jwt_grants += cc_jwt;
      m->jwt_bearer_grants += jwt_bearer;
      if ((strstr(payload, "code=c0de") && strstr(payload, "code_verifier=")) || cc_basic ||
          cc_jwt || jwt_bearer)
        reply(fd, "200 OK", "Content-Type: application/json\r\n",
              "{\"access_token\":\"tok-1\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
      else
        reply(fd, "400 Bad Request", "Content-Type: application/json\r\n",
              "{\"error\":\"invalid_grant\"}");
    } else if (strstr(buf, " /mcp ") && !bearer) {
      snprintf(hdr, sizeof hdr,
               "WWW-Authenticate: Bearer resource_metadata=\"%s/.well-known/"
               "oauth-protected-resource/mcp\"\r\n",
               origin);
      reply(fd, "401 Unauthorized", hdr, "");
    } else if (!strncmp(buf, "POST /mcp ", 10)) {
      m->authorized_posts++;
      json_id(payload, id, sizeof id);
      if (strstr(payload, "\"method\":\"initialize\"")) {
        snprintf(body, sizeof body,
                 "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-11-25\","
                 "\"capabilities\":{},\"serverInfo\":{\"name\":\"mock\",\"version\":\"1\"}}}",
                 id);
        reply(fd, "200 OK", "Content-Type: application/json\r\n", body);
      } else if (strstr(payload, "\"id\":")) {
        snprintf(body, sizeof body, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}", id);
        reply(fd, "200 OK", "Content-Type: application/json\r\n", body);
      } else {
        reply(fd, "202 Accepted", "", "");
      }
    } else if (!strncmp(buf, "GET /mcp ", 9)) {
      reply(fd, "405 Method Not Allowed", "", "");
    } else {
      reply(fd, "404 Not Found", "", "");
    }
    close(fd);
  }
}

struct auth_seen {
  pthread_t caller;
  int calls;
  int off_caller_thread;
  int pkce; /* the URL carried code_challenge, S256, client_id and state */
};

/* Answers as a user agent would: back to the redirect URI with a code and the request's state. */
static mcp_string *approve(void *userdata, const char *url, size_t len) {
  struct auth_seen *a = userdata;
  pthread_mutex_lock(&mu);
  a->calls++;
  a->off_caller_thread = !pthread_equal(pthread_self(), a->caller);
  a->pkce = url[len] == '\0' && strstr(url, "code_challenge=") &&
            strstr(url, "code_challenge_method=S256") && strstr(url, "client_id=pre-id") &&
            strstr(url, "response_type=code");
  pthread_mutex_unlock(&mu);
  const char *state = strstr(url, "state=");
  if (!state) return NULL;
  state += 6;
  char redirect[512];
  int n = snprintf(redirect, sizeof redirect, "http://localhost/cb?code=c0de&state=%.*s",
                   (int)strcspn(state, "&"), state);
  mcp_string *out = NULL;
  if (mcp_string_new(redirect, (size_t)n, &out) != MCP_STATUS_OK) return NULL;
  return out;
}

/* A credential store with one slot per kind (the mock has one issuer and one resource). */
struct store {
  char *entry[2];
  char issuer[128], resource[128];
  int loads, saves, forgets;
};

static mcp_string *store_load(void *userdata, mcp_credential_kind kind, mcp_str issuer,
                              mcp_str resource) {
  struct store *s = userdata;
  (void)issuer, (void)resource;
  pthread_mutex_lock(&mu);
  s->loads++;
  mcp_string *out = NULL;
  if (s->entry[kind]) mcp_string_new(s->entry[kind], strlen(s->entry[kind]), &out);
  pthread_mutex_unlock(&mu);
  return out;
}

static void store_save(void *userdata, mcp_credential_kind kind, mcp_str issuer, mcp_str resource,
                       mcp_str json) {
  struct store *s = userdata;
  pthread_mutex_lock(&mu);
  free(s->entry[kind]);
  s->entry[kind] = NULL;
  if (json.len == 0) {
    s->forgets++;
  } else {
    s->saves++;
    s->entry[kind] = strdup(json.data);
  }
  snprintf(s->issuer, sizeof s->issuer, "%s", issuer.data);
  snprintf(s->resource, sizeof s->resource, "%s", resource.data);
  pthread_mutex_unlock(&mu);
}

/* Connects to the mock's /mcp at 2025-11-25 with the OAuth configuration `o`, which it frees. */
static mcp_status connect_oauth(mcp_runtime *rt, int port, mcp_oauth_config *o, mcp_client **client,
                                mcp_error **err) {
  mcp_client_config *c = NULL;
  mcp_client_builder *b = NULL;
  OK(mcp_client_config_new(&c));
  OK(mcp_client_config_set_version(c, S("2025-11-25")));
  OK(mcp_client_config_set_oauth(c, o));
  mcp_oauth_config_free(o);
  OK(mcp_client_builder_new(S("t"), S("1"), &b));
  OK(mcp_client_builder_set_config(b, c));
  mcp_client_config_free(c);
  char url[64];
  int n = snprintf(url, sizeof url, "http://127.0.0.1:%d/mcp", port);
  mcp_status st = mcp_client_builder_connect_http(b, rt, url, (size_t)n, NULL, 0, client, err);
  mcp_client_builder_free(b);
  return st;
}

static mcp_status connect_with(mcp_runtime *rt, int port, mcp_authorize_cb cb, void *userdata,
                               struct store *store, mcp_client **client, mcp_error **err) {
  mcp_oauth_config *o = NULL;
  OK(mcp_oauth_config_new(S("oauth-test"), S("http://localhost/cb"), &o));
  OK(mcp_oauth_config_set_client_credentials(o, S("pre-id"), S("pre-secret"), NULL, 0, NULL, 0));
  OK(mcp_oauth_config_set_authorize_callback(o, cb, userdata, count_free));
  if (store) OK(mcp_oauth_config_set_store(o, store_load, store_save, store, count_free));
  return connect_oauth(rt, port, o, client, err);
}

/* Connects to the mock with a grant that needs no user, which `set` puts on the configuration;
 * the authorization callback must never run. */
static mcp_status connect_grant(mcp_runtime *rt, int port, void (*set)(mcp_oauth_config *),
                                struct auth_seen *seen) {
  mcp_oauth_config *o = NULL;
  mcp_client *client = NULL;
  mcp_error *err = NULL;
  OK(mcp_oauth_config_new(S("oauth-test"), S("http://localhost/cb"), &o));
  OK(mcp_oauth_config_set_authorize_callback(o, approve, seen, count_free));
  set(o);
  mcp_status st = connect_oauth(rt, port, o, &client, &err);
  if (st != MCP_STATUS_OK) {
    dump_error("connect with a grant", err);
    mcp_error_free(err);
  }
  mcp_client_free(client);
  return st;
}

static const char *assertion_file;

static void set_client_secret(mcp_oauth_config *o) {
  OK(mcp_oauth_config_set_grant_client_secret(o, S("cc-id"), S("cc-secret")));
}
static void set_private_key_jwt(mcp_oauth_config *o) {
  OK(mcp_oauth_config_set_grant_private_key_jwt(o, S("jwt-id"), S(EC_KEY), S("ES256"), NULL));
}
static void set_jwt_bearer(mcp_oauth_config *o) {
  OK(mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, S("wif.jwt.token"), false));
}
static void set_jwt_bearer_file(mcp_oauth_config *o) {
  OK(mcp_oauth_config_set_grant_jwt_bearer(o, NULL, 0, assertion_file, strlen(assertion_file), true));
}

/* Each grant gets the token from the mock's token endpoint and uses it; no callback runs. */
static void grants(mcp_runtime *rt, struct mock *m) {
  struct auth_seen seen = {.caller = pthread_self()};
  OK(connect_grant(rt, m->port, set_client_secret, &seen));
  CHECK(m->client_secret_grants == 1);
  OK(connect_grant(rt, m->port, set_private_key_jwt, &seen));
  CHECK(m->private_key_jwt_grants == 1);
  OK(connect_grant(rt, m->port, set_jwt_bearer, &seen));
  CHECK(m->jwt_bearer_grants == 1);
  char path[] = "/tmp/libmcp-oauth-assertion-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0 && write(fd, "wif.jwt.token\n", 14) == 14 && close(fd) == 0);
  assertion_file = path;
  OK(connect_grant(rt, m->port, set_jwt_bearer_file, &seen));
  CHECK(m->jwt_bearer_grants == 2);
  /* The file is read at each use: gone, the grant fails. */
  CHECK(unlink(path) == 0);
  CHECK(connect_grant(rt, m->port, set_jwt_bearer_file, &seen) != MCP_STATUS_OK);
  CHECK(m->jwt_bearer_grants == 2);
  pthread_mutex_lock(&mu);
  CHECK(seen.calls == 0);
  pthread_mutex_unlock(&mu);
}

static void authorization_flow(void) {
  struct mock m = {0};
  m.listener = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(m.listener >= 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t alen = sizeof addr;
  CHECK(bind(m.listener, (struct sockaddr *)&addr, sizeof addr) == 0);
  CHECK(listen(m.listener, 16) == 0);
  CHECK(getsockname(m.listener, (struct sockaddr *)&addr, &alen) == 0);
  m.port = ntohs(addr.sin_port);
  pthread_t mock_thread;
  CHECK(pthread_create(&mock_thread, NULL, mock_main, &m) == 0);

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  freed = 0;

  /* Approved: the callback's redirect is used, the token exchanged and sent. */
  struct auth_seen seen = {.caller = pthread_self()};
  mcp_client *client = NULL;
  mcp_error *err = NULL;
  struct store store = {0};
  mcp_status st = connect_with(rt, m.port, approve, &seen, &store, &client, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  OK(st);
  mcp_string *out = NULL;
  OK(mcp_client_call(client, S("ping"), NULL, 0, 0, &out, NULL));
  CHECK(strcmp(mcp_string_data(out), "{}") == 0);
  mcp_string_free(out);
  mcp_client_free(client);
  pthread_mutex_lock(&mu);
  CHECK(seen.calls == 1 && seen.off_caller_thread && seen.pkce);
  pthread_mutex_unlock(&mu);
  CHECK(m.token_requests == 1 && m.authorized_posts >= 2);
  /* The tokens went to the store, under the issuer and the resource. */
  char want[64];
  snprintf(want, sizeof want, "http://127.0.0.1:%d", m.port);
  CHECK(store.saves == 1 && store.entry[MCP_CREDENTIAL_TOKENS] != NULL);
  CHECK(strstr(store.entry[MCP_CREDENTIAL_TOKENS], "\"access_token\":\"tok-1\""));
  CHECK(strncmp(store.issuer, want, strlen(want)) == 0 && strstr(store.resource, "/mcp"));

  /* A new connection with the same store reuses the tokens: no authorization, no token request. */
  client = NULL;
  st = connect_with(rt, m.port, decline, NULL, &store, &client, &err);
  if (st != MCP_STATUS_OK) dump_error("connect with stored tokens", err);
  OK(st);
  mcp_client_free(client);
  CHECK(m.token_requests == 1 && store.loads >= 1);

  /* Stored nonsense counts as no tokens: the flow runs (and here is declined). */
  free(store.entry[MCP_CREDENTIAL_TOKENS]);
  store.entry[MCP_CREDENTIAL_TOKENS] = strdup("{not json");
  client = NULL;
  err = NULL;
  st = connect_with(rt, m.port, decline, NULL, &store, &client, &err);
  CHECK(st != MCP_STATUS_OK && view_has(mcp_error_message(err), "declined"));
  mcp_error_free(err);
  free(store.entry[MCP_CREDENTIAL_TOKENS]);

  /* Declined: the connect fails with the reason, and no token is requested. */
  client = NULL;
  err = NULL;
  st = connect_with(rt, m.port, decline, NULL, NULL, &client, &err);
  CHECK(st != MCP_STATUS_OK && client == NULL && err != NULL);
  CHECK(view_has(mcp_error_message(err), "declined"));
  mcp_error_free(err);
  CHECK(m.token_requests == 1);

  grants(rt, &m);
  mcp_runtime_free(rt);
  /* Four callbacks' and three stores' userdata, then the five grant connections' callbacks, once
   * each. */
  CHECK(freed_count() == 12);

  /* Stop the mock with a last request. */
  mcp_string *ignored = NULL;
  mcp_runtime *rt2 = NULL;
  OK(mcp_runtime_new(1, &rt2));
  char quit[64];
  snprintf(quit, sizeof quit, "http://127.0.0.1:%d/quit", m.port);
  (void)mcp_oauth_auto_redirect(rt2, quit, strlen(quit), &ignored, NULL);
  mcp_string_free(ignored);
  mcp_runtime_free(rt2);
  CHECK(pthread_join(mock_thread, NULL) == 0);
  close(m.listener);
}

int main(void) {
  strings();
  setters();
  grant_setters();
  userdata_lifecycle();
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  tls_connect(rt);
  auto_redirect_errors(rt);
  mcp_runtime_free(rt);
  authorization_flow();
  printf("oauth: ok\n");
  return 0;
}
