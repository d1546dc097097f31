/* mcp_server_serve_fds: a server over descriptors the host hands over, a connected Unix socket (one
 * descriptor both ways) and a pair of pipes: a modern tools/call answered on the wire, the serve ending
 * at end of file or on mcp_serve_stop, and misuse (negative descriptors, a regular file) closing
 * what was handed over. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "lines.h"

static const char call[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
    "\"arguments\":{\"text\":\"over a descriptor\"},\"_meta\":{"
    "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
    "\"io.modelcontextprotocol/clientCapabilities\":{},"
    "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}}\n";

static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_string *text = NULL;
  mcp_str args = mcp_request_arguments(req);
  OK(mcp_json_get_string(args.data, args.len, MCP_LIT("/text"), &text));
  char buf[256];
  int n = snprintf(buf, sizeof buf, "{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}",
                   mcp_string_data(text));
  mcp_string_free(text);
  OK(mcp_responder_result(r, buf, (size_t)n));
  mcp_responder_free(r);
}

static void round_trip(mcp_server *s, mcp_runtime *rt, int serve_in, int serve_out, int to_server,
                       int from_server) {
  mcp_serve *serve = NULL;
  OK(mcp_server_serve_fds(s, rt, serve_in, serve_out, &serve));
  CHECK(write(to_server, call, sizeof call - 1) == (ssize_t)(sizeof call - 1));
  char line[4096];
  read_line(from_server, line, sizeof line);
  if (!strstr(line, "\"id\":1") || !strstr(line, "over a descriptor")) {
    fprintf(stderr, "unexpected answer: %s\n", line);
    exit(1);
  }
  /* End of file on the server's input ends the serve. */
  if (to_server == from_server)
    CHECK(shutdown(to_server, SHUT_WR) == 0);
  else
    close(to_server);
  mcp_error *err = NULL;
  mcp_status st = mcp_serve_wait(serve, &err);
  if (st != MCP_STATUS_OK) dump_error("serve", err);
  EXPECT(MCP_STATUS_OK, st);
  mcp_serve_free(serve);
  /* The library closed its descriptors: the peer reads end of file. */
  char c;
  CHECK(read(from_server, &c, 1) == 0);
  close(from_server);
}

int main(void) {
  mcp_runtime *rt = NULL;
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  OK(mcp_runtime_new(2, &rt));
  OK(mcp_server_builder_new(MCP_LIT("fds"), MCP_LIT("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"echo\"}"), echo, NULL, NULL));
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);

  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  round_trip(s, rt, sv[0], sv[0], sv[1], sv[1]);

  int in[2], out[2];
  CHECK(pipe(in) == 0 && pipe(out) == 0);
  round_trip(s, rt, in[0], out[1], in[1], out[0]);

  /* Stopped while the input stays open. */
  CHECK(pipe(in) == 0 && pipe(out) == 0);
  mcp_serve *serve = NULL;
  OK(mcp_server_serve_fds(s, rt, in[0], out[1], &serve));
  long t0 = now_ms();
  OK(mcp_serve_stop(serve));
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);
  CHECK(now_ms() - t0 < 2000);
  close(in[1]);
  close(out[0]);

  /* Misuse: nothing runs, and what was handed over is closed. */
  serve = NULL;
  CHECK(pipe(in) == 0);
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_serve_fds(s, rt, in[0], -1, &serve));
  CHECK(fcntl(in[0], F_GETFD) == -1);
  close(in[1]);
  char path[] = "/tmp/mcp-serve-fds-XXXXXX";
  int file = mkstemp(path);
  CHECK(file >= 0);
  unlink(path);
  EXPECT(MCP_STATUS_IO, mcp_server_serve_fds(s, rt, file, file, &serve));
  CHECK(serve == NULL && fcntl(file, F_GETFD) == -1);
  CHECK(pipe(in) == 0);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_serve_fds(NULL, rt, in[0], in[1], &serve));
  CHECK(fcntl(in[0], F_GETFD) == -1 && fcntl(in[1], F_GETFD) == -1);

  mcp_server_free(s);
  mcp_runtime_free(rt);
  printf("serve_fds: ok\n");
  return 0;
}
