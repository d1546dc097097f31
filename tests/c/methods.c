/* Request methods a C host answers itself (mcp_server_builder_set_method_handler,
 * mcp_server_set_method_handler, mcp_server_remove_method_handler, *_declare_capabilities), driven
 * raw over a socket in both eras (2025-11-25 with initialize, and 2026-07-28), every answer checked
 * byte for byte:
 * - a custom method answered at once, one answered later from another thread, and one answering a
 *   JSON-RPC error that reaches the client as sent;
 * - owned tools/list and tools/call (the tools capability declared first): answered; a request
 *   failing the revision's schema refused with -32602 before the handler runs; a result that breaks
 *   the schema answered -32603 while the responder says MCP_STATUS_INVALID_RESULT;
 * - a handler set, then removed, while the server serves;
 * - every refusal of registration, on the builder (at build) and on a built server, with its status
 *   and message: initialize, notifications/x, rpc.x, an owned method without its capability, owned
 *   tools/call beside a registered tool (whichever comes second), capabilities that are not an
 *   object;
 * - each userdata finalized exactly once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "lines.h"

static atomic_int finalized;  /* userdata finalizers run */
static atomic_int tool_calls; /* times the tools/call handler ran */
static pthread_t g_later;     /* the thread answering acme/later */
static atomic_int later_made; /* set once g_later is written */
static char g_broken_message[512];
static atomic_int g_broken = -1; /* what answering the broken result returned, after the message */

static void count_free(void *p) {
  (void)p;
  atomic_fetch_add(&finalized, 1);
}

static void answer(mcp_responder *r, const char *json) {
  OK(mcp_responder_result(r, json, strlen(json)));
  mcp_responder_free(r);
}

/* acme/echo: the method and the params, back. */
static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_str method = mcp_request_method(req);
  mcp_str params = mcp_request_params(req);
  char out[2048];
  snprintf(out, sizeof out, "{\"method\":\"%.*s\",\"params\":%.*s}", (int)method.len, method.data,
           (int)params.len, params.data);
  answer(r, out);
}

/* acme/fail: a JSON-RPC error of the host's. */
static void fail(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_error(r, -32001, S("no such order"), S("{\"order\":42}")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_error(r, -32001, S("again"), NULL, 0));
  mcp_responder_free(r);
}

static void *answer_later(void *arg) {
  sleep_ms(50);
  answer(arg, "{\"answered\":\"later\"}");
  return NULL;
}

/* acme/later: answered from a thread of the host's after the handler returned. */
static void later(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  CHECK(pthread_create(&g_later, NULL, answer_later, r) == 0);
  atomic_store(&later_made, 1);
}

/* Waits up to 10 s for `*flag` to leave `from` (a handler sets it after its answer went out). */
static int wait_change(atomic_int *flag, int from) {
  long deadline = now_ms() + 10000;
  while (atomic_load(flag) == from && now_ms() < deadline) sleep_ms(1);
  return atomic_load(flag);
}

static void list_tools(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  answer(r, "{\"tools\":[{\"name\":\"hosted\",\"inputSchema\":{\"type\":\"object\"}}]}");
}

/* tools/call: "broken" answers a content that is not an array. */
static void call_tool(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  atomic_fetch_add(&tool_calls, 1);
  mcp_str name = mcp_request_name(req);
  if (name.len == 6 && memcmp(name.data, "broken", 6) == 0) {
    mcp_error *err = NULL;
    mcp_status st = mcp_responder_result_checked(r, S("{\"content\":\"not an array\"}"), &err);
    CHECK(err != NULL && mcp_error_status(err) == st);
    mcp_str m = mcp_error_message(err);
    snprintf(g_broken_message, sizeof g_broken_message, "%.*s", (int)m.len, m.data);
    mcp_error_free(err);
    atomic_store(&g_broken, (int)st);
    mcp_responder_free(r);
    return;
  }
  char out[512];
  snprintf(out, sizeof out, "{\"content\":[{\"type\":\"text\",\"text\":\"called %.*s\"}]}",
           (int)name.len, name.data);
  answer(r, out);
}

/* Sends `request` (one line, without its newline) and checks the one line answered is `want`. */
static void exchange(int fd, const char *request, const char *want) {
  write_all(fd, request);
  write_all(fd, "\n");
  expect_line(fd, want);
}

static void set(mcp_server_builder *b, const char *method, mcp_handler_cb cb) {
  OK(mcp_server_builder_set_method_handler(b, method, strlen(method), cb, NULL, count_free));
}

