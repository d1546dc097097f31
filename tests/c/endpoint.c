/* The endpoint mounted in a host's own web server (mcp_http_endpoint), driven the way such a host
 * drives it, without sockets: requests in through mcp_http_endpoint_handle, the response out
 * through the callbacks. A handler reads a header the client set and the principal and userdata
 * the host attached (both eras, the legacy one with its session id); an SSE response arrives chunk
 * by chunk while the handler still runs; abandoning an exchange mid-call cancels its handler and
 * stops the callbacks; bad inputs get their status or the endpoint's 400. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"

/* ---- the host's side of one exchange: what the callbacks delivered ---- */

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int heads, ends, chunks, after_abandon;
  int abandoned; /* set by the test before it abandons; a callback seeing it counts a violation */
  mcp_http_exchange *self; /* for a callback that abandons its own exchange */
  unsigned status;
  char content_type[64], session[128];
  char body[8192];
  size_t body_len;
} host_exchange;

static void host_init(host_exchange *h) {
  memset(h, 0, sizeof *h);
  pthread_mutex_init(&h->lock, NULL);
  pthread_cond_init(&h->changed, NULL);
}

static void host_destroy(host_exchange *h) {
  pthread_mutex_destroy(&h->lock);
  pthread_cond_destroy(&h->changed);
}

static void copy_view(char *dst, size_t cap, mcp_str v) {
  size_t n = v.len < cap - 1 ? v.len : cap - 1;
  memcpy(dst, v.data, n);
  dst[n] = '\0';
}

static void on_head(void *ud, uint16_t status, const mcp_header *headers, size_t n) {
  host_exchange *h = ud;
  pthread_mutex_lock(&h->lock);
  h->after_abandon += h->abandoned;
  h->heads++;
  h->status = status;
  for (size_t i = 0; i < n; i++) {
    CHECK(headers[i].name.data[headers[i].name.len] == '\0');
    CHECK(headers[i].value.data[headers[i].value.len] == '\0');
    if (strcmp(headers[i].name.data, "content-type") == 0)
      copy_view(h->content_type, sizeof h->content_type, headers[i].value);
    if (strcmp(headers[i].name.data, "mcp-session-id") == 0)
      copy_view(h->session, sizeof h->session, headers[i].value);
  }
  pthread_cond_broadcast(&h->changed);
  pthread_mutex_unlock(&h->lock);
}

static void on_body(void *ud, const uint8_t *data, size_t len) {
  host_exchange *h = ud;
  pthread_mutex_lock(&h->lock);
  h->after_abandon += h->abandoned;
  CHECK(h->heads == 1 && h->ends == 0);
  CHECK(h->body_len + len < sizeof h->body);
  memcpy(h->body + h->body_len, data, len);
  h->body_len += len;
  h->body[h->body_len] = '\0';
  h->chunks++;
  pthread_cond_broadcast(&h->changed);
  pthread_mutex_unlock(&h->lock);
}

static void on_end(void *ud) {
  host_exchange *h = ud;
  pthread_mutex_lock(&h->lock);
  h->after_abandon += h->abandoned;
  h->ends++;
  pthread_cond_broadcast(&h->changed);
  pthread_mutex_unlock(&h->lock);
}

static const mcp_http_response_callbacks CALLBACKS = {on_head, on_body, on_end};

/* Waits (at most 10 s) until `cond` holds under h->lock. */
#define WAIT_UNTIL(h, cond)                                                   \
  do {                                                                        \
    struct timespec until_;                                                   \
    clock_gettime(CLOCK_REALTIME, &until_);                                   \
    until_.tv_sec += 10;                                                      \
    pthread_mutex_lock(&(h)->lock);                                           \
    while (!(cond))                                                           \
      CHECK(pthread_cond_timedwait(&(h)->changed, &(h)->lock, &until_) == 0); \
    pthread_mutex_unlock(&(h)->lock);                                         \
  } while (0)

/* ---- the server: its handlers ---- */

static atomic_int userdata_freed;

static void free_principal_note(void *p) {
  free(p);
  atomic_fetch_add(&userdata_freed, 1);
}

/* Answers with what it sees of the HTTP request: a client header, the host's principal and
 * userdata, the legacy session id. */
