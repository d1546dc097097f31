/* mcp_redis_connect, mcp_server_builder_set_redis and mcp_http_server_config_set_redis. Always: a URL
 * that is not a Redis URL is refused with the reason; NULL handles are refused; a Redis that does
 * not answer (a closed port, with `--down`) connects lazily, and a server set on it builds and
 * serves: the stateless wire answered, a legacy session 503 naming the reason. `--down` is left out under ASan and valgrind: freeing
 * the runtime while redis-rs's ConnectionManager still retries leaks that manager and the runtime
 * (redis 1.2 aio/connection_manager.rs `reconnect`: the pending shared future holds the manager's
 * internals, which hold the future), a cycle the library cannot break. With REDIS_URL set (scripts/test.d/60-redis.sh starts a Redis):
 * two servers on that Redis; a legacy session initialized on A is continued on B (tools/call, a log
 * level set on B filters what A sends), a DELETE on B ends it on A (404). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "raw_http.h"

static void expect(char *answer, const char *status_line, const char *needle, const char *absent) {
  if (strncmp(answer, status_line, strlen(status_line)) != 0 || (needle && !strstr(answer, needle)) ||
      (absent && strstr(answer, absent))) {
    fprintf(stderr, "expected %s with %s and without %s, got:\n%s\n", status_line,
            needle ? needle : "-", absent ? absent : "-", answer);
    exit(1);
  }
  free(answer);
}

/* A debug and a warning log message, then the result. */
static void logs(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_log(r, MCP_LOG_DEBUG, NULL, 0, MCP_LIT("\"quiet\""), NULL));
  OK(mcp_responder_log(r, MCP_LOG_WARNING, NULL, 0, MCP_LIT("\"loud\""), NULL));
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[{\"type\":\"text\",\"text\":\"logged\"}]}")));
  mcp_responder_free(r);
}

static mcp_server_builder *builder(void) {
  mcp_server_builder *b = NULL;
  OK(mcp_server_builder_new(MCP_LIT("redis-c"), MCP_LIT("1.0.0"), &b));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 echoed_tool, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"logs\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 logs, NULL, NULL));
  return b;
}

static void expect_error(mcp_error *e, mcp_status status, const char *needle) {
  CHECK(e != NULL);
  mcp_str m = mcp_error_message(e);
  if (mcp_error_status(e) != status || !strstr(m.data, needle)) {
    dump_error("unexpected error", e);
    exit(1);
  }
  mcp_error_free(e);
}

/* Redis on a port where nothing listens: connecting is lazy, setting it on a builder and serving
 * with it succeed, the stateless wire is served, and a legacy session (which needs the session
 * store) is answered 503 with the JSON-RPC error naming the reason. */
static void unreachable(mcp_runtime *rt) {
  mcp_redis *down = NULL;
  mcp_error *e = NULL;
  OK(mcp_redis_connect(rt, MCP_LIT("redis://127.0.0.1:1/0"), &down, &e));
  mcp_server_builder *b = builder();
  if (mcp_server_builder_set_redis(b, down, &e) != MCP_STATUS_OK) {
    dump_error("mcp_server_builder_set_redis with Redis down", e);
    exit(1);
  }
  mcp_server *s = NULL;
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new(&config));
  OK(mcp_http_server_config_set_bind(config, MCP_LIT("127.0.0.1:0")));
  OK(mcp_http_server_config_set_redis(config, down));
  mcp_redis_free(down); /* the config keeps the connection */
  mcp_http_server *http = NULL;
  if (mcp_server_serve_http(s, rt, config, &http, &e) != MCP_STATUS_OK) {
    dump_error("mcp_server_serve_http with Redis down", e);
    exit(1);
  }
  mcp_http_server_config_free(config);
  unsigned short port = mcp_http_server_port(http);
  const char *call =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
      "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
  char req[2048];
  int n = snprintf(req, sizeof req,
                   "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
                   "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                   "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n"
                   "Content-Length: %zu\r\n\r\n%s",
                   port, strlen(call), call);
  CHECK(n > 0 && (size_t)n < sizeof req);
  expect(exchange(port, req), "HTTP/1.1 200 ", "echoed", NULL);
  expect(post_legacy(port, NULL,
                     "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                     "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{"
                     "\"name\":\"c-test\",\"version\":\"1\"}}}"),
         "HTTP/1.1 503 ", "unavailable", NULL);
  mcp_http_server_free(http);
  mcp_server_free(s);
}

