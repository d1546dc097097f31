/* A negative control: leaks a builder on purpose. The C ABI script expects ASan and valgrind to fail
 * on it, which shows that a clean run of the other tests means something. */
#include "check.h"

int main(void) {
  mcp_server_builder *b = NULL;
  OK(mcp_server_builder_new(S("leak"), S("1"), &b));
  b = NULL;
  return 0;
}
