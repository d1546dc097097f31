/* A C MCP server over stdio exercising every handler kind and every responder path: answers now,
 * answers later from another thread, text answers, tool errors, protocol errors, dropped responders, input
 * requests (MRTR), progress and log. Exits non-zero if any userdata finalizer ran other than once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"

static atomic_int registered;
static atomic_int finalized;
static atomic_int threads_running;

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Userdata is a heap tag so leaks and double frees show up under ASan and valgrind. */
static void *tag(void) {
  int *p = malloc(sizeof *p);
  CHECK(p != NULL);
  *p = 42;
  atomic_fetch_add(&registered, 1);
  return p;
}

static void tag_free(void *p) {
  CHECK(*(int *)p == 42);
  free(p);
  atomic_fetch_add(&finalized, 1);
}

static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  const char *version = getenv("MCP_TEST_VERSION");
  if (version) CHECK(strcmp(mcp_request_protocol_version(req).data, version) == 0);
  CHECK(*(int *)ud == 42);
  CHECK(mcp_responder_request(r) == req);
  mcp_str args = mcp_request_arguments(req);
  mcp_str caps = mcp_request_client_capabilities(req);
  mcp_str method = mcp_request_method(req);
  CHECK(strcmp(method.data, "tools/call") == 0);
  CHECK(strcmp(mcp_request_name(req).data, "echo") == 0);
  CHECK(mcp_request_protocol_version(req).len > 0);
  mcp_str meta = mcp_request_meta(req);
  char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
           "\"structuredContent\":{\"args\":%s,\"caps\":%s,\"era\":%d,\"meta\":%s}}",
           args.data, caps.data, (int)mcp_request_era(req), meta.len ? meta.data : "null");
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_responder_result(r, S("{not json")));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_responder_result(r, S("[1]")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_responder_tool_error(r, S("\xff\xfe")));
  OK(mcp_responder_result(r, buf, strlen(buf)));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_result(r, S("{}")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_tool_error(r, S("again")));
  bool sent = true;
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_progress(r, 1, false, 0, NULL, 0, &sent));
  mcp_responder_free(r);
}

/* The fast paths: a string argument read by name, answered as one text block. */
static void say(void *ud, const mcp_request *req, mcp_responder *r) {
  CHECK(*(int *)ud == 42);
  mcp_str text = {NULL, 0};
  EXPECT(MCP_STATUS_NOT_FOUND, mcp_request_argument_string(req, S("missing"), &text));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_request_argument_string(req, S("n"), &text));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_request_argument_string(req, S("text"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_request_argument_string(NULL, S("text"), &text));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_request_argument_string(req, S("\xff"), &text));
  OK(mcp_request_argument_string(req, S("text"), &text));
  static const char expected[] = "\xc3\xa9 \"quoted\"\n";
  CHECK(text.len == sizeof expected - 1 && memcmp(text.data, expected, text.len) == 0);
  CHECK(text.data[text.len] == '\0');
  mcp_str again = {NULL, 0};
  OK(mcp_request_argument_string(req, S("text"), &again));
  CHECK(again.data == text.data && again.len == text.len);
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_responder_text(r, S("\xff\xfe")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_responder_text(r, NULL, 3));
  OK(mcp_responder_text(r, text.data, text.len));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_text(r, S("again")));
  /* The view stays valid until the responder is freed. */
  CHECK(memcmp(text.data, expected, text.len) == 0);
  mcp_responder_free(r);
}

struct later {
  mcp_responder *r;
  long delay_ms;
};

/* Answers from a thread the library does not know, after a delay. */
static void *answer_later(void *arg) {
  struct later *l = arg;
  sleep_ms(l->delay_ms);
  bool sent = false;
  OK(mcp_responder_progress(l->r, 0.5, true, 1.0, S("halfway"), &sent));
  OK(mcp_responder_log(l->r, MCP_LOG_INFO, S("slow"), S("{\"step\":1}"), &sent));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_responder_log(l->r, 99, NULL, 0, S("1"), NULL));
  (void)mcp_responder_is_cancelled(l->r);
  OK(mcp_responder_result(
      l->r, S("{\"content\":[{\"type\":\"text\",\"text\":\"done later\"}]}")));
  mcp_responder_free(l->r);
  free(l);
  atomic_fetch_sub(&threads_running, 1);
  return NULL;
}

