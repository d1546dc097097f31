// mcp.hpp end to end: a C++ server (tools returning JSON, a throwing tool, a tool answering through
// its responder from another thread, an rpc_error, a resource and a prompt) reached by a C++ client
// over Streamable HTTP in both eras and over stdio (this program started again with --serve-stdio),
// plus the async call, tasks over HTTP (followed, as a future, listed, cancelled through the
// handler's on_cancel), the error type, mcp::json's readers and the refusals of the builder and the
// configurations (skills, OAuth on both sides, the client's version). Built with -std=c++17 (and
// c++20) -Wall -Wextra -Wpedantic -Werror; run plainly, under ASan+UBSan and under valgrind
// (scripts/test.d/11-cpp.sh).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "expect.hpp"
#include "mcp.hpp"

namespace {

bool has(const std::string &haystack, const std::string &needle) { return haystack.find(needle) != std::string::npos; }

std::atomic<int> sleepy_cancels{0};

mcp::server make_server() {
  mcp::server_builder b("cpp-roundtrip", "1.0.0");
  b.instructions("A C++ server for the mcp.hpp tests.");
  b.tool(R"({"name":"greet","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}})",
         [](const mcp::request &req) -> std::string {
           std::string args(req.arguments());
           std::string name = has(args, "\"Ada\"") ? "Ada" : "stranger";
           return R"({"content":[{"type":"text","text":"hello )" + name + R"("}]})";
         });
  b.tool(R"({"name":"fails","inputSchema":{"type":"object"}})",
         [](const mcp::request &) -> std::string { throw std::runtime_error("the disk is full"); });
  b.tool(R"({"name":"refuses","inputSchema":{"type":"object"}})", [](const mcp::request &) -> std::string {
    throw mcp::rpc_error(-32602, "no such city", R"({"city":"Atlantis"})");
  });
  b.tool(R"({"name":"not_json","inputSchema":{"type":"object"}})",
         [](const mcp::request &) -> std::string { return "this is not JSON"; });
  b.tool(R"({"name":"later","inputSchema":{"type":"object"}})", [](mcp::responder r) {
    // Answered from a thread of our own, after the handler returned.
    std::thread([r = std::move(r)]() mutable {
      r.progress(1, 2, "half way");
      r.result(R"({"content":[{"type":"text","text":"answered later"}]})");
    }).detach();
  });
  // A task (tasks extension): sleeps `ms` milliseconds on a thread of its own, or less when
  // cancelled (responder::on_cancel).
  b.tool(R"({"name":"sleepy","inputSchema":{"type":"object","properties":{"ms":{"type":"integer"}}},)"
         R"("execution":{"taskSupport":"optional"}})",
         [](mcp::responder r) {
           r.start_task();
           auto cancel = std::make_shared<std::promise<void>>();
           std::future<void> cancelled = cancel->get_future();
           r.on_cancel([cancel] {
             sleepy_cancels++;
             cancel->set_value();
           });
           std::thread([r = std::move(r), cancelled = std::move(cancelled)]() mutable {
             int64_t ms = mcp::json::get_int64(r.req().arguments(), "/ms").value_or(0);
             bool stopped = cancelled.wait_for(std::chrono::milliseconds(ms)) == std::future_status::ready;
             try {
               r.result(stopped ? R"({"content":[{"type":"text","text":"stopped"}]})"
                                : R"({"content":[{"type":"text","text":"slept"}]})");
             } catch (const mcp::error &) {
               // Cancelled: the task has ended and takes no answer.
             }
           }).detach();
         });
  b.resource(R"({"uri":"test://motd","name":"motd","mimeType":"text/plain"})", [](const mcp::request &req) {
    return R"({"contents":[{"uri":")" + std::string(req.uri()) + R"(","mimeType":"text/plain","text":"be kind"}]})";
  });
  b.prompt(R"({"name":"haiku","arguments":[{"name":"topic","required":true}]})",
           [](const mcp::request &) -> std::string { throw std::logic_error("prompt broke"); });
  // Methods the specification does not define, answered by the host.
  b.method("acme/echo", [](const mcp::request &req) { return R"({"echoed":)" + std::string(req.params()) + "}"; });
  b.method("acme/refuse", [](const mcp::request &) -> std::string {
    throw mcp::rpc_error(-32001, "no such order", R"({"order":42})");
  });
  return b.build();
}

