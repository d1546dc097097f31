/* HTTP round trip in one process, C server <-> C client, in both eras: server and HTTP configs
 * applied (page size seen on the wire), extra client headers, subscriptions (tools list changes,
 * legacy resources/updated) delivered on runtime threads with a final callback, the cancellation
 * callback of a handler, stopping the server from another thread, and misuse (port in use, bad
 * filters, double registration). Every userdata finalizer must run exactly once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"

static atomic_int finalized;
static atomic_int handed_out;
static mcp_server *g_server;
static pthread_t main_thread;

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void count_free(void *p) {
  (void)p;
  atomic_fetch_add(&finalized, 1);
}

/* Waits up to 10 s for `*v` to reach `want`. */
static int await(atomic_int *v, int want) {
  for (int i = 0; i < 1000 && atomic_load(v) < want; i++) sleep_ms(10);
  return atomic_load(v) >= want;
}

static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  char buf[512];
  /* The test client declares no capabilities; bad paths are false, never a crash. */
  CHECK(!mcp_request_has_client_capability(req, S("sampling")));
  CHECK(!mcp_request_has_client_capability(req, S("elicitation/form")));
  CHECK(!mcp_request_has_client_capability(req, NULL, 0));
  CHECK(!mcp_request_has_client_capability(req, "\xff", 1));
  CHECK(!mcp_request_has_client_capability(NULL, S("sampling")));
  CHECK(mcp_request_template_vars(req).len == 0);
  /* Who asks: the client's info, the request id (a JSON number or string), no input round yet, and
   * no token (this server does not authenticate). */
  CHECK(view_has(mcp_request_client_info(req), "\"name\":\"http-test\""));
  mcp_str id = mcp_request_id(req);
  CHECK(id.len > 0 && (id.data[0] == '"' || (id.data[0] >= '0' && id.data[0] <= '9')));
  CHECK(mcp_request_round(req) == 0 && mcp_request_round(NULL) == 0);
  CHECK(mcp_request_auth(req).len == 0 && mcp_request_id(NULL).len == 0);
  int n = snprintf(buf, sizeof buf, "{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}",
                   mcp_request_era(req) == MCP_ERA_LEGACY ? "legacy" : "modern");
  OK(mcp_responder_result(r, buf, (size_t)n));
  mcp_responder_free(r);
}

/* ---- cancellation ---- */

static atomic_int handler_started;
static atomic_int cancel_seen;
static atomic_int cancel_on_main;

static void on_cancel(void *ud) {
  mcp_responder *r = ud;
  if (pthread_equal(pthread_self(), main_thread)) atomic_store(&cancel_on_main, 1);
  atomic_fetch_add(&cancel_seen, 1);
  /* The handler handed the responder over: answer (dropped by the engine) and free it here. */
  OK(mcp_responder_tool_error(r, S("cancelled")));
  mcp_responder_free(r);
}

static void wait_cancel(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_responder_on_cancel(r, NULL, NULL, count_free));
  atomic_fetch_add(&handed_out, 1); /* the finalizer above counts as one */
  OK(mcp_responder_on_cancel(r, on_cancel, r, NULL));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_on_cancel(r, on_cancel, NULL, count_free));
  atomic_fetch_add(&handed_out, 1);
  atomic_fetch_add(&handler_started, 1);
}

static void answered_then_watch(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_on_cancel(r, on_cancel, NULL, count_free));
  atomic_fetch_add(&handed_out, 1);
  mcp_responder_free(r);
}

static atomic_int wrongly_cancelled;

static void count_cancel(void *ud) {
  (void)ud;
  atomic_fetch_add(&wrongly_cancelled, 1);
}

/* Watches, then answers normally: the watch ends without calling back and finalizes its userdata. */
static void watch_then_answer(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_on_cancel(r, count_cancel, NULL, count_free));
  atomic_fetch_add(&handed_out, 1);
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

/* ---- runtime changes ---- */

static void trigger(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_server_add_tool(g_server, S("{\"name\":\"tmp\",\"inputSchema\":{\"type\":\"object\"}}"),
                         echo, NULL, count_free, NULL));
  atomic_fetch_add(&handed_out, 1);
  bool removed = false;
  OK(mcp_server_remove_tool(g_server, S("tmp"), &removed));
  CHECK(removed);
  OK(mcp_server_notify_resource_updated(g_server, S("test://watched")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_notify_resource_updated(g_server, NULL, 0));
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void watched(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_result(r, S("{\"contents\":[{\"uri\":\"test://watched\",\"text\":\"w\"}]}")));
  mcp_responder_free(r);
}

