/* mcp_request_session: a handler's handle on its legacy session, kept after its request was
 * answered, sending notifications/elicitation/complete and any server notification of the
 * session's revision (exact bytes on a socket the test reads raw), and every refusal: a 2026-07-28
 * request (MCP_STATUS_NO_SESSION), an unknown method, invalid params, params that are not JSON,
 * the elicitation.url capability not declared, the session ended (MCP_STATUS_TRANSPORT). */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "lines.h"

static _Atomic(mcp_session *) g_session;
static mcp_status g_taken; /* what mcp_request_session returned in the last call of `pay` */
static char g_message[512]; /* and the message of its error, if any */

/* Keeps the session of its request and answers at once. */
static void pay(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_session *s = NULL;
  mcp_error *err = NULL;
  g_taken = mcp_request_session(req, &s, &err);
  g_message[0] = '\0';
  if (err) {
    mcp_str m = mcp_error_message(err);
    snprintf(g_message, sizeof g_message, "%.*s", (int)m.len, m.data);
    CHECK(mcp_error_status(err) == g_taken);
    mcp_error_free(err);
  }
  CHECK((g_taken == MCP_STATUS_OK) == (s != NULL));
  mcp_session *old = atomic_exchange(&g_session, s);
  mcp_session_free(old);
  OK(mcp_responder_text(r, MCP_LIT("started")));
  mcp_responder_free(r);
}

static const char init_url[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{\"elicitation\":{\"url\":{}}},\"clientInfo\":{\"name\":\"t\","
    "\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
static const char init_form[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"t\","
    "\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
static const char call[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"pay\"}}\n";
static const char started[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"text\":\"started\",\"type\":"
    "\"text\"}]}}";

/* Serves `s` on a fresh socket, sends `init` and the call; returns the test's end. */
static int start(mcp_server *s, mcp_runtime *rt, const char *init, mcp_serve **serve) {
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  OK(mcp_server_serve_fds(s, rt, sv[0], sv[0], serve));
  write_all(sv[1], init);
  char line[4096];
  read_line(sv[1], line, sizeof line);
  CHECK(strstr(line, "\"protocolVersion\":\"2025-11-25\"") != NULL);
  write_all(sv[1], call);
  expect_line(sv[1], started);
  EXPECT(MCP_STATUS_OK, g_taken);
  return sv[1];
}

static void end(int fd, mcp_serve *serve) {
  CHECK(shutdown(fd, SHUT_WR) == 0);
  OK(mcp_serve_wait(serve, NULL));
  mcp_serve_free(serve);
  close(fd);
}

int main(void) {
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  static const test_tool tools[] = {{"{\"name\":\"pay\"}", pay}};
  mcp_server *s = tool_server("session", tools, 1);

  /* The client declared URL-mode elicitation: the notification, exact, after the answer. */
  mcp_serve *serve = NULL;
  int fd = start(s, rt, init_url, &serve);
  mcp_session *session = atomic_exchange(&g_session, NULL);
  CHECK(mcp_session_is_open(session));
  OK(mcp_session_elicitation_complete(session, MCP_LIT("pay-1"), NULL));
  expect_line(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/elicitation/complete\","
                  "\"params\":{\"elicitationId\":\"pay-1\"}}");
  OK(mcp_session_notify(session, MCP_LIT("notifications/message"),
                        MCP_LIT("{\"level\":\"info\",\"data\":\"paid\"}"), NULL));
  expect_line(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
                  "{\"data\":\"paid\",\"level\":\"info\"}}");
  OK(mcp_session_notify(session, MCP_LIT("notifications/tools/list_changed"), NULL, 0, NULL));
  expect_line(fd, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");

  /* Refusals: nothing is sent. */
  mcp_error *err = NULL;
  mcp_status st = mcp_session_notify(session, MCP_LIT("notifications/nope"), NULL, 0, &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "notifications/nope is not a server notification of protocol revision 2025-11-25");
  err = NULL;
  st = mcp_session_notify(session, MCP_LIT("notifications/elicitation/complete"),
                          MCP_LIT("{\"elicitationId\":7}"), &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "invalid params: the notification notifications/elicitation/complete cannot be "
          "expressed in protocol revision 2025-11-25: params.elicitationId: must be of type "
          "string, not number");
  EXPECT(MCP_STATUS_INVALID_JSON,
         mcp_session_notify(session, MCP_LIT("notifications/message"), MCP_LIT("{"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_session_notify(NULL, MCP_LIT("notifications/message"), NULL, 0, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_session_elicitation_complete(session, MCP_LIT("\xff"), NULL));

  /* The session ends: refused, and nothing of it is kept alive by the handle. */
  end(fd, serve);
  CHECK(!mcp_session_is_open(session));
  err = NULL;
  st = mcp_session_elicitation_complete(session, MCP_LIT("pay-1"), &err);
  expect_refused(MCP_STATUS_TRANSPORT, st, err, "the session has ended: no notification can reach it");
  mcp_session_free(session);

  /* Form mode only: elicitation/complete is refused. */
  fd = start(s, rt, init_form, &serve);
  session = atomic_exchange(&g_session, NULL);
  err = NULL;
  st = mcp_session_elicitation_complete(session, MCP_LIT("pay-2"), &err);
  expect_refused(MCP_STATUS_INVALID_ARGUMENT, st, err,
          "the client did not declare the elicitation.url capability");
  mcp_session_free(session);
  end(fd, serve);

  /* A 2026-07-28 request has no session. */
  int sv[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  OK(mcp_server_serve_fds(s, rt, sv[0], sv[0], &serve));
  write_all(sv[1], "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                   "\"pay\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                   "\"io.modelcontextprotocol/clientCapabilities\":{},"
                   "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}}\n");
  char line[4096];
  read_line(sv[1], line, sizeof line);
  CHECK(strstr(line, "\"started\"") != NULL);
  EXPECT(MCP_STATUS_NO_SESSION, g_taken);
  CHECK(strcmp(g_message, "no session to notify: protocol revision 2026-07-28 has no sessions; a "
                          "request's notifications travel only in its own response stream") == 0);
  CHECK(atomic_load(&g_session) == NULL);
  end(sv[1], serve);

  mcp_session_free(NULL);
  CHECK(!mcp_session_is_open(NULL));
  mcp_server_free(s);
  mcp_runtime_free(rt);
  printf("session: ok\n");
  return 0;
}