static void whoami(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_str tag = {"", 0}, absent;
  OK(mcp_request_http_header(q, S("X-CLIENT-TAG"), &tag));
  EXPECT(MCP_STATUS_NOT_FOUND, mcp_request_http_header(q, S("x-not-sent"), &absent));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_request_http_header(q, S("x-client-tag"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_request_http_header(NULL, S("x-client-tag"), &absent));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_request_http_header(q, S("x-\xff"), &absent));
  mcp_str again;
  OK(mcp_request_http_header(q, S("x-client-tag"), &again));
  CHECK(again.data == tag.data); /* cached: one copy per request */
  mcp_str principal = mcp_request_http_principal(q), session = mcp_request_http_session_id(q);
  const char *note = mcp_request_http_userdata(q);
  char text[512];
  snprintf(text, sizeof text, "tag=%.*s principal=%.*s note=%s session=%.*s", (int)tag.len,
           tag.data, (int)principal.len, principal.data, note ? note : "(none)", (int)session.len,
           session.data);
  char json[768];
  snprintf(json, sizeof json, "{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}", text);
  OK(mcp_responder_result(r, json, strlen(json)));
  mcp_responder_free(r);
}

/* The host exchange of the streaming call, so its handler can wait for the first chunk. */
static host_exchange *streaming_host;

/* Sends progress, waits until the host has received it as a body chunk (so the response streams
 * while the handler runs), then answers. */
static void *progress_worker(void *arg) {
  mcp_responder *r = arg;
  bool sent = false;
  OK(mcp_responder_progress(r, 1, true, 2, S("first"), &sent));
  CHECK(sent);
  WAIT_UNTIL(streaming_host, strstr(streaming_host->body, "\"first\""));
  OK(mcp_responder_progress(r, 2, true, 2, S("second"), &sent));
  WAIT_UNTIL(streaming_host, strstr(streaming_host->body, "\"second\""));
  OK(mcp_responder_result(r, S("{\"content\":[{\"type\":\"text\",\"text\":\"streamed\"}]}")));
  mcp_responder_free(r);
  return NULL;
}

static void with_progress(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  pthread_t t;
  CHECK(pthread_create(&t, NULL, progress_worker, r) == 0);
  pthread_detach(t);
}

static atomic_int slow_started, slow_cancelled;

static void slow_cancel(void *ud) {
  mcp_responder *r = ud;
  atomic_fetch_add(&slow_cancelled, 1);
  OK(mcp_responder_tool_error(r, S("cancelled")));
  mcp_responder_free(r);
}

/* Never answers on its own: only its cancellation does. */
static void slow(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  OK(mcp_responder_on_cancel(r, slow_cancel, r, NULL));
  atomic_fetch_add(&slow_started, 1);
}

static const test_tool TOOLS[] = {
    {"{\"name\":\"whoami\",\"inputSchema\":{\"type\":\"object\"}}", whoami},
    {"{\"name\":\"progress\",\"inputSchema\":{\"type\":\"object\"}}", with_progress},
    {"{\"name\":\"slow\",\"inputSchema\":{\"type\":\"object\"}}", slow},
};

/* ---- requests ---- */

#define MODERN_META                                                              \
  "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","     \
  "\"io.modelcontextprotocol/clientCapabilities\":{},\"progressToken\":\"p1\"}"

/* A 2026-07-28 tools/call of `tool` as the MCP client sends it, with the host's context. */
static mcp_http_exchange *call_modern(mcp_http_endpoint *e, const char *tool, host_exchange *h,
                                      const mcp_http_host_context *host) {
  char body[512];
  snprintf(body, sizeof body,
           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\","
           "\"arguments\":{}," MODERN_META "}}",
           tool);
  mcp_header headers[] = {
      {MCP_STR_LIT("Content-Type"), MCP_STR_LIT("application/json")},
      {MCP_STR_LIT("Accept"), MCP_STR_LIT("application/json, text/event-stream")},
      {MCP_STR_LIT("MCP-Protocol-Version"), MCP_STR_LIT("2026-07-28")},
      {MCP_STR_LIT("Mcp-Method"), MCP_STR_LIT("tools/call")},
      {MCP_STR_LIT("Mcp-Name"), {tool, strlen(tool)}},
      {MCP_STR_LIT("X-Client-Tag"), MCP_STR_LIT(" from-c\t ")}, /* whitespace is not the value */
  };
  mcp_http_exchange *x = NULL;
  OK(mcp_http_endpoint_handle(e, S("POST"), S("/mcp"), headers, sizeof headers / sizeof headers[0],
                              (const uint8_t *)body, strlen(body), host, &CALLBACKS, h, &x));
  return x;
}