static void item(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  CHECK(strcmp(mcp_request_template_vars(req).data, "{\"id\":\"7\"}") == 0);
  OK(mcp_responder_result(r, S("{\"contents\":[{\"uri\":\"test://items/7\",\"text\":\"seven\"}]}")));
  mcp_responder_free(r);
}

/* ---- client side ---- */

struct sub_state {
  atomic_int events;
  atomic_int ended;
  atomic_int on_main;
  char last[256];
};

static void on_notification(void *ud, mcp_str method, mcp_str params) {
  struct sub_state *s = ud;
  if (pthread_equal(pthread_self(), main_thread)) atomic_store(&s->on_main, 1);
  CHECK(method.data != NULL && params.data != NULL && params.data[params.len] == '\0');
  if (method.len == 0) {
    CHECK(view_has(params, "\"reason\""));
    atomic_fetch_add(&s->ended, 1);
    return;
  }
  CHECK(atomic_load(&s->ended) == 0); /* nothing after the final callback */
  snprintf(s->last, sizeof s->last, "%s %s", method.data, params.data);
  atomic_fetch_add(&s->events, 1);
}

static void sub_free(void *ud) {
  struct sub_state *s = ud;
  CHECK(atomic_load(&s->ended) == 1); /* finalized after the final callback */
  atomic_fetch_add(&finalized, 1);
}

static atomic_int call_done;
static atomic_int call_status;

static void on_call(void *ud, mcp_status st, mcp_string *result, mcp_error *error) {
  (void)ud;
  atomic_store(&call_status, (int)st);
  mcp_string_free(result);
  mcp_error_free(error);
  atomic_fetch_add(&call_done, 1);
}

