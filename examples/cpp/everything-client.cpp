// everything-client in C++ on include/mcp.hpp, in two modes; the same client as
// examples/c/everything-client.c.
//
// Conformance mode (MCP_CONFORMANCE_SCENARIO set; what the official suite runs): connects to the URL
// the harness appends (or spawns a server command over stdio), picks the era from
// MCP_CONFORMANCE_PROTOCOL_VERSION and runs the named scenario; unknown scenarios exit 1 ("Unknown
// scenario: NAME"). Every auth/ scenario (unlike the C client, which lists those it knows) authorizes
// with OAuth 2.1 through an authorizer lambda that checks it runs off the main thread and answers
// with mcp::oauth_auto_redirect (the suite's authorization servers redirect at once);
// pre-registered credentials (client_id, client_secret) come from MCP_CONFORMANCE_CONTEXT, and
// servers that support client ID metadata documents get the suite's URL. The OAuth extension
// scenarios set a grant that needs no user from the context (client credentials with a secret or a
// private_key_jwt key, workload identity's JWT bearer, enterprise-managed authorization; the
// authorizer must then never run), and the DPoP ones turn DPoP on. The sep-2640-client-* scenarios list the skills and load each (its SKILL.md, then its
// other files, every one verified by the library against the entry).
//
// Demo mode (no scenario): runs against an everything-server (stdio command or http:// URL): lists,
// calls tools (an input round answered by the elicitation handler, progress through an async call),
// reads resources, gets prompts, completes, and subscribes to tool-list changes; prints
// "everything worked".
//
// Usage: everything-client SERVER-COMMAND [ARGS...] | everything-client [...] http://HOST:PORT/mcp
// Build: c++ -std=c++17 everything-client.cpp $(pkg-config --cflags --libs mcp) -lpthread
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp.hpp"

namespace {

using mcp::json::quote;
using std::string;
using std::string_view;

int failures = 0;

// Runs `call`, reporting an mcp::error it throws as the failure of `what`.
template <typename F>
auto attempt(string_view what, F call) -> std::optional<decltype(call())> {
  try {
    return call();
  } catch (const mcp::error &e) {
    std::fprintf(stderr, "%.*s failed: %s (code %d): %s\n", static_cast<int>(what.size()), what.data(),
                 mcp_status_describe(e.status()), static_cast<int>(e.code()), e.what());
    failures++;
    return std::nullopt;
  }
}

// ---- input handlers ----

// A value of the property's type for a required field without a default.
string placeholder(string_view params, const string &property) {
  string base = "/requestedSchema/properties" + mcp::json::escape(property);
  if (auto v = mcp::json::get(params, base + "/enum/0")) return *v;
  if (auto v = mcp::json::get(params, base + "/oneOf/0/const")) return *v;
  std::optional<string> type = mcp::json::get_string(params, base + "/type");
  if (type == "boolean") return "true";
  if (type == "integer" || type == "number") return "0";
  if (type == "array") return "[]";
  return R"("conformance")";
}

bool required(string_view params, const string &property) {
  for (int i = 0;; i++) {
    std::optional<string> r = mcp::json::get_string(params, "/requestedSchema/required/" + std::to_string(i));
    if (!r) return false;
    if (*r == property) return true;
  }
}

// Accepts an elicitation form with every schema default filled in, and a placeholder for required
// fields without one.
string on_elicitation(string_view params) {
  string content;
  for (const string &key : mcp::json::keys(params, "/requestedSchema/properties").value_or(std::vector<string>{})) {
    std::optional<string> value =
        mcp::json::get(params, "/requestedSchema/properties" + mcp::json::escape(key) + "/default");
    if (!value && required(params, key)) value = placeholder(params, key);
    if (value) content += (content.empty() ? "" : ",") + quote(key) + ":" + *value;
  }
  return R"({"action":"accept","content":{)" + content + "}}";
}

string on_sampling(string_view) {
  return R"({"role":"assistant","content":{"type":"text","text":"This is a canned answer from the libmcp C++ )"
         R"(everything-client."},"model":"libmcp-everything-client-cpp","stopReason":"endTurn"})";
}

