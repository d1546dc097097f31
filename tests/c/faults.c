/* What a C developer gets wrong in the first hour, and what the library says about it:
 * - a blocking client call from a library callback (a client's progress callback, a server handler)
 *   fails at once with MCP_STATUS_WRONG_THREAD and a message saying why, instead of deadlocking
 *   until the timeout;
 * - duplicate tool, prompt and resource names fail at mcp_server_builder_build, every one named,
 *   under one "invalid definition" prefix;
 * - a handler's malformed result (content not an array, structuredContent against the
 *   outputSchema) makes the responder call return MCP_STATUS_INVALID_RESULT with the reason the
 *   client receives as -32603.
 * And the async tool call: progress, then the outcome, then its userdata finalized exactly once.
 * Server and client share one runtime, over HTTP on 127.0.0.1. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>

#include "check.h"
#include "clock.h"

static mcp_client *g_client;
static atomic_int finalized;

static void count_free(void *p) {
  (void)p;
  atomic_fetch_add(&finalized, 1);
}

/* What a callback saw when it called back into the library: status, message, time taken. */
struct seen {
  atomic_int status;
  atomic_long took_ms;
  char message[512];
};

static void record(struct seen *s, mcp_status st, mcp_error *err, long t0) {
  s->took_ms = now_ms() - t0;
  if (err) {
    mcp_str m = mcp_error_message(err);
    snprintf(s->message, sizeof s->message, "%.*s", (int)m.len, m.data);
    mcp_error_free(err);
  }
  atomic_store(&s->status, (int)st);
}

static struct seen from_handler, from_progress, bad_content, bad_structured;

/* A server handler calling the client that called it. */
static void reenter(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  long t0 = now_ms();
  mcp_status st = mcp_client_call_tool(g_client, S("good"), NULL, 0, &out, &err);
  CHECK(out == NULL);
  record(&from_handler, st, err, t0);
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void progress_then_answer(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  bool sent = false;
  OK(mcp_responder_progress(r, 1, true, 2, S("half"), &sent));
  CHECK(sent);
  sleep_ms(200); /* the progress callback runs meanwhile */
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void good(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_result(r, S("{\"content\":[{\"type\":\"text\",\"text\":\"fine\"}]}")));
  mcp_responder_free(r);
}

static void content_not_array(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  record(&bad_content, mcp_responder_result(r, S("{\"content\":\"oops\"}")), NULL, now_ms());
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void against_schema(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  mcp_error *err = NULL;
  mcp_status st =
      mcp_responder_result_checked(r, S("{\"structuredContent\":{\"n\":\"one\"}}"), &err);
  CHECK(err != NULL && mcp_error_status(err) == st);
  record(&bad_structured, st, err, now_ms());
  mcp_responder_free(r);
}

/* ---- the client side of the re-entrant case ---- */

static atomic_int call_done;

static void on_progress(void *ud, double progress, bool has_total, double total, mcp_str message) {
  (void)ud, (void)progress, (void)has_total, (void)total, (void)message;
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  long t0 = now_ms();
  mcp_status st = mcp_client_call_tool(g_client, S("good"), NULL, 0, &out, &err);
  CHECK(out == NULL);
  record(&from_progress, st, err, t0);
}

static void on_done(void *ud, mcp_status status, mcp_string *result, mcp_error *error) {
  (void)ud;
  CHECK(status == MCP_STATUS_OK);
  mcp_string_free(result);
  mcp_error_free(error);
  atomic_store(&call_done, 1);
}

/* ---- mcp_client_call_tool_async ---- */

struct async_call {
  atomic_int progress_seen;
  atomic_int outcome;   /* 1 + status once cb ran */
  atomic_int freed;     /* how often userdata_free ran */
  atomic_int freed_before_cb;
  char text[256];
};

static void async_progress(void *ud, double progress, bool has_total, double total, mcp_str message) {
  struct async_call *a = ud;
  CHECK(progress == 1 && has_total && total == 2 && strcmp(message.data, "half") == 0);
  atomic_fetch_add(&a->progress_seen, 1);
}

static void async_done(void *ud, mcp_status status, mcp_string *result, mcp_error *error) {
  struct async_call *a = ud;
  if (atomic_load(&a->freed)) atomic_store(&a->freed_before_cb, 1);
  if (result) snprintf(a->text, sizeof a->text, "%s", mcp_string_data(result));
  if (error) snprintf(a->text, sizeof a->text, "%s", mcp_error_message(error).data);
  mcp_string_free(result);
  mcp_error_free(error);
  atomic_store(&a->outcome, 1 + (int)status);
}

static void async_free(void *ud) {
  struct async_call *a = ud;
  atomic_fetch_add(&a->freed, 1);
}

static void call_tool_async(void) {
  static struct async_call ok_call, bad_call, unknown;
  mcp_call *call = NULL;
  OK(mcp_client_call_tool_async(g_client, S("progress"), NULL, 0, 0, async_progress, async_done,
                                &ok_call, async_free, &call));
  CHECK(call != NULL);
  for (int i = 0; i < 1000 && atomic_load(&ok_call.freed) == 0; i++) sleep_ms(10);
  mcp_call_free(call);
  CHECK(atomic_load(&ok_call.outcome) == 1 + MCP_STATUS_OK && atomic_load(&ok_call.progress_seen) == 1);
  CHECK(strstr(ok_call.text, "\"content\"") != NULL);
  CHECK(atomic_load(&ok_call.freed) == 1 && !atomic_load(&ok_call.freed_before_cb));

  /* A tool error on the server is a result; an unknown tool is an RPC error; both finalize once. */
  OK(mcp_client_call_tool_async(g_client, S("no_such_tool"), S("{}"), 0, NULL, async_done, &unknown,
                                async_free, NULL));
  for (int i = 0; i < 1000 && atomic_load(&unknown.freed) == 0; i++) sleep_ms(10);
  CHECK(atomic_load(&unknown.outcome) == 1 + MCP_STATUS_RPC_ERROR && atomic_load(&unknown.freed) == 1);

  /* Rejected at once: no callback, userdata finalized before return, nothing written. */
  call = NULL;
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_client_call_tool_async(g_client, S("good"), S("[1]"), 0, NULL,
                                                             async_done, &bad_call, async_free, &call));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_call_tool_async(g_client, S("good"), NULL, 0, 0, NULL,
                                                               NULL, &bad_call, async_free, &call));
  CHECK(call == NULL && atomic_load(&bad_call.freed) == 2 && atomic_load(&bad_call.outcome) == 0);
}