/* A legacy POST of `body` in `session` (NULL for initialize). */
static mcp_http_exchange *post_legacy(mcp_http_endpoint *e, const char *session, const char *body,
                                      host_exchange *h, const mcp_http_host_context *host) {
  mcp_header headers[] = {
      {MCP_STR_LIT("Content-Type"), MCP_STR_LIT("application/json")},
      {MCP_STR_LIT("Accept"), MCP_STR_LIT("application/json, text/event-stream")},
      {MCP_STR_LIT("X-Client-Tag"), MCP_STR_LIT("legacy-c")},
      {MCP_STR_LIT("MCP-Protocol-Version"), MCP_STR_LIT("2025-11-25")},
      {MCP_STR_LIT("Mcp-Session-Id"), {session, session ? strlen(session) : 0}},
  };
  mcp_http_exchange *x = NULL;
  OK(mcp_http_endpoint_handle(e, S("POST"), S("/app/mcp"), headers, session ? 5 : 3,
                              (const uint8_t *)body, strlen(body), host, &CALLBACKS, h, &x));
  return x;
}

static void expect_whoami(const host_exchange *h, const char *want) {
  if (!strstr(h->body, want)) {
    fprintf(stderr, "whoami answered %s\nexpected it to contain %s\n", h->body, want);
    exit(1);
  }
}

/* ---- the cases ---- */

static void header_and_principal(mcp_http_endpoint *e) {
  host_exchange h;
  host_init(&h);
  char *note = strdup("tenant-7");
  mcp_http_host_context host = {MCP_STR_LIT("alice"), note, free_principal_note};
  mcp_http_exchange *x = call_modern(e, "whoami", &h, &host);
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.heads == 1 && h.status == 200);
  CHECK(strcmp(h.content_type, "application/json") == 0);
  expect_whoami(&h, "tag=from-c principal=alice note=tenant-7 session=");
  /* The exchange ended: abandoning it now is the harmless side of the race. */
  OK(mcp_http_exchange_abandon(x));
  mcp_http_exchange_free(x);
  /* The userdata is released once the request is gone. */
  for (int i = 0; i < 1000 && atomic_load(&userdata_freed) < 1; i++) nanosleep(&(struct timespec){0, 5000000}, NULL);
  CHECK(atomic_load(&userdata_freed) == 1);
  host_destroy(&h);

  /* No host context: no principal, no userdata. */
  host_init(&h);
  x = call_modern(e, "whoami", &h, NULL);
  WAIT_UNTIL(&h, h.ends == 1);
  expect_whoami(&h, "tag=from-c principal= note=(none) session=");
  mcp_http_exchange_free(x);
  host_destroy(&h);
}

static void legacy_session(mcp_http_endpoint *e) {
  host_exchange h;
  host_init(&h);
  mcp_http_exchange *x = post_legacy(
      e, NULL,
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}",
      &h, NULL);
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 200 && h.session[0]);
  mcp_http_exchange_free(x);
  char session[128];
  strcpy(session, h.session);
  host_destroy(&h);

  host_init(&h);
  x = post_legacy(e, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", &h,
                  NULL);
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 202);
  mcp_http_exchange_free(x);
  host_destroy(&h);

  host_init(&h);
  mcp_http_host_context host = {MCP_STR_LIT("bob"), NULL, NULL};
  x = post_legacy(e, session,
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
                  "\"whoami\",\"arguments\":{}}}",
                  &h, &host);
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 200);
  char want[256];
  snprintf(want, sizeof want, "tag=legacy-c principal=bob note=(none) session=%s", session);
  expect_whoami(&h, want);
  mcp_http_exchange_free(x);
  host_destroy(&h);
}

static void streams_sse(mcp_http_endpoint *e) {
  host_exchange h;
  host_init(&h);
  streaming_host = &h;
  mcp_http_exchange *x = call_modern(e, "progress", &h, NULL);
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 200);
  CHECK(strcmp(h.content_type, "text/event-stream") == 0);
  /* Two progress events, each delivered before the handler went on, then the result. */
  CHECK(h.chunks >= 3);
  CHECK(strstr(h.body, "\"first\"") && strstr(h.body, "\"second\""));
  CHECK(strstr(h.body, "streamed"));
  CHECK(strstr(h.body, "\"first\"") < strstr(h.body, "streamed"));
  mcp_http_exchange_free(x);
  streaming_host = NULL;
  host_destroy(&h);
}