/* The server the wire tests drive: acme/echo, acme/fail, acme/later, tools/list and tools/call. */
static mcp_server *owning_server(void) {
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  OK(mcp_server_builder_new(MCP_LIT("owner"), MCP_LIT("1.0.0"), &b));
  OK(mcp_server_builder_declare_capabilities(b, S("{\"tools\":{\"listChanged\":false}}")));
  set(b, "acme/echo", echo);
  set(b, "acme/fail", fail);
  set(b, "acme/later", later);
  set(b, "tools/list", list_tools);
  set(b, "tools/call", call_tool);
  mcp_error *err = NULL;
  mcp_status st = mcp_server_builder_build(b, &s, &err);
  if (err) dump_error("build", err);
  OK(st);
  mcp_server_builder_free(b);
  return s;
}

#define META                                                                                 \
  "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","                   \
  "\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/clientInfo\":" \
  "{\"name\":\"t\",\"version\":\"1\"}}"
/* META as the echo gives it back: keys sorted. */
#define META_SORTED                                                                            \
  "\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/clientInfo\":" \
  "{\"name\":\"t\",\"version\":\"1\"},\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}"
#define SERVER_INFO "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"owner\",\"version\":\"1.0.0\"}}"

/* The answers both eras share, `modern` selecting the 2026-07-28 requests and extras. */
static void drive(int fd, mcp_server *s, int modern) {
  const char *m = modern ? "," META : "";
  /* What a 2026-07-28 answer of the host's result adds: the server named first, its kind last. */
  const char *pre = modern ? SERVER_INFO "," : "";
  const char *post = modern ? ",\"resultType\":\"complete\"" : "";
  char req[2048], want[4096];
  /* In 2026-07-28 the echoed params carry the request's _meta; every result names the server. */
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"acme/echo\",\"params\":{\"q\":[1,\"two\"]%s}}", m);
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{%s\"method\":\"acme/echo\",\"params\":{%s\"q\":[1,"
           "\"two\"]}%s}}",
           pre, modern ? META_SORTED "," : "", post);
  exchange(fd, req, want);

  snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"acme/fail\",\"params\":{%s}}",
           modern ? META : "");
  exchange(fd, req,
           "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32001,\"message\":\"no such order\","
           "\"data\":{\"order\":42}}}");

  snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"acme/later\",\"params\":{%s}}",
           modern ? META : "");
  snprintf(want, sizeof want, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{%s\"answered\":\"later\"%s}}",
           pre, post);
  exchange(fd, req, want);
  CHECK(wait_change(&later_made, 0) == 1);
  CHECK(pthread_join(g_later, NULL) == 0);
  later_made = 0;

  snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{%s}}",
           modern ? META : "");
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{%s\"tools\":[{\"inputSchema\":{\"type\":"
           "\"object\"},\"name\":\"hosted\"}]%s}}",
           modern ? SERVER_INFO ",\"cacheScope\":\"private\",\"resultType\":\"complete\"," : "",
           modern ? ",\"ttlMs\":0" : "");
  exchange(fd, req, want);

  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"hosted\","
           "\"arguments\":{}%s}}",
           m);
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{%s\"content\":[{\"text\":\"called hosted\","
           "\"type\":\"text\"}]%s}}",
           pre, post);
  exchange(fd, req, want);
  CHECK(atomic_load(&tool_calls) == 1);

  /* No name: the revision's schema refuses it and the handler never runs. */
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"arguments\":{}%s}}", m);
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32602,\"message\":\"Invalid params: "
           "the tools/call request does not match CallToolRequest of %s: /params: \\\"name\\\" is a "
           "required property\"}}",
           modern ? "2026-07-28" : "2025-11-25");
  exchange(fd, req, want);
  CHECK(atomic_load(&tool_calls) == 1);

  /* The handler's result breaks the schema: -32603 to the client, the reason to the handler. */
  snprintf(req, sizeof req,
           "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"broken\"%s}}", m);
  const char *version = modern ? "2026-07-28" : "2025-11-25";
  char reason[512];
  snprintf(reason, sizeof reason,
           "the host's handler of tools/call answered a result that does not match CallToolResult "
           "of %s: /content: \\\"not an array\\\" is not of type \\\"array\\\"",
           version);
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":\"Internal error: %s\"}}",
           reason);
  exchange(fd, req, want);
  CHECK(atomic_load(&tool_calls) == 2);
  CHECK(wait_change(&g_broken, -1) == MCP_STATUS_INVALID_RESULT);
  g_broken = -1;
  /* The responder's reason is the client's message, unescaped. */
  snprintf(reason, sizeof reason,
           "Internal error: the host's handler of tools/call answered a result that does not match CallToolResult "
           "of %s: /content: \"not an array\" is not of type \"array\"",
           version);
  if (strcmp(g_broken_message, reason) != 0) {
    fprintf(stderr, "expected the reason %s\n               got %s\n", reason, g_broken_message);
    exit(1);
  }

  /* A method nobody answers is -32601; set while serving, it is answered; removed, -32601 again. */
  snprintf(req, sizeof req, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"acme/new\",\"params\":{%s}}",
           modern ? META : "");
  const char *not_found =
      "{\"jsonrpc\":\"2.0\",\"id\":8,\"error\":{\"code\":-32601,\"message\":\"Method not found\","
      "\"data\":\"acme/new\"}}";
  exchange(fd, req, not_found);
  OK(mcp_server_set_method_handler(s, MCP_LIT("acme/new"), echo, NULL, count_free, NULL));
  snprintf(want, sizeof want,
           "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{%s\"method\":\"acme/new\",\"params\":{%s}%s}}",
           pre, modern ? META_SORTED : "", post);
  exchange(fd, req, want);
  bool removed = false;
  OK(mcp_server_remove_method_handler(s, MCP_LIT("acme/new"), &removed, NULL));
  CHECK(removed);
  OK(mcp_server_remove_method_handler(s, MCP_LIT("acme/new"), &removed, NULL));
  CHECK(!removed);
  exchange(fd, req, not_found);
  tool_calls = 0;
}

