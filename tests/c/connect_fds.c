/* mcp_client_builder_connect_fds: a client over descriptors the host hands over, against a server
 * served with mcp_server_serve_fds in the same process: over a connected Unix socket (one descriptor
 * both ways, era probed) and over a pair of pipes (legacy era pinned), a tool call answered, and the
 * server's serve ending when the client is freed (the library closed the client's descriptors).
 * Misuse: negative descriptors, a regular file (MCP_STATUS_IO with the reason; the descriptor is
 * closed), a second connect. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_string *text = NULL;
  mcp_str args = mcp_request_arguments(req);
  OK(mcp_json_get_string(args.data, args.len, MCP_LIT("/text"), &text));
  mcp_string *quoted = NULL;
  OK(mcp_json_quote(mcp_string_data(text), mcp_string_len(text), &quoted));
  char buf[256];
  int n = snprintf(buf, sizeof buf, "{\"content\":[{\"type\":\"text\",\"text\":%s}]}",
                   mcp_string_data(quoted));
  mcp_string_free(quoted);
  mcp_string_free(text);
  OK(mcp_responder_result(r, buf, (size_t)n));
  mcp_responder_free(r);
}

/* Connects a client over (client_in, client_out) to a serve over (serve_in, serve_out), calls echo,
 * checks the era, frees the client and waits for the serve to end. */
static void round_trip(mcp_server *s, mcp_runtime *rt, int serve_in, int serve_out, int client_in,
                       int client_out, const char *version, mcp_era era) {
  mcp_serve *serve = NULL;
  OK(mcp_server_serve_fds(s, rt, serve_in, serve_out, &serve));
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  OK(mcp_client_builder_new(MCP_LIT("fds-client"), MCP_LIT("1.0"), &b));
  OK(mcp_client_builder_set_protocol_version(b, version, strlen(version)));
  mcp_status st = mcp_client_builder_connect_fds(b, rt, client_in, client_out, &c, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  EXPECT(MCP_STATUS_OK, st);
  int spare[2];
  CHECK(pipe(spare) == 0);
  EXPECT(MCP_STATUS_ALREADY_USED,
         mcp_client_builder_connect_fds(b, rt, spare[0], spare[1], &c, NULL));
  CHECK(fcntl(spare[0], F_GETFD) == -1 && fcntl(spare[1], F_GETFD) == -1); /* closed all the same */
  mcp_client_builder_free(b);
  CHECK(mcp_client_era(c) == era);
  mcp_string *out = NULL;
  OK(mcp_client_call_tool(c, MCP_LIT("echo"), MCP_LIT("{\"text\":\"over a descriptor\"}"), &out,
                          &err));
  CHECK(has(out, "\"text\":\"over a descriptor\""));
  mcp_string_free(out);
  mcp_client_free(c);
  /* The client's descriptors are closed: the serve reads end of file and ends. */
  st = mcp_serve_wait(serve, &err);
  if (st != MCP_STATUS_OK) dump_error("serve", err);
  EXPECT(MCP_STATUS_OK, st);
  mcp_serve_free(serve);
}

/* The server: one tool, echo. */
static mcp_server *echo_server(void) {
  mcp_server_builder *sb = NULL;
  mcp_server *s = NULL;
  OK(mcp_server_builder_new(MCP_LIT("fds-server"), MCP_LIT("1.0"), &sb));
  OK(mcp_server_builder_add_tool(sb, MCP_LIT("{\"name\":\"echo\",\"inputSchema\":{\"type\":"
                                             "\"object\",\"properties\":{\"text\":{\"type\":"
                                             "\"string\"}}}}"),
                                 echo, NULL, NULL));
  OK(mcp_server_builder_build(sb, &s, NULL));
  mcp_server_builder_free(sb);
  return s;
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *s = echo_server();

  /* A connected socket: one descriptor each way on both sides; the era is probed (modern). */
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  round_trip(s, rt, sv[0], sv[0], sv[1], sv[1], "auto", MCP_ERA_MODERN);

  /* Two pipes, the legacy handshake. */
  int to_server[2], to_client[2];
  CHECK(pipe(to_server) == 0 && pipe(to_client) == 0);
  round_trip(s, rt, to_server[0], to_client[1], to_client[0], to_server[1], "2025-11-25",
             MCP_ERA_LEGACY);

  /* Misuse. */
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  OK(mcp_client_builder_new(MCP_LIT("fds-client"), MCP_LIT("1.0"), &b));
  int half[2];
  CHECK(pipe(half) == 0);
  close(half[0]);
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_connect_fds(b, rt, -1, half[1], &c, NULL));
  CHECK(fcntl(half[1], F_GETFD) == -1); /* the valid one is closed too */
  char path[] = "/tmp/mcp-connect-fds-XXXXXX";
  int file = mkstemp(path);
  CHECK(file >= 0);
  unlink(path);
  EXPECT(MCP_STATUS_IO, mcp_client_builder_connect_fds(b, rt, file, file, &c, &err));
  CHECK(c == NULL);
  mcp_str m = mcp_error_message(err);
  CHECK(strstr(m.data, "the reactor cannot watch the descriptor: ") == m.data);
  mcp_error_free(err);
  CHECK(fcntl(file, F_GETFD) == -1); /* closed by the library */
  int p[2];
  CHECK(pipe(p) == 0);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_builder_connect_fds(NULL, rt, p[0], p[1], &c, NULL));
  CHECK(fcntl(p[0], F_GETFD) == -1 && fcntl(p[1], F_GETFD) == -1);
  mcp_client_builder_free(b);

  mcp_server_free(s);
  mcp_runtime_free(rt);
  printf("connect_fds: all checks passed\n");
  return 0;
}
