/* A C MCP client: spawns the server given on its command line (tests/c/server.c) and calls every
 * kind of request, blocking and with completion callbacks, answering elicitation from another
 * thread; checks errors, timeouts and misuse. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"

static atomic_int registered;
static atomic_int finalized;
static atomic_int threads_running;

static void *tag(void) {
  int *p = malloc(sizeof *p);
  CHECK(p != NULL);
  *p = 7;
  atomic_fetch_add(&registered, 1);
  return p;
}

static void tag_free(void *p) {
  CHECK(*(int *)p == 7);
  free(p);
  atomic_fetch_add(&finalized, 1);
}

static atomic_int log_messages;

static void on_notification(void *ud, mcp_str method, mcp_str params) {
  CHECK(*(int *)ud == 7);
  if (strcmp(method.data, "notifications/message") == 0) {
    CHECK(view_has(params, "\"step\":1"));
    atomic_fetch_add(&log_messages, 1);
  }
}

static void *elicit_later(void *arg) {
  mcp_input_reply *reply = arg;
  OK(mcp_input_reply_result(reply, S("{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_input_reply_error(reply, -1, S("late")));
  mcp_input_reply_free(reply);
  atomic_fetch_sub(&threads_running, 1);
  return NULL;
}

static void on_elicit(void *ud, mcp_str params, mcp_input_reply *reply) {
  CHECK(*(int *)ud == 7);
  CHECK(view_has(params, "Your name?"));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_input_reply_result(reply, S("nope")));
  atomic_fetch_add(&threads_running, 1);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, elicit_later, reply) == 0);
  CHECK(pthread_detach(t) == 0);
}

static void on_roots(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  (void)params;
  OK(mcp_input_reply_result(reply, S("{\"roots\":[{\"uri\":\"file:///tmp\",\"name\":\"tmp\"}]}")));
  mcp_input_reply_free(reply);
}

static void on_sampling(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  (void)params;
  OK(mcp_input_reply_error(reply, -1, S("no model here")));
  mcp_input_reply_free(reply);
}

struct waiter {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  int ok;
  atomic_int progress;
};

static void on_progress(void *ud, double progress, bool has_total, double total, mcp_str message) {
  struct waiter *w = ud;
  CHECK(progress == 0.5 && has_total && total == 1.0);
  CHECK(strcmp(message.data, "halfway") == 0);
  atomic_fetch_add(&w->progress, 1);
}

static void on_done(void *ud, mcp_status status, mcp_string *result, mcp_error *error) {
  struct waiter *w = ud;
  int good = status == MCP_STATUS_OK && result != NULL && error == NULL && has(result, "done later");
  if (!good && error) dump_error("async", error);
  mcp_string_free(result);
  mcp_error_free(error);
  pthread_mutex_lock(&w->mu);
  w->done++;
  w->ok += good;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static void on_cancelled(void *ud, mcp_status status, mcp_string *result, mcp_error *error) {
  struct waiter *w = ud;
  int good = status == MCP_STATUS_CANCELLED && result == NULL &&
             mcp_error_status(error) == MCP_STATUS_CANCELLED;
  mcp_string_free(result);
  mcp_error_free(error);
  pthread_mutex_lock(&w->mu);
  w->done++;
  w->ok += good;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static mcp_string *call_tool_ok(mcp_client *c, const char *name, const char *args) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_call_tool(c, name, strlen(name), args, strlen(args), &out, &err);
  if (st != MCP_STATUS_OK) {
    dump_error(name, err);
    exit(1);
  }
  CHECK(err == NULL);
  return out;
}

int main(int argc, char **argv) {
  CHECK(argc >= 2);
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_client_builder *b = NULL;
  OK(mcp_client_builder_new(S("c-test-client"), S("1.0.0"), &b));
  OK(mcp_client_builder_set_timeout_ms(b, 20000));
  OK(mcp_client_builder_on_elicitation(b, on_elicit, tag(), tag_free));
  OK(mcp_client_builder_on_roots(b, on_roots, tag(), tag_free));
  OK(mcp_client_builder_on_sampling(b, on_sampling, tag(), tag_free));
  OK(mcp_client_builder_on_notification(b, on_notification, tag(), tag_free));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_log_level(b, 8));
  OK(mcp_client_builder_set_log_level(b, MCP_LOG_DEBUG));
  /* MCP_TEST_VERSION pins a protocol version (e.g. a legacy one: the initialize handshake). */
  const char *version = getenv("MCP_TEST_VERSION");
  if (version) OK(mcp_client_builder_set_protocol_version(b, version, strlen(version)));

  mcp_str args[16];
  size_t nargs = 0;
  for (int i = 2; i < argc && nargs < 16; i++, nargs++) {
    args[nargs].data = argv[i];
    args[nargs].len = strlen(argv[i]);
  }
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  /* The server's report ("server: clean exit") reaches our stderr, where the test script reads it. */
  OK(mcp_client_builder_set_child_stderr(b, MCP_CHILD_STDERR_FORWARD));
  mcp_status st =
      mcp_client_builder_connect_stdio(b, rt, argv[1], strlen(argv[1]), args, nargs, &c, &err);
  if (st != MCP_STATUS_OK) {
    dump_error("connect", err);
    return 1;
  }
  mcp_client *again = NULL;
  EXPECT(MCP_STATUS_ALREADY_USED,
         mcp_client_builder_connect_stdio(b, rt, argv[1], strlen(argv[1]), args, nargs, &again,
                                          NULL));
  CHECK(again == NULL);
  mcp_client_builder_free(b);

  mcp_string *out = NULL;
  OK(mcp_client_server_info(c, &out));
  CHECK(has(out, "c-test-server") && has(out, "A server written in C."));
  mcp_string_free(out);
  mcp_era era = mcp_client_era(c);
  CHECK(era == (version && strcmp(version, "2026-07-28") != 0 ? MCP_ERA_LEGACY : MCP_ERA_MODERN));
  if (version) {
    char expected[64];
    snprintf(expected, sizeof expected, "\"protocolVersion\":\"%s\"", version);
    OK(mcp_client_server_info(c, &out));
    CHECK(has(out, expected));
    mcp_string_free(out);
  }

  OK(mcp_client_list_tools(c, &out, NULL));
  CHECK(has(out, "\"echo\"") && has(out, "\"slow\"") && has(out, "\"ask\""));
  mcp_string_free(out);
  OK(mcp_client_list_resources(c, &out, NULL));
  CHECK(has(out, "test://static"));
  mcp_string_free(out);
  OK(mcp_client_list_resource_templates(c, &out, NULL));
  CHECK(has(out, "test://items/{id}"));
  mcp_string_free(out);
  OK(mcp_client_list_prompts(c, &out, NULL));
  CHECK(has(out, "greet"));
  mcp_string_free(out);

  /* Results, and what the handler saw. */
  out = call_tool_ok(c, "echo", "{\"x\":1}");
  CHECK(has(out, "\"x\":1") && has(out, "\"elicitation\""));
  mcp_string_free(out);
  out = call_tool_ok(c, "say", "{\"text\":\"\\u00e9 \\\"quoted\\\"\\n\",\"n\":1}");
  CHECK(has(out, "\"content\":[{\"text\":\"\xc3\xa9 \\\"quoted\\\"\\n\",\"type\":\"text\"}]"));
  CHECK(!has(out, "isError"));
  mcp_string_free(out);
  out = call_tool_ok(c, "fail", "{}");
  CHECK(has(out, "\"isError\":true") && has(out, "it failed"));
  mcp_string_free(out);
  out = call_tool_ok(c, "ask", "{}");
  CHECK(has(out, "Ada"));
  mcp_string_free(out);
  out = call_tool_ok(c, "slow", "{}");
  CHECK(has(out, "done later"));
  mcp_string_free(out);

  /* Tools added and removed while serving. */
  mcp_string_free(call_tool_ok(c, "grow", "{}"));
  OK(mcp_client_list_tools(c, &out, NULL));
  CHECK(has(out, "\"extra\""));
  mcp_string_free(out);
  out = call_tool_ok(c, "extra", "{}");
  CHECK(has(out, "it failed"));
  mcp_string_free(out);
  mcp_string_free(call_tool_ok(c, "shrink", "{}"));
  OK(mcp_client_list_tools(c, &out, NULL));
  CHECK(!has(out, "\"extra\""));
  mcp_string_free(out);

  /* Protocol errors keep code, message and data. */
  out = NULL;
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_call_tool(c, S("rpc_fail"), NULL, 0, &out, &err));
  CHECK(out == NULL);
  CHECK(mcp_error_status(err) == MCP_STATUS_RPC_ERROR);
  CHECK(mcp_error_code(err) == -32001);
  CHECK(strcmp(mcp_error_message(err).data, "nope") == 0);
  CHECK(view_has(mcp_error_data(err), "\"why\""));
  mcp_error_free(err);
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_call_tool(c, S("drop"), NULL, 0, &out, &err));
  CHECK(mcp_error_code(err) == -32603);
  mcp_error_free(err);
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_read_resource(c, S("test://missing"), &out, &err));
  mcp_error_free(err);

  /* Resources, templates, prompts, completion. */
  OK(mcp_client_read_resource(c, S("test://static"), &out, NULL));
  CHECK(has(out, "hello resource"));
  mcp_string_free(out);
  OK(mcp_client_read_resource(c, S("test://items/42"), &out, NULL));
  CHECK(has(out, "test://items/42") && has(out, "item from template"));
  mcp_string_free(out);
  OK(mcp_client_get_prompt(c, S("greet"), S("{\"who\":\"C\"}"), &out, NULL));
  CHECK(has(out, "hi there"));
  mcp_string_free(out);
  OK(mcp_client_complete(c, S("{\"type\":\"ref/prompt\",\"name\":\"greet\"}"), S("who"), S("a"),
                         &out, NULL));
  CHECK(has(out, "alpha"));
  mcp_string_free(out);

  /* A raw call with a short timeout. */
  EXPECT(MCP_STATUS_TIMEOUT,
         mcp_client_call(c, S("tools/call"), S("{\"name\":\"hang\"}"), 100, &out, &err));
  CHECK(mcp_error_status(err) == MCP_STATUS_TIMEOUT);
  mcp_error_free(err);
  OK(mcp_client_call(c, S("tools/call"), S("{\"name\":\"echo\",\"arguments\":{\"y\":2}}"), 0, &out,
                     NULL));
  CHECK(has(out, "\"y\":2"));
  mcp_string_free(out);

  /* Completion callbacks, several in flight, answered by server threads. */
  struct waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    OK(mcp_client_call_async(c, S("tools/call"), S("{\"name\":\"slow\"}"), 0,
                             i % 2 ? on_progress : NULL, on_done, &w, NULL));
  }
  pthread_mutex_lock(&w.mu);
  while (w.done < 4) pthread_cond_wait(&w.cv, &w.mu);
  pthread_mutex_unlock(&w.mu);
  CHECK(w.ok == 4);
  CHECK(atomic_load(&w.progress) == 2); /* only the calls that asked for progress */

  /* Cancelling a call in flight. */
  struct waiter wc = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  mcp_call *call = NULL;
  OK(mcp_client_call_async(c, S("tools/call"), S("{\"name\":\"hang\"}"), 0, NULL, on_cancelled,
                           &wc, &call));
  CHECK(call != NULL);
  OK(mcp_call_cancel(call));
  OK(mcp_call_cancel(call));
  mcp_call_free(call);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_call_cancel(NULL));
  mcp_call_free(NULL);
  pthread_mutex_lock(&wc.mu);
  while (wc.done < 1) pthread_cond_wait(&wc.cv, &wc.mu);
  pthread_mutex_unlock(&wc.mu);
  CHECK(wc.ok == 1);
  CHECK(atomic_load(&log_messages) >= 5); /* one per "slow" call, sent from server threads */

  /* Misuse. */
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_call_tool(NULL, S("echo"), NULL, 0, &out, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_call_tool(c, S("echo"), NULL, 0, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_call_tool(c, NULL, 4, NULL, 0, &out, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_client_call_tool(c, S("\xc3\x28"), NULL, 0, &out, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_client_call_tool(c, S("echo"), S("{"), &out, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_call_async(c, S("tools/call"), NULL, 0, 0, NULL, NULL, NULL, NULL));

  OK(mcp_client_close(c));
  EXPECT(MCP_STATUS_TRANSPORT, mcp_client_call_tool(c, S("echo"), NULL, 0, &out, &err));
  mcp_error_free(err);
  mcp_client_free(c);
  while (atomic_load(&threads_running) > 0) {
    struct timespec ts = {0, 10000000L};
    nanosleep(&ts, NULL);
  }
  mcp_runtime_free(rt);
  if (atomic_load(&finalized) != atomic_load(&registered)) {
    fprintf(stderr, "client: %d userdata registered, %d finalized\n", atomic_load(&registered),
            atomic_load(&finalized));
    return 3;
  }
  printf("client: all checks passed\n");
  return 0;
}
