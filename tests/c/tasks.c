/* Tasks through the C ABI, HTTP in one process, both eras: tools opting in with
 * execution.taskSupport whose handlers start the task (mcp_responder_start_task) and answer later
 * from their own threads; a client calling them as tasks and following them (get, result blocking
 * and with a callback, cancel, list at 2025-11-25, a subscription to its status changes), input
 * inside a task, a failed task, a sync-only tool answered at once, and misuse (NULLs, unknown ids,
 * a start after the answer, bad config).
 * Every userdata finalizer must run exactly once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"
#include "clock.h"

static atomic_int finalized;
static atomic_int handed_out;
static atomic_int workers;

static void count_free(void *p) {
  (void)p;
  atomic_fetch_add(&finalized, 1);
}

/* Waits up to 30 s for `*v` to reach `want`. */
static int await_at_least(atomic_int *v, int want) {
  for (int i = 0; i < 3000 && atomic_load(v) < want; i++) sleep_ms(10);
  return atomic_load(v) >= want;
}

static void text(mcp_responder *r, const char *t) {
  mcp_string *quoted = NULL;
  OK(mcp_json_quote(t, strlen(t), &quoted));
  char buf[256];
  snprintf(buf, sizeof buf, "{\"content\":[{\"type\":\"text\",\"text\":%s}]}", mcp_string_data(quoted));
  mcp_string_free(quoted);
  mcp_error *err = NULL;
  mcp_status st = mcp_responder_result_checked(r, buf, strlen(buf), &err);
  if (st != MCP_STATUS_OK) dump_error(t, err);
  EXPECT(MCP_STATUS_OK, st);
}

/* sleepy: a task that waits `ms` milliseconds on a thread of its own, or until cancelled. */
static void *sleepy_worker(void *arg) {
  mcp_responder *r = arg;
  mcp_str args = mcp_request_arguments(mcp_responder_request(r));
  int64_t ms = 0;
  OK(mcp_json_get_int64(args.data, args.len, S("/ms"), &ms));
  for (int64_t waited = 0; waited < ms && !mcp_responder_is_cancelled(r); waited += 5) sleep_ms(5);
  if (mcp_responder_is_cancelled(r)) {
    OK(mcp_responder_tool_error(r, S("cancelled")));
  } else {
    text(r, "slept");
  }
  mcp_responder_free(r);
  atomic_fetch_sub(&workers, 1);
  return NULL;
}

static void sleepy(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  CHECK(mcp_request_task_id(q).len == 0);
  bool can = mcp_request_can_run_as_task(q);
  bool started = false;
  OK(mcp_responder_start_task(r, &started));
  CHECK(started == can);
  CHECK(started && mcp_request_task_id(q).len == 32);
  pthread_t t;
  atomic_fetch_add(&workers, 1);
  CHECK(pthread_create(&t, NULL, sleepy_worker, r) == 0);
  pthread_detach(t);
}

/* confirm: asks inside the task, then reports the answer. */
static void confirm(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  bool started = false;
  OK(mcp_responder_start_task(r, &started));
  CHECK(started);
  mcp_str answers = mcp_request_input_responses(q);
  if (answers.len == 0) {
    OK(mcp_responder_input_required(
        r,
        S("{\"ok\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Sure?\","
          "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}}}}}}"),
        NULL, 0));
  } else {
    bool ok = false;
    OK(mcp_json_get_bool(answers.data, answers.len, S("/ok/content/ok"), &ok));
    text(r, ok ? "confirmed" : "refused");
  }
  mcp_responder_free(r);
}

/* fails: a task that ends with a protocol error. */
static void fails(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  (void)q;
  OK(mcp_responder_start_task(r, NULL));
  OK(mcp_responder_error(r, -32603, S("broken"), NULL, 0));
  mcp_responder_free(r);
}

/* plain: no task support; starting one is a no-op, and after the answer a misuse. */
static void plain(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  CHECK(!mcp_request_can_run_as_task(q));
  bool started = true;
  OK(mcp_responder_start_task(r, &started));
  CHECK(!started);
  text(r, "at once");
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_start_task(r, &started));
  mcp_responder_free(r);
}

static void elicit(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  CHECK(view_has(params, "Sure?"));
  OK(mcp_input_reply_result(reply, S("{\"action\":\"accept\",\"content\":{\"ok\":true}}")));
  mcp_input_reply_free(reply);
}

static atomic_int status_notes;

static void on_note(void *ud, mcp_str method, mcp_str params) {
  (void)ud;
  (void)params;
  if (method.len == strlen("notifications/tasks/status") && memcmp(method.data, "notifications/tasks/status", method.len) == 0)
    atomic_fetch_add(&status_notes, 1);
}

/* A subscription naming one task: its completion arrives as notifications/tasks (modern) or
 * notifications/tasks/status (2025-11-25); `ud` points to the era's legacy flag. */
static atomic_int task_notes;
static atomic_int task_subs_ended;

