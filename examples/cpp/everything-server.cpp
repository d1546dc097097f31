// everything-server in C++ on include/mcp.hpp: the fixtures the official MCP conformance suite
// names (tools of every content kind, logging, progress, elicitation, sampling, the SEP-2322
// input-required tools, resources, a template, prompts, completion, list-changed triggers, the tasks
// extension's tools, the skills extension's pdf-processing skill, a tool with an x-mcp-header
// parameter), for both protocol eras; the same server as examples/c/everything-server.c.
// Handlers are lambdas: those that return a result give back its JSON, those that need input or
// answer later take their mcp::responder (input rounds through responder::input_required; the
// engine turns them into server-to-client requests on legacy sessions).
//
// Usage: everything-server                 serve stdin/stdout until stdin closes
//        everything-server --http [ADDR] [OAUTH...]
//                                          serve http://ADDR/mcp (default 127.0.0.1:3000; port 0
//                                          picks one); prints "listening on http://ADDR/mcp" on
//                                          stderr and runs until SIGINT or SIGTERM
// OAuth (any --oauth-token turns it on: every request then needs one of the tokens, whose scopes
// must include mcp:read; the tools `whoami` (the caller) and `admin` (also needs mcp:admin) are
// added):
//        --oauth-token TOKEN=SUBJECT[:SCOPE,...]   a token the verifier accepts
//        --oauth-resource URL   the resource identifier (default http://ADDR/mcp)
//        --oauth-issuer URL     the authorization server (default https://auth.example.com)
// Build: c++ -std=c++17 everything-server.cpp $(pkg-config --cflags --libs mcp) -lpthread
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "mcp.hpp"