static void spawn_later(mcp_responder *r, long delay_ms) {
  struct later *l = malloc(sizeof *l);
  CHECK(l != NULL);
  l->r = r;
  l->delay_ms = delay_ms;
  atomic_fetch_add(&threads_running, 1);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, answer_later, l) == 0);
  CHECK(pthread_detach(t) == 0);
}

static void slow(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  spawn_later(r, 50);
}

static void hang(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  spawn_later(r, 600);
}

static void fail(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  OK(mcp_responder_tool_error(r, S("it failed")));
  mcp_responder_free(r);
}

static void rpc_fail(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_responder_error(r, -32001, S("nope"), S("{bad")));
  OK(mcp_responder_error(r, -32001, S("nope"), S("{\"why\":\"test\"}")));
  mcp_responder_free(r);
}

static void dropper(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder_free(r); /* unanswered: the client gets an internal error */
}

/* The form `ask` sends, and checks its answer against. */
#define NAME_FORM "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}"

static void ask(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_str answers = mcp_request_input_responses(req);
  if (answers.len == 0) {
    OK(mcp_responder_input_required(
        r,
        S("{\"name\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
          "\"message\":\"Your name?\",\"requestedSchema\":" NAME_FORM "}}}"),
        S("round-1")));
  } else {
    CHECK(strcmp(mcp_request_state(req).data, "round-1") == 0);
    /* Legacy: the engine asked the client itself and calls again (round 1); modern: the client
     * retried with a new request (round 0). */
    CHECK(mcp_request_round(req) == (mcp_request_era(req) == MCP_ERA_LEGACY ? 1u : 0u));
    /* The answer checked against the schema asked with; against another one it is -32602. */
    mcp_string *checked = NULL;
    mcp_error *err = NULL;
    OK(mcp_request_elicitation_answer(req, S("name"), S(NAME_FORM), &checked, &err));
    CHECK(strstr(mcp_string_data(checked), "\"Ada\"") != NULL && err == NULL);
    mcp_string_free(checked);
    checked = NULL;
    EXPECT(MCP_STATUS_RPC_ERROR,
           mcp_request_elicitation_answer(
               req, S("name"),
               S("{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"integer\"}}}"),
               &checked, &err));
    CHECK(checked == NULL && mcp_error_code(err) == -32602);
    CHECK(strstr(mcp_error_message(err).data, "\"name\"") != NULL);
    mcp_error_free(err);
    err = NULL;
    EXPECT(MCP_STATUS_RPC_ERROR, mcp_request_elicitation_answer(req, S("name"),
                                                                S("{\"type\":\"nope\"}"),
                                                                &checked, &err));
    CHECK(mcp_error_code(err) == -32603);
    mcp_error_free(err);
    EXPECT(MCP_STATUS_NOT_FOUND,
           mcp_request_elicitation_answer(req, S("other"), S(NAME_FORM), &checked, NULL));
    EXPECT(MCP_STATUS_INVALID_JSON,
           mcp_request_elicitation_answer(req, S("name"), S("{"), &checked, NULL));
    EXPECT(MCP_STATUS_NULL_PARAMETER,
           mcp_request_elicitation_answer(req, S("name"), S(NAME_FORM), NULL, NULL));
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"content\":[{\"type\":\"text\",\"text\":\"answered\"}],"
             "\"structuredContent\":{\"answers\":%s}}",
             answers.data);
    OK(mcp_responder_result(r, buf, strlen(buf)));
  }
  mcp_responder_free(r);
}

static void resource(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  CHECK(strcmp(mcp_request_uri(req).data, "test://static") == 0);
  OK(mcp_responder_result(
      r, S("{\"contents\":[{\"uri\":\"test://static\",\"text\":\"hello resource\"}]}")));
  mcp_responder_free(r);
}

