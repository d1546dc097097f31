// mcp.hpp's http_endpoint: a C++ server mounted in a host's own web server, driven without sockets.
// A tool handler reads a header the client sent and the principal the host attached; a streaming
// call's SSE events arrive through the sink one by one; destroying an exchange mid-call cancels its
// handler. Built and run by scripts/test.d/11-cpp.sh beside roundtrip.cpp.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "expect.hpp"
#include "mcp.hpp"

namespace {

/* What the sink received, guarded for the test's thread. */
struct received {
  std::mutex lock;
  std::condition_variable changed;
  unsigned status = 0;
  std::string content_type, body;
  int chunks = 0;
  bool ended = false;

  mcp::http_response_sink sink() {
    return mcp::http_response_sink{
        [this](uint16_t s, const std::vector<std::pair<std::string_view, std::string_view>> &headers) {
          std::lock_guard<std::mutex> g(lock);
          status = s;
          for (const auto &h : headers)
            if (h.first == "content-type") content_type = std::string(h.second);
        },
        [this](std::string_view chunk) {
          std::lock_guard<std::mutex> g(lock);
          body += chunk;
          chunks++;
          changed.notify_all();
        },
        [this] {
          std::lock_guard<std::mutex> g(lock);
          ended = true;
          changed.notify_all();
        }};
  }

  bool wait_end() {
    std::unique_lock<std::mutex> g(lock);
    return changed.wait_for(g, std::chrono::seconds(10), [this] { return ended; });
  }
};

std::mutex cancel_lock;
std::condition_variable cancel_changed;
bool cancelled = false, started = false;
int threads_done = 0; /* handler threads that freed their responder (main waits for them) */

void thread_done() {
  std::lock_guard<std::mutex> g(cancel_lock);
  threads_done++;
  cancel_changed.notify_all();
}

std::vector<std::pair<std::string, std::string>> headers_for(const std::string &tool) {
  return {{"Content-Type", "application/json"},
          {"Accept", "application/json, text/event-stream"},
          {"MCP-Protocol-Version", "2026-07-28"},
          {"Mcp-Method", "tools/call"},
          {"Mcp-Name", tool},
          {"X-Client-Tag", "from-cpp"}};
}

std::string call(const std::string &tool) {
  return R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
         R"(","arguments":{},"_meta":{"progressToken":"t","io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
         R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
}

}  // namespace

int main() {
  mcp::runtime rt(2);
  mcp::server_builder b("cpp-endpoint", "1.0.0");
  b.tool(R"({"name":"whoami","inputSchema":{"type":"object"}})", [](const mcp::request &req) -> std::string {
    std::string text = "tag=" + std::string(req.http_header("x-client-tag").value_or("(none)")) +
                       " principal=" + std::string(req.http_principal()) +
                       " absent=" + (req.http_header("x-absent") ? "present" : "absent");
    return R"({"content":[{"type":"text","text":")" + text + R"("}]})";
  });
  b.tool(R"({"name":"steps","inputSchema":{"type":"object"}})", [](mcp::responder r) {
    std::thread([r = std::make_unique<mcp::responder>(std::move(r))]() mutable {
      r->progress(1, 2);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      r->progress(2, 2);
      r->result(R"({"content":[{"type":"text","text":"done"}]})");
      r.reset();
      thread_done();
    }).detach();
  });
  b.tool(R"({"name":"forever","inputSchema":{"type":"object"}})", [](mcp::responder r) {
    {
      std::lock_guard<std::mutex> g(cancel_lock);
      started = true;
      cancel_changed.notify_all();
    }
    std::thread([r = std::make_unique<mcp::responder>(std::move(r))]() mutable {
      while (!r->cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      r.reset();
      {
        std::lock_guard<std::mutex> g(cancel_lock);
        cancelled = true;
      }
      thread_done();
    }).detach();
  });
  mcp::server server = b.build();
  mcp::http_endpoint endpoint(server, rt);

  {
    received got;
    mcp::http_exchange x = endpoint.handle("POST", "/mcp", headers_for("whoami"), call("whoami"), got.sink(), "alice");
    expect(got.wait_end(), "whoami ends", got.body);
    expect(got.status == 200 && got.content_type == "application/json", "whoami answers JSON", got.content_type);
    expect(got.body.find("tag=from-cpp principal=alice absent=absent") != std::string::npos,
           "the handler sees the client's header and the host's principal", got.body);
  }
  {
    received got;
    mcp::http_exchange x = endpoint.handle("POST", "/mcp", headers_for("steps"), call("steps"), got.sink());
    expect(got.wait_end(), "steps ends", got.body);
    expect(got.content_type == "text/event-stream", "steps streams", got.content_type);
    expect(got.chunks >= 3 && got.body.find("notifications/progress") < got.body.find("done"),
           "progress events, then the result, chunk by chunk", got.body);
  }
  {
    received got;
    auto x = std::make_unique<mcp::http_exchange>(
        endpoint.handle("POST", "/mcp", headers_for("forever"), call("forever"), got.sink()));
    {
      std::unique_lock<std::mutex> g(cancel_lock);
      expect(cancel_changed.wait_for(g, std::chrono::seconds(10), [] { return started; }), "forever starts", "");
    }
    x.reset(); /* the host's client went away */
    std::unique_lock<std::mutex> g(cancel_lock);
    expect(cancel_changed.wait_for(g, std::chrono::seconds(10), [] { return cancelled; }),
           "destroying the exchange mid-call cancels the handler", "");
  }
  try {
    received got;
    endpoint.handle("G\xff", "/mcp", {}, "", got.sink());
    expect(false, "a method that is not UTF-8 throws", "");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_UTF8, "a method that is not UTF-8 is MCP_STATUS_INVALID_UTF8", e.what());
  }
  {
    std::unique_lock<std::mutex> g(cancel_lock);
    expect(cancel_changed.wait_for(g, std::chrono::seconds(10), [] { return threads_done == 2; }),
           "the handler threads finish", "");
  }
  if (failures) return 1;
  std::printf("endpoint (C++): ok\n");
  return 0;
}