namespace {

using mcp::json::quote;
using std::string;
using std::string_view;

const string PNG =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const string WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
const string IMAGE_BLOCK = R"({"type":"image","data":")" + PNG + R"(","mimeType":"image/png"})";

// ---- building JSON ----

// A CallToolResult with one text block.
string text_result(string_view text) { return R"({"content":[{"type":"text","text":)" + quote(text) + "}]}"; }

// A tool definition without arguments.
string no_args(string_view name, string_view description) {
  return R"({"name":)" + quote(name) + R"(,"description":)" + quote(description) +
         R"(,"inputSchema":{"type":"object","properties":{}}})";
}

// A tool of the tasks extension: `support` is "optional" or "required"; `properties` the members of
// its input schema's properties object.
string task_tool(string_view name, string_view description, string_view support, string_view properties) {
  return R"({"name":)" + quote(name) + R"(,"description":)" + quote(description) +
         R"(,"inputSchema":{"type":"object","properties":{)" + string(properties) +
         R"(}},"execution":{"taskSupport":)" + quote(support) + "}}";
}

// A form with one required field of `type`.
string form(string_view field, string_view type, string_view description) {
  return R"({"type":"object","properties":{)" + quote(field) + R"(:{"type":)" + quote(type) +
         R"(,"description":)" + quote(description) + R"(}},"required":[)" + quote(field) + "]}";
}

// One input request, "KEY":{...}, to put in an object.
string request_entry(string_view key, string_view method, const string &params) {
  return quote(key) + R"(:{"method":)" + quote(method) + R"(,"params":)" + params + "}";
}
string elicit(string_view key, string_view message, const string &schema) {
  return request_entry(key, "elicitation/create",
                       R"({"mode":"form","message":)" + quote(message) + R"(,"requestedSchema":)" + schema + "}");
}
string ask_name(string_view key) { return elicit(key, "What is your name?", form("name", "string", "Your name")); }
string sample(string_view key, string_view text, int max_tokens) {
  return request_entry(key, "sampling/createMessage",
                       R"({"messages":[{"role":"user","content":{"type":"text","text":)" + quote(text) +
                           R"(}}],"maxTokens":)" + std::to_string(max_tokens) + "}");
}
string list_roots(string_view key) { return request_entry(key, "roots/list", "{}"); }
string object(const std::vector<string> &entries) {
  string out = "{";
  for (const string &e : entries) out += (out.size() > 1 ? "," : "") + e;
  return out + "}";
}

string arg_string(const mcp::request &q, string_view name) {
  return mcp::json::get_string(q.arguments(), mcp::json::escape(name)).value_or("");
}

// ---- reading the answers of an input round (empty before the first) ----

class answers {
 public:
  explicit answers(const mcp::request &q) : in_(q.input_responses()) {}
  // The answer to input request `key` as JSON.
  std::optional<string> raw(string_view key) const { return mcp::json::get(in_, "/" + string(key)); }
  // The action of elicitation `key` ("accept", "decline", "cancel").
  std::optional<string> action(string_view key) const {
    return mcp::json::get_string(in_, "/" + string(key) + "/action");
  }
  // One string field of an accepted elicitation.
  std::optional<string> accepted(string_view key, string_view field) const {
    if (action(key) != "accept") return std::nullopt;
    return mcp::json::get_string(in_, "/" + string(key) + "/content/" + string(field));
  }
  std::optional<bool> accepted_bool(string_view key, string_view field) const {
    if (action(key) != "accept") return std::nullopt;
    return mcp::json::get_bool(in_, "/" + string(key) + "/content/" + string(field));
  }
  // "decline" or "cancel" when the user refused elicitation `key`.
  std::optional<string> refusal(string_view key) const {
    std::optional<string> a = action(key);
    if (a == "decline" || a == "cancel") return a;
    return std::nullopt;
  }
  // The text of a sampling answer (its content is one block or an array of blocks).
  std::optional<string> sampled(string_view key) const {
    string base = "/" + string(key) + "/content";
    if (auto text = mcp::json::get_string(in_, base + "/text")) return text;
    for (int i = 0; i < 16; i++) {
      string block = base + "/" + std::to_string(i);
      std::optional<string> type = mcp::json::get_string(in_, block + "/type");
      if (!type) break;
      if (*type == "text") return mcp::json::get_string(in_, block + "/text");
    }
    return std::nullopt;
  }
  // The roots of a roots/list answer as "uri (name), ...".
  std::optional<string> roots(string_view key) const {
    string base = "/" + string(key) + "/roots";
    std::optional<string> list = mcp::json::get(in_, base);
    if (!list || list->front() != '[') return std::nullopt;
    string out;
    for (int i = 0;; i++) {
      string root = base + "/" + std::to_string(i);
      std::optional<string> uri = mcp::json::get_string(in_, root + "/uri");
      if (!uri) return out;
      std::optional<string> name = mcp::json::get_string(in_, root + "/name");
      out += (i ? ", " : "") + *uri + (name ? " (" + *name + ")" : "");
    }
  }

 private:
  string_view in_;
};

// "action=..., content=..." of an elicitation answer.
string describe(const string &answer) {
  return "action=" + mcp::json::get_string(answer, "/action").value_or("unknown") +
         ", content=" + mcp::json::get(answer, "/content").value_or("{}");
}

// Answers "the user chose to ..." when one of `keys` was refused; whether it did.
bool ended_by_refusal(mcp::responder &r, const answers &in, std::initializer_list<string_view> keys) {
  for (string_view key : keys) {
    if (std::optional<string> action = in.refusal(key)) {
      r.result(text_result("The user chose to " + *action + " the question (" + string(key) + ")"));
      return true;
    }
  }
  return false;
}

// Answers "<prefix>: action=..., content=..." when elicitation `key` was answered; whether it was.
bool finish_described(mcp::responder &r, string_view key, string_view prefix) {
  std::optional<string> a = answers(r.req()).raw(key);
  if (!a) return false;
  r.result(text_result(string(prefix) + ": " + describe(*a)));
  return true;
}

// Runs `work(r)` on a thread of its own: the handler returns at once, the answer comes later. An
// exception `work` throws drops the responder (the client gets an internal error).
template <typename F>
void later(mcp::responder r, F work) {
  std::thread([r = std::move(r), work = std::move(work)]() mutable {
    try {
      work(r);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "everything-server: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "everything-server: a worker threw an exception that is not a std::exception\n");
    }
  }).detach();
}

void sleep_ms(long ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Sleeps `ms` milliseconds, or less when the request (the task) is cancelled; whether it was.
bool sleep_unless_cancelled(const mcp::responder &r, long ms) {
  for (long waited = 0; waited < ms && !r.cancelled(); waited += 10) sleep_ms(10);
  return r.cancelled();
}

void add_mrtr_tools(mcp::server_builder &b);
void add_list_changed_triggers(mcp::server_builder &b, const std::optional<mcp::server> &self);

// ---- tools ----

void add_tools(mcp::server_builder &b, const std::optional<mcp::server> &self) {
  auto fixed = [](string json) { return [json](const mcp::request &) { return json; }; };
  b.tool(no_args("test_simple_text", "Returns a simple text response"),
         fixed(text_result("This is a simple text response for testing.")));
  b.tool(no_args("test_image_content", "Returns an image (a 1x1 PNG)"), fixed(R"({"content":[)" + IMAGE_BLOCK + "]}"));
  b.tool(no_args("test_audio_content", "Returns audio (a short WAV)"),
         fixed(R"({"content":[{"type":"audio","data":")" + WAV + R"(","mimeType":"audio/wav"}]})"));
  b.tool(no_args("test_embedded_resource", "Returns an embedded text resource"),
         fixed(R"({"content":[{"type":"resource","resource":{"uri":"test://embedded-resource",)"
               R"("mimeType":"text/plain","text":"This is an embedded resource content."}}]})"));
  b.tool(no_args("test_multiple_content_types", "Returns text, an image and an embedded resource"),
         fixed(R"({"content":[{"type":"text","text":"Multiple content types test:"},)" + IMAGE_BLOCK +
               R"(,{"type":"resource","resource":{"uri":"test://mixed-content-resource",)"
               R"("mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}]})"));
  b.tool(no_args("test_error_handling", "Always fails with a tool error (isError), not a protocol error"),
         [](const mcp::request &) -> string {
           throw mcp::tool_error("This tool intentionally returns an error for testing");
         });
  b.tool(no_args("test_tool_with_logging", "Sends three info log messages about 50 ms apart, then returns"),
         [](mcp::responder r) {
           later(std::move(r), [](mcp::responder &r) {
             const char *lines[] = {R"("Tool execution started")", R"("Tool processing data")",
                                    R"("Tool execution completed")"};
             for (int i = 0; i < 3; i++) {
               if (i) sleep_ms(50);
               r.log(MCP_LOG_INFO, lines[i]);
             }
             r.result(text_result("Tool with logging executed successfully"));
           });
         });
  b.tool(no_args("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 about 50 ms apart"),
         [](mcp::responder r) {
           later(std::move(r), [](mcp::responder &r) {
             for (int i = 0; i <= 2; i++) {
               if (i) sleep_ms(50);
               r.progress(50.0 * i, 100);
             }
             r.result(text_result("Tool with progress executed successfully"));
           });
         });
  // SEP-1699 polling: closes the SSE response stream mid-call; the result is produced 100 ms later
  // and reaches the client on the stream it resumes with Last-Event-ID.
  b.tool(no_args("test_reconnection", "Closes its SSE response stream mid-call; the result arrives after the "
                                      "client reconnects with Last-Event-ID"),
         [](mcp::responder r) {
           later(std::move(r), [](mcp::responder &r) {
             bool closed = r.close_stream();
             sleep_ms(100);
             r.result(text_result(closed ? "Reconnection test completed: the result was delivered on the resumed stream"
                                         : "Reconnection test completed: this transport cannot close the stream, so "
                                           "it stayed open"));
           });
         });
  b.tool(no_args("test_logging_tool", "Logs at debug, info and warning; modern requests get them only with a logLevel"),
         [](mcp::responder r) {
           // The engine applies the era's rule: a modern request without a logLevel gets no messages.
           int sent = r.log(MCP_LOG_DEBUG, R"("test_logging_tool: debug message")", "test_logging_tool") +
                      r.log(MCP_LOG_INFO, R"("test_logging_tool: info message")", "test_logging_tool") +
                      r.log(MCP_LOG_WARNING, R"("test_logging_tool: warning message")", "test_logging_tool");
           r.result(text_result("Logging test completed: " + std::to_string(sent) + " message(s) sent"));
         });
  b.tool(no_args("test_missing_capability", "Needs the client's sampling capability (-32021 without it)"),
         [](const mcp::request &q) {
           if (!q.has_client_capability("sampling")) {
             throw mcp::rpc_error(-32021, "Missing required client capability: sampling",
                                  R"({"requiredCapabilities":{"sampling":{}}})");
           }
           return text_result("Success");
         });
  b.tool(R"({"name":"json_schema_2020_12_tool","description":"Tool with a JSON Schema 2020-12 input schema )"
         R"J(($defs, $anchor, $ref, allOf/anyOf, if/then/else)","inputSchema":{"$schema":)J"
         R"("https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":)"
         R"({"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},)"
         R"("city":{"type":"string"},"postalCode":{"type":"string"}},"required":["street","city"]}},)"
         R"("properties":{"name":{"type":"string","description":"The contact's name"},)"
         R"("address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},)"
         R"("phone":{"type":"string"},"email":{"type":"string","format":"email"}},)"
         R"("allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],)"
         R"("if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},)"
         R"("then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}})",
         [](const mcp::request &q) {
           return text_result("json_schema_2020_12_tool received: " + string(q.arguments()));
         });

  b.tool(R"({"name":"test_sampling","description":"Asks the client's LLM to answer a prompt )"
         R"J((sampling/createMessage)","inputSchema":{"type":"object","properties":{"prompt":)J"
         R"({"type":"string","description":"The prompt to send"}},"required":["prompt"]}})",
         [](mcp::responder r) {
           if (std::optional<string> text = answers(r.req()).sampled("sample")) {
             r.result(text_result("LLM response: " + *text));
           } else {
             r.input_required(object({sample("sample", arg_string(r.req(), "prompt"), 100)}));
           }
         });
  b.tool(R"J({"name":"test_elicitation","description":"Asks the user for input (elicitation/create)",)J"
         R"("inputSchema":{"type":"object","properties":{"message":{"type":"string",)"
         R"("description":"The message to show the user"}},"required":["message"]}})",
         [](mcp::responder r) {
           if (finish_described(r, "response", "User response")) return;
           r.input_required(
               object({elicit("response", arg_string(r.req(), "message"),
                              form("response", "string", "Your response"))}));
         });
  b.tool(no_args("test_elicitation_sep1034_defaults", "Elicitation whose form fields carry default values (SEP-1034)"),
         [](mcp::responder r) {
           if (finish_described(r, "defaults", "Elicitation completed")) return;
           r.input_required(object({elicit(
               "defaults", "Please review and update the form fields with defaults",
               R"({"type":"object","properties":{)"
               R"("name":{"type":"string","description":"User name","default":"John Doe"},)"
               R"("age":{"type":"integer","description":"User age","default":30},)"
               R"("score":{"type":"number","description":"User score","default":95.5},)"
               R"("status":{"type":"string","description":"User status","enum":["active","inactive","pending"],)"
               R"("default":"active"},)"
               R"("verified":{"type":"boolean","description":"Verification status","default":true}}})")}));
         });
  b.tool(no_args("test_elicitation_sep1330_enums", "Elicitation with the five enum variants of SEP-1330"),
         [](mcp::responder r) {
           if (finish_described(r, "enums", "Elicitation completed")) return;
           const string titled = R"([{"const":"value1","title":"First Option"},)"
                                 R"({"const":"value2","title":"Second Option"},)"
                                 R"({"const":"value3","title":"Third Option"}])";
           r.input_required(object({elicit(
               "enums", "Please select options from the enum fields",
               R"({"type":"object","properties":{)"
               R"("untitledSingle":{"type":"string","description":"Untitled single-select",)"
               R"("enum":["option1","option2","option3"]},)"
               R"("titledSingle":{"type":"string","description":"Titled single-select","oneOf":)" +
                   titled + "}," +
                   R"("legacyEnum":{"type":"string","description":"Legacy titled enum","enum":["opt1","opt2","opt3"],)"
                   R"("enumNames":["Option One","Option Two","Option Three"]},)"
                   R"("untitledMulti":{"type":"array","description":"Untitled multi-select","items":)"
                   R"({"type":"string","enum":["option1","option2","option3"]}},)"
                   R"("titledMulti":{"type":"array","description":"Titled multi-select","items":{"anyOf":)" +
                   titled + "}}}}")}));
         });
  b.tool(no_args("test_streaming_elicitation", "Elicitation without server-to-client requests in the modern era"),
         [](mcp::responder r) {
           r.progress(0, 1, "asking the user");
           if (finish_described(r, "confirmation", "Streaming elicitation completed")) return;
           r.input_required(object({elicit("confirmation", "Please confirm to continue",
                                           form("confirmation", "string", "Type anything to confirm"))}));
         });
  add_mrtr_tools(b);
  add_list_changed_triggers(b, self);
  // Echoes its region argument, which clients also send as the Mcp-Param-Region header (the engine
  // checks that the two agree).
  b.tool(R"({"name":"test_x_mcp_header","description":"Echoes its region argument, which clients also send )"
         R"(as the Mcp-Param-Region header","inputSchema":{"type":"object","properties":{"region":)"
         R"({"type":"string","description":"A region name, mirrored in the Mcp-Param-Region header",)"
         R"("x-mcp-header":"Region"}},"required":["region"]}})",
         [](const mcp::request &q) {
           std::optional<string> region = mcp::json::get_string(q.arguments(), "/region");
           if (!region) throw mcp::tool_error("region must be a string");
           return text_result("region=" + *region);
         });
}