static void template_read(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  char buf[1024];
  mcp_str uri = mcp_request_uri(req);
  snprintf(buf, sizeof buf, "{\"contents\":[{\"uri\":\"%s\",\"text\":\"item from template\"}]}",
           uri.data);
  OK(mcp_responder_result(r, buf, strlen(buf)));
  mcp_responder_free(r);
}

static void prompt(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  CHECK(view_has(mcp_request_arguments(req), "\"who\""));
  OK(mcp_responder_result(
      r, S("{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi "
           "there\"}}]}")));
  mcp_responder_free(r);
}

static void complete(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  CHECK(view_has(mcp_request_params(req), "ref/prompt"));
  OK(mcp_responder_result(
      r, S("{\"completion\":{\"values\":[\"alpha\",\"beta\"],\"total\":2,\"hasMore\":false}}")));
  mcp_responder_free(r);
}

#define TOOL(name) "{\"name\":\"" name "\",\"inputSchema\":{\"type\":\"object\"}}"

static mcp_server *g_server;

/* Adds a tool while serving, from a handler. */
static void grow(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_error *err = NULL;
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_server_add_tool(g_server, S("{\"name\":\"bad name!\"}"), fail, tag(), tag_free, &err));
  CHECK(view_has(mcp_error_message(err), "bad name!"));
  mcp_error_free(err);
  OK(mcp_server_add_tool(g_server, S(TOOL("extra")), fail, tag(), tag_free, NULL));
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void shrink(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  bool removed = false;
  OK(mcp_server_remove_tool(g_server, S("extra"), &removed));
  CHECK(removed);
  OK(mcp_server_remove_tool(g_server, S("extra"), &removed));
  CHECK(!removed);
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server_builder *b = NULL;
  OK(mcp_server_builder_new(S("c-test-server"), S("1.0.0"), &b));
  OK(mcp_server_builder_instructions(b, S("A server written in C.")));
  OK(mcp_server_builder_add_tool(b, S(TOOL("echo")), echo, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("say")), say, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("slow")), slow, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("hang")), hang, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("fail")), fail, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("rpc_fail")), rpc_fail, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("drop")), dropper, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("ask")), ask, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("grow")), grow, tag(), tag_free));
  OK(mcp_server_builder_add_tool(b, S(TOOL("shrink")), shrink, tag(), tag_free));
  OK(mcp_server_builder_add_resource(b, S("{\"uri\":\"test://static\",\"name\":\"static\"}"),
                                     resource, tag(), tag_free));
  OK(mcp_server_builder_add_template(
      b, S("{\"uriTemplate\":\"test://items/{id}\",\"name\":\"items\"}"), template_read, tag(),
      tag_free));
  OK(mcp_server_builder_add_prompt(
      b, S("{\"name\":\"greet\",\"arguments\":[{\"name\":\"who\"}]}"), prompt, tag(), tag_free));
  OK(mcp_server_builder_set_completion(b, complete, tag(), tag_free));
  mcp_server *server = NULL;
  OK(mcp_server_builder_build(b, &server, NULL));
  mcp_server_builder_free(b);

  mcp_serve *serve = NULL;
  g_server = server;
  OK(mcp_server_serve_stdio(server, rt, &serve));
  mcp_error *err = NULL;
  mcp_status st = mcp_serve_wait(serve, &err);
  if (st != MCP_STATUS_OK) {
    dump_error("serve", err);
    mcp_error_free(err);
    return 2;
  }
  mcp_serve_free(serve);
  mcp_server_free(server);
  while (atomic_load(&threads_running) > 0) sleep_ms(10);
  mcp_runtime_free(rt);
  if (atomic_load(&finalized) != atomic_load(&registered)) {
    fprintf(stderr, "server: %d userdata registered, %d finalized\n", atomic_load(&registered),
            atomic_load(&finalized));
    return 3;
  }
  fprintf(stderr, "server: clean exit\n");
  return 0;
}
