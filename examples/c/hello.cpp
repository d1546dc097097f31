// C++ against the same header: builds a server with one tool whose handler is a lambda, and checks
// the header and library versions agree. Build: g++ -std=c++17 hello.cpp $(pkg-config --cflags --libs mcp)
#include <cstdio>
#include <cstring>
#include <string>

#include "mcp.h"

namespace {

struct Counter {
  int calls = 0;
};

void check(mcp_status s, const char *what) {
  if (s != MCP_STATUS_OK) {
    std::fprintf(stderr, "%s: %s\n", what, mcp_status_describe(s));
    std::exit(1);
  }
}

}  // namespace

int main() {
  if (std::strcmp(mcp_version(), MCP_VERSION_STRING) != 0) return 1;
  mcp_server_builder *builder = nullptr;
  const std::string name = "hello-cpp", version = "1.0.0";
  check(mcp_server_builder_new(name.data(), name.size(), version.data(), version.size(), &builder),
        "builder");
  const std::string tool = R"({"name":"hello","inputSchema":{"type":"object"}})";
  auto *counter = new Counter();
  check(mcp_server_builder_add_tool(
            builder, tool.data(), tool.size(),
            [](void *ud, const mcp_request *, mcp_responder *r) {
              static_cast<Counter *>(ud)->calls++;
              const std::string result = R"({"content":[{"type":"text","text":"hello from C++"}]})";
              mcp_responder_result(r, result.data(), result.size());
              mcp_responder_free(r);
            },
            counter, [](void *ud) { delete static_cast<Counter *>(ud); }),
        "add_tool");
  mcp_server *server = nullptr;
  check(mcp_server_builder_build(builder, &server, nullptr), "build");
  mcp_server_builder_free(builder);
  mcp_server_free(server);  // finalizes the Counter
  std::printf("hello-cpp: libmcp %s\n", mcp_version());
  return 0;
}
