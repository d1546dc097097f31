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

/* Checks that `st` is `want`, with an error of that status saying exactly `message`; frees it. */
static inline void expect_refused(mcp_status want, mcp_status st, mcp_error *err, const char *message) {
  EXPECT(want, st);
  CHECK(err != NULL && mcp_error_status(err) == want);
  mcp_str m = mcp_error_message(err);
  if (m.len != strlen(message) || memcmp(m.data, message, m.len) != 0) {
    fprintf(stderr, "expected the message \"%s\"\n          got \"%.*s\"\n", message, (int)m.len,
            m.data);
    exit(1);
  }
  mcp_error_free(err);
}

/* A tool for tool_server: its JSON definition and handler. */
typedef struct {
  const char *definition;
  mcp_handler_cb cb;
} test_tool;

/* A built server called `name` with the `n` tools (each registration must succeed). */
static inline mcp_server *tool_server(const char *name, const test_tool *tools, size_t n) {
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  OK(mcp_server_builder_new(name, strlen(name), MCP_LIT("1.0.0"), &b));
  for (size_t i = 0; i < n; i++)
    OK(mcp_server_builder_add_tool(b, tools[i].definition, strlen(tools[i].definition),
                                   tools[i].cb, NULL, NULL));
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);
  return s;
}

#endif
