/* The C everything-server mounted in a libmicrohttpd web server of its own: GET /health is the
 * application's route, /mcp (and below) is the MCP endpoint (mcp_http_endpoint), and a
 * "middleware" turns the X-User header into the principal handlers read with
 * mcp_request_http_principal. The response arrives through callbacks on libmcp's runtime threads;
 * the connection is suspended (MHD_suspend_connection) while it waits for them and resumed by
 * them, so an SSE stream goes out event by event. A watcher notices clients that went away while
 * their connection is suspended (libmicrohttpd does not) and abandons their exchange, which
 * cancels the handler.
 *
 * Usage: mhd-server [IP:PORT]   (default 127.0.0.1:0, a free port) prints
 *        "listening on http://IP:PORT/mcp" on stderr and serves until SIGINT or SIGTERM.
 * Build: cc -std=c11 mhd-server.c $(pkg-config --cflags --libs mcp libmicrohttpd) -lpthread
 *        (everything-server.c must be beside it: its fixtures are compiled in). */

/* The fixtures, the server they build (build(), the_server) and their helpers; its main() is
 * renamed out of the way. */
#define main everything_server_main
#include "everything-server.c"
#undef main

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/types.h>

/* One request routed to the endpoint, from its first byte to the end of its connection's use. */
struct pending {
  struct MHD_Connection *conn;
  struct pending *next; /* in `live` */
  char *body;           /* the request body, up to the endpoint's limit plus one byte */
  size_t body_len, body_cap;
  mcp_http_exchange *exchange;
  pthread_mutex_t lock; /* the fields below, shared with the runtime's callbacks */
  int suspended, has_head, ended, gone;
  unsigned status;
  char **headers; /* name, value, name, value, ... */
  size_t n_headers;
  char *out; /* body bytes not yet handed to libmicrohttpd */
  size_t out_len;
};

static mcp_http_endpoint *endpoint;
static size_t max_body;

/* Every pending request, for the watcher and for shutdown. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *live;

/* Resumes the connection if it waits (p->lock held). */
static void wake(struct pending *p) {
  if (p->suspended) {
    p->suspended = 0;
    MHD_resume_connection(p->conn);
  }
}

/* ---- the response callbacks, on a runtime thread ---- */

static void on_head(void *ud, uint16_t status, const mcp_header *headers, size_t n) {
  struct pending *p = ud;
  pthread_mutex_lock(&p->lock);
  p->status = status;
  p->headers = calloc(2 * n + 1, sizeof *p->headers);
  for (size_t i = 0; p->headers && i < n; i++) {
    p->headers[2 * i] = strdup(headers[i].name.data); /* NUL-terminated views */
    p->headers[2 * i + 1] = strdup(headers[i].value.data);
  }
  p->n_headers = p->headers ? n : 0;
  p->has_head = 1;
  wake(p);
  pthread_mutex_unlock(&p->lock);
}

static void on_body(void *ud, const uint8_t *data, size_t len) {
  struct pending *p = ud;
  pthread_mutex_lock(&p->lock);
  char *grown = realloc(p->out, p->out_len + len);
  if (grown) {
    memcpy(grown + p->out_len, data, len);
    p->out = grown;
    p->out_len += len;
  }
  wake(p);
  pthread_mutex_unlock(&p->lock);
}

static void on_end(void *ud) {
  struct pending *p = ud;
  pthread_mutex_lock(&p->lock);
  p->ended = 1;
  wake(p);
  pthread_mutex_unlock(&p->lock);
}

static const mcp_http_response_callbacks CALLBACKS = {on_head, on_body, on_end};

/* ---- libmicrohttpd's callbacks, on its thread ---- */

/* Streams the body: what the callbacks delivered so far, else suspends until they deliver more. */
static ssize_t read_body(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  struct pending *p = cls;
  pthread_mutex_lock(&p->lock);
  ssize_t n = 0;
  if (p->gone) {
    n = MHD_CONTENT_READER_END_WITH_ERROR;
  } else if (p->out_len > 0) {
    n = (ssize_t)(p->out_len < max ? p->out_len : max);
    memcpy(buf, p->out, (size_t)n);
    memmove(p->out, p->out + n, p->out_len - (size_t)n);
    p->out_len -= (size_t)n;
  } else if (p->ended) {
    n = MHD_CONTENT_READER_END_OF_STREAM;
  } else {
    p->suspended = 1;
    MHD_suspend_connection(p->conn);
  }
  pthread_mutex_unlock(&p->lock);
  return n;
}