static void expect_wrong_thread(const char *what, struct seen *s) {
  if (atomic_load(&s->status) != MCP_STATUS_WRONG_THREAD || s->took_ms > 1000 ||
      !strstr(s->message, "callback")) {
    fprintf(stderr, "%s: status %d after %ld ms: %s\n", what, atomic_load(&s->status),
            (long)s->took_ms, s->message);
    exit(1);
  }
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static void duplicates(void) {
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  mcp_error *err = NULL;
  OK(mcp_server_builder_new(S("dups"), S("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"t\"}"), good, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"t\"}"), good, NULL, count_free));
  OK(mcp_server_builder_add_prompt(b, S("{\"name\":\"p\"}"), good, NULL, count_free));
  OK(mcp_server_builder_add_prompt(b, S("{\"name\":\"p\"}"), good, NULL, count_free));
  OK(mcp_server_builder_add_resource(b, S("{\"uri\":\"a://r\",\"name\":\"r\"}"), good, NULL, count_free));
  OK(mcp_server_builder_add_resource(b, S("{\"uri\":\"a://r\",\"name\":\"r2\"}"), good, NULL, count_free));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_builder_build(b, &s, &err));
  CHECK(s == NULL && err != NULL);
  const char *m = mcp_error_message(err).data;
  if (!strstr(m, "tool \"t\": registered more than once") ||
      !strstr(m, "prompt \"p\": registered more than once") ||
      !strstr(m, "resource \"a://r\": registered more than once") ||
      count(m, "invalid definition") != 1 || count(m, "invalid argument") != 0) {
    fprintf(stderr, "duplicate names: %s\n", m);
    exit(1);
  }
  mcp_error_free(err);
  mcp_server_builder_free(b);
  /* Every handler's userdata, the rejected duplicates' included, is finalized once. */
  CHECK(atomic_load(&finalized) == 6);
}