static void serve_and_drive(mcp_server *s, mcp_runtime *rt, int modern) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  mcp_serve *serve = NULL;
  OK(mcp_server_serve_fds(s, rt, sv[0], sv[0], &serve));
  if (!modern) {
    /* The declared capability is advertised as declared. */
    exchange(sv[1],
             "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
             "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
             "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"capabilities\":{\"logging\":{},\"tools\":"
             "{\"listChanged\":false}},\"protocolVersion\":\"2025-11-25\",\"serverInfo\":{\"name\":"
             "\"owner\",\"version\":\"1.0.0\"}}}");
    write_all(sv[1], "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
  }
  drive(sv[1], s, modern);
  CHECK(shutdown(sv[1], SHUT_WR) == 0);
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);
  close(sv[1]);
}

/* Builds a server from `b` and checks that the build is refused with exactly `message` after the
 * prefix every invalid registration has. */
static void build_refused(mcp_server_builder *b, const char *message) {
  char full[1024];
  snprintf(full, sizeof full, "invalid definition: server: %s", message);
  mcp_server *s = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_server_builder_build(b, &s, &err);
  CHECK(s == NULL);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err, full);
  mcp_server_builder_free(b);
}

static mcp_server_builder *builder(void) {
  mcp_server_builder *b = NULL;
  OK(mcp_server_builder_new(MCP_LIT("s"), MCP_LIT("1"), &b));
  return b;
}

/* The methods a handler is refused for on a server that declared no capability, and why. */
static const struct {
  const char *method;
  const char *why;
} refusals[] = {
    {"initialize",
     "method \"initialize\" cannot have a handler of its own: the specification defines it, and "
     "the engine answers it itself (a host may answer the tools, resources, prompts, completion and "
     "tasks methods)"},
    {"notifications/x",
     "method \"notifications/x\" cannot have a handler of its own: notifications/ names the "
     "specification's notifications"},
    {"rpc.x",
     "method \"rpc.x\" cannot have a handler of its own: JSON-RPC 2.0 reserves names that begin "
     "with rpc."},
    {"tools/list",
     "answering tools/list needs the tools capability declared first (declare_capabilities)"},
};

