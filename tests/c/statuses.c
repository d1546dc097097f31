/* Every status a call of the C ABI can return, each provoked by a real call, and its printed form.
 * The header's examples print a failure as `mcp_status_describe(status): message`; for every status
 * the message (of the mcp_error the call wrote, where it writes one) must be there, must not be
 * empty, must say the same status, and must not repeat the description ("transport error:
 * transport error: ..."). MCP_STATUS_PANIC is the one status no call returns on purpose (it reports
 * a bug of the library, caught at the boundary): only its description is checked. The raw peers
 * below write JSON-RPC by hand on the other end of a pipe to provoke the protocol and negotiation
 * failures a well-behaved server never causes. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"

#define LAST_STATUS MCP_STATUS_NO_SESSION

static bool seen[LAST_STATUS + 1];

/* Checks `st` against `want` and the printed form of `err` (may be NULL: the call writes none),
 * then frees `err`. */
static void printed(const char *what, mcp_status want, mcp_status st, mcp_error *err) {
  if (st != want) {
    fprintf(stderr, "%s: returned %d (%s), expected %d (%s)\n", what, (int)st,
            mcp_status_describe(st), (int)want, mcp_status_describe(want));
    if (err) dump_error(what, err);
    exit(1);
  }
  const char *describe = mcp_status_describe(st);
  CHECK(describe && *describe);
  if (err) {
    mcp_str m = mcp_error_message(err);
    char line[1024];
    snprintf(line, sizeof line, "%s: %.*s", describe, (int)m.len, m.data);
    if (mcp_error_status(err) != st || m.len == 0 ||
        strncmp(m.data, describe, strlen(describe)) == 0) {
      fprintf(stderr, "%s: the error says status %d, printed as \"%s\"\n", what,
              (int)mcp_error_status(err), line);
      exit(1);
    }
    printf("  %-22s %s\n", what, line);
    mcp_error_free(err);
  } else {
    printf("  %-22s %s\n", what, describe);
  }
  seen[st] = true;
}

/* --- handlers --------------------------------------------------------------------------------- */

static mcp_client *g_client; /* for the handler that calls back into the client */
static _Atomic(mcp_responder *) g_held;

/* Keeps its responder unanswered (the client times out or cancels); answered at the end. */
static void hold(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder *old = atomic_exchange(&g_held, r);
  if (old) {
    mcp_responder_tool_error(old, MCP_LIT("replaced"));
    mcp_responder_free(old);
  }
}

/* Makes a blocking client call from a library thread: MCP_STATUS_WRONG_THREAD. */
static void reenter(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_call_tool(g_client, MCP_LIT("hold"), NULL, 0, &out, &err);
  printed("blocking in a callback", MCP_STATUS_WRONG_THREAD, st, err);
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[]}")));
  mcp_responder_free(r);
}

/* Answers with content its outputSchema refuses (the client gets the reason), then again. */
static void misshaped(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_error *err = NULL;
  mcp_status st = mcp_responder_result_checked(r, MCP_LIT("{\"structuredContent\":{\"n\":\"one\"}}"), &err);
  printed("result_checked (bad)", MCP_STATUS_INVALID_RESULT, st, err);
  /* The client was answered with that reason: the responder has been used. */
  err = NULL;
  st = mcp_responder_result_checked(r, MCP_LIT("{\"structuredContent\":{\"n\":2}}"), &err);
  printed("result_checked (again)", MCP_STATUS_ALREADY_USED, st, err);
  mcp_responder_free(r);
}

/* Asks for the session of its (2026-07-28) request: MCP_STATUS_NO_SESSION. */
static void sessionless(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_session *session = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_request_session(req, &session, &err);
  printed("session of a modern call", MCP_STATUS_NO_SESSION, st, err);
  CHECK(session == NULL);
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[]}")));
  mcp_responder_free(r);
}

static void cancelled_cb(void *ud, mcp_status st, mcp_string *result, mcp_error *err) {
  atomic_int *done = ud;
  mcp_string_free(result);
  printed("call_cancel (callback)", MCP_STATUS_CANCELLED, st, err);
  atomic_store(done, 1);
}

/* --- raw peers --------------------------------------------------------------------------------- */

typedef struct {
  int in, out;       /* the peer reads the client's lines from `in`, writes to `out` */
  const char *reply; /* printf format with one %s: the request id */
} raw_peer;

/* Reads one line (up to 4 KiB) from `fd` into `buf`. */
static size_t read_line(int fd, char *buf, size_t cap) {
  size_t n = 0;
  while (n + 1 < cap && read(fd, buf + n, 1) == 1 && buf[n] != '\n') n++;
  buf[n] = 0;
  return n;
}

