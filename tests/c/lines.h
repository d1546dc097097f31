/* Writing and reading a peer's newline-delimited JSON-RPC on a descriptor, for the C tests that
 * play the raw other end of a served connection. Include after defining _POSIX_C_SOURCE 200809L, and after
 * check.h and clock.h. */
#ifndef MCP_TEST_LINES_H
#define MCP_TEST_LINES_H

#include <poll.h>
#include <unistd.h>

/* Writes all of `text` to `fd`. */
static inline void write_all(int fd, const char *text) {
  size_t len = strlen(text);
  CHECK(write(fd, text, len) == (ssize_t)len);
}

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

/* Reads one line and checks it is exactly `want` (and its newline). */
static inline void expect_line(int fd, const char *want) {
  char line[4096];
  read_line(fd, line, sizeof line);
  size_t n = strlen(line);
  CHECK(n > 0 && line[n - 1] == '\n');
  line[n - 1] = '\0';
  if (strcmp(line, want) != 0) {
    fprintf(stderr, "expected %s\n     got %s\n", want, line);
    exit(1);
  }
}

#endif