/* Queues the response once the head is there (p->lock held): the whole body at once when it is
 * complete, else a stream read by read_body. */
static enum MHD_Result respond(struct pending *p) {
  struct MHD_Response *r =
      p->ended ? MHD_create_response_from_buffer(p->out_len, p->out, MHD_RESPMEM_MUST_COPY)
               : MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, read_body, p, NULL);
  if (p->ended) p->out_len = 0;
  for (size_t i = 0; r && i < p->n_headers; i++) {
    const char *name = p->headers[2 * i];
    /* libmicrohttpd frames the body itself. */
    if (strcmp(name, "content-length") && strcmp(name, "transfer-encoding"))
      MHD_add_response_header(r, name, p->headers[2 * i + 1]);
  }
  enum MHD_Result ok = r ? MHD_queue_response(p->conn, p->status, r) : MHD_NO;
  MHD_destroy_response(r);
  return ok;
}

static enum MHD_Result plain(struct MHD_Connection *c, unsigned status, const char *text) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(r, "content-type", "text/plain");
  enum MHD_Result ok = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return ok;
}

/* Collects the request headers for mcp_http_endpoint_handle. */
struct header_list {
  mcp_header items[128];
  size_t n;
  const char *user; /* the X-User header, for the middleware */
};

static enum MHD_Result collect(void *cls, enum MHD_ValueKind kind, const char *key,
                               const char *value) {
  (void)kind;
  struct header_list *h = cls;
  if (strcasecmp(key, "x-user") == 0) h->user = value;
  if (h->n == sizeof h->items / sizeof h->items[0]) return MHD_NO;
  h->items[h->n++] = (mcp_header){{key, strlen(key)}, {value, value ? strlen(value) : 0}};
  return MHD_YES;
}

/* Hands the complete request to the endpoint and waits (suspended) for the response head. */
static enum MHD_Result start_exchange(struct pending *p, const char *method, const char *url) {
  struct header_list h = {.n = 0, .user = NULL};
  MHD_get_connection_values(p->conn, MHD_HEADER_KIND, collect, &h);
  /* The middleware: what it established reaches handlers (mcp_request_http_principal). */
  mcp_http_host_context host = {{h.user ? h.user : "", h.user ? strlen(h.user) : 0}, NULL, NULL};
  mcp_status st = mcp_http_endpoint_handle(endpoint, method, strlen(method), url, strlen(url),
                                           h.items, h.n, (const uint8_t *)p->body, p->body_len,
                                           &host, &CALLBACKS, p, &p->exchange);
  if (st != MCP_STATUS_OK) return plain(p->conn, MHD_HTTP_BAD_REQUEST, mcp_status_describe(st));
  pthread_mutex_lock(&p->lock);
  enum MHD_Result ok = MHD_YES;
  if (p->has_head) {
    ok = respond(p);
  } else {
    p->suspended = 1;
    MHD_suspend_connection(p->conn);
  }
  pthread_mutex_unlock(&p->lock);
  return ok;
}

static int is_mcp(const char *url) {
  return strcmp(url, "/mcp") == 0 || strncmp(url, "/mcp/", 5) == 0;
}

