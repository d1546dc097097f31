/* Sleeping and a monotonic clock in milliseconds, for the C tests that wait or time. Include after
 * defining _POSIX_C_SOURCE 200809L. */
#ifndef MCP_TEST_CLOCK_H
#define MCP_TEST_CLOCK_H

#include <time.h>

static inline void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static inline long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

#endif