string on_roots(string_view) {
  return R"({"roots":[{"uri":"file:///tmp/libmcp-everything-client-cpp","name":"Scratch"}]})";
}

// ---- calls ----

std::optional<string> list_tools(const mcp::client &c) {
  return attempt("tools/list", [&] { return c.list_tools(); });
}

// Calls a tool; a tool error (isError) counts as a failure.
std::optional<string> call(const mcp::client &c, const string &tool, string_view args = "{}") {
  std::optional<string> result = attempt("tools/call " + tool, [&] { return c.call_tool(tool, args); });
  if (result && mcp::json::get_bool(*result, "/isError") == true) {
    std::fprintf(stderr, "tools/call %s returned a tool error: %s\n", tool.c_str(), result->c_str());
    failures++;
  }
  return result;
}

// ---- conformance scenarios ----

const std::vector<string_view> SCENARIOS = {
    "initialize", "tools_call", "elicitation-sep1034-client-defaults", "request-metadata",
    "sep-2322-client-request-state", "json-schema-2020-12-preservation", "json-schema-ref-no-deref",
    "sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"};

// The OAuth extension scenarios whose grant needs no user (the authorizer never runs).
const std::vector<string_view> GRANT_SCENARIOS = {"auth/client-credentials-jwt", "auth/client-credentials-basic",
                                                  "auth/enterprise-managed-authorization", "auth/wif-jwt-bearer"};

// The skills extension's client scenarios (SEP-2640).
const std::vector<string_view> SKILL_SCENARIOS = {"sep-2640-client-no-prefetch", "sep-2640-client-verify-digest",
                                                  "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"};

bool in_list(const std::vector<string_view> &list, string_view scenario) {
  for (string_view s : list) {
    if (s == scenario) return true;
  }
  return false;
}

// Every auth/ scenario (the authorization code grant with PKCE, the 2025-03-26 back-compat pair, the
// extensions) authorizes with OAuth; the C everything-client lists the ones it knows instead.
bool is_auth(string_view scenario) { return scenario.substr(0, 5) == "auth/"; }

// ---- OAuth ----

// What the authorizer saw, checked at exit: it must run off the main thread, and the library must
// release its copy of it (the shared_ptr's count drops back to one).
struct auth_state {
  std::thread::id main_thread = std::this_thread::get_id();
  std::atomic<int> calls{0}, on_main_thread{0};
};

// A string of the scenario context.
std::optional<string> context_str(string_view pointer) {
  const char *context = std::getenv("MCP_CONFORMANCE_CONTEXT");
  if (!context) return std::nullopt;
  return mcp::json::get_string(context, pointer);
}

// Sets the grant of an OAuth extension scenario from the context (the fields the suite gives each);
// throws when a field is missing (and mcp::error when the library refused one).
void configure_grant(mcp::oauth_config &oauth, string_view scenario) {
  auto need = [&](string_view pointer) {
    std::optional<string> v = context_str(pointer);
    if (!v) throw std::runtime_error("the context of " + string(scenario) + " has no " + string(pointer));
    return *v;
  };
  string id = context_str("/client_id").value_or("");
  if (scenario == "auth/client-credentials-basic") {
    oauth.grant_client_secret(need("/client_id"), need("/client_secret"));
  } else if (scenario == "auth/client-credentials-jwt") {
    oauth.grant_private_key_jwt(need("/client_id"), need("/private_key_pem"),
                                context_str("/signing_algorithm").value_or(""));
  } else if (scenario == "auth/wif-jwt-bearer") {
    oauth.grant_jwt_bearer(id, need("/valid_jwt"));
  } else if (scenario == "auth/enterprise-managed-authorization") {
    oauth.grant_enterprise_managed(need("/idp_token_endpoint"), need("/idp_client_id"), {}, need("/idp_id_token"),
                                   false, need("/client_id"), context_str("/client_secret").value_or(""));
  }
}

