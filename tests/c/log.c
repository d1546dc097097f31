/* The log hook: mcp_set_log_callback receives the library's diagnostics, filtered by level, and the
 * stderr lines of a child server (mcp_client_builder_connect_stdio); nothing reaches this process's
 * stderr unless MCP_CHILD_STDERR_FORWARD asks for it; the child gets the environment variable and
 * working directory the builder sets (MCP_LIT / MCP_STR_LIT build the string arguments). Replacing or removing the callback finalizes
 * its userdata exactly once. The child is this program run with "serve": it installs a callback of its
 * own that copies the engine's warnings to its stderr, so the warning it logs for a malformed result
 * travels child engine -> child callback -> child stderr -> our callback. */
#define _DEFAULT_SOURCE /* realpath */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"

static atomic_int finalized;

static void count_free(void *p) {
  (void)p;
  atomic_fetch_add(&finalized, 1);
}

/* ---- the child server ---- */

static void child_log(void *ud, mcp_log_level level, mcp_str target, mcp_str message) {
  (void)ud;
  fprintf(stderr, "child-log %d %.*s: %.*s\n", (int)level, (int)target.len, target.data,
          (int)message.len, message.data);
}

static void hello(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  char cwd[512];
  const char *mark = getenv("MCP_LOG_TEST_MARK");
  fprintf(stderr, "hello from the child mark=%s cwd=%s\n", mark ? mark : "-",
          getcwd(cwd, sizeof cwd) ? cwd : "?");
  OK(mcp_responder_result(r, S("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void bad(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  EXPECT(MCP_STATUS_INVALID_RESULT, mcp_responder_result(r, S("{\"content\":{}}")));
  mcp_responder_free(r);
}

static int serve(void) {
  OK(mcp_set_log_callback(MCP_LOG_WARNING, child_log, NULL, NULL));
  mcp_runtime *rt = NULL;
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  mcp_serve *serve = NULL;
  OK(mcp_runtime_new(1, &rt));
  OK(mcp_server_builder_new(S("log-child"), S("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"hello\"}"), hello, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, S("{\"name\":\"bad\"}"), bad, NULL, NULL));
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);
  OK(mcp_server_serve_stdio(s, rt, &serve));
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);
  mcp_server_free(s);
  mcp_runtime_free(rt);
  return 0;
}

/* ---- the parent ---- */

/* What one callback registration received, one line per event: "LEVEL TARGET: MESSAGE". */
struct received {
  pthread_mutex_t lock;
  char text[16384];
  size_t len;
};

static struct received first = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};
static struct received second = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

static void on_log(void *ud, mcp_log_level level, mcp_str target, mcp_str message) {
  struct received *r = ud;
  CHECK(target.data[target.len] == '\0' && message.data[message.len] == '\0');
  pthread_mutex_lock(&r->lock);
  int n = snprintf(r->text + r->len, sizeof r->text - r->len, "%d %.*s: %.*s\n", (int)level,
                   (int)target.len, target.data, (int)message.len, message.data);
  if (n > 0 && (size_t)n < sizeof r->text - r->len) r->len += (size_t)n;
  pthread_mutex_unlock(&r->lock);
}

static int received_has(struct received *r, const char *needle) {
  pthread_mutex_lock(&r->lock);
  int found = strstr(r->text, needle) != NULL;
  pthread_mutex_unlock(&r->lock);
  return found;
}

/* Waits up to 10 s for `needle` (stderr lines arrive on their own reader). */
static int await_line(struct received *r, const char *needle) {
  for (int i = 0; i < 1000 && !received_has(r, needle); i++) sleep_ms(10);
  return received_has(r, needle);
}

static void run_child(mcp_runtime *rt, const char *self, int stderr_mode) {
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  mcp_string *out = NULL;
  mcp_str args[] = {MCP_STR_LIT("serve")};
  OK(mcp_client_builder_new(MCP_LIT("log-test"), MCP_LIT("1.0"), &b));
  /* The child's environment and working directory (it reports both in its "hello" line). */
  OK(mcp_client_builder_add_child_env(b, MCP_LIT("MCP_LOG_TEST_MARK"), MCP_LIT("first")));
  OK(mcp_client_builder_add_child_env(b, MCP_LIT("MCP_LOG_TEST_MARK"), MCP_LIT("on")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_add_child_env(b, MCP_LIT("A=B"), MCP_LIT("x")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_add_child_env(b, NULL, 0, MCP_LIT("x")));
  OK(mcp_client_builder_set_child_cwd(b, MCP_LIT("/")));
  if (stderr_mode >= 0) OK(mcp_client_builder_set_child_stderr(b, (uint32_t)stderr_mode));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_builder_set_child_stderr(b, 7));
  mcp_status st = mcp_client_builder_connect_stdio(b, rt, self, strlen(self), args, 1, &c, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  EXPECT(MCP_STATUS_OK, st);
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_client_builder_set_child_stderr(b, 0));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_client_builder_set_child_cwd(b, NULL, 0));
  mcp_client_builder_free(b);
  OK(mcp_client_call_tool(c, S("hello"), NULL, 0, &out, &err));
  mcp_string_free(out);
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_call_tool(c, S("bad"), NULL, 0, &out, &err));
  CHECK(mcp_error_code(err) == -32603);
  mcp_error_free(err);
  mcp_client_free(c);
}

