/* mcp_http_server_config_set_session_store and _set_event_store: two HTTP server instances sharing
 * one session store and one event store written in C (locked tables). A legacy session opened on
 * instance A is served by instance B from the record A saved; the record is the core's JSON form
 * (version, initialized, log level); a level set on B reaches the store; the SSE events B sent are
 * appended to the C event store and a client resumes them on A with Last-Event-ID (replayed from
 * the C store); DELETE on B ends the session on A too (404) and forgets its events; a failing store
 * is 503, a corrupt record 500; NULL callbacks are refused; each userdata is released exactly once,
 * after both servers stopped. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "check.h"
#include "raw_http.h"

#define SLOTS 8

/* The shared store. */
static struct {
  pthread_mutex_t lock;
  char id[SLOTS][128];
  char *json[SLOTS];
  int failing; /* every callback fails while set */
  int loads, saves, removes;
} store = {PTHREAD_MUTEX_INITIALIZER, {{0}}, {0}, 0, 0, 0, 0};

static atomic_int released;


static int slot_of(const char *id) {
  for (int i = 0; i < SLOTS; i++)
    if (store.json[i] && strcmp(store.id[i], id) == 0) return i;
  return -1;
}

static bool load(void *ud, const char *id, size_t len, mcp_string **record_out) {
  CHECK(ud == &store && id[len] == '\0');
  pthread_mutex_lock(&store.lock);
  store.loads++;
  int i = slot_of(id);
  bool ok = !store.failing;
  if (ok && i >= 0) OK(mcp_string_new(store.json[i], strlen(store.json[i]), record_out));
  pthread_mutex_unlock(&store.lock);
  return ok;
}

static bool save(void *ud, const char *id, size_t len, const char *json, size_t json_len) {
  CHECK(ud == &store && id[len] == '\0' && json[json_len] == '\0');
  pthread_mutex_lock(&store.lock);
  store.saves++;
  int i = slot_of(id);
  for (int j = 0; i < 0 && j < SLOTS; j++)
    if (!store.json[j]) i = j;
  CHECK(i >= 0 && len < sizeof store.id[0]);
  free(store.json[i]);
  store.json[i] = strdup(json);
  memcpy(store.id[i], id, len + 1);
  bool ok = !store.failing;
  pthread_mutex_unlock(&store.lock);
  return ok;
}

static bool remove_record(void *ud, const char *id, size_t len, bool *removed_out) {
  CHECK(ud == &store && id[len] == '\0');
  pthread_mutex_lock(&store.lock);
  store.removes++;
  int i = slot_of(id);
  *removed_out = i >= 0;
  if (i >= 0) {
    free(store.json[i]);
    store.json[i] = NULL;
  }
  pthread_mutex_unlock(&store.lock);
  return true;
}

/* ---- the shared event store ---- */

#define EVENTS 64

static struct {
  pthread_mutex_t lock;
  struct {
    char session[128];
    uint64_t stream, seq;
    uint32_t kind;
    int32_t code;
    char *data;
  } e[EVENTS];
  int count, replays, removed;
} events = {PTHREAD_MUTEX_INITIALIZER, {{{0}, 0, 0, 0, 0, NULL}}, 0, 0, 0};

static void append(void *ud, const char *session, size_t len, uint64_t stream, uint64_t seq,
                   uint32_t kind, int32_t code, const char *data, size_t data_len) {
  CHECK(ud == &events && session[len] == '\0' && data[data_len] == '\0');
  CHECK(kind <= MCP_EVENT_REQUEST && (kind == MCP_EVENT_ERROR || code == 0));
  pthread_mutex_lock(&events.lock);
  CHECK(events.count < EVENTS && len < sizeof events.e[0].session);
  int i = events.count++;
  memcpy(events.e[i].session, session, len + 1);
  events.e[i].stream = stream;
  events.e[i].seq = seq;
  events.e[i].kind = kind;
  events.e[i].code = code;
  events.e[i].data = strdup(data);
  pthread_mutex_unlock(&events.lock);
}