// The conformance OAuth configuration of `scenario`.
mcp::oauth_config oauth_for(string_view scenario, const mcp::runtime &rt, const std::shared_ptr<auth_state> &state) {
  mcp::oauth_config oauth("libmcp-everything-client-cpp", "http://localhost:3000/callback");
  oauth.client_metadata_url("https://conformance-test.local/client-metadata.json");
  oauth.authorize([state, &rt](string_view url) -> std::optional<string> {
    state->calls++;
    if (std::this_thread::get_id() == state->main_thread) state->on_main_thread++;
    try {
      return mcp::oauth_auto_redirect(rt, url);
    } catch (const mcp::error &e) {
      std::fprintf(stderr, "authorization at %.*s failed: %s\n", static_cast<int>(url.size()), url.data(), e.what());
      return std::nullopt;  // declines: the request that needed authorization fails
    }
  });
  if (in_list(GRANT_SCENARIOS, scenario)) {
    configure_grant(oauth, scenario);
  } else {
    if (std::optional<string> id = context_str("/client_id")) {
      oauth.client_credentials(*id, context_str("/client_secret").value_or(""));
    }
    oauth.dpop(scenario.substr(0, 9) == "auth/dpop");
  }
  return oauth;
}

// ---- skills ----

// Reads the file `uri` of the skill `entry`; the library returns it only once it matches the
// entry's size and digest (and, for SKILL.md, its frontmatter). Whether it did.
bool read_skill_file(const mcp::client &c, const string &entry, const string &uri) {
  auto bytes = attempt("reading skill file " + uri, [&] { return c.read_skill_file(entry, uri); });
  if (bytes) std::printf("%s: %zu bytes, verified\n", uri.c_str(), bytes->size());
  return bytes.has_value();
}

// Loads every skill: its SKILL.md, then its other listed files; the first that fails verification
// ends the scenario (a client must not use content that does not match its entry).
void load_skills(const mcp::client &c) {
  std::optional<string> skills = attempt("skills/list", [&] { return c.list_skills(); });
  for (int i = 0; skills; i++) {
    std::optional<string> entry = mcp::json::get(*skills, "/" + std::to_string(i));
    if (!entry) return;
    std::optional<string> uri = mcp::json::get_string(*entry, "/uri");
    if (!uri || !read_skill_file(c, *entry, *uri)) return;
    for (int j = 0;; j++) {
      std::optional<string> file = mcp::json::get_string(*entry, "/resources/" + std::to_string(j) + "/uri");
      if (!file) break;
      if (*file != *uri && !read_skill_file(c, *entry, *file)) return;
    }
  }
}

void run_scenario(const mcp::client &c, string_view name) {
  if (name == "initialize" || name == "json-schema-ref-no-deref") {
    list_tools(c);
  } else if (name == "tools_call" || name == "http-standard-headers") {
    list_tools(c);
    call(c, "add_numbers", R"({"a":5,"b":3})");
  } else if (name == "request-metadata") {
    if (c.era() == MCP_ERA_MODERN) attempt("server/discover", [&] { return c.call("server/discover", {}); });
    list_tools(c);
    call(c, "add_numbers", R"({"a":5,"b":3})");
  } else if (name == "elicitation-sep1034-client-defaults") {
    call(c, "test_client_elicitation_defaults");
  } else if (name == "sse-retry") {
    list_tools(c);
    call(c, "test_reconnection");
  } else if (name == "sep-2322-client-request-state") {
    list_tools(c);
    for (const char *tool : {"test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state",
                             "test_mrtr_no_result_type"}) {
      call(c, tool);
    }
  } else if (name == "json-schema-2020-12-preservation") {
    std::optional<string> tools = list_tools(c), schema;
    for (int i = 0; tools && !schema; i++) {
      std::optional<string> n = mcp::json::get_string(*tools, "/" + std::to_string(i) + "/name");
      if (!n) break;
      if (*n == "json_schema_2020_12_tool") schema = mcp::json::get(*tools, "/" + std::to_string(i) + "/inputSchema");
    }
    if (schema) {
      call(c, "json_schema_echo", R"({"schema":)" + *schema + "}");
    } else {
      std::fprintf(stderr, "json_schema_2020_12_tool is not listed\n");
      failures++;
    }
  } else if (name == "http-custom-headers") {
    // The transport learns each tool's x-mcp-header parameters from tools/list.
    list_tools(c);
    const char *context = std::getenv("MCP_CONFORMANCE_CONTEXT");
    for (int i = 0; context; i++) {
      string at = "/toolCalls/" + std::to_string(i);
      std::optional<string> tool = mcp::json::get_string(context, at + "/name");
      if (!tool) break;
      call(c, *tool, mcp::json::get(context, at + "/arguments").value_or("{}"));
    }
  } else if (name == "http-invalid-tool-headers") {
    list_tools(c);
    call(c, "valid_tool");
  } else if (name == "sep-2640-client-no-prefetch") {
    // Listing reads no skill file (files are read only when a skill is loaded).
    attempt("skills/list", [&] { return c.list_skills(); });
  } else if (in_list(SKILL_SCENARIOS, name)) {
    load_skills(c);
  } else if (is_auth(name)) {
    // The transport authorizes every request; a second request lets the step-up and migration
    // scenarios challenge again.
    list_tools(c);
    call(c, "test-tool");
  }
}