void exercise(const mcp::client &c, const char *how) {
  std::string label = std::string(how) + ": ";
  std::string tools = c.list_tools();
  expect(has(tools, "\"greet\"") && has(tools, "\"later\""), (label + "tools listed").c_str(), tools);
  std::string r = c.call_tool("greet", R"({"name":"Ada"})");
  expect(has(r, "hello Ada") && !has(r, "\"isError\":true"), (label + "greet").c_str(), r);
  r = c.call_tool("fails");
  expect(has(r, "\"isError\":true") && has(r, "the disk is full"), (label + "a throwing tool is a tool error").c_str(), r);
  try {
    c.call_tool("refuses");
    expect(false, (label + "rpc_error reaches the client").c_str(), "no exception");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_RPC_ERROR && e.code() == -32602 && std::string(e.what()) == "no such city" &&
               has(e.data(), "Atlantis"),
           (label + "rpc_error reaches the client").c_str(), e.what());
  }
  try {
    c.call_tool("not_json");
    expect(false, (label + "a result that is not JSON").c_str(), "no exception");
  } catch (const mcp::error &e) {
    expect(e.code() == -32603 && has(e.what(), "not JSON"), (label + "a result that is not JSON").c_str(), e.what());
  }
  r = c.call_tool("later");
  expect(has(r, "answered later"), (label + "answered from another thread").c_str(), r);
  std::future<std::string> f = c.call_tool_async("greet", R"({"name":"Ada"})");
  r = f.get();
  expect(has(r, "hello Ada"), (label + "async call").c_str(), r);
  r = c.read_resource("test://motd");
  expect(has(r, "be kind"), (label + "resource").c_str(), r);
  try {
    c.get_prompt("haiku", R"({"topic":"rain"})");
    expect(false, (label + "a throwing prompt is an internal error").c_str(), "no exception");
  } catch (const mcp::error &e) {
    expect(e.code() == -32603 && has(e.what(), "prompt broke"), (label + "a throwing prompt is an internal error").c_str(),
           e.what());
  }
  r = c.call("acme/echo", R"({"q":1})");
  expect(mcp::json::get_int64(r, "/echoed/q") == 1, (label + "a custom method").c_str(), r);
  try {
    c.call("acme/refuse");
    expect(false, (label + "a custom method's error").c_str(), "no exception");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_RPC_ERROR && e.code() == -32001 && std::string(e.what()) == "no such order" &&
               e.data() == R"({"order":42})",
           (label + "a custom method's error").c_str(), e.what());
  }
  try {
    c.call_tool("no_such_tool");
    expect(false, (label + "unknown tool").c_str(), "no exception");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_RPC_ERROR, (label + "unknown tool").c_str(), e.what());
  }
}

}  // namespace