// ---- SEP-2322 input-required tools ----

void add_mrtr_tools(mcp::server_builder &b) {
  b.tool(no_args("test_input_required_result_elicitation", "MRTR: asks for the user's name, then greets them"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"user_name"})) return;
           if (std::optional<string> name = in.accepted("user_name", "name")) {
             r.result(text_result("Hello, " + *name + "!"));
           } else {
             r.input_required(object({ask_name("user_name")}));
           }
         });
  b.tool(no_args("test_input_required_result_sampling", "MRTR: asks the client's LLM for the capital of France"),
         [](mcp::responder r) {
           if (std::optional<string> text = answers(r.req()).sampled("capital_question")) {
             r.result(text_result("Sampling result: " + *text));
           } else {
             r.input_required(object({sample("capital_question", "What is the capital of France?", 100)}));
           }
         });
  b.tool(no_args("test_input_required_result_list_roots", "MRTR: asks for the client's roots"), [](mcp::responder r) {
    if (std::optional<string> roots = answers(r.req()).roots("client_roots")) {
      r.result(text_result("Client roots: " + *roots));
    } else {
      r.input_required(object({list_roots("client_roots")}));
    }
  });
  b.tool(no_args("test_input_required_result_request_state",
                 "MRTR: asks for a confirmation and carries a requestState"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"confirm"})) return;
           std::optional<string> ok;
           if (in.action("confirm") == "accept") ok = mcp::json::get(r.req().input_responses(), "/confirm/content/ok");
           if ((ok == "true" || ok == "false") && r.req().state() == "state-ok") {
             r.result(text_result("Request state verified: state-ok (ok=" + *ok + ")"));
           } else {
             r.input_required(object({elicit("confirm", "Please confirm", form("ok", "boolean", "Confirm"))}),
                              "state-ok");
           }
         });
  b.tool(no_args("test_input_required_result_multiple_inputs",
                 "MRTR: asks for a name, a sampled greeting and the roots at once"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"user_name"})) return;
           std::optional<string> name = in.accepted("user_name", "name"), greeting = in.sampled("greeting"),
                                 roots = in.roots("client_roots");
           if (name && greeting && roots && r.req().state() == "multiple-inputs") {
             r.result(text_result("Hello, " + *name + "! Greeting: " + *greeting + ". Roots: " + *roots));
           } else {
             r.input_required(object({ask_name("user_name"), sample("greeting", "Write a short greeting.", 50),
                                      list_roots("client_roots")}),
                              "multiple-inputs");
           }
         });
  b.tool(no_args("test_input_required_result_multi_round", "MRTR: asks for a name, then for a favourite colour"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"step1", "step2"})) return;
           const string ask_color = object(
               {elicit("step2", "Step 2: What is your favorite color?",
                       form("color", "string", "Your favorite color"))});
           string_view state = r.req().state(), round2 = "round-2:";
           if (state == "round-1") {
             if (std::optional<string> name = in.accepted("step1", "name")) {
               r.input_required(ask_color, string(round2) + *name);
               return;
             }
           } else if (state.substr(0, round2.size()) == round2) {
             if (std::optional<string> color = in.accepted("step2", "color")) {
               r.result(text_result("Hello, " + string(state.substr(round2.size())) + "! Your favorite color is " +
                                    *color + "."));
             } else {
               r.input_required(ask_color, state);
             }
             return;
           }
           r.input_required(object({ask_name("step1")}), "round-1");
         });
  b.tool(no_args("test_input_required_result_tampered_state", "MRTR: a modified requestState is rejected with -32602"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"user_name"})) return;
           std::optional<string> name = in.accepted("user_name", "name");
           if (name && r.req().state() == "untampered") {
             r.result(text_result("State verified, hello " + *name + "!"));
           } else {
             r.input_required(object({ask_name("user_name")}), "untampered");
           }
         });
  b.tool(no_args("test_input_required_result_capabilities",
                 "MRTR: asks only for the kinds of input the client declared"),
         [](mcp::responder r) {
           answers in(r.req());
           if (ended_by_refusal(r, in, {"user_name"})) return;
           const mcp::request q = r.req();
           bool elicit_ok = q.has_client_capability("elicitation/form");
           bool sample_ok = q.has_client_capability("sampling"), roots_ok = q.has_client_capability("roots");
           if (!elicit_ok && !sample_ok && !roots_ok) {
             r.result(text_result("The client declared no input capability: nothing to ask"));
             return;
           }
           std::optional<string> name = in.accepted("user_name", "name"), text = in.sampled("capital_question"),
                                 roots = in.roots("client_roots");
           if ((!elicit_ok || name) && (!sample_ok || text) && (!roots_ok || roots)) {
             string reply = "Received:";
             if (elicit_ok) reply += " name=" + *name;
             if (sample_ok) reply += " sampling=" + *text;
             if (roots_ok) reply += " roots=" + *roots;
             r.result(text_result(reply));
             return;
           }
           std::vector<string> asks;
           if (elicit_ok) asks.push_back(ask_name("user_name"));
           if (sample_ok) asks.push_back(sample("capital_question", "What is the capital of France?", 100));
           if (roots_ok) asks.push_back(list_roots("client_roots"));
           r.input_required(object(asks));
         });
}

