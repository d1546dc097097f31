/* mcp_client_builder_connect_fds: a client over descriptors the host hands over, against a server
 * served with mcp_server_serve_fds in the same process: over a connected Unix socket (one descriptor
 * both ways, era probed) and over a pair of pipes (legacy era pinned), a tool call answered, and the
 * server's serve ending when the client is freed (the library closed the client's descriptors).
 * Misuse: negative descriptors (MCP_STATUS_INVALID_ARGUMENT with the reason), a regular file
 * (MCP_STATUS_IO with the reason; the descriptor is closed), a second connect. A responder that has
 * answered says MCP_STATUS_ALREADY_USED to every answer, whatever input it is given (its state is
 * checked before its input). An engine error's message does not repeat its status when printed after
 * mcp_status_describe, as the header's examples print errors. */
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

/* Answers, then tries every answer again with input that is itself bad: the responder's state wins. */
static void twice(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[]}")));
  mcp_error *err = NULL;
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_result_checked(r, MCP_LIT("{not json"), &err));
  mcp_str m = mcp_error_message(err);
  CHECK(strcmp(m.data, "the responder has answered already") == 0);
  mcp_error_free(err);
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_result(r, MCP_LIT("[1, 2]")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_tool_error(r, "\xff\xfe", 2));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_error(r, -1, MCP_LIT("m"), MCP_LIT("{bad")));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_responder_input_required(r, MCP_LIT("[]"), NULL, 0));
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
  OK(mcp_client_call_tool(c, MCP_LIT("twice"), NULL, 0, &out, &err));
  CHECK(has(out, "\"content\":[]"));
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
  OK(mcp_server_builder_add_tool(sb, MCP_LIT("{\"name\":\"twice\",\"inputSchema\":{\"type\":"
                                             "\"object\"}}"),
                                 twice, NULL, NULL));
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
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_connect_fds(b, rt, -1, half[1], &c, &err));
  CHECK(fcntl(half[1], F_GETFD) == -1); /* the valid one is closed too */
  CHECK(mcp_error_status(err) == MCP_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(mcp_error_message(err).data, "descriptors must be 0 or more (read_fd -1") ==
        mcp_error_message(err).data);
  mcp_error_free(err);
  err = NULL;
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

  /* Printed as "<describe>: <message>", an engine error names its kind once. */
  OK(mcp_client_builder_new(MCP_LIT("fds-client"), MCP_LIT("1.0"), &b));
  EXPECT(MCP_STATUS_TRANSPORT,
         mcp_client_builder_connect_http(b, rt, MCP_LIT("http://127.0.0.1:9/mcp"), NULL, 0, &c, &err));
  char printed[512];
  snprintf(printed, sizeof printed, "%s: %s", mcp_status_describe(mcp_error_status(err)),
           mcp_error_message(err).data);
  CHECK(strstr(printed, "transport error: transport error") == NULL);
  CHECK(strncmp(printed, "transport error: ", 17) == 0 && strlen(printed) > 17);
  mcp_error_free(err);
  mcp_client_builder_free(b);

  mcp_server_free(s);
  mcp_runtime_free(rt);
  printf("connect_fds: all checks passed\n");
  return 0;
}