// Tasks over HTTP: created, followed to the end (blocking and as a future), read back, listed
// (2025-11-25), cancelled (the handler's on_cancel runs, the result is the cancellation).
void tasks(const mcp::client &c, const char *how) {
  std::string label = std::string(how) + ": task ";
  try {
    auto create = [&](const char *args) {
      std::string created = c.call_tool_as_task("sleepy", args);
      std::optional<std::string> id = mcp::json::get_string(created, "/task/taskId");
      expect(id.has_value(), (label + "created").c_str(), created);
      return id.value_or("no task");
    };
    std::string id = create(R"({"ms":30})");
    std::string r = c.task_result(id);
    expect(has(r, "slept"), (label + "result").c_str(), r);
    r = c.get_task(id);
    expect(has(r, "\"completed\""), (label + "read back").c_str(), r);
    r = c.task_result_async(create(R"({"ms":30})")).get();
    expect(has(r, "slept"), (label + "result as a future").c_str(), r);
    if (c.era() == MCP_ERA_LEGACY) {
      r = c.list_tasks();
      expect(has(r, id), (label + "listed").c_str(), r);
    }
    int cancels = sleepy_cancels.load();
    std::string slow = create(R"({"ms":20000})");
    c.cancel_task(slow);
    try {
      r = c.task_result(slow);
      expect(false, (label + "cancelled: no result").c_str(), r);
    } catch (const mcp::error &e) {
      expect(e.status() == MCP_STATUS_CANCELLED || e.status() == MCP_STATUS_RPC_ERROR,
             (label + "cancelled: no result").c_str(), e.what());
    }
    for (int i = 0; i < 500 && sleepy_cancels.load() == cancels; i++) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    expect(sleepy_cancels.load() == cancels + 1, (label + "cancelled: on_cancel ran").c_str(),
           std::to_string(sleepy_cancels.load() - cancels));
    r = c.get_task(slow);
    expect(has(r, "\"cancelled\""), (label + "cancelled: its status").c_str(), r);
  } catch (const mcp::error &e) {
    expect(false, (label + "calls").c_str(), e.what());
  }
}

// Runs `f`, which must throw mcp::error with `status` and a message of its own (more than the
// status's description).
template <typename F>
void expect_refusal(const char *what, mcp_status status, F f) {
  try {
    f();
    expect(false, what, "no exception");
  } catch (const mcp::error &e) {
    expect(e.status() == status && std::string(e.what()) != mcp_status_describe(status), what,
           std::string(mcp_status_describe(e.status())) + ": " + e.what());
  }
}

// mcp::json: values by JSON Pointer; nothing there, another type or an empty text is std::nullopt;
// text that is not JSON and a pointer without its '/' are errors.
void json_readers() {
  const std::string doc = R"({"a":{"b":[1,"two",true]},"n":2.5,"k/x":7})";
  expect(mcp::json::get(doc, "/a/b/0") == "1", "json::get", mcp::json::get(doc, "/a/b/0").value_or("none"));
  expect(mcp::json::get_string(doc, "/a/b/1") == "two", "json::get_string", "");
  expect(mcp::json::get_bool(doc, "/a/b/2") == true, "json::get_bool", "");
  expect(mcp::json::get_double(doc, "/n") == 2.5, "json::get_double", "");
  expect(mcp::json::get_int64(doc, mcp::json::escape("k/x")) == 7, "json::escape and get_int64",
         mcp::json::escape("k/x"));
  expect(!mcp::json::get_string(doc, "/n") && !mcp::json::get_int64(doc, "/n") && !mcp::json::get(doc, "/a/zz") &&
             !mcp::json::get("", "/a"),
         "json: nothing of the type there is nullopt", "");
  std::vector<std::string> keys = mcp::json::keys(doc, "").value_or(std::vector<std::string>{});
  std::sort(keys.begin(), keys.end());
  expect(keys == std::vector<std::string>{"a", "k/x", "n"}, "json::keys", std::to_string(keys.size()) + " keys");
  expect(mcp::json::quote("say \"hi\"\n") == R"("say \"hi\"\n")", "json::quote", mcp::json::quote("say \"hi\"\n"));
  expect_refusal("json: text that is not JSON", MCP_STATUS_INVALID_JSON, [] { mcp::json::get("{not json", "/a"); });
  expect_refusal("json: a pointer without '/'", MCP_STATUS_INVALID_ARGUMENT, [&] { mcp::json::get(doc, "a"); });
}

// The configurations' refusals name the reason.
void refusals() {
  expect_refusal("a skill without frontmatter", MCP_STATUS_INVALID_ARGUMENT, [] { mcp::skill("# no frontmatter\n"); });
  expect_refusal("a skill file outside the skill", MCP_STATUS_INVALID_ARGUMENT, [] {
    mcp::skill("---\nname: s\ndescription: d\n---\n").file("../x.md", "text/markdown", "x");
  });
  expect_refusal("OAuth on a resource that is not a URL", MCP_STATUS_INVALID_ARGUMENT, [] {
    mcp::resource_server_config auth("not a url", [](std::string_view, mcp::token_responder) {});
    auth.authorization_server("https://auth.example.com");
    mcp::http_server_config().auth(auth);
  });
  try {
    mcp::oauth_config("c", "not a redirect URI");
    expect(false, "an OAuth client with a bad redirect URI is refused", "accepted");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_ARGUMENT, "an OAuth client with a bad redirect URI is refused", e.what());
  }
  try {
    mcp::client_config().version("1999-01-01");
    expect(false, "client_config: an unknown revision is refused", "accepted");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_ARGUMENT, "client_config: an unknown revision is refused", e.what());
  }
}