static uint32_t replay(void *ud, const char *session, size_t len, uint64_t stream, uint64_t after,
                       mcp_event_list *out) {
  CHECK(ud == &events && session[len] == '\0');
  pthread_mutex_lock(&events.lock);
  events.replays++;
  uint64_t last = 0;
  for (int i = 0; i < events.count; i++)
    if (events.e[i].data && events.e[i].stream == stream && !strcmp(events.e[i].session, session))
      last = events.e[i].seq;
  uint32_t outcome = after > last ? MCP_REPLAY_UNKNOWN : MCP_REPLAY_OK;
  int pushed = 0;
  for (int i = 0; outcome == MCP_REPLAY_OK && i < events.count; i++)
    if (events.e[i].data && events.e[i].stream == stream && events.e[i].seq > after &&
        !strcmp(events.e[i].session, session)) {
      OK(mcp_event_list_push(out, events.e[i].seq, events.e[i].kind, events.e[i].code,
                             events.e[i].data, strlen(events.e[i].data)));
      pushed++;
    }
  /* Misuse of the list, refused without changing it: an unknown kind, a seq that does not grow. */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_event_list_push(out, 1000, 9, 0, MCP_LIT("{}")));
  if (pushed)
    EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_event_list_push(out, 1, MCP_EVENT_RESULT, 0, MCP_LIT("{}")));
  pthread_mutex_unlock(&events.lock);
  return outcome;
}

static void forget(void *ud, const char *session, size_t len) {
  CHECK(ud == &events && session[len] == '\0');
  pthread_mutex_lock(&events.lock);
  events.removed++;
  for (int i = 0; i < events.count; i++)
    if (events.e[i].data && !strcmp(events.e[i].session, session)) {
      free(events.e[i].data);
      events.e[i].data = NULL;
    }
  pthread_mutex_unlock(&events.lock);
}

/* How many events of `session` the store holds. */
static int events_of(const char *session) {
  pthread_mutex_lock(&events.lock);
  int n = 0;
  for (int i = 0; i < events.count; i++) n += events.e[i].data && !strcmp(events.e[i].session, session);
  pthread_mutex_unlock(&events.lock);
  return n;
}

static void release(void *ud) {
  CHECK(ud == &store || ud == &events);
  atomic_fetch_add(&released, 1);
}

/* The record of `id` contains `needle`. */
static int record_has(const char *id, const char *needle) {
  pthread_mutex_lock(&store.lock);
  int i = slot_of(id);
  int found = i >= 0 && strstr(store.json[i], needle) != NULL;
  pthread_mutex_unlock(&store.lock);
  return found;
}

static void replace_record(const char *id, const char *json) {
  pthread_mutex_lock(&store.lock);
  int i = slot_of(id);
  CHECK(i >= 0);
  free(store.json[i]);
  store.json[i] = strdup(json);
  pthread_mutex_unlock(&store.lock);
}

/* A POST of `body` to instance `port` in session `session` (NULL: none). */
static void expect_status(char *answer, const char *status_line) {
  if (strncmp(answer, status_line, strlen(status_line)) != 0) {
    fprintf(stderr, "expected %s, got:\n%s\n", status_line, answer);
    exit(1);
  }
  free(answer);
}

/* Two progress notifications, then the result. */
static void steps(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_progress(r, 1, true, 2, NULL, 0, NULL));
  OK(mcp_responder_progress(r, 2, true, 2, NULL, 0, NULL));
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}")));
  mcp_responder_free(r);
}

static mcp_http_server *start(mcp_server *s, mcp_runtime *rt, mcp_http_server_config *config) {
  mcp_http_server *http = NULL;
  OK(mcp_server_serve_http(s, rt, config, &http, NULL));
  return http;
}