// ---- demo mode against an everything-server ----

void expect_text(const mcp::client &c, const string &tool, string_view needle) {
  std::optional<string> r = call(c, tool);
  if (!r) return;
  std::printf("%s: %s\n", tool.c_str(), r->c_str());
  if (r->find(needle) == string::npos) {
    std::fprintf(stderr, "%s: expected \"%.*s\"\n", tool.c_str(), static_cast<int>(needle.size()), needle.data());
    failures++;
  }
}

// Prints a call's result, or reports its failure; the result.
template <typename F>
std::optional<string> show(string_view what, F f) {
  std::optional<string> out = attempt(what, f);
  if (out) std::printf("%.*s: %s\n", static_cast<int>(what.size()), what.data(), out->c_str());
  return out;
}

void demo(const mcp::client &c, bool over_http) {
  show("server", [&] { return c.server_info(); });
  std::optional<string> tools = list_tools(c);
  if (tools && tools->find(R"("test_input_required_result_elicitation")") == string::npos) failures++;
  expect_text(c, "test_simple_text", "This is a simple text response for testing.");
  // An input round: the elicitation handler answers with the placeholder for "name".
  expect_text(c, "test_input_required_result_elicitation", "Hello, conformance!");
  expect_text(c, "test_input_required_result_sampling", "canned answer");
  expect_text(c, "test_input_required_result_list_roots", "file:///tmp/libmcp-everything-client-cpp");
  // SEP-1699: a legacy HTTP session resumes the closed stream; other transports keep it open.
  expect_text(c, "test_reconnection",
              over_http && c.era() == MCP_ERA_LEGACY ? "delivered on the resumed stream"
                                                     : "Reconnection test completed");
  std::optional<string> data = show("template", [&] { return c.read_resource("test://template/42/data"); });
  if (data && data->find("Data for ID: 42") == string::npos) failures++;
  show("prompt", [&] { return c.get_prompt("test_prompt_with_arguments", R"({"arg1":"hello","arg2":"world"})"); });
  std::optional<string> completed = show("complete", [&] {
    return c.complete(R"({"type":"ref/prompt","name":"test_prompt_with_arguments"})", "arg1", "he");
  });
  if (completed && completed->find(R"(["hello","help"])") == string::npos) failures++;

  int progress_seen = 0;  // written on a runtime thread before the future is ready
  std::future<string> async = c.call_async(R"(tools/call)", R"({"name":"test_tool_with_progress"})",
                                           [&](double value, std::optional<double> total, string_view) {
                                             std::printf("progress: %g/%g\n", value, total.value_or(0));
                                             progress_seen++;
                                           });
  show("test_tool_with_progress (async)", [&] { return async.get(); });
  if (progress_seen != 3) {
    std::fprintf(stderr, "%d progress notifications arrived, not 3\n", progress_seen);
    failures++;
  }

  std::mutex mu;
  std::condition_variable cv;
  int events = 0;
  bool ended = false;
  {
    std::optional<mcp::subscription> sub = attempt("subscribe", [&] {
      return c.subscribe(
          R"({"toolsListChanged":true})",
          [&](string_view method, string_view params) {
            std::printf("subscription: %.*s %.*s\n", static_cast<int>(method.size()), method.data(),
                        static_cast<int>(params.size()), params.data());
            std::lock_guard<std::mutex> lock(mu);
            events++;
            cv.notify_all();
          },
          [&](string_view reason) {
            std::printf("subscription ended: %.*s\n", static_cast<int>(reason.size()), reason.data());
            std::lock_guard<std::mutex> lock(mu);
            ended = true;
          });
    });
    if (!sub) return;
    std::printf("subscribed: %s\n", sub->acknowledged().c_str());
    expect_text(c, "test_trigger_tool_change", "Tool list changed");
    std::unique_lock<std::mutex> lock(mu);
    if (!cv.wait_for(lock, std::chrono::seconds(10), [&] { return events > 0; })) {
      std::fprintf(stderr, "no notifications/tools/list_changed arrived\n");
      failures++;
    }
    lock.unlock();
    sub->close();
  }  // destroying the subscription waits for its final callback
  if (!ended) {
    std::fprintf(stderr, "the subscription's end handler did not run\n");
    failures++;
  }
}