static enum MHD_Result route(void *cls, struct MHD_Connection *conn, const char *url,
                             const char *method, const char *version, const char *upload,
                             size_t *upload_size, void **state) {
  (void)cls, (void)version;
  struct pending *p = *state;
  if (!is_mcp(url)) {
    if (*upload_size) {
      *upload_size = 0; /* a body for another route is not read */
      return MHD_YES;
    }
    if (strcmp(url, "/health") == 0 && strcmp(method, "GET") == 0) return plain(conn, MHD_HTTP_OK, "ok\n");
    return plain(conn, MHD_HTTP_NOT_FOUND, "not found\n");
  }
  if (!p) { /* the head arrived */
    p = calloc(1, sizeof *p);
    if (!p) return MHD_NO;
    p->conn = conn;
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_lock(&live_lock);
    p->next = live;
    live = p;
    pthread_mutex_unlock(&live_lock);
    *state = p;
    return MHD_YES;
  }
  if (*upload_size) { /* a piece of the body: kept up to one byte past the endpoint's limit */
    size_t take = *upload_size;
    if (p->body_len + take > max_body + 1) take = max_body + 1 - p->body_len;
    if (p->body_len + take > p->body_cap) {
      size_t cap = (p->body_len + take) * 2;
      char *grown = realloc(p->body, cap);
      if (!grown) return MHD_NO;
      p->body = grown;
      p->body_cap = cap;
    }
    memcpy(p->body + p->body_len, upload, take);
    p->body_len += take;
    *upload_size = 0;
    return MHD_YES;
  }
  if (!p->exchange) return start_exchange(p, method, url);
  /* Resumed: by the head, or by the watcher or shutdown. */
  pthread_mutex_lock(&p->lock);
  enum MHD_Result ok = MHD_NO;
  if (p->gone) {
    ok = MHD_NO; /* the client is gone: close */
  } else if (p->has_head) {
    ok = respond(p);
  } else if (p->ended) {
    ok = plain(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "shutting down\n");
  } else {
    p->suspended = 1; /* woken early: wait on */
    MHD_suspend_connection(conn);
    ok = MHD_YES;
  }
  pthread_mutex_unlock(&p->lock);
  return ok;
}

/* The end of a request, completed or not: the exchange is freed (abandoned if it still runs, which
 * cancels its handler), whatever the race with its callbacks. */
static void completed(void *cls, struct MHD_Connection *conn, void **state,
                      enum MHD_RequestTerminationCode why) {
  (void)cls, (void)conn, (void)why;
  struct pending *p = *state;
  if (!p) return;
  pthread_mutex_lock(&live_lock);
  for (struct pending **at = &live; *at; at = &(*at)->next) {
    if (*at == p) {
      *at = p->next;
      break;
    }
  }
  pthread_mutex_unlock(&live_lock);
  mcp_http_exchange_free(p->exchange); /* no callback of it runs after this */
  for (size_t i = 0; i < 2 * p->n_headers; i++) free(p->headers[i]);
  free(p->headers);
  free(p->out);
  free(p->body);
  pthread_mutex_destroy(&p->lock);
  free(p);
  *state = NULL;
}

/* ---- clients that go away while their connection is suspended ---- */

static atomic_int watching = 1;

/* Gives up on `p` (live_lock held): abandons its exchange and resumes its connection, which then
 * closes. */
static void give_up(struct pending *p) {
  if (p->exchange) mcp_http_exchange_abandon(p->exchange);
  pthread_mutex_lock(&p->lock);
  p->gone = 1;
  wake(p);
  pthread_mutex_unlock(&p->lock);
}

/* Every 100 ms: a suspended connection whose client closed its end (a read would return EOF) is
 * given up. */
