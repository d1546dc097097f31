/* The C echo server of the benchmarks: the `echo(text)` tool of benches/src/echo.rs written on
 * include/mcp.h, so that `mcp-bench --libmcp ./echo-c` measures the shipped C library (the `.so` of
 * the C bundle that scripts/dist.sh makes) the way it measures the Rust echo server.
 *
 * Without arguments it serves stdio; with `--http ADDR` it serves Streamable HTTP on ADDR (both eras
 * on /mcp), prints `listening on http://ADDR/mcp` and stops when stdin closes, as the Rust echo
 * servers do (benches/src/serve.rs). Build (benches/artifacts.sh does it):
 *   cc -std=c11 -O2 benches/c/echo.c -o echo-c $(pkg-config --cflags --libs mcp)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcp.h"

static const char TOOL[] =
    "{\"name\":\"echo\",\"description\":\"Returns the text it is given\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
    "\"required\":[\"text\"]}}";

/* Answers with the argument `text` as one text block: the argument is read as a view into the
 * request (no JSON to parse) and answered with the text fast path (no JSON to build). A failure
 * answers with the reason as a tool error. */
static void echo(void *userdata, const mcp_request *request, mcp_responder *responder) {
  (void)userdata;
  mcp_str text;
  enum mcp_status st = mcp_request_argument_string(request, "text", 4, &text);
  if (st == MCP_STATUS_OK) {
    st = mcp_responder_text(responder, text.data, text.len);
  }
  if (st != MCP_STATUS_OK && st != MCP_STATUS_INVALID_RESULT) {
    const char *why = mcp_status_describe(st);
    mcp_responder_tool_error(responder, why, strlen(why));
  }
  mcp_responder_free(responder);
}

static int fail(const char *what, enum mcp_status st, mcp_error *err) {
  if (err != NULL) {
    mcp_str message = mcp_error_message(err);
    fprintf(stderr, "echo-c: %s: %.*s\n", what, (int)message.len, message.data);
  } else {
    fprintf(stderr, "echo-c: %s: %s\n", what, mcp_status_describe(st));
  }
  mcp_error_free(err);
  return 1;
}

/* Blocks until stdin reaches end of file: the driver's way to stop an HTTP server. */
static void wait_for_stdin_to_close(void) {
  char buf[64];
  while (read(STDIN_FILENO, buf, sizeof buf) > 0) {
  }
}

int main(int argc, char **argv) {
  const char *http = NULL;
  if (argc == 3 && strcmp(argv[1], "--http") == 0) {
    http = argv[2];
  } else if (argc != 1) {
    fprintf(stderr, "usage: echo-c [--http ADDR]   (stdio without arguments)\n");
    return 2;
  }
  mcp_runtime *runtime = NULL;
  mcp_server_builder *builder = NULL;
  mcp_server *server = NULL;
  mcp_error *err = NULL;
  enum mcp_status st = mcp_runtime_new(0, &runtime);
  if (st != MCP_STATUS_OK) return fail("runtime", st, NULL);
  st = mcp_server_builder_new(MCP_LIT("echo-c"), MCP_LIT("1.0.0"), &builder);
  if (st == MCP_STATUS_OK) {
    st = mcp_server_builder_add_tool(builder, TOOL, sizeof TOOL - 1, echo, NULL, NULL);
  }
  if (st != MCP_STATUS_OK) return fail("tool", st, NULL);
  st = mcp_server_builder_build(builder, &server, &err);
  if (st != MCP_STATUS_OK) return fail("build", st, err);

  int code = 0;
  if (http == NULL) {
    mcp_serve *serve = NULL;
    st = mcp_server_serve_stdio(server, runtime, &serve);
    if (st == MCP_STATUS_OK) st = mcp_serve_wait(serve, &err);
    if (st != MCP_STATUS_OK) code = fail("stdio", st, err);
    mcp_serve_free(serve);
  } else {
    mcp_http_server_config *config = NULL;
    mcp_http_server *server_http = NULL;
    st = mcp_http_server_config_new(&config);
    if (st == MCP_STATUS_OK) st = mcp_http_server_config_set_bind(config, http, strlen(http));
    /* The idle-session measurement opens thousands of sessions, as for the Rust echo server. */
    if (st == MCP_STATUS_OK) st = mcp_http_server_config_set_max_sessions(config, 1000000);
    if (st == MCP_STATUS_OK) st = mcp_server_serve_http(server, runtime, config, &server_http, &err);
    mcp_http_server_config_free(config);
    if (st != MCP_STATUS_OK) {
      code = fail("http", st, err);
    } else {
      mcp_str addr = mcp_http_server_local_addr(server_http);
      printf("listening on http://%.*s/mcp\n", (int)addr.len, addr.data);
      fflush(stdout);
      wait_for_stdin_to_close();
      mcp_http_server_stop(server_http);
      mcp_http_server_wait(server_http);
    }
    mcp_http_server_free(server_http);
  }
  mcp_server_free(server);
  mcp_runtime_free(runtime);
  return code;
}
