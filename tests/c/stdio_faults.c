/* Serving stdio from a C host, whose signal dispositions are the C defaults:
 * - a client that closes its read end while a call is in flight must not kill the server with
 *   SIGPIPE: the serve ends with MCP_STATUS_IO and the host exits normally;
 * - mcp_serve_stop, mcp_serve_wait and mcp_runtime_free must return while stdin stays open
 *   (no runtime thread left blocked in a read of stdin), also when stdout is not a pipe.
 * Each case runs in a child process (forked before any libmcp call) with its own stdin and stdout. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"

/* Answers after a pause, by which time the client has closed its read end. */
static void slow(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  sleep_ms(300);
  OK(mcp_responder_result(r, S("{\"content\":[{\"type\":\"text\",\"text\":\"late\"}]}")));
  mcp_responder_free(r);
}

static mcp_server *build_server(void) {
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  OK(mcp_server_builder_new(S("stdio-faults"), S("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"slow\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 slow, NULL, NULL));
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);
  return s;
}

/* Child of the SIGPIPE case: serves until the write of the answer fails. */
static int serve_into_closed_pipe(void) {
  mcp_runtime *rt = NULL;
  mcp_serve *serve = NULL;
  mcp_error *err = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *s = build_server();
  OK(mcp_server_serve_stdio(s, rt, &serve));
  EXPECT(MCP_STATUS_IO, mcp_serve_wait(serve, &err));
  CHECK(err != NULL && mcp_error_status(err) == MCP_STATUS_IO);
  mcp_str m = mcp_error_message(err);
  if (!view_has(m, "Broken pipe")) {
    fprintf(stderr, "serve ended with: %.*s\n", (int)m.len, m.data);
    return 1;
  }
  mcp_error_free(err);
  mcp_serve_free(serve);
  mcp_server_free(s);
  mcp_runtime_free(rt);
  return 0;
}

/* Child of the stop case: stdin is a pipe this process keeps open, stdout is /dev/null. */
static int stop_with_stdin_open(void) {
  int keep[2];
  CHECK(pipe(keep) == 0);
  CHECK(dup2(keep[0], 0) == 0);
  int null = open("/dev/null", O_WRONLY);
  CHECK(null >= 0 && dup2(null, 1) == 1);
  mcp_runtime *rt = NULL;
  mcp_serve *serve = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *s = build_server();
  OK(mcp_server_serve_stdio(s, rt, &serve));
  sleep_ms(100);
  /* A runtime thread left blocked in a read of stdin would keep these from returning while the
   * write end stays open (it is closed only after them); reap() then fails the case after 30 s. */
  OK(mcp_serve_stop(serve));
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);
  mcp_server_free(s);
  mcp_runtime_free(rt);
  close(keep[1]);
  return 0;
}

/* Waits up to 30 s for the child; kills it after that. Returns its wait status. */
static int reap(pid_t pid) {
  int status = 0;
  for (int i = 0; i < 3000; i++) {
    pid_t got = waitpid(pid, &status, WNOHANG);
    CHECK(got >= 0);
    if (got == pid) return status;
    sleep_ms(10);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  fprintf(stderr, "the child did not finish within 30 s\n");
  exit(1);
}

static void expect_clean_exit(const char *what, int status) {
  if (WIFSIGNALED(status)) {
    fprintf(stderr, "%s: the server was killed by signal %d\n", what, WTERMSIG(status));
    exit(1);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "%s: the server exited with status %d\n", what, WEXITSTATUS(status));
    exit(1);
  }
}

static void sigpipe_case(void) {
  int in[2], out[2];
  CHECK(pipe(in) == 0 && pipe(out) == 0);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    CHECK(dup2(in[0], 0) == 0 && dup2(out[1], 1) == 1);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    _exit(serve_into_closed_pipe());
  }
  close(in[0]), close(out[1]);
  static const char call[] =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
      "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      "\"io.modelcontextprotocol/clientCapabilities\":{},"
      "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}}\n";
  CHECK(write(in[1], call, sizeof call - 1) == (ssize_t)(sizeof call - 1));
  /* The reader goes away mid-call; stdin stays open until the server has exited. */
  close(out[0]);
  int status = reap(pid);
  close(in[1]);
  expect_clean_exit("client closed its read end mid-call", status);
}

static void stop_case(void) {
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) _exit(stop_with_stdin_open());
  expect_clean_exit("stop with stdin open", reap(pid));
}

int main(void) {
  /* A C host: SIGPIPE keeps its default action (terminate), whatever the test runner set. */
  signal(SIGPIPE, SIG_DFL);
  sigpipe_case();
  stop_case();
  printf("stdio_faults: ok\n");
  return 0;
}