static void *watch(void *arg) {
  (void)arg;
  while (atomic_load(&watching)) {
    pthread_mutex_lock(&live_lock);
    for (struct pending *p = live; p; p = p->next) {
      pthread_mutex_lock(&p->lock);
      int waiting = p->suspended && !p->gone;
      pthread_mutex_unlock(&p->lock);
      if (!waiting) continue;
      const union MHD_ConnectionInfo *info =
          MHD_get_connection_info(p->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
      char c;
      if (info && recv(info->connect_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0) give_up(p);
    }
    pthread_mutex_unlock(&live_lock);
    sleep_ms(100);
  }
  return NULL;
}

/* ---- two tools of the application's own ---- */

/* What the handler sees of the HTTP request: the principal the middleware set, a header the client
 * sent, the legacy session. */
static void http_whoami(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_str tag = {"", 0};
  mcp_request_http_header(q, S("x-client-tag"), &tag);
  mcp_str principal = mcp_request_http_principal(q), session = mcp_request_http_session_id(q);
  char *text = fmt("principal=%.*s tag=%.*s session=%.*s", (int)principal.len, principal.data,
                   (int)tag.len, tag.data, (int)session.len, session.data);
  finish_text(r, text);
  free(text);
}

static void said_cancelled(void *ud) {
  mcp_responder *r = ud;
  fprintf(stderr, "mhd-server: wait_until_cancelled was cancelled\n");
  mcp_responder_tool_error(r, S("cancelled"));
  mcp_responder_free(r);
}

/* Answers only when cancelled (the client went away, or cancelled it), and says so on stderr. */
static void wait_until_cancelled(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  mcp_responder_on_cancel(r, said_cancelled, r, NULL);
}

static int add_own_tools(void) {
  return mcp_server_add_tool(the_server, S("{\"name\":\"http_whoami\",\"description\":\"The "
                                           "principal, X-Client-Tag and session of the request\","
                                           "\"inputSchema\":{\"type\":\"object\"}}"),
                             http_whoami, NULL, NULL, NULL) == MCP_STATUS_OK &&
         mcp_server_add_tool(the_server, S("{\"name\":\"wait_until_cancelled\",\"description\":"
                                           "\"Answers only when cancelled\",\"inputSchema\":"
                                           "{\"type\":\"object\"}}"),
                             wait_until_cancelled, NULL, NULL, NULL) == MCP_STATUS_OK;
}

/* ---- main ---- */

static int parse_addr(const char *text, struct sockaddr_in *addr) {
  char ip[64];
  const char *colon = strrchr(text, ':');
  if (!colon || (size_t)(colon - text) >= sizeof ip) return 0;
  memcpy(ip, text, (size_t)(colon - text));
  ip[colon - text] = '\0';
  char *end = NULL;
  long port = strtol(colon + 1, &end, 10);
  memset(addr, 0, sizeof *addr);
  addr->sin_family = AF_INET;
  addr->sin_port = htons((uint16_t)port);
  return *end == '\0' && port >= 0 && port <= 65535 && inet_pton(AF_INET, ip, &addr->sin_addr) == 1;
}

int main(int argc, char **argv) {
  struct sockaddr_in addr;
  if (argc > 2 || !parse_addr(argc == 2 ? argv[1] : "127.0.0.1:0", &addr)) {
    fprintf(stderr, "usage: %s [IP:PORT]\n", argv[0]);
    return 2;
  }
  sigset_t set; /* blocked before any thread starts, so only sigwait sees them */
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);

  mcp_runtime *rt = NULL;
  if (mcp_runtime_new(0, &rt) != MCP_STATUS_OK) return 1;
  the_server = build();
  if (!the_server || !add_own_tools()) return 1;
  /* The application is reached as localhost: check Host and Origin against those names (a
   * mounted endpoint lists none by default, and checks nothing until names are listed). */
  mcp_http_server_config *config = NULL;
  mcp_error *err = NULL;
  mcp_http_server_config_new_for_mount(&config);
  mcp_http_server_config_add_allowed_host(config, S("localhost"));
  mcp_http_server_config_add_allowed_host(config, S("127.0.0.1"));
  mcp_http_server_config_add_allowed_host(config, S("[::1]"));
  max_body = 4 * 1024 * 1024;
  mcp_http_server_config_set_max_body_bytes(config, max_body);
  mcp_status st = mcp_http_endpoint_new(the_server, rt, config, &endpoint, &err);
  mcp_http_server_config_free(config);
  if (st != MCP_STATUS_OK) {
    report(err);
    return 1;
  }

  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL,
      route, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED,
      completed, NULL, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "mhd-server: cannot listen on %s: %s\n", argc == 2 ? argv[1] : "127.0.0.1:0",
            strerror(errno));
    return 1;
  }
  pthread_t watcher;
  pthread_create(&watcher, NULL, watch, NULL);
  char ip[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &addr.sin_addr, ip, sizeof ip);
  fprintf(stderr, "listening on http://%s:%u/mcp\n", ip,
          (unsigned)MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)->port);

  int sig = 0;
  sigwait(&set, &sig);
  atomic_store(&watching, 0);
  pthread_join(watcher, NULL);
  /* libmicrohttpd must not stop with suspended connections: end the streams and give up on the
   * requests still running, which resumes every connection. */
  mcp_http_endpoint_close(endpoint);
  pthread_mutex_lock(&live_lock);
  for (struct pending *p = live; p; p = p->next) give_up(p);
  pthread_mutex_unlock(&live_lock);
  MHD_stop_daemon(d);
  mcp_http_endpoint_free(endpoint);
  mcp_server_free(the_server);
  mcp_runtime_free(rt);
  fprintf(stderr, "mhd-server: clean exit\n");
  return 0;
}