// ---- list-changed triggers: add a temporary entry and remove it again ----

void add_list_changed_triggers(mcp::server_builder &b, const std::optional<mcp::server> &self) {
  b.tool(no_args("test_trigger_tool_change",
                 "Adds and removes a temporary tool, so listeners get notifications/tools/list_changed"),
         [&self](const mcp::request &) {
           self->add_tool(R"({"name":"test_dynamic_tool","description":"A temporary tool of )"
                          R"(test_trigger_tool_change","inputSchema":{"type":"object"}})",
                          [](const mcp::request &) { return text_result("dynamic"); });
           self->remove_tool("test_dynamic_tool");
           return text_result("Tool list changed");
         });
  b.tool(no_args("test_trigger_prompt_change",
                 "Adds and removes a temporary prompt, so listeners get notifications/prompts/list_changed"),
         [&self](const mcp::request &) {
           self->add_prompt(R"({"name":"test_dynamic_prompt","description":"A temporary prompt of )"
                            R"(test_trigger_prompt_change"})",
                            [](const mcp::request &) -> string {
                              return R"({"messages":[{"role":"user","content":{"type":"text","text":"dynamic"}}]})";
                            });
           self->remove_prompt("test_dynamic_prompt");
           return text_result("Prompt list changed");
         });
}

