/* Reading a peer's newline-delimited JSON-RPC off a descriptor, for the C tests that play the raw
 * other end of a served connection. Include after defining _POSIX_C_SOURCE 200809L, and after
 * check.h and clock.h. */
#ifndef MCP_TEST_LINES_H
#define MCP_TEST_LINES_H

#include <poll.h>
#include <unistd.h>

/* Reads one line from `fd` within 10 s into `buf`, keeping its newline. */
static inline void read_line(int fd, char *buf, size_t cap) {
  size_t len = 0;
  long deadline = now_ms() + 10000;
  while (len + 1 < cap) {
    struct pollfd p = {fd, POLLIN, 0};
    CHECK(poll(&p, 1, (int)(deadline - now_ms())) == 1);
    ssize_t n = read(fd, buf + len, 1);
    CHECK(n == 1);
    if (buf[len++] == '\n') break;
  }
  buf[len] = '\0';
}

#endif