static void abandon_cancels(mcp_http_endpoint *e) {
  host_exchange h;
  host_init(&h);
  mcp_http_exchange *x = call_modern(e, "slow", &h, NULL);
  for (int i = 0; i < 2000 && !atomic_load(&slow_started); i++) nanosleep(&(struct timespec){0, 5000000}, NULL);
  CHECK(atomic_load(&slow_started) == 1);
  CHECK(atomic_load(&slow_cancelled) == 0);
  pthread_mutex_lock(&h.lock);
  h.abandoned = 1;
  pthread_mutex_unlock(&h.lock);
  OK(mcp_http_exchange_abandon(x));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_http_exchange_abandon(x));
  /* The client went away: the handler's request is cancelled. */
  for (int i = 0; i < 2000 && !atomic_load(&slow_cancelled); i++) nanosleep(&(struct timespec){0, 5000000}, NULL);
  CHECK(atomic_load(&slow_cancelled) == 1);
  mcp_http_exchange_free(x);
  nanosleep(&(struct timespec){0, 50000000}, NULL);
  CHECK(h.after_abandon == 0 && h.ends == 0);
  host_destroy(&h);
}

/* Abandons its own exchange from inside the head callback: allowed, and nothing follows. */
static void abandon_in_head(void *ud, uint16_t status, const mcp_header *headers, size_t n) {
  host_exchange *h = ud;
  on_head(ud, status, headers, n);
  OK(mcp_http_exchange_abandon(h->self));
  pthread_mutex_lock(&h->lock);
  h->abandoned = 1;
  pthread_cond_broadcast(&h->changed);
  pthread_mutex_unlock(&h->lock);
}

static void bad_inputs(mcp_http_endpoint *e) {
  host_exchange h;
  host_init(&h);
  mcp_http_exchange *x = NULL;
  mcp_header good = {MCP_STR_LIT("Accept"), MCP_STR_LIT("application/json")};
  mcp_http_response_callbacks no_end = {on_head, on_body, NULL};
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(NULL, S("GET"), S("/"), NULL, 0, NULL, 0, NULL, &CALLBACKS, &h, &x));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 0, NULL, 0, NULL, NULL, &h, &x));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 0, NULL, 0, NULL, &no_end, &h, &x));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 0, NULL, 0, NULL, &CALLBACKS, &h, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 1, NULL, 0, NULL, &CALLBACKS, &h, &x));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("POST"), S("/"), &good, 1, NULL, 5, NULL, &CALLBACKS, &h, &x));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, NULL, 4, S("/"), NULL, 0, NULL, 0, NULL, &CALLBACKS, &h, &x));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_http_endpoint_handle(e, S("G\xffT"), S("/"), NULL, 0, NULL, 0, NULL, &CALLBACKS, &h, &x));
  mcp_header bad_utf8 = {MCP_STR_LIT("X-A"), MCP_STR_LIT("\xc3")};
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), &bad_utf8, 1, NULL, 0, NULL, &CALLBACKS, &h, &x));
  /* A host context's userdata belongs to the library even when the call fails. */
  int before = atomic_load(&userdata_freed);
  mcp_http_host_context host = {{"\xff", 1}, strdup("x"), free_principal_note};
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 0, NULL, 0, &host, &CALLBACKS, &h, &x));
  CHECK(atomic_load(&userdata_freed) == before + 1);
  host.principal = (mcp_str){"", 0};
  host.userdata = strdup("y");
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_endpoint_handle(e, S("GET"), S("/"), NULL, 0, NULL, 0, &host, NULL, &h, &x));
  CHECK(atomic_load(&userdata_freed) == before + 2);
  CHECK(x == NULL && h.heads == 0);

  /* A header name HTTP does not allow: the endpoint's own 400, naming it. */
  mcp_header bad_name = {MCP_STR_LIT("bad header"), MCP_STR_LIT("x")};
  OK(mcp_http_endpoint_handle(e, S("POST"), S("/mcp"), &bad_name, 1, NULL, 0, NULL, &CALLBACKS, &h, &x));
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 400);
  CHECK(strstr(h.body, "\\\"bad header\\\" is not a header name"));
  mcp_http_exchange_free(x);
  host_destroy(&h);

  /* A method HTTP does not allow: 400 as well. */
  host_init(&h);
  OK(mcp_http_endpoint_handle(e, S("PO ST"), S("/mcp"), NULL, 0, NULL, 0, NULL, &CALLBACKS, &h, &x));
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 400);
  mcp_http_exchange_free(x);
  host_destroy(&h);

  /* Abandoning from inside its own head callback stops the rest. */
  host_init(&h);
  mcp_http_response_callbacks self_abandon = {abandon_in_head, on_body, on_end};
  pthread_mutex_lock(&h.lock); /* the callback waits until the handle is stored */
  OK(mcp_http_endpoint_handle(e, S("PO ST"), S("/mcp"), NULL, 0, NULL, 0, NULL, &self_abandon, &h, &x));
  h.self = x;
  pthread_mutex_unlock(&h.lock);
  WAIT_UNTIL(&h, h.abandoned == 1);
  nanosleep(&(struct timespec){0, 50000000}, NULL);
  CHECK(h.heads == 1 && h.chunks == 0 && h.ends == 0 && h.after_abandon == 0);
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_http_exchange_abandon(x));
  mcp_http_exchange_free(x);
  host_destroy(&h);

  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_exchange_abandon(NULL));
  mcp_http_exchange_free(NULL);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_endpoint_close(NULL));
  mcp_http_endpoint_free(NULL);
  CHECK(mcp_request_http_principal(NULL).len == 0);
  CHECK(mcp_request_http_session_id(NULL).len == 0);
  CHECK(mcp_request_http_userdata(NULL) == NULL);
}