static mcp_client *connect_client(mcp_runtime *rt, const char *url, const char *version) {
  mcp_client_builder *b = NULL;
  mcp_client_config *cfg = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  OK(mcp_client_builder_new(S("http-test"), S("1.0"), &b));
  OK(mcp_client_config_new(&cfg));
  OK(mcp_client_config_set_version(cfg, version, strlen(version)));
  OK(mcp_client_config_set_timeouts_ms(cfg, 60000, 0, 0));
  OK(mcp_client_builder_set_config(b, cfg));
  mcp_client_config_free(cfg);
  mcp_header h[] = {{{"X-Test", 6}, {"c", 1}}};
  mcp_status st = mcp_client_builder_connect_http(b, rt, url, strlen(url), h, 1, &c, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  EXPECT(MCP_STATUS_OK, st);
  mcp_client_builder_free(b);
  return c;
}

static void round_trip(mcp_runtime *rt, const char *url, const char *version, int legacy) {
  mcp_client *c = connect_client(rt, url, version);
  CHECK(mcp_client_era(c) == (legacy ? MCP_ERA_LEGACY : MCP_ERA_MODERN));
  mcp_string *out = NULL;
  mcp_error *err = NULL;

  /* The server config's page size (2) shows on the wire as a nextCursor. */
  OK(mcp_client_call(c, S("tools/list"), NULL, 0, 0, &out, &err));
  CHECK(has(out, "\"nextCursor\""));
  mcp_string_free(out);
  OK(mcp_client_list_tools(c, &out, &err));
  CHECK(has(out, "\"echo\"") && has(out, "\"wait_cancel\"") && has(out, "\"trigger\""));
  mcp_string_free(out);
  OK(mcp_client_call_tool(c, S("echo"), NULL, 0, &out, &err));
  CHECK(strcmp(mcp_string_data(out), legacy ? "{\"content\":[{\"text\":\"legacy\",\"type\":\"text\"}]}"
                                            : "{\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
                                              "{\"name\":\"http-test-server\",\"version\":\"1.0\"}},"
                                              "\"content\":[{\"text\":\"modern\",\"type\":\"text\"}],"
                                              "\"resultType\":\"complete\"}") == 0 ||
        (fprintf(stderr, "echo: %s\n", mcp_string_data(out)), 0));
  mcp_string_free(out);
  OK(mcp_client_call_tool(c, S("answered_then_watch"), NULL, 0, &out, &err));
  mcp_string_free(out);
  OK(mcp_client_call_tool(c, S("watch_then_answer"), NULL, 0, &out, &err));
  mcp_string_free(out);
  OK(mcp_client_read_resource(c, S("test://items/7"), &out, &err));
  CHECK(has(out, "\"seven\""));
  mcp_string_free(out);

  /* Subscription misuse: each path finalizes the userdata. */
  mcp_subscription *sub = NULL;
  int before = atomic_load(&finalized);
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_subscribe(c, S("{\"toolsListChanged\":true}"), NULL, NULL, count_free, &sub, NULL, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON,
         mcp_client_subscribe(c, S("{\"toolsListChanged\":"), on_notification, NULL, count_free, &sub, NULL, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON,
         mcp_client_subscribe(c, S("[1]"), on_notification, NULL, count_free, &sub, NULL, NULL));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_client_subscribe(c, S("{}"), on_notification, NULL, count_free, &sub, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_subscribe(NULL, S("{\"toolsListChanged\":true}"), on_notification, NULL, count_free, &sub, NULL, NULL));
  CHECK(atomic_load(&finalized) == before + 5);
  CHECK(sub == NULL);

  /* Tool list changes (and, on legacy sessions, resources/updated) reach the callback. */
  struct sub_state s;
  memset(&s, 0, sizeof s);
  mcp_string *ack = NULL;
  const char *filter = legacy ? "{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"test://watched\"]}"
                              : "{\"toolsListChanged\":true}";
  OK(mcp_client_subscribe(c, filter, strlen(filter), on_notification, &s, sub_free, &sub, &ack, &err));
  CHECK(has(ack, "\"toolsListChanged\":true"));
  mcp_string_free(ack);
  OK(mcp_client_call_tool(c, S("trigger"), NULL, 0, &out, &err));
  mcp_string_free(out);
  CHECK(await(&s.events, legacy ? 3 : 2)); /* added, removed (and updated) */
  CHECK(!atomic_load(&s.on_main));
  int fin = atomic_load(&finalized);
  OK(mcp_subscription_close(sub));
  OK(mcp_subscription_close(sub)); /* idempotent */
  mcp_subscription_free(sub);
  CHECK(atomic_load(&s.ended) == 1);
  CHECK(atomic_load(&finalized) == fin + 1);

  /* Cancelling a call reaches the handler's cancellation callback on a runtime thread. */
  atomic_store(&handler_started, 0);
  atomic_store(&cancel_seen, 0);
  atomic_store(&call_done, 0);
  mcp_call *call = NULL;
  OK(mcp_client_call_async(c, S("tools/call"), S("{\"name\":\"wait_cancel\"}"), 0, NULL, on_call,
                           NULL, &call));
  CHECK(await(&handler_started, 1));
  OK(mcp_call_cancel(call));
  CHECK(await(&call_done, 1));
  CHECK(atomic_load(&call_status) == MCP_STATUS_CANCELLED);
  CHECK(await(&cancel_seen, 1));
  CHECK(!atomic_load(&cancel_on_main));
  mcp_call_free(call);

  /* A subscription outlives its client: closing the connection ends it with the final callback. */
  struct sub_state s2;
  memset(&s2, 0, sizeof s2);
  OK(mcp_client_subscribe(c, S("{\"promptsListChanged\":true}"), on_notification, &s2, sub_free,
                          &sub, NULL, &err));
  OK(mcp_client_close(c));
  OK(mcp_client_close(c)); /* idempotent */
  mcp_client_free(c);
  CHECK(await(&s2.ended, 1));
  CHECK(atomic_load(&s2.events) == 0);
  mcp_subscription_free(sub);
}

static void *stop_later(void *arg) {
  sleep_ms(50);
  OK(mcp_http_server_stop(arg));
  OK(mcp_http_server_stop(arg)); /* idempotent */
  return NULL;
}

int main(void) {
  main_thread = pthread_self();
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));

  mcp_server_builder *b = NULL;
  mcp_server_config *sc = NULL;
  mcp_error *err = NULL;
  OK(mcp_server_builder_new(S("http-test-server"), S("1.0"), &b));
  OK(mcp_server_config_new(&sc));
  OK(mcp_server_config_set_page_size(sc, 2));
  OK(mcp_server_builder_set_config(b, sc));
  mcp_server_config_free(sc);
#define TOOL(n) "{\"name\":\"" n "\",\"inputSchema\":{\"type\":\"object\"}}"
  OK(mcp_server_builder_add_tool(b, S(TOOL("echo")), echo, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("wait_cancel")), wait_cancel, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("answered_then_watch")), answered_then_watch, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("trigger")), trigger, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("watch_then_answer")), watch_then_answer, NULL, count_free));
  OK(mcp_server_builder_add_resource(b, S("{\"uri\":\"test://watched\",\"name\":\"w\"}"), watched,
                                     NULL, count_free));
  OK(mcp_server_builder_add_template(b, S("{\"uriTemplate\":\"test://items/{id}\",\"name\":\"items\"}"),
                                     item, NULL, count_free));
  atomic_fetch_add(&handed_out, 7);
  OK(mcp_server_builder_build(b, &g_server, &err));
  mcp_server_builder_free(b);

  /* Runtime registration: rejections finalize the userdata too. */
  bool removed = true;
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_server_add_prompt(g_server, S("{\"description\":\"no name\"}"), echo, NULL, count_free, &err));
  CHECK(err != NULL && mcp_error_status(err) == MCP_STATUS_INVALID_ARGUMENT);
  mcp_error_free(err);
  err = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_add_prompt(g_server, S("{\"name\":\"p\"}"), NULL, NULL, count_free, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_server_add_resource(g_server, S("{\"uri\":"), watched, NULL, count_free, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_add_resource(NULL, S("{\"uri\":\"a://b\",\"name\":\"b\"}"), watched, NULL, count_free, NULL));
  atomic_fetch_add(&handed_out, 4);
  OK(mcp_server_add_prompt(g_server, S("{\"name\":\"p\"}"), echo, NULL, count_free, NULL));
  OK(mcp_server_add_resource(g_server, S("{\"uri\":\"a://b\",\"name\":\"b\"}"), watched, NULL, count_free, NULL));
  atomic_fetch_add(&handed_out, 2);
  OK(mcp_server_remove_prompt(g_server, S("p"), &removed));
  CHECK(removed);
  OK(mcp_server_remove_prompt(g_server, S("p"), &removed));
  CHECK(!removed);
  OK(mcp_server_remove_resource(g_server, S("a://b"), &removed));
  CHECK(removed);
  OK(mcp_server_remove_resource(g_server, S("a://b"), NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_server_remove_prompt(g_server, "\xff", 1, NULL));

  mcp_http_server_config *hc = NULL;
  mcp_http_server *http = NULL;
  OK(mcp_http_server_config_new(&hc));
  OK(mcp_http_server_config_set_bind(hc, S("127.0.0.1:0")));
  OK(mcp_http_server_config_set_sse_keepalive_ms(hc, 1000));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_serve_http(g_server, rt, hc, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_serve_http(NULL, rt, hc, &http, NULL));
  OK(mcp_server_serve_http(g_server, rt, hc, &http, &err));
  uint16_t port = mcp_http_server_port(http);
  CHECK(port != 0);
  mcp_str addr = mcp_http_server_local_addr(http);
  char want[32];
  snprintf(want, sizeof want, "127.0.0.1:%u", (unsigned)port);
  CHECK(strcmp(addr.data, want) == 0 && addr.len == strlen(want));

  /* The same port again: an IO error with the reason. */
  char taken[32];
  snprintf(taken, sizeof taken, "127.0.0.1:%u", (unsigned)port);
  OK(mcp_http_server_config_set_bind(hc, taken, strlen(taken)));
  mcp_http_server *second = NULL;
  EXPECT(MCP_STATUS_IO, mcp_server_serve_http(g_server, rt, hc, &second, &err));
  CHECK(second == NULL && view_has(mcp_error_message(err), "cannot listen"));
  mcp_error_free(err);
  mcp_http_server_config_free(hc);

  char url[64];
  snprintf(url, sizeof url, "http://localhost:%u/mcp", (unsigned)port);
  round_trip(rt, url, "2026-07-28", 0);
  round_trip(rt, url, "2025-11-25", 1);

  /* Stopped from another thread while this one waits. */
  pthread_t t;
  CHECK(pthread_create(&t, NULL, stop_later, http) == 0);
  OK(mcp_http_server_wait(http));
  OK(mcp_http_server_wait(http)); /* returns at once once stopped */
  pthread_join(t, NULL);
  mcp_http_server_free(http);

  /* A stopped server refuses connections. */
  mcp_client_builder *cb = NULL;
  mcp_client *c = NULL;
  OK(mcp_client_builder_new(S("late"), S("1"), &cb));
  mcp_status st = mcp_client_builder_connect_http(cb, rt, url, strlen(url), NULL, 0, &c, &err);
  CHECK(st != MCP_STATUS_OK && c == NULL);
  mcp_error_free(err);
  mcp_client_builder_free(cb);

  mcp_server_free(g_server);
  mcp_runtime_free(rt);
  CHECK(atomic_load(&wrongly_cancelled) == 0);
  if (atomic_load(&finalized) != atomic_load(&handed_out) + 10 + 4) {
    fprintf(stderr, "finalized %d userdata, expected %d\n", atomic_load(&finalized),
            atomic_load(&handed_out) + 14);
    return 1;
  }
  printf("http: ok\n");
  return 0;
}