static void on_task_note(void *ud, mcp_str method, mcp_str params) {
  int legacy = *(const int *)ud;
  if (method.len == 0) {
    atomic_fetch_add(&task_subs_ended, 1);
    return;
  }
  const char *want = legacy ? "notifications/tasks/status" : "notifications/tasks";
  CHECK(method.len == strlen(want) && memcmp(method.data, want, method.len) == 0);
  CHECK(view_has(params, "\"completed\""));
  atomic_fetch_add(&task_notes, 1);
}

/* The taskId of a `{"task": ...}` answer (the caller frees it). */
static mcp_string *task_id_of(const mcp_string *created) {
  mcp_string *id = NULL;
  OK(mcp_json_get_string(mcp_string_data(created), mcp_string_len(created), S("/task/taskId"), &id));
  return id;
}

static mcp_string *create(mcp_client *c, const char *tool, const char *args) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_call_tool_as_task(c, tool, strlen(tool), args, strlen(args), &out, &err);
  if (st != MCP_STATUS_OK) dump_error(tool, err);
  EXPECT(MCP_STATUS_OK, st);
  CHECK(has(out, "\"task\"") && has(out, "\"working\""));
  mcp_string *id = task_id_of(out);
  mcp_string_free(out);
  return id;
}

static atomic_int async_done;
static atomic_int async_status;

static void on_result(void *ud, mcp_status st, mcp_string *result, mcp_error *error) {
  CHECK(*(int *)ud == 7);
  CHECK(st != MCP_STATUS_OK || has(result, "slept"));
  atomic_store(&async_status, (int)st);
  mcp_string_free(result);
  mcp_error_free(error);
  atomic_fetch_add(&async_done, 1);
}

static void exercise(mcp_runtime *rt, const char *url, const char *version, int legacy) {
  mcp_client_builder *b = NULL;
  mcp_client_config *cfg = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  mcp_string *out = NULL;
  OK(mcp_client_builder_new(S("tasks-test"), S("1.0"), &b));
  OK(mcp_client_config_new(&cfg));
  OK(mcp_client_config_set_version(cfg, version, strlen(version)));
  OK(mcp_client_builder_set_config(b, cfg));
  mcp_client_config_free(cfg);
  OK(mcp_client_builder_on_elicitation(b, elicit, NULL, count_free));
  OK(mcp_client_builder_on_notification(b, on_note, NULL, count_free));
  atomic_fetch_add(&handed_out, 2);
  OK(mcp_client_builder_connect_http(b, rt, url, strlen(url), NULL, 0, &c, &err));
  mcp_client_builder_free(b);
  CHECK(mcp_client_era(c) == (legacy ? MCP_ERA_LEGACY : MCP_ERA_MODERN));

  /* Created, followed to its end, then read back. */
  mcp_string *id = create(c, "sleepy", "{\"ms\":30}");
  OK(mcp_client_task_result(c, mcp_string_data(id), mcp_string_len(id), &out, &err));
  CHECK(has(out, "slept"));
  mcp_string_free(out);
  OK(mcp_client_get_task(c, mcp_string_data(id), mcp_string_len(id), &out, &err));
  CHECK(has(out, "\"completed\""));
  mcp_string_free(out);

  /* 2025-11-25: listed, and its status changes were announced on the session. */
  if (legacy) {
    OK(mcp_client_list_tasks(c, NULL, 0, &out, &err));
    CHECK(has(out, mcp_string_data(id)));
    mcp_string_free(out);
    CHECK(await_at_least(&status_notes, 1));
  }
  mcp_string_free(id);

  /* Its status changes pushed to a subscription naming it. */
  static const int eras[2] = {0, 1};
  id = create(c, "sleepy", "{\"ms\":300}");
  char filter[160];
  snprintf(filter, sizeof filter, "{\"taskIds\":[\"%s\"]}", mcp_string_data(id));
  mcp_subscription *sub = NULL;
  mcp_string *ack = NULL;
  int notes_before = atomic_load(&task_notes);
  int ended_before = atomic_load(&task_subs_ended);
  atomic_fetch_add(&handed_out, 1);
  OK(mcp_client_subscribe(c, filter, strlen(filter), on_task_note, (void *)&eras[legacy], count_free, &sub, &ack, &err));
  CHECK(has(ack, "taskIds") && has(ack, mcp_string_data(id)));
  mcp_string_free(ack);
  CHECK(await_at_least(&task_notes, notes_before + 1));
  mcp_subscription_free(sub);
  CHECK(atomic_load(&task_subs_ended) == ended_before + 1);
  mcp_string_free(id);

  /* Input inside the task, answered by the elicitation handler. */
  id = create(c, "confirm", "{}");
  OK(mcp_client_task_result(c, mcp_string_data(id), mcp_string_len(id), &out, &err));
  CHECK(has(out, "confirmed"));
  mcp_string_free(out);
  mcp_string_free(id);

  /* A failed task is its JSON-RPC error. */
  id = create(c, "fails", "{}");
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_task_result(c, mcp_string_data(id), mcp_string_len(id), &out, &err));
  CHECK(mcp_error_code(err) == -32603 && view_has(mcp_error_message(err), "broken"));
  mcp_error_free(err);
  err = NULL;
  mcp_string_free(id);

  /* A tool without task support is answered at once. */
  OK(mcp_client_call_tool_as_task(c, S("plain"), NULL, 0, &out, &err));
  CHECK(has(out, "\"result\"") && has(out, "at once"));
  mcp_string_free(out);

  /* The result through a callback; userdata finalized after it. */
  static int seven = 7;
  id = create(c, "sleepy", "{\"ms\":10}");
  mcp_call *call = NULL;
  int before = atomic_load(&async_done);
  atomic_fetch_add(&handed_out, 1);
  OK(mcp_client_task_result_async(c, mcp_string_data(id), mcp_string_len(id), on_result, &seven, count_free, &call));
  CHECK(await_at_least(&async_done, before + 1));
  CHECK(atomic_load(&async_status) == MCP_STATUS_OK);
  mcp_call_free(call);
  mcp_string_free(id);

  /* Cancelled while working: the status says so, and the result is an error. */
  id = create(c, "sleepy", "{\"ms\":600000}");
  OK(mcp_client_cancel_task(c, mcp_string_data(id), mcp_string_len(id), &err));
  OK(mcp_client_get_task(c, mcp_string_data(id), mcp_string_len(id), &out, &err));
  CHECK(has(out, "\"cancelled\""));
  mcp_string_free(out);
  mcp_status st = mcp_client_task_result(c, mcp_string_data(id), mcp_string_len(id), &out, &err);
  CHECK(st == (legacy ? MCP_STATUS_RPC_ERROR : MCP_STATUS_CANCELLED));
  mcp_error_free(err);
  err = NULL;
  mcp_string_free(id);

  /* Misuse. */
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_get_task(c, S("nope"), &out, &err));
  CHECK(mcp_error_code(err) == -32602);
  mcp_error_free(err);
  err = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_get_task(NULL, S("nope"), &out, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_get_task(c, S("nope"), NULL, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_client_cancel_task(c, "\xff", 1, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_client_call_tool_as_task(c, S("sleepy"), S("{"), &out, NULL));
  atomic_fetch_add(&handed_out, 1);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_task_result_async(c, S("x"), NULL, NULL, count_free, NULL));

  OK(mcp_client_close(c));
  mcp_client_free(c);
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server_builder *b = NULL;
  mcp_server_config *sc = NULL;
  mcp_error *err = NULL;
  mcp_server *server = NULL;
  OK(mcp_server_builder_new(S("tasks-test-server"), S("1.0"), &b));
  OK(mcp_server_config_new(&sc));
  OK(mcp_server_config_set_task_poll_interval_ms(sc, 10));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_task_poll_interval_ms(sc, 0));
  OK(mcp_server_config_set_task_ttl_ms(sc, 60000));
  OK(mcp_server_config_set_task_ttl_ms(sc, 0));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_config_set_task_ttl_ms(NULL, 1));
  OK(mcp_server_builder_set_config(b, sc));
  mcp_server_config_free(sc);