/* An endpoint whose config protects Host and limits bodies: its refusals come through the
 * callbacks with their status, and the 421 names the header, its value and the setting. */
static void config_applies(mcp_server *server, mcp_runtime *rt) {
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new_for_mount(&config));
  OK(mcp_http_server_config_set_dns_rebinding_protection(config, true));
  OK(mcp_http_server_config_add_allowed_host(config, S("app.example")));
  OK(mcp_http_server_config_set_max_body_bytes(config, 16));
  mcp_http_endpoint *e = NULL;
  OK(mcp_http_endpoint_new(server, rt, config, &e, NULL));
  mcp_http_server_config_free(config);
  host_exchange h;
  host_init(&h);
  mcp_header evil[] = {{MCP_STR_LIT("Host"), MCP_STR_LIT("evil.example")},
                       {MCP_STR_LIT("Content-Type"), MCP_STR_LIT("application/json")}};
  mcp_http_exchange *x = NULL;
  OK(mcp_http_endpoint_handle(e, S("POST"), S("/mcp"), evil, 2, (const uint8_t *)"{}", 2, NULL,
                              &CALLBACKS, &h, &x));
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 421); /* Misdirected Request */
  CHECK(strstr(h.body, "evil.example") && strstr(h.body, "allowed_hosts"));
  mcp_http_exchange_free(x);
  host_destroy(&h);

  host_init(&h);
  mcp_header ok_host[] = {{MCP_STR_LIT("Host"), MCP_STR_LIT("app.example")},
                          {MCP_STR_LIT("Content-Type"), MCP_STR_LIT("application/json")},
                          {MCP_STR_LIT("Accept"), MCP_STR_LIT("application/json, text/event-stream")}};
  const char *big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
  OK(mcp_http_endpoint_handle(e, S("POST"), S("/mcp"), ok_host, 3, (const uint8_t *)big,
                              strlen(big), NULL, &CALLBACKS, &h, &x));
  WAIT_UNTIL(&h, h.ends == 1);
  CHECK(h.status == 413);
  mcp_http_exchange_free(x);
  host_destroy(&h);
  mcp_http_endpoint_free(e);
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *server = tool_server("endpoint-test", TOOLS, sizeof TOOLS / sizeof TOOLS[0]);
  mcp_http_endpoint *e = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_endpoint_new(NULL, rt, NULL, &e, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_endpoint_new(server, NULL, NULL, &e, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_endpoint_new(server, rt, NULL, NULL, NULL));
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new_for_mount(&config));
  OK(mcp_http_endpoint_new(server, rt, config, &e, NULL));
  mcp_http_server_config_free(config);
  header_and_principal(e);
  legacy_session(e);
  streams_sse(e);
  abandon_cancels(e);
  bad_inputs(e);
  config_applies(server, rt);
  OK(mcp_http_endpoint_close(e));
  mcp_http_endpoint_free(e);
  mcp_server_free(server);
  mcp_runtime_free(rt);
  printf("endpoint: ok\n");
  return 0;
}