int main(void) {
  duplicates();

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server_builder *b = NULL;
  mcp_server *server = NULL;
  mcp_error *err = NULL;
  OK(mcp_server_builder_new(S("faults"), S("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"good\"}"), good, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"reenter\"}"), reenter, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"progress\"}"), progress_then_answer, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"content_not_array\"}"), content_not_array, NULL, NULL));
  OK(mcp_server_builder_add_tool(
      b, S("{\"name\":\"against_schema\",\"outputSchema\":{\"type\":\"object\",\"required\":[\"n\"],"
           "\"properties\":{\"n\":{\"type\":\"integer\"}}}}"),
      against_schema, NULL, NULL));
  OK(mcp_server_builder_build(b, &server, &err));
  mcp_server_builder_free(b);

  mcp_http_server_config *hc = NULL;
  mcp_http_server *http = NULL;
  OK(mcp_http_server_config_new(&hc));
  OK(mcp_http_server_config_set_bind(hc, S("127.0.0.1:0")));
  OK(mcp_server_serve_http(server, rt, hc, &http, &err));
  mcp_http_server_config_free(hc);
  char url[64];
  snprintf(url, sizeof url, "http://localhost:%u/mcp", (unsigned)mcp_http_server_port(http));

  mcp_client_builder *cb = NULL;
  mcp_client_config *cfg = NULL;
  OK(mcp_client_builder_new(S("faults-client"), S("1.0"), &cb));
  OK(mcp_client_config_new(&cfg));
  OK(mcp_client_config_set_version(cfg, S("2026-07-28")));
  OK(mcp_client_config_set_timeouts_ms(cfg, 60000, 0, 0));
  OK(mcp_client_builder_set_config(cb, cfg));
  mcp_client_config_free(cfg);
  OK(mcp_client_builder_connect_http(cb, rt, url, strlen(url), NULL, 0, &g_client, &err));
  mcp_client_builder_free(cb);

  mcp_string *out = NULL;
  /* Re-entrant calls: from a server handler, then from the client's own progress callback. */
  OK(mcp_client_call_tool(g_client, S("reenter"), NULL, 0, &out, &err));
  mcp_string_free(out);
  expect_wrong_thread("call from a server handler", &from_handler);
  OK(mcp_client_call_async(g_client, S("tools/call"), S("{\"name\":\"progress\"}"), 0, on_progress,
                           on_done, NULL, NULL));
  for (int i = 0; i < 1000 && !atomic_load(&call_done); i++) sleep_ms(10);
  CHECK(atomic_load(&call_done));
  expect_wrong_thread("call from a progress callback", &from_progress);
  /* The client still works from this thread. */
  OK(mcp_client_call_tool(g_client, S("good"), NULL, 0, &out, &err));
  CHECK(has(out, "fine"));
  mcp_string_free(out);

  call_tool_async();

  /* Malformed results: the handler learns why, the client gets -32603 with the same reason. */
  struct {
    const char *tool;
    struct seen *seen;
    const char *reason;
  } bad[] = {
      {"content_not_array", &bad_content, "tool content_not_array returned a content field that is not an array"},
      {"against_schema", &bad_structured,
       "tool against_schema returned structuredContent that violates its outputSchema"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    EXPECT(MCP_STATUS_RPC_ERROR,
           mcp_client_call_tool(g_client, bad[i].tool, strlen(bad[i].tool), NULL, 0, &out, &err));
    CHECK(mcp_error_code(err) == -32603);
    mcp_str m = mcp_error_message(err);
    if (atomic_load(&bad[i].seen->status) != MCP_STATUS_INVALID_RESULT ||
        !strstr(m.data, bad[i].reason)) {
      fprintf(stderr, "%s: responder status %d, client message: %.*s\n", bad[i].tool,
              atomic_load(&bad[i].seen->status), (int)m.len, m.data);
      return 1;
    }
    /* mcp_responder_result gives no message; the checked variant gives the client's. */
    if (bad[i].seen == &bad_structured) CHECK(strcmp(bad_structured.message, m.data) == 0);
    mcp_error_free(err);
    err = NULL;
  }

  mcp_client_free(g_client);
  mcp_http_server_free(http);
  mcp_server_free(server);
  mcp_runtime_free(rt);
  printf("faults: ok\n");
  return 0;
}