int run(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SERVER-COMMAND [ARGS...] | http://HOST:PORT/mcp\n", argv[0]);
    return 2;
  }
  const char *scenario_env = std::getenv("MCP_CONFORMANCE_SCENARIO");
  string_view scenario = scenario_env ? scenario_env : "";
  if (scenario_env && !in_list(SCENARIOS, scenario) && !is_auth(scenario) &&
      !in_list(SKILL_SCENARIOS, scenario)) {
    std::fprintf(stderr, "Unknown scenario: %s\n", scenario_env);
    return 1;
  }
  string_view last = argv[argc - 1];
  bool http = last.substr(0, 7) == "http://" || last.substr(0, 8) == "https://";
  const char *version = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION");
  if (!version) version = std::getenv("MCP_TEST_VERSION");  // demo mode: pin an era
  // json-schema-ref-no-deref is a legacy-only mock.
  if (scenario == "json-schema-ref-no-deref" && (!version || string_view(version) == "2026-07-28")) {
    version = "2025-11-25";
  }
  bool auth = is_auth(scenario);
  if (auth && !http) {
    std::fprintf(stderr, "everything-client: OAuth needs an http:// URL\n");
    return 2;
  }

  auto state = std::make_shared<auth_state>();
  {
    mcp::runtime rt(2);
    mcp::client_config config;
    config.timeouts_ms(30000).info_field("title", R"("libmcp C++ everything-client")");
    if (version) config.version(version);
    if (auth) config.oauth(oauth_for(scenario, rt, state));
    mcp::client_builder b("libmcp-everything-client-cpp", "1.0.0");
    b.config(config).on_elicitation(on_elicitation).on_sampling(on_sampling).on_roots(on_roots);
    std::optional<mcp::client> c;
    if (http) {
      c = attempt("connect", [&] { return b.connect_http(rt, last); });
    } else {
      // The server's stderr is shown as "[program] line" (by default it goes to the log callback).
      b.child_stderr(MCP_CHILD_STDERR_FORWARD);
      c = attempt("connect", [&] { return b.connect_stdio(rt, argv[1], std::vector<string>(argv + 2, argv + argc)); });
    }
    if (!c) return 1;
    if (scenario_env) {
      run_scenario(*c, scenario);
    } else {
      demo(*c, http);
    }
  }  // the client, then the runtime: every copy of the OAuth configuration is gone
  if (auth) {
    bool grant = in_list(GRANT_SCENARIOS, scenario);
    if (state->on_main_thread || state.use_count() != 1 || (grant && state->calls)) {
      std::fprintf(stderr, "authorizer: %d calls, %d on the main thread, %ld holders left\n", state->calls.load(),
                   state->on_main_thread.load(), state.use_count());
      failures++;
    }
  }
  if (scenario_env) {
    std::fprintf(stderr, "everything-client: scenario %s %s\n", scenario_env, failures ? "failed" : "passed");
  } else {
    std::printf("%s\n", failures ? "some calls failed" : "everything worked");
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "everything-client: %s\n", e.what());
    return 2;
  }
}