// ---- tasks (the suite's tasks-* scenarios): tools whose definitions set execution.taskSupport;
// their handlers start the task (responder::start_task) and answer it, often later ----

string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// An answer to a task that may be cancelled already (the engine then drops it, or refuses it).
template <typename F>
void answer_unless_gone(F answer) {
  try {
    answer();
  } catch (const mcp::error &) {
    // The task ended (cancelled) before the answer: nothing is waiting for it.
  }
}

void add_task_tools(mcp::server_builder &b) {
  b.tool(R"({"name":"greet","description":"Sync-only: greets by name","inputSchema":{"type":"object",)"
         R"("properties":{"name":{"type":"string"}},"required":["name"]}})",
         [](const mcp::request &q) {
           return text_result("Hello, " + mcp::json::get_string(q.arguments(), "/name").value_or("World") + "!");
         });
  b.tool(task_tool("slow_compute",
                   "Task-supporting: sleeps `seconds` seconds, then reports the label (stops when cancelled)",
                   "optional", R"("seconds":{"type":"number","minimum":0},"label":{"type":"string"})"),
         [](mcp::responder r) {
           r.start_task();
           later(std::move(r), [](mcp::responder &r) {
             double seconds = mcp::json::get_double(r.req().arguments(), "/seconds").value_or(0);
             string label = mcp::json::get_string(r.req().arguments(), "/label").value_or("unlabelled");
             if (sleep_unless_cancelled(r, static_cast<long>(seconds * 1000))) {
               answer_unless_gone([&] { r.tool_error("cancelled"); });
             } else {
               answer_unless_gone(
                   [&] { r.result(text_result("Computed " + label + " after " + format_seconds(seconds) + " s")); });
             }
           });
         });
  b.tool(task_tool("failing_job", "Task-required: fails with a tool error after about a second", "required", ""),
         [](mcp::responder r) {
           r.start_task();
           later(std::move(r), [](mcp::responder &r) {
             sleep_unless_cancelled(r, 1000);
             answer_unless_gone([&] { r.tool_error("failing_job always fails"); });
           });
         });
  b.tool(task_tool("protocol_error_job", "Task-supporting: ends with a protocol (JSON-RPC) error", "optional", ""),
         [](mcp::responder r) {
           r.start_task();
           r.error(-32603, "protocol_error_job always fails with a protocol error");
         });
  b.tool(task_tool("confirm_delete",
                   "Task-supporting: asks the user to confirm deleting `filename` (inside the task), then reports",
                   "optional", R"("filename":{"type":"string"})"),
         [](mcp::responder r) {
           r.start_task();
           string file = mcp::json::get_string(r.req().arguments(), "/filename").value_or("the file");
           if (std::optional<bool> confirmed = answers(r.req()).accepted_bool("confirm", "confirm")) {
             r.result(text_result((*confirmed ? "Deleted " : "Kept ") + file));
           } else {
             r.input_required(
                 object({elicit("confirm", "Delete " + file + "?",
                                form("confirm", "boolean", "Confirm the deletion"))}));
           }
         });
  b.tool(task_tool("multi_input", "Task-supporting: asks two questions at once, then reports both answers", "optional",
                   ""),
         [](mcp::responder r) {
           r.start_task();
           answers in(r.req());
           std::optional<string> name = in.accepted("name", "name");
           std::optional<bool> confirmed = in.accepted_bool("confirm", "confirm");
           if (name && confirmed) {
             r.result(text_result("name=" + *name + ", confirm=" + (*confirmed ? "true" : "false")));
           } else {
             r.input_required(object({elicit("name", "What is your name?", form("name", "string", "Your name")),
                                      elicit("confirm", "Confirm?", form("confirm", "boolean", "Confirm"))}));
           }
         });
  // Round 1 asks for the name before any task exists; the round that brings it starts the task.
  b.tool(task_tool("test_tool_with_task",
                   "Task-required: asks for the user's name synchronously (MRTR), then runs as a task that greets them",
                   "required", ""),
         [](mcp::responder r) {
           if (!answers(r.req()).accepted("user_name", "name")) {
             r.input_required(object({ask_name("user_name")}));
             return;
           }
           r.start_task();
           later(std::move(r), [](mcp::responder &r) {
             sleep_unless_cancelled(r, 200);
             string name = answers(r.req()).accepted("user_name", "name").value_or("stranger");
             answer_unless_gone([&] { r.result(text_result("Hello, " + name + "! (from the task)")); });
           });
         });
}