static char *slurp(const char *path) {
  static char buf[16384];
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "serve") == 0) return serve();
  /* The children start in "/": the program path must not depend on our directory. */
  char *self = realpath(argv[0], NULL);
  CHECK(self != NULL);

  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_set_log_callback(99, on_log, &first, count_free));
  CHECK(atomic_load(&finalized) == 1); /* taken and finalized also on failure */
  OK(mcp_set_log_callback(MCP_LOG_DEBUG, on_log, &first, count_free));
  /* A refused setting says why (the core's rule, through the log callback). */
  mcp_client_config *cfg = NULL;
  OK(mcp_client_config_new(&cfg));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_timeouts_ms(cfg, 6000, 5000, 0));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_version(cfg, MCP_LIT("2099-01-01")));
  mcp_client_config_free(cfg);
  CHECK(received_has(&first, "0 libmcp_ffi: setting refused: request_timeout: 6s is "
                             "above max_total_timeout (5s)\n"));
  CHECK(received_has(&first, "0 libmcp_ffi: setting refused: version_preference: "
                             "unknown protocol version \"2099-01-01\" (known: auto, 2026-07-28, "));

  /* This process's stderr goes to a file while the children run. */
  char path[] = "/tmp/mcp-log-test-XXXXXX";
  int file = mkstemp(path);
  CHECK(file >= 0);
  fflush(stderr);
  int saved = dup(2);
  CHECK(saved >= 0 && dup2(file, 2) == 2);

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  run_child(rt, self, -1); /* the default: MCP_CHILD_STDERR_LOG */
  int ok_line =
      await_line(&first, "1 libmcp::child_stderr: hello from the child mark=on cwd=/ program=");
  int ok_warning = await_line(&first, "1 libmcp::child_stderr: child-log 3 libmcp::server::answer: "
                                      "rejected a handler's result and answered -32603: Internal "
                                      "error: tool bad returned a content field that is not an "
                                      "array method=tools/call");
  int quiet_default = strstr(slurp(path), "hello from the child") == NULL;

  /* A stricter level: the child's INFO lines no longer arrive; the first userdata is finalized. */
  OK(mcp_set_log_callback(MCP_LOG_ERROR, on_log, &second, count_free));
  int first_finalized = atomic_load(&finalized) == 2;
  run_child(rt, self, MCP_CHILD_STDERR_DISCARD);
  run_child(rt, self, MCP_CHILD_STDERR_LOG);
  sleep_ms(200);
  int filtered = second.len == 0;

  run_child(rt, self, MCP_CHILD_STDERR_FORWARD);
  sleep_ms(200);
  int forwarded = strstr(slurp(path), "] hello from the child mark=on cwd=/\n") != NULL;

  /* A working directory that does not exist: the child cannot start. */
  mcp_client_builder *nb = NULL;
  mcp_client *nc = NULL;
  mcp_error *nerr = NULL;
  OK(mcp_client_builder_new(MCP_LIT("log-test"), MCP_LIT("1.0"), &nb));
  OK(mcp_client_builder_set_child_cwd(nb, MCP_LIT("/nonexistent/mcp-log-test")));
  EXPECT(MCP_STATUS_TRANSPORT,
         mcp_client_builder_connect_stdio(nb, rt, self, strlen(self), NULL, 0, &nc, &nerr));
  CHECK(nc == NULL && nerr != NULL);
  mcp_error_free(nerr);
  mcp_client_builder_free(nb);
  mcp_runtime_free(rt);

  OK(mcp_set_log_callback(MCP_LOG_DEBUG, NULL, NULL, NULL)); /* removes the callback */
  int second_finalized = atomic_load(&finalized) == 3;
  fflush(stderr);
  CHECK(dup2(saved, 2) == 2);
  close(saved);
  close(file);

  if (!ok_line || !ok_warning || !quiet_default || !first_finalized || !filtered || !forwarded ||
      !second_finalized) {
    fprintf(stderr,
            "line %d warning %d quiet %d finalized %d/%d filtered %d forwarded %d\n"
            "received:\n%s\nsecond:\n%s\nstderr:\n%s\n",
            ok_line, ok_warning, quiet_default, first_finalized, second_finalized, filtered,
            forwarded, first.text, second.text, slurp(path));
    unlink(path);
    free(self);
    return 1;
  }
  unlink(path);
  free(self);
  printf("log: ok\n");
  return 0;
}
