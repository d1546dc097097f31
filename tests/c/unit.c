/* Lifecycles and misuse without a peer: version, strings, errors, runtime, builders, userdata
 * finalizers on every path, and stopping a stdio serve from another thread. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static atomic_int finalized;

static void count_free(void *p) {
  free(p);
  atomic_fetch_add(&finalized, 1);
}

static void *tag(void) {
  void *p = malloc(16);
  CHECK(p != NULL);
  return p;
}

static void never(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder_free(r);
}

static void never_input(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  (void)params;
  mcp_input_reply_free(reply);
}

static void *stop_later(void *arg) {
  struct timespec ts = {0, 50000000L};
  nanosleep(&ts, NULL);
  OK(mcp_serve_stop(arg));
  OK(mcp_serve_stop(arg)); /* idempotent */
  return NULL;
}

#define TOOL "{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}"

int main(void) {
  /* Version: header macros and library agree. */
  CHECK(strcmp(mcp_version(), MCP_VERSION_STRING) == 0);
  CHECK(strlen(mcp_status_describe(MCP_STATUS_PANIC)) > 0);

  /* NULL handles are ignored by free functions and reported by the rest. */
  mcp_string_free(NULL);
  mcp_error_free(NULL);
  mcp_runtime_free(NULL);
  mcp_server_builder_free(NULL);
  mcp_server_free(NULL);
  mcp_serve_free(NULL);
  mcp_client_builder_free(NULL);
  mcp_client_free(NULL);
  mcp_responder_free(NULL);
  mcp_input_reply_free(NULL);
  CHECK(mcp_string_len(NULL) == 0 && strcmp(mcp_string_data(NULL), "") == 0);
  CHECK(mcp_error_code(NULL) == 0 && mcp_error_message(NULL).len == 0);
  CHECK(mcp_request_method(NULL).len == 0 && mcp_responder_request(NULL) == NULL);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_error_status(NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_runtime_new(1, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_serve_stop(NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_close(NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_responder_result(NULL, S("{}")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_input_reply_result(NULL, S("{}")));

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(0, &rt));

  /* Server builder: misuse, then every userdata finalized exactly once on every path. */
  mcp_server_builder *b = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_new(NULL, 3, S("1"), &b));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_server_builder_new(S("\xff"), S("1"), &b));
  CHECK(b == NULL);
  OK(mcp_server_builder_new(S("unit"), S("1"), &b));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_server_builder_add_tool(b, S("{"), never, tag(), count_free));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_server_builder_add_tool(b, S("[]"), never, tag(), count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_server_builder_add_tool(NULL, S(TOOL), never, tag(), count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_add_tool(b, S(TOOL), NULL, tag(), count_free));
  CHECK(atomic_load(&finalized) == 4);
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"bad name!\"}"), never, tag(), count_free));
  OK(mcp_server_builder_set_completion(b, never, tag(), count_free));
  OK(mcp_server_builder_set_completion(b, never, tag(), count_free)); /* replaces the first */
  /* The rejected tool's handler and the replaced completion handler are already finalized. */
  CHECK(atomic_load(&finalized) == 6);
  mcp_server *server = NULL;
  mcp_error *err = NULL;
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_builder_build(b, &server, &err));
  CHECK(server == NULL);
  CHECK(mcp_error_status(err) == MCP_STATUS_INVALID_ARGUMENT);
  CHECK(view_has(mcp_error_message(err), "bad name!"));
  CHECK(mcp_error_data(err).len == 0);
  mcp_error_free(err);
  CHECK(atomic_load(&finalized) == 7);
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_build(b, &server, NULL));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_add_tool(b, S(TOOL), never, tag(), count_free));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_instructions(b, S("x")));
  CHECK(atomic_load(&finalized) == 8);
  mcp_server_builder_free(b);

  /* A builder freed unbuilt finalizes its handlers. */
  OK(mcp_server_builder_new(S("unit"), S("1"), &b));
  OK(mcp_server_builder_add_tool(b, S(TOOL), never, tag(), count_free));
  OK(mcp_server_builder_add_prompt(b, S("{\"name\":\"p\"}"), never, tag(), count_free));
  mcp_server_builder_free(b);
  CHECK(atomic_load(&finalized) == 10);

  /* Serving stdio, stopped from another thread (stdin is a pipe nobody writes to). */
  int fds[2];
  CHECK(pipe(fds) == 0);
  int saved_stdin = dup(0);
  CHECK(dup2(fds[0], 0) == 0);
  OK(mcp_server_builder_new(S("unit"), S("1"), &b));
  OK(mcp_server_builder_add_tool(b, S(TOOL), never, tag(), count_free));
  OK(mcp_server_builder_add_resource(b, S("{\"uri\":\"a://b\",\"name\":\"b\"}"), never, tag(),
                                     count_free));
  OK(mcp_server_builder_add_template(b, S("{\"uriTemplate\":\"a://{x}\",\"name\":\"x\"}"), never,
                                     tag(), count_free));
  OK(mcp_server_builder_build(b, &server, NULL));
  mcp_server_builder_free(b);
  mcp_serve *serve = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_serve_stdio(server, NULL, &serve));
  OK(mcp_server_serve_stdio(server, rt, &serve));
  pthread_t t;
  CHECK(pthread_create(&t, NULL, stop_later, serve) == 0);
  OK(mcp_serve_wait(serve, NULL));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_serve_wait(serve, NULL));
  CHECK(pthread_join(t, NULL) == 0);
  mcp_serve_free(serve);
  CHECK(atomic_load(&finalized) == 10);
  mcp_server_free(server);
  CHECK(atomic_load(&finalized) == 13);
  CHECK(dup2(saved_stdin, 0) == 0);
  close(saved_stdin);
  close(fds[0]);
  close(fds[1]);

  /* Client builder: misuse, finalizers, a spawn that fails. */
  mcp_client_builder *cb = NULL;
  OK(mcp_client_builder_new(S("unit"), S("1"), &cb));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_timeout_ms(cb, 0));
  /* The rules of mcp_client_config: not above the total timeout (600 s by default). */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_timeout_ms(cb, 600001));
  OK(mcp_client_builder_set_timeout_ms(cb, 600000));
  /* One version rule with mcp_client_config_set_version: "auto" or a known revision. */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_protocol_version(cb, S("2099-01-01")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_protocol_version(cb, S("")));
  OK(mcp_client_builder_set_protocol_version(cb, S("auto")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_log_level(cb, 8));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_builder_on_elicitation(cb, NULL, tag(), count_free));
  OK(mcp_client_builder_on_roots(cb, never_input, tag(), count_free));
  CHECK(atomic_load(&finalized) == 14);
  mcp_client *client = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_builder_connect_stdio(cb, rt, S("x"), NULL, 1, &client, NULL));
  mcp_status st = mcp_client_builder_connect_stdio(cb, rt, S("/nonexistent/mcp-server"), NULL, 0,
                                                   &client, &err);
  CHECK(st != MCP_STATUS_OK && client == NULL && err != NULL);
  CHECK(mcp_error_status(err) == st && mcp_error_message(err).len > 0);
  mcp_error_free(err);
  EXPECT(MCP_STATUS_ALREADY_USED,
         mcp_client_builder_connect_stdio(cb, rt, S("x"), NULL, 0, &client, NULL));
  mcp_client_builder_free(cb);
  CHECK(atomic_load(&finalized) == 15);

  mcp_runtime_free(rt);
  printf("unit: all checks passed\n");
  return 0;
}