// ---- resources, prompts, completion ----

string user_text(string_view text) { return R"({"role":"user","content":{"type":"text","text":)" + quote(text) + "}}"; }

void add_resources_and_prompts(mcp::server_builder &b) {
  b.resource(R"({"uri":"test://static-text","name":"static-text","title":"Static text",)"
             R"("description":"A static text resource","mimeType":"text/plain"})",
             [](const mcp::request &) -> string {
               return R"({"contents":[{"uri":"test://static-text","mimeType":"text/plain",)"
                      R"("text":"This is the content of the static text resource."}]})";
             });
  b.resource(R"({"uri":"test://static-binary","name":"static-binary","title":"Static binary",)"
             R"J("description":"A static binary resource (a 1x1 PNG)","mimeType":"image/png"})J",
             [](const mcp::request &) {
               return R"({"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":")" + PNG + R"("}]})";
             });
  b.resource(R"({"uri":"test://watched-resource","name":"watched-resource","title":"Watched resource",)"
             R"("description":"A resource to subscribe to","mimeType":"text/plain"})",
             [](const mcp::request &) -> string {
               return R"({"contents":[{"uri":"test://watched-resource","mimeType":"text/plain",)"
                      R"("text":"This is the content of the watched resource."}]})";
             });
  b.resource_template(R"({"uriTemplate":"test://template/{id}/data","name":"template-data","title":"Template data",)"
                      R"("description":"Data for an id","mimeType":"application/json"})",
                      [](const mcp::request &q) {
                        string id = mcp::json::get_string(q.template_vars(), "/id").value_or("");
                        string data = R"({"id":)" + quote(id) + R"(,"templateTest":true,"data":)" +
                                      quote("Data for ID: " + id) + "}";
                        return R"({"contents":[{"uri":)" + quote(q.uri()) +
                               R"(,"mimeType":"application/json","text":)" +
                               quote(data) + "}]}";
                      });

  b.prompt(R"({"name":"test_simple_prompt","description":"A simple prompt without arguments"})",
           [](const mcp::request &) {
             return R"({"messages":[)" + user_text("This is a simple prompt for testing.") + "]}";
           });
  b.prompt(R"({"name":"test_prompt_with_arguments","description":"A prompt with two required arguments",)"
           R"("arguments":[{"name":"arg1","description":"First argument","required":true},)"
           R"({"name":"arg2","description":"Second argument","required":true}]})",
           [](const mcp::request &q) {
             return R"({"messages":[)" +
                    user_text("Prompt with arguments: arg1='" + arg_string(q, "arg1") + "', arg2='" +
                              arg_string(q, "arg2") + "'") +
                    "]}";
           });
  b.prompt(R"({"name":"test_prompt_with_embedded_resource","description":"A prompt embedding a resource",)"
           R"("arguments":[{"name":"resourceUri","description":"URI of the resource to embed","required":true}]})",
           [](const mcp::request &q) {
             std::optional<string> uri = mcp::json::get_string(q.arguments(), "/resourceUri");
             if (!uri) throw mcp::rpc_error(-32602, "resourceUri must be a string");
             return R"({"messages":[{"role":"user","content":{"type":"resource","resource":{"uri":)" + quote(*uri) +
                    R"(,"mimeType":"text/plain","text":"Embedded resource content for testing."}}},)" +
                    user_text("Please process the embedded resource above.") + "]}";
           });
  b.prompt(R"({"name":"test_prompt_with_image","description":"A prompt with an image"})", [](const mcp::request &) {
    return R"({"messages":[{"role":"user","content":)" + IMAGE_BLOCK + "}," +
           user_text("Please analyze the image above.") + "]}";
  });
  b.prompt(R"({"name":"test_input_required_result_prompt","description":"A prompt that first asks the user for )"
           R"J(context (MRTR)"})J",
           [](mcp::responder r) {
             answers in(r.req());
             if (in.refusal("user_context")) {
               r.result(R"J({"description":"A prompt without user context (the user refused)","messages":[)J" +
                        user_text("No context was provided.") + "]}");
             } else if (std::optional<string> context = in.accepted("user_context", "context")) {
               r.result(R"({"description":"A prompt built from user-provided context","messages":[)" +
                        user_text("Use this context: " + *context) + "]}");
             } else {
               r.input_required(object({elicit("user_context", "What context should the prompt use?",
                                               form("context", "string", "Context for the prompt"))}));
             }
           });

  b.completion([](const mcp::request &q) {
    string_view p = q.params();
    bool arg1 = mcp::json::get_string(p, "/ref/type") == "ref/prompt" &&
                mcp::json::get_string(p, "/ref/name") == "test_prompt_with_arguments" &&
                mcp::json::get_string(p, "/argument/name") == "arg1";
    string prefix = mcp::json::get_string(p, "/argument/value").value_or("");
    string values;
    int n = 0;
    for (string_view v : {"hello", "help", "world", "paris"}) {
      if (arg1 && v.substr(0, prefix.size()) == prefix) values += (n++ ? "," : "") + quote(v);
    }
    return R"({"completion":{"values":[)" + values + R"(],"total":)" + std::to_string(n) + R"(,"hasMore":false}})";
  });
}

