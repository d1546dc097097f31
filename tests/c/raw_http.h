/* Raw HTTP/1.1 exchanges with a server on 127.0.0.1, for the C tests that check the wire (and a
 * legacy-session POST and an "echoed" tool handler they share): one
 * request per connection (the request says Connection: close), the whole answer read until the
 * server closes. Only libc and check.h. */
#ifndef MCP_TEST_RAW_HTTP_H
#define MCP_TEST_RAW_HTTP_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"

/* Sends `request` to 127.0.0.1:port and returns the answer (status line, headers, body) as a heap
 * string (free with free). */
static inline char *exchange(unsigned short port, const char *request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(fd >= 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
  size_t len = strlen(request);
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, request + off, len - off);
    CHECK(w > 0);
    off += (size_t)w;
  }
  size_t cap = 8192, used = 0;
  char *out = malloc(cap);
  CHECK(out);
  for (;;) {
    if (used + 1 == cap) {
      cap *= 2;
      out = realloc(out, cap);
      CHECK(out);
    }
    ssize_t got = read(fd, out + used, cap - used - 1);
    CHECK(got >= 0);
    if (got == 0) break;
    used += (size_t)got;
  }
  out[used] = '\0';
  close(fd);
  return out;
}

/* The value of header `name` (case-insensitive) in `answer`, copied into `buf`; "" when absent. */
static inline const char *header_of(const char *answer, const char *name, char *buf, size_t cap) {
  size_t n = strlen(name);
  buf[0] = '\0';
  for (const char *line = strstr(answer, "\r\n"); line && line[2] != '\r'; line = strstr(line + 2, "\r\n")) {
    const char *h = line + 2;
    if (strncasecmp(h, name, n) == 0 && h[n] == ':') {
      const char *v = h + n + 1;
      while (*v == ' ') v++;
      size_t len = strcspn(v, "\r");
      if (len >= cap) len = cap - 1;
      memcpy(buf, v, len);
      buf[len] = '\0';
      break;
    }
  }
  return buf;
}

/* A POST of `body` to 127.0.0.1:port/mcp in legacy session `session` (NULL: none, as for
 * initialize); returns the answer as `exchange` does. */
static inline char *post_legacy(unsigned short port, const char *session, const char *body) {
  char req[2048], sid[256] = "";
  if (session) snprintf(sid, sizeof sid, "Mcp-Session-Id: %s\r\nMCP-Protocol-Version: 2025-11-25\r\n", session);
  int n = snprintf(req, sizeof req,
                   "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n"
                   "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                   "%sContent-Length: %zu\r\n\r\n%s",
                   port, sid, strlen(body), body);
  CHECK(n > 0 && (size_t)n < sizeof req);
  return exchange(port, req);
}

/* A tool handler answering with the text "echoed". */
static inline void echoed_tool(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud, (void)req;
  OK(mcp_responder_result(r, MCP_LIT("{\"content\":[{\"type\":\"text\",\"text\":\"echoed\"}]}")));
  mcp_responder_free(r);
}

#endif