#define TASK_TOOL(n, s) "{\"name\":\"" n "\",\"inputSchema\":{\"type\":\"object\"},\"execution\":{\"taskSupport\":\"" s "\"}}"
  OK(mcp_server_builder_add_tool(b, S(TASK_TOOL("sleepy", "optional")), sleepy, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TASK_TOOL("confirm", "required")), confirm, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S(TASK_TOOL("fails", "optional")), fails, NULL, count_free));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"plain\",\"inputSchema\":{\"type\":\"object\"}}"), plain, NULL, count_free));
  atomic_fetch_add(&handed_out, 4);
  OK(mcp_server_builder_build(b, &server, &err));
  mcp_server_builder_free(b);
  CHECK(mcp_request_task_id(NULL).len == 0 && !mcp_request_can_run_as_task(NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_responder_start_task(NULL, NULL));

  mcp_http_server_config *hc = NULL;
  mcp_http_server *http = NULL;
  OK(mcp_http_server_config_new(&hc));
  OK(mcp_http_server_config_set_bind(hc, S("127.0.0.1:0")));
  OK(mcp_server_serve_http(server, rt, hc, &http, &err));
  mcp_http_server_config_free(hc);
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%u/mcp", (unsigned)mcp_http_server_port(http));

  exercise(rt, url, "2026-07-28", 0);
  exercise(rt, url, "2025-11-25", 1);

  /* Every worker thread answered and freed its responder. */
  for (int i = 0; i < 3000 && atomic_load(&workers) > 0; i++) sleep_ms(10);
  CHECK(atomic_load(&workers) == 0);
  OK(mcp_http_server_stop(http));
  mcp_http_server_free(http);
  mcp_server_free(server);
  mcp_runtime_free(rt);
  if (atomic_load(&finalized) != atomic_load(&handed_out)) {
    fprintf(stderr, "finalized %d userdata, expected %d\n", atomic_load(&finalized), atomic_load(&handed_out));
    return 1;
  }
  printf("tasks: ok\n");
  return 0;
}