// ---- skills (the suite's sep-2640-skills-* scenarios): the skill the Rust everything-server
// serves (examples/src/everything/skills.rs), a SKILL.md and a file in a subdirectory, so listing,
// retrieval, verification and directory reads all have something to work on ----

mcp::skill pdf_skill() {
  mcp::skill s(
      "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n"
      "license: Apache-2.0\n---\n\n# PDF processing\n\nUse the form reference in "
      "references/FORMS.md when a PDF has fields to fill.\n");
  s.file("references/FORMS.md", "text/markdown", "# Forms\n\nFill every field, then flatten the document.\n");
  return s;
}

// ---- OAuth: the resource server's token table and verifier ----

// A token the verifier accepts, from "TOKEN=SUBJECT[:SCOPE,...]".
struct grant {
  string token, subject;
  std::vector<string> scopes;
};

std::optional<grant> parse_grant(string_view spec) {
  size_t eq = spec.find('=');
  if (eq == string_view::npos || eq == 0) return std::nullopt;
  grant g{string(spec.substr(0, eq)), string(spec.substr(eq + 1)), {}};
  size_t colon = g.subject.find(':');
  if (colon == string::npos) return g;
  string scopes = g.subject.substr(colon + 1);
  g.subject.resize(colon);
  for (size_t start = 0; start <= scopes.size();) {
    size_t comma = std::min(scopes.find(',', start), scopes.size());
    if (comma > start) g.scopes.push_back(scopes.substr(start, comma - start));
    start = comma + 1;
  }
  return g;
}