int main(void) {
  mcp_http_server_config *config = NULL;
  OK(mcp_http_server_config_new(&config));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_server_config_set_session_store(config, load, NULL, remove_record, &store, release));
  CHECK(atomic_load(&released) == 1); /* taken and released also on failure */
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_server_config_set_session_store(NULL, load, save, remove_record, &store, release));
  CHECK(atomic_load(&released) == 2);
  OK(mcp_http_server_config_set_session_store(config, load, save, remove_record, &store, release));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_http_server_config_set_event_store(config, append, replay, NULL, &events, release));
  CHECK(atomic_load(&released) == 3);
  OK(mcp_http_server_config_set_event_store(config, append, replay, forget, &events, release));
  OK(mcp_http_server_config_set_bind(config, MCP_LIT("127.0.0.1:0")));

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  const test_tool tools[] = {
      {"{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}", echoed_tool},
      {"{\"name\":\"steps\",\"inputSchema\":{\"type\":\"object\"}}", steps},
  };
  mcp_server *s = tool_server("store-c", tools, 2);
  mcp_http_server *a = start(s, rt, config), *bb = start(s, rt, config);
  mcp_http_server_config_free(config);
  CHECK(atomic_load(&released) == 3); /* the servers keep the stores */
  unsigned short pa = mcp_http_server_port(a), pb = mcp_http_server_port(bb);

  /* initialize on A: the record is saved. */
  char *answer = post_legacy(pa, NULL,
                      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                      "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{"
                      "\"name\":\"c-test\",\"version\":\"1\"}}}");
  char sid[128];
  header_of(answer, "mcp-session-id", sid, sizeof sid);
  CHECK(strncmp(answer, "HTTP/1.1 200 ", 13) == 0 && sid[0] != '\0');
  free(answer);
  CHECK(record_has(sid, "\"protocolVersion\":\"2025-11-25\""));
  CHECK(record_has(sid, "\"initialized\":false"));
  CHECK(record_has(sid, "\"clientInfo\":{\"name\":\"c-test\",\"version\":\"1\"}"));
  expect_status(post_legacy(pa, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                "HTTP/1.1 202 ");
  CHECK(record_has(sid, "\"initialized\":true"));

  /* B never saw the session: it serves it from the record. */
  answer = post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
                         "\"name\":\"echo\",\"arguments\":{}}}");
  CHECK(strncmp(answer, "HTTP/1.1 200 ", 13) == 0 && strstr(answer, "echoed"));
  free(answer);
  /* A change on B is saved for everyone. */
  expect_status(post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"logging/setLevel\","
                              "\"params\":{\"level\":\"warning\"}}"),
                "HTTP/1.1 200 ");
  CHECK(record_has(sid, "\"logLevel\":\"warning\""));

  /* B's SSE events go to the C event store; A replays them from there (Last-Event-ID). */
  answer = post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
                         "\"name\":\"steps\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p\"}}}");
  char ids[4][64];
  int nids = 0;
  for (const char *l = strstr(answer, "\nid: "); l && nids < 4; l = strstr(l + 1, "\nid: ")) {
    size_t n = strcspn(l + 5, "\r\n");
    CHECK(n < sizeof ids[0]);
    memcpy(ids[nids], l + 5, n);
    ids[nids++][n] = '\0';
  }
  if (nids != 4 || !strstr(answer, "\"text\":\"done\"")) {
    fprintf(stderr, "expected priming, two progress events and the result:\n%s\n", answer);
    exit(1);
  }
  free(answer);
  CHECK(events_of(sid) >= 3);
  char resume[512];
  snprintf(resume, sizeof resume,
           "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
           "Accept: text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n"
           "Last-Event-ID: %s\r\n\r\n",
           pa, sid, ids[1]);
  answer = exchange(pa, resume);
  if (strncmp(answer, "HTTP/1.1 200 ", 13) != 0 || !strstr(answer, "\"progress\":2") ||
      strstr(answer, "\"progress\":1,") || !strstr(answer, "\"text\":\"done\"")) {
    fprintf(stderr, "expected the replay of the second progress event and the result:\n%s\n", answer);
    exit(1);
  }
  free(answer);
  pthread_mutex_lock(&events.lock);
  CHECK(events.replays >= 1);
  pthread_mutex_unlock(&events.lock);

  /* A failing store: 503. A corrupt record: 500 naming the problem. */
  pthread_mutex_lock(&store.lock);
  store.failing = 1;
  pthread_mutex_unlock(&store.lock);
  expect_status(post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}"), "HTTP/1.1 503 ");
  pthread_mutex_lock(&store.lock);
  store.failing = 0;
  pthread_mutex_unlock(&store.lock);
  pthread_mutex_lock(&store.lock);
  int i = slot_of(sid);
  char *saved = strdup(store.json[i]);
  pthread_mutex_unlock(&store.lock);
  replace_record(sid, "{not json");
  answer = post_legacy(pb, sid, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
  CHECK(strncmp(answer, "HTTP/1.1 500 ", 13) == 0 && strstr(answer, "corrupt"));
  free(answer);
  replace_record(sid, saved);
  free(saved);

  /* DELETE on B ends the session everywhere. */
  char req[512];
  snprintf(req, sizeof req,
           "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
           "Mcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n",
           pb, sid);
  answer = exchange(pb, req);
  CHECK(strncmp(answer, "HTTP/1.1 2", 10) == 0);
  free(answer);
  CHECK(slot_of(sid) < 0);
  CHECK(events_of(sid) == 0); /* the session's events are forgotten */
  expect_status(post_legacy(pa, sid, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}"), "HTTP/1.1 404 ");
  pthread_mutex_lock(&store.lock);
  CHECK(store.loads > 0 && store.saves >= 3 && store.removes >= 1);
  pthread_mutex_unlock(&store.lock);

  mcp_http_server_free(a);
  mcp_http_server_free(bb);
  mcp_server_free(s);
  mcp_runtime_free(rt);
  CHECK(atomic_load(&released) == 5);
  for (int j = 0; j < SLOTS; j++) free(store.json[j]);
  for (int j = 0; j < events.count; j++) free(events.e[j].data);
  printf("multi_instance: all checks passed\n");
  return 0;
}