static mcp_http_server *instance(mcp_runtime *rt, mcp_redis *redis, mcp_server **server_out) {
  mcp_server_builder *b = builder();
  mcp_error *e = NULL;
  if (mcp_server_builder_set_redis(b, redis, &e) != MCP_STATUS_OK) {
    dump_error("mcp_server_builder_set_redis", e);
    exit(1);
  }
  OK(mcp_server_builder_build(b, server_out, NULL));
  mcp_server_builder_free(b);
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new(&config));
  OK(mcp_http_server_config_set_bind(config, MCP_LIT("127.0.0.1:0")));
  OK(mcp_http_server_config_set_redis(config, redis));
  mcp_http_server *http = NULL;
  if (mcp_server_serve_http(*server_out, rt, config, &http, &e) != MCP_STATUS_OK) {
    dump_error("mcp_server_serve_http", e);
    exit(1);
  }
  mcp_http_server_config_free(config);
  return http;
}

static void shared_session(mcp_runtime *rt, const char *url) {
  mcp_redis *redis = NULL;
  OK(mcp_redis_connect(rt, url, strlen(url), &redis, NULL));
  mcp_server *sa = NULL, *sb = NULL;
  mcp_http_server *a = instance(rt, redis, &sa), *b = instance(rt, redis, &sb);
  mcp_redis_free(redis);
  unsigned short pa = mcp_http_server_port(a), pb = mcp_http_server_port(b);

  char *answer = post_legacy(pa, NULL,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                      "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{"
                      "\"name\":\"c-test\",\"version\":\"1\"}}}");
  char sid[128];
  header_of(answer, "mcp-session-id", sid, sizeof sid);
  CHECK(sid[0] != '\0');
  expect(answer, "HTTP/1.1 200 ", "redis-c", NULL);
  expect(post_legacy(pa, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), "HTTP/1.1 202 ",
         NULL, NULL);
  /* B never saw the session: it serves it from Redis. */
  expect(post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
                       "\"name\":\"echo\",\"arguments\":{}}}"),
         "HTTP/1.1 200 ", "echoed", NULL);
  /* The level set on B filters what A sends. */
  expect(post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"logging/setLevel\","
                       "\"params\":{\"level\":\"warning\"}}"),
         "HTTP/1.1 200 ", NULL, NULL);
  expect(post_legacy(pa, sid, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{"
                       "\"name\":\"logs\",\"arguments\":{}}}"),
         "HTTP/1.1 200 ", "loud", "quiet");
  /* DELETE on B ends it on A. */
  char req[512];
  snprintf(req, sizeof req,
           "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
           "Mcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n",
           pb, sid);
  expect(exchange(pb, req), "HTTP/1.1 2", NULL, NULL);
  expect(post_legacy(pa, sid, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}"), "HTTP/1.1 404 ", NULL, NULL);

  mcp_http_server_free(a);
  mcp_http_server_free(b);
  mcp_server_free(sa);
  mcp_server_free(sb);
}

int main(int argc, char **argv) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_redis *redis = NULL;
  mcp_error *e = NULL;
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_redis_connect(rt, MCP_LIT("http://127.0.0.1:6379/0"), &redis, &e));
  CHECK(redis == NULL);
  expect_error(e, MCP_STATUS_INVALID_ARGUMENT, "Redis URL");
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_redis_connect(NULL, MCP_LIT("redis://127.0.0.1/0"), &redis, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_config_set_redis(NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_set_redis(NULL, NULL, NULL));
  mcp_redis_free(NULL);
  bool down = argc > 1 && strcmp(argv[1], "--down") == 0;
  if (down) unreachable(rt);

  const char *url = getenv("REDIS_URL");
  if (url && *url) {
    shared_session(rt, url);
    printf("redis: all checks passed (two instances on %s)\n", url);
  } else {
    printf("redis: checks without Redis passed (%s; REDIS_URL unset: two-instance part skipped)\n",
           down ? "Redis down included" : "Redis down skipped");
  }
  mcp_runtime_free(rt);
  return 0;
}