struct oauth_settings {
  std::vector<grant> grants;
  string resource, issuer = "https://auth.example.com";
};

// Requires OAuth on `config`: the token verifier is a lookup in the table, answered at once (a JWT
// check or an introspection call would answer from a thread of its own); the library checks
// audience, expiry and scopes.
void require_oauth(mcp::http_server_config &config, const oauth_settings &oauth) {
  auto verify = [grants = oauth.grants, resource = oauth.resource](string_view token, mcp::token_responder r) {
    for (const grant &g : grants) {
      if (g.token != token) continue;
      string scopes;
      for (const string &s : g.scopes) scopes += (scopes.empty() ? "" : ",") + quote(s);
      r.accept(R"({"subject":)" + quote(g.subject) + R"(,"clientId":"everything-server-cpp","scopes":[)" + scopes +
               R"(],"audience":[)" + quote(resource) + R"(],"expiresAt":)" +
               std::to_string(static_cast<long long>(std::time(nullptr)) + 3600) + "}");
      return;
    }
    r.reject(MCP_TOKEN_INVALID, "unknown token");
  };
  mcp::resource_server_config auth(oauth.resource, verify);
  auth.authorization_server(oauth.issuer)
      .scopes_supported("mcp:read mcp:admin")
      .required_scopes("mcp:read")
      .tool_scopes("admin", "mcp:admin")
      .resource_name("libmcp everything-server (C++)");
  config.auth(auth);
}

void add_oauth_tools(mcp::server_builder &b) {
  b.tool(no_args("whoami", "Who the caller is (its token's subject and scopes)"), [](const mcp::request &q) {
    return text_result("subject " + string(q.auth_subject()) + " with scopes " + string(q.auth_scopes()));
  });
  b.tool(no_args("admin", "Needs the scope mcp:admin"), [](const mcp::request &) { return text_result("admin done"); });
}

// ---- registration and serving ----

mcp::server build(const std::optional<mcp::server> &self, bool oauth) {
  mcp::server_builder b("libmcp-everything-server-cpp", "1.0.0");
  b.instructions("Conformance fixture: every tool, resource and prompt named by the MCP conformance suite.");
  add_tools(b, self);
  add_task_tools(b);
  if (oauth) add_oauth_tools(b);
  add_resources_and_prompts(b);
  b.skill(pdf_skill());
  return b.build();
}

int usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--http [ADDR] [--oauth-token TOKEN=SUBJECT[:SCOPE,...]]... "
               "[--oauth-resource URL] [--oauth-issuer URL]]\n",
               argv0);
  return 2;
}

int run(int argc, char **argv) {
  bool http = argc >= 2 && string_view(argv[1]) == "--http";
  if (argc >= 2 && !http) return usage(argv[0]);
  string addr = "127.0.0.1:3000";
  oauth_settings oauth;
  int i = 2;
  if (http && i < argc && string_view(argv[i]).substr(0, 2) != "--") addr = argv[i++];
  for (; i < argc; i += 2) {
    string_view option = argv[i];
    if (i + 1 == argc) return usage(argv[0]);
    if (option == "--oauth-token") {
      std::optional<grant> g = parse_grant(argv[i + 1]);
      if (!g) return usage(argv[0]);
      oauth.grants.push_back(std::move(*g));
    } else if (option == "--oauth-resource") {
      oauth.resource = argv[i + 1];
    } else if (option == "--oauth-issuer") {
      oauth.issuer = argv[i + 1];
    } else {
      return usage(argv[0]);
    }
  }
  if (oauth.resource.empty()) oauth.resource = "http://" + addr + "/mcp";
  // SIGINT and SIGTERM are blocked before any thread starts, so only sigwait sees them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  if (http) pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  mcp::runtime rt;
  std::optional<mcp::server> server;  // the list-changed triggers reach it through this
  server.emplace(build(server, !oauth.grants.empty()));
  if (!http) {
    server->serve_stdio(rt).wait();
    return 0;
  }
  mcp::http_server_config config;
  config.bind(addr);
  if (!oauth.grants.empty()) require_oauth(config, oauth);
  mcp::http_server serving = server->serve_http(rt, config);
  std::fprintf(stderr, "listening on %s\n", serving.url().c_str());
  int sig = 0;
  sigwait(&signals, &sig);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    int rc = run(argc, argv);
    if (rc == 0) std::fprintf(stderr, "everything-server: clean exit\n");
    return rc;
  } catch (const mcp::error &e) {
    std::fprintf(stderr, "everything-server: %s\n", e.what());
    return 1;
  }
}