int main(int argc, char **argv) {
  mcp::runtime rt(2);
  if (argc > 1 && std::string(argv[1]) == "--serve-stdio") {
    mcp::server server = make_server();
    mcp::serve s = server.serve_stdio(rt);
    s.wait();
    return 0;
  }
  expect(mcp::version() == MCP_VERSION_STRING, "header and library versions agree", mcp::version());
  {
    mcp::server server = make_server();
    mcp::http_server http = server.serve_http(rt, "127.0.0.1:0");
    for (const char *v : {"2026-07-28", "2025-11-25"}) {
      mcp::client c = mcp::client_builder("cpp-client", "1.0.0").protocol_version(v).connect_http(rt, http.url());
      expect(c.era() == (std::string(v) == "2026-07-28" ? MCP_ERA_MODERN : MCP_ERA_LEGACY), "era", v);
      exercise(c, v);
      tasks(c, v);
      c.close();
    }
  }
  {
    mcp::client c = mcp::client_builder("cpp-client", "1.0.0").connect_stdio(rt, argv[0], {"--serve-stdio"});
    std::string info = c.server_info();
    expect(has(info, "cpp-roundtrip") && has(info, "mcp.hpp tests"), "stdio: server info", info);
    exercise(c, "stdio");
  }
  // The builder's refusals are exceptions naming the reason.
  try {
    mcp::server_builder b("bad", "1.0.0");
    b.tool(R"({"inputSchema":{"type":"object"}})", [](const mcp::request &) { return std::string("{}"); });
    b.build();
    expect(false, "a tool without a name is refused", "built");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_ARGUMENT && std::string(e.what()).size() > 0, "a tool without a name is refused",
           e.what());
  }
  try {
    mcp::client_builder("c", "1").protocol_version("1999-01-01");
    expect(false, "an unknown revision is refused", "accepted");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_ARGUMENT, "an unknown revision is refused", e.what());
  }
  // A method the engine keeps, on the builder and on a built server; an owned method without its
  // capability, then with it.
  try {
    mcp::server_builder b("bad", "1.0.0");
    b.method("ping", [](const mcp::request &) { return std::string("{}"); });
    b.build();
    expect(false, "a handler of ping is refused", "built");
  } catch (const mcp::error &e) {
    expect(e.status() == MCP_STATUS_INVALID_ARGUMENT && has(e.what(), "method \"ping\" cannot have a handler of its own"),
           "a handler of ping is refused", e.what());
  }
  {
    mcp::server s = mcp::server_builder("owner", "1.0.0").build();
    try {
      s.set_method_handler("tools/list", [](const mcp::request &) { return std::string(R"({"tools":[]})"); });
      expect(false, "owning tools/list needs the capability", "accepted");
    } catch (const mcp::error &e) {
      expect(e.status() == MCP_STATUS_INVALID_ARGUMENT && has(e.what(), "needs the tools capability declared first"),
             "owning tools/list needs the capability", e.what());
    }
    s.declare_capabilities(R"({"tools":{}})");
    s.set_method_handler("tools/list", [](const mcp::request &) { return std::string(R"({"tools":[]})"); });
    expect(s.remove_method_handler("tools/list") && !s.remove_method_handler("tools/list"),
           "a method handler removed once", "");
  }
  json_readers();
  refusals();
  if (failures) {
    std::fprintf(stderr, "%d failed\n", failures);
    return 1;
  }
  std::printf("mcp.hpp roundtrip: every check passed\n");
  return 0;
}