/* Answers the first request it reads with `reply` (its id copied in), then reads until EOF. */
static void *raw_peer_main(void *arg) {
  raw_peer *p = arg;
  char line[4096], id[64] = "null", out[8192];
  while (read_line(p->in, line, sizeof line) > 0) {
    const char *at = strstr(line, "\"id\":");
    if (!at) continue; /* a notification */
    at += 5;
    size_t k = 0;
    while (at[k] && at[k] != ',' && at[k] != '}' && k + 1 < sizeof id) k++;
    memcpy(id, at, k);
    id[k] = 0;
    int n = snprintf(out, sizeof out, p->reply, id);
    CHECK(write(p->out, out, (size_t)n) == n);
    break;
  }
  while (read_line(p->in, line, sizeof line) > 0) {
  }
  close(p->in);
  close(p->out);
  return NULL;
}

/* A client (pinned to `version`) connected to a raw peer answering with `reply`; `connect_st` is
 * what connecting returned (the client is NULL unless OK). */
static mcp_client *raw_client(mcp_runtime *rt, const char *version, raw_peer *peer, pthread_t *t,
                              mcp_status *connect_st, mcp_error **err) {
  int to_peer[2], from_peer[2];
  CHECK(pipe(to_peer) == 0 && pipe(from_peer) == 0);
  peer->in = to_peer[0];
  peer->out = from_peer[1];
  CHECK(pthread_create(t, NULL, raw_peer_main, peer) == 0);
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  OK(mcp_client_builder_new(MCP_LIT("statuses"), MCP_LIT("1.0"), &b));
  OK(mcp_client_builder_set_protocol_version(b, version, strlen(version)));
  OK(mcp_client_builder_set_timeout_ms(b, 5000));
  *connect_st = mcp_client_builder_connect_fds(b, rt, from_peer[0], to_peer[1], &c, err);
  mcp_client_builder_free(b);
  return c;
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_error *err = NULL;
  mcp_status st;

  /* Arguments. */
  mcp_server_builder *b = NULL;
  printed("NULL name", MCP_STATUS_NULL_PARAMETER,
          mcp_server_builder_new(NULL, 1, MCP_LIT("1.0"), &b), NULL);
  printed("name not UTF-8", MCP_STATUS_INVALID_UTF8,
          mcp_server_builder_new("\xff", 1, MCP_LIT("1.0"), &b), NULL);
  mcp_string *value = NULL;
  printed("json_get of bad JSON", MCP_STATUS_INVALID_JSON,
          mcp_json_get(MCP_LIT("{\"a\":"), MCP_LIT("/a"), &value), NULL);
  printed("json_get of nothing", MCP_STATUS_NOT_FOUND,
          mcp_json_get(MCP_LIT("{\"a\":1}"), MCP_LIT("/b"), &value), NULL);
  mcp_server_config *cfg = NULL;
  OK(mcp_server_config_new(&cfg));
  printed("page size 0", MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_page_size(cfg, 0), NULL);
  mcp_server_config_free(cfg);

  /* A server with the handlers above, served over a socket pair to a client. */
  OK(mcp_server_builder_new(MCP_LIT("statuses"), MCP_LIT("1.0"), &b));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"hold\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 hold, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"reenter\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 reenter, NULL, NULL));
  OK(mcp_server_builder_add_tool(b, MCP_LIT("{\"name\":\"sessionless\",\"inputSchema\":{\"type\":\"object\"}}"),
                                 sessionless, NULL, NULL));
  OK(mcp_server_builder_add_tool(
      b,
      MCP_LIT("{\"name\":\"misshaped\",\"inputSchema\":{\"type\":\"object\"},\"outputSchema\":"
              "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}}"),
      misshaped, NULL, NULL));
  mcp_server *s = NULL;
  OK(mcp_server_builder_build(b, &s, &err));
  mcp_server *again = NULL;
  err = NULL;
  st = mcp_server_builder_build(b, &again, &err);
  printed("build twice", MCP_STATUS_ALREADY_USED, st, err);
  mcp_server_builder_free(b);

  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  mcp_serve *serve = NULL;
  OK(mcp_server_serve_fds(s, rt, sv[0], sv[0], &serve));
  mcp_client_builder *cb = NULL;
  OK(mcp_client_builder_new(MCP_LIT("statuses"), MCP_LIT("1.0"), &cb));
  OK(mcp_client_builder_set_timeout_ms(cb, 300));
  err = NULL;
  st = mcp_client_builder_connect_fds(cb, rt, sv[1], sv[1], &g_client, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  CHECK(st == MCP_STATUS_OK);
  mcp_client_builder_free(cb);

  mcp_string *out = NULL;
  err = NULL;
  st = mcp_client_call_tool(g_client, MCP_LIT("no-such-tool"), NULL, 0, &out, &err);
  printed("call an unknown tool", MCP_STATUS_RPC_ERROR, st, err);
  err = NULL;
  st = mcp_client_call_tool(g_client, MCP_LIT("hold"), NULL, 0, &out, &err);
  printed("call past its timeout", MCP_STATUS_TIMEOUT, st, err);
  err = NULL;
  OK(mcp_client_call_tool(g_client, MCP_LIT("reenter"), NULL, 0, &out, &err));
  mcp_string_free(out);
  err = NULL;
  OK(mcp_client_call_tool(g_client, MCP_LIT("sessionless"), NULL, 0, &out, &err));
  mcp_string_free(out);
  err = NULL;
  st = mcp_client_call_tool(g_client, MCP_LIT("misshaped"), NULL, 0, &out, &err);
  CHECK(st == MCP_STATUS_RPC_ERROR && view_has(mcp_error_message(err), "violates its outputSchema"));
  mcp_error_free(err);

  atomic_int done = 0;
  mcp_call *call = NULL;
  OK(mcp_client_call_tool_async(g_client, MCP_LIT("hold"), NULL, 0, 0, NULL, cancelled_cb, &done,
                                NULL, &call));
  OK(mcp_call_cancel(call));
  for (int i = 0; i < 500 && !atomic_load(&done); i++) sleep_ms(10);
  CHECK(atomic_load(&done));
  mcp_call_free(call);

  mcp_responder *held = atomic_exchange(&g_held, NULL);
  if (held) {
    mcp_responder_tool_error(held, MCP_LIT("done"));
    mcp_responder_free(held);
  }
  mcp_client_free(g_client);
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);

  /* Operating-system errors: an address in use. */
  int busy = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof addr;
  CHECK(bind(busy, (struct sockaddr *)&addr, sizeof addr) == 0 && listen(busy, 1) == 0);
  CHECK(getsockname(busy, (struct sockaddr *)&addr, &len) == 0);
  char bind_to[64];
  int n = snprintf(bind_to, sizeof bind_to, "127.0.0.1:%u", (unsigned)ntohs(addr.sin_port));
  mcp_http_server_config *hc = NULL;
  OK(mcp_http_server_config_new(&hc));
  OK(mcp_http_server_config_set_bind(hc, bind_to, (size_t)n));
  mcp_http_server *http = NULL;
  err = NULL;
  st = mcp_server_serve_http(s, rt, hc, &http, &err);
  printed("serve on a busy port", MCP_STATUS_IO, st, err);
  mcp_http_server_config_free(hc);

  /* Transport: nobody listens (the busy socket is closed first; its port is then free). */
  close(busy);
  char url[96];
  n = snprintf(url, sizeof url, "http://%s/mcp", bind_to);
  OK(mcp_client_builder_new(MCP_LIT("statuses"), MCP_LIT("1.0"), &cb));
  mcp_client *c = NULL;
  err = NULL;
  st = mcp_client_builder_connect_http(cb, rt, url, (size_t)n, NULL, 0, &c, &err);
  printed("connect to no server", MCP_STATUS_TRANSPORT, st, err);
  mcp_client_builder_free(cb);
  mcp_server_free(s);

  /* A peer that answers initialize with a revision nobody knows. */
  raw_peer nego = {.reply = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"1999-01-01\","
                            "\"capabilities\":{},\"serverInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}\n"};
  pthread_t t;
  err = NULL;
  c = raw_client(rt, "2025-11-25", &nego, &t, &st, &err);
  printed("unknown revision", MCP_STATUS_NEGOTIATION, st, err);
  CHECK(c == NULL);
  pthread_join(t, NULL);

  /* A modern peer whose answer to the era probe has a resultType the revision does not define. */
  raw_peer proto = {.reply = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"resultType\":\"bogus\"}}\n"};
  err = NULL;
  c = raw_client(rt, "2026-07-28", &proto, &t, &st, &err);
  printed("unknown resultType", MCP_STATUS_PROTOCOL, st, err);
  CHECK(c == NULL);
  pthread_join(t, NULL);

  /* The panic status: described, never provoked. */
  printed("(panic: described)", MCP_STATUS_PANIC, MCP_STATUS_PANIC, NULL);
  for (int i = 1; i <= LAST_STATUS; i++) {
    if (!seen[i]) {
      fprintf(stderr, "status %d (%s) was not provoked\n", i, mcp_status_describe((mcp_status)i));
      return 1;
    }
  }
  mcp_runtime_free(rt);
  printf("statuses: all %d provoked and printed\n", LAST_STATUS);
  return 0;
}
