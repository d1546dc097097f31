/* Small assertion helpers shared by the C tests. Only <mcp.h> and libc are used. */
#ifndef MCP_TEST_CHECK_H
#define MCP_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

#define EXPECT(status, call)                                                         \
  do {                                                                               \
    mcp_status got_ = (call);                                                        \
    if (got_ != (status)) {                                                          \
      fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d\n", __FILE__,         \
              __LINE__, #call, (int)got_, mcp_status_describe(got_), (int)(status)); \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

#define OK(call) EXPECT(MCP_STATUS_OK, call)

/* A string literal as (ptr, len). */
#define S(lit) lit, (sizeof(lit) - 1)

static inline int has(const mcp_string *s, const char *needle) {
  return strstr(mcp_string_data(s), needle) != NULL;
}

static inline int view_has(mcp_str v, const char *needle) {
  return strstr(v.data, needle) != NULL;
}

static inline void dump_error(const char *what, mcp_error *e) {
  mcp_str m = mcp_error_message(e);
  fprintf(stderr, "%s: status %d code %d: %.*s\n", what, (int)mcp_error_status(e),
          (int)mcp_error_code(e), (int)m.len, m.data);
}

#endif