static void builder_refusals(void) {
  mcp_server_builder *b;
  for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
    b = builder();
    set(b, refusals[i].method, echo);
    build_refused(b, refusals[i].why);
  }
  b = builder();
  OK(mcp_server_builder_declare_capabilities(b, S("{\"tools\":{}}")));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"echo\"}"), call_tool, NULL, count_free));
  set(b, "tools/call", call_tool);
  build_refused(b, "tools/call is answered by the host's own handler, and tool \"echo\" is "
                   "registered, which the engine would answer tools/call for: register one or the other");
  b = builder();
  OK(mcp_server_builder_declare_capabilities(b, S("[\"tools\"]")));
  build_refused(b, "capabilities must be a JSON object, got [\"tools\"]");

  /* FFI misuse: each status, the userdata finalized also then. */
  b = builder();
  int before = atomic_load(&finalized);
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_server_builder_set_method_handler(b, MCP_LIT("acme/x"), NULL, NULL, count_free));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_server_builder_set_method_handler(b, MCP_LIT("\xff"), echo, NULL, count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_server_builder_set_method_handler(NULL, MCP_LIT("acme/x"), echo, NULL, count_free));
  CHECK(atomic_load(&finalized) == before + 3);
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_server_builder_declare_capabilities(b, S("{")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_declare_capabilities(NULL, S("{}")));
  mcp_server *s = NULL;
  OK(mcp_server_builder_build(b, &s, NULL));
  EXPECT(MCP_STATUS_ALREADY_USED,
         mcp_server_builder_set_method_handler(b, MCP_LIT("acme/x"), echo, NULL, count_free));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_declare_capabilities(b, S("{}")));
  CHECK(atomic_load(&finalized) == before + 4);
  mcp_server_builder_free(b);
  mcp_server_free(s);
}

/* Sets `method` on `s` and checks the refusal: its status, exact message, userdata finalized. */
static void set_refused(mcp_server *s, const char *method, const char *message) {
  int before = atomic_load(&finalized);
  mcp_error *err = NULL;
  mcp_status st =
      mcp_server_set_method_handler(s, method, strlen(method), echo, NULL, count_free, &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err, message);
  CHECK(atomic_load(&finalized) == before + 1);
}

static void runtime_refusals(void) {
  static const test_tool tools[] = {{"{\"name\":\"echo\"}", call_tool}};
  mcp_server *s = tool_server("s", tools, 1);
  for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
    set_refused(s, refusals[i].method, refusals[i].why);
  }
  /* tools/call beside the registered tool; then, the tool removed, the other way round. */
  OK(mcp_server_declare_capabilities(s, S("{\"tools\":{}}"), NULL));
  set_refused(s, "tools/call",
              "tools/call is answered by the host's own handler, and tool \"echo\" is registered, "
              "which the engine would answer tools/call for: register one or the other");
  bool removed = false;
  OK(mcp_server_remove_tool(s, MCP_LIT("echo"), &removed));
  CHECK(removed);
  OK(mcp_server_set_method_handler(s, MCP_LIT("tools/call"), call_tool, NULL, count_free, NULL));
  mcp_error *err = NULL;
  int before = atomic_load(&finalized);
  mcp_status st =
      mcp_server_add_tool(s, S("{\"name\":\"late\"}"), call_tool, NULL, count_free, &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "tools/call is answered by the host's own handler, and tool \"late\" is registered, "
          "which the engine would answer tools/call for: register one or the other");
  CHECK(atomic_load(&finalized) == before + 1);

  err = NULL;
  st = mcp_server_remove_method_handler(s, MCP_LIT("ping"), &removed, &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "method \"ping\" cannot have a handler of its own: the specification defines it, and the "
          "engine answers it itself (a host may answer the tools, resources, prompts, completion "
          "and tasks methods)");
  err = NULL;
  st = mcp_server_declare_capabilities(s, S("[\"tools\"]"), &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "capabilities must be a JSON object, got [\"tools\"]");
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_server_declare_capabilities(s, S("{"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_declare_capabilities(NULL, S("{}"), NULL));
  before = atomic_load(&finalized);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_set_method_handler(s, MCP_LIT("acme/x"), NULL, NULL,
                                                                  count_free, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_set_method_handler(NULL, MCP_LIT("acme/x"), echo,
                                                                  NULL, count_free, NULL));
  CHECK(atomic_load(&finalized) == before + 2);
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_server_remove_method_handler(NULL, MCP_LIT("acme/x"), NULL, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_server_remove_method_handler(s, MCP_LIT("\xff"), NULL, NULL));
  /* The tools/call handler set above is finalized when the server goes. */
  before = atomic_load(&finalized);
  mcp_server_free(s);
  CHECK(atomic_load(&finalized) == before + 1);
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *s = owning_server();
  serve_and_drive(s, rt, 0);
  serve_and_drive(s, rt, 1);
  mcp_server_free(s);
  /* Five handlers of the builder and acme/new (twice) are gone with the server. */
  CHECK(atomic_load(&finalized) == 7);
  builder_refusals();
  runtime_refusals();
  mcp_runtime_free(rt);
  printf("methods: ok\n");
  return 0;
}
