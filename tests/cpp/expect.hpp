// The check the C++ tests share: a failed expectation is printed with what was seen and counted; the
// test exits non-zero when any failed.
#ifndef MCP_TEST_EXPECT_HPP
#define MCP_TEST_EXPECT_HPP

#include <cstdio>
#include <string>

inline int failures = 0;

inline void expect(bool ok, const char *what, const std::string &got) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n  got: %s\n", what, got.c_str());
    failures++;
  }
}

#endif
