/* everything-server in C: the fixtures the official MCP conformance suite names (tools of every
 * content kind, logging, progress, elicitation, sampling, the SEP-2322 input-required tools,
 * resources, a template, prompts, completion, list-changed triggers, the tasks extension's tools,
 * the skills extension's pdf-processing skill, a tool with an x-mcp-header parameter), for both
 * protocol eras.
 * Input-needing handlers are written once as input rounds (mcp_responder_input_required): the engine
 * turns them into server-to-client requests on legacy sessions.
 *
 * Usage: everything-server                 serve stdin/stdout until stdin closes
 *        everything-server --http [ADDR] [OAUTH...]
 *                                          serve http://ADDR/mcp (default 127.0.0.1:3000; port 0
 *                                          picks one); prints "listening on http://ADDR/mcp" on
 *                                          stderr and runs until SIGINT or SIGTERM
 * OAuth (any --oauth-token turns it on: every request then needs one of the tokens, whose scopes
 * must include mcp:read; the tools `whoami` (the caller) and `admin` (also needs mcp:admin) are
 * added):
 *        --oauth-token TOKEN=SUBJECT[:SCOPE,...]   a token the verifier (written in C) accepts
 *        --oauth-resource URL   the resource identifier (default http://ADDR/mcp)
 *        --oauth-issuer URL     the authorization server (default https://auth.example.com)
 * Build: cc -std=c11 everything-server.c $(pkg-config --cflags --libs mcp) -lpthread */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcp.h"

#define S(lit) lit, (sizeof(lit) - 1)
#define PNG "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
#define WAV "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
#define IMAGE_BLOCK "{\"type\":\"image\",\"data\":\"" PNG "\",\"mimeType\":\"image/png\"}"

/* The built server, for the tools that change it (set before serving, freed after). */
static mcp_server *the_server;

/* ---- small helpers over the JSON functions of mcp.h ---- */

/* printf into a fresh heap string (free with free). */
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *out = malloc((size_t)n + 1);
  if (!out) abort();
  va_start(ap, f);
  vsnprintf(out, (size_t)n + 1, f, ap);
  va_end(ap);
  return out;
}

/* A copy of an mcp_string's text, freeing the mcp_string; NULL stays NULL. */
static char *take(mcp_string *s) {
  if (!s) return NULL;
  char *out = fmt("%s", mcp_string_data(s));
  mcp_string_free(s);
  return out;
}

/* The value at `pointer` in `json`: as JSON text (get) or as a string's content (str); NULL if none. */
static char *get(mcp_str json, const char *pointer) {
  mcp_string *v = NULL;
  if (mcp_json_get(json.data, json.len, pointer, strlen(pointer), &v) != MCP_STATUS_OK) return NULL;
  return take(v);
}
static char *str(mcp_str json, const char *pointer) {
  mcp_string *v = NULL;
  if (mcp_json_get_string(json.data, json.len, pointer, strlen(pointer), &v) != MCP_STATUS_OK)
    return NULL;
  return take(v);
}

/* The string argument `name` of a tool call or prompt (`params.arguments[name]`), copied; NULL if
 * absent or not a string. Read by name, without the whole arguments object as JSON text. */
static char *arg(const mcp_request *q, const char *name) {
  mcp_str v;
  if (mcp_request_argument_string(q, name, strlen(name), &v) != MCP_STATUS_OK) return NULL;
  return strdup(v.data);
}

/* `text` as a JSON string literal. */
static char *quote(const char *text) {
  mcp_string *q = NULL;
  if (mcp_json_quote(text, strlen(text), &q) != MCP_STATUS_OK) return fmt("\"\"");
  return take(q);
}

/* Answers with a result built by fmt, then frees the responder. */
static void finish_json(mcp_responder *r, char *json) {
  if (mcp_responder_result(r, json, strlen(json)) != MCP_STATUS_OK)
    mcp_responder_error(r, -32603, S("the server built invalid JSON"), NULL, 0);
  free(json);
  mcp_responder_free(r);
}

/* Answers a tool call with one text block (no JSON to build), then frees the responder. A
 * refused result (MCP_STATUS_INVALID_RESULT) has been answered by the engine already. */
static void finish_text(mcp_responder *r, const char *text) {
  enum mcp_status st = mcp_responder_text(r, text, strlen(text));
  if (st != MCP_STATUS_OK && st != MCP_STATUS_INVALID_RESULT)
    mcp_responder_error(r, -32603, S("cannot answer with the text"), NULL, 0);
  mcp_responder_free(r);
}

/* Answers with input requests (a JSON object) and an optional state, then frees the responder. */
static void finish_input(mcp_responder *r, const char *requests, const char *state) {
  mcp_responder_input_required(r, requests, strlen(requests), state, state ? strlen(state) : 0);
  mcp_responder_free(r);
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Runs `fn(r)` on a new detached thread (the handler returns at once; the answer comes later). */
static void later(mcp_responder *r, void *(*fn)(void *)) {
  pthread_t t;
  if (pthread_create(&t, NULL, fn, r) != 0) {
    mcp_responder_error(r, -32603, S("cannot start a thread"), NULL, 0);
    mcp_responder_free(r);
    return;
  }
  pthread_detach(t);
}

/* ---- tools that need nothing from the client ---- */

static void simple_text(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_text(r, "This is a simple text response for testing.");
}

static void image(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"content\":[" IMAGE_BLOCK "]}"));
}

static void audio(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"content\":[{\"type\":\"audio\",\"data\":\"" WAV
                     "\",\"mimeType\":\"audio/wav\"}]}"));
}

static void embedded(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"content\":[{\"type\":\"resource\",\"resource\":{\"uri\":"
                     "\"test://embedded-resource\",\"mimeType\":\"text/plain\",\"text\":"
                     "\"This is an embedded resource content.\"}}]}"));
}

static void mixed(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"content\":[{\"type\":\"text\",\"text\":\"Multiple content types test:\"},"
                     IMAGE_BLOCK ",{\"type\":\"resource\",\"resource\":{\"uri\":"
                     "\"test://mixed-content-resource\",\"mimeType\":\"application/json\","
                     "\"text\":\"{\\\"test\\\":\\\"data\\\",\\\"value\\\":123}\"}}]}"));
}

static void error_handling(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  mcp_responder_tool_error(r, S("This tool intentionally returns an error for testing"));
  mcp_responder_free(r);
}

static void *logging_worker(void *arg) {
  mcp_responder *r = arg;
  const char *lines[] = {"\"Tool execution started\"", "\"Tool processing data\"",
                         "\"Tool execution completed\""};
  for (int i = 0; i < 3; i++) {
    if (i) sleep_ms(50);
    mcp_responder_log(r, MCP_LOG_INFO, NULL, 0, lines[i], strlen(lines[i]), NULL);
  }
  finish_text(r, "Tool with logging executed successfully");
  return NULL;
}

static void with_logging(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  later(r, logging_worker);
}

static void *progress_worker(void *arg) {
  mcp_responder *r = arg;
  for (int i = 0; i <= 2; i++) {
    if (i) sleep_ms(50);
    mcp_responder_progress(r, 50.0 * i, true, 100, NULL, 0, NULL);
  }
  finish_text(r, "Tool with progress executed successfully");
  return NULL;
}

static void with_progress(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  later(r, progress_worker);
}

/* SEP-1699 polling: closes the SSE response stream mid-call; the result is produced 100 ms later and
 * reaches the client on the stream it resumes with Last-Event-ID. */
static void *reconnection_worker(void *arg) {
  mcp_responder *r = arg;
  bool closed = false;
  mcp_responder_close_stream(r, &closed);
  sleep_ms(100);
  finish_text(r, closed ? "Reconnection test completed: the result was delivered on the resumed stream"
                        : "Reconnection test completed: this transport cannot close the stream, so it "
                          "stayed open");
  return NULL;
}

static void reconnection(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  later(r, reconnection_worker);
}

static void logging_tool(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  /* The engine applies the era's rule: a modern request without a logLevel gets no messages. */
  int sent = 0;
  bool ok = false;
  mcp_responder_log(r, MCP_LOG_DEBUG, S("test_logging_tool"), S("\"test_logging_tool: debug message\""), &ok);
  sent += ok;
  mcp_responder_log(r, MCP_LOG_INFO, S("test_logging_tool"), S("\"test_logging_tool: info message\""), &ok);
  sent += ok;
  mcp_responder_log(r, MCP_LOG_WARNING, S("test_logging_tool"), S("\"test_logging_tool: warning message\""), &ok);
  sent += ok;
  char text[64];
  snprintf(text, sizeof text, "Logging test completed: %d message(s) sent", sent);
  finish_text(r, text);
}

static void missing_capability(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (mcp_request_has_client_capability(q, S("sampling"))) {
    finish_text(r, "Success");
    return;
  }
  mcp_responder_error(r, -32021, S("Missing required client capability: sampling"),
                      S("{\"requiredCapabilities\":{\"sampling\":{}}}"));
  mcp_responder_free(r);
}

static void schema_2020_12(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *text = fmt("json_schema_2020_12_tool received: %s", mcp_request_arguments(q).data);
  finish_text(r, text);
  free(text);
}

/* ---- list-changed triggers: add a temporary entry and remove it again ---- */

static void dynamic_tool(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_text(r, "dynamic");
}

static void dynamic_prompt(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":"
                     "\"dynamic\"}}]}"));
}

static void trigger_tool_change(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  if (mcp_server_add_tool(the_server,
                          S("{\"name\":\"test_dynamic_tool\",\"description\":\"A temporary tool of "
                            "test_trigger_tool_change\",\"inputSchema\":{\"type\":\"object\"}}"),
                          dynamic_tool, NULL, NULL, NULL) != MCP_STATUS_OK) {
    mcp_responder_tool_error(r, S("cannot add test_dynamic_tool"));
    mcp_responder_free(r);
    return;
  }
  mcp_server_remove_tool(the_server, S("test_dynamic_tool"), NULL);
  finish_text(r, "Tool list changed");
}

static void trigger_prompt_change(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  if (mcp_server_add_prompt(the_server,
                            S("{\"name\":\"test_dynamic_prompt\",\"description\":\"A temporary "
                              "prompt of test_trigger_prompt_change\"}"),
                            dynamic_prompt, NULL, NULL, NULL) != MCP_STATUS_OK) {
    mcp_responder_tool_error(r, S("cannot add test_dynamic_prompt"));
    mcp_responder_free(r);
    return;
  }
  mcp_server_remove_prompt(the_server, S("test_dynamic_prompt"), NULL);
  finish_text(r, "Prompt list changed");
}

/* ---- reading input responses ---- */

/* The answer to input request `key` (JSON), or NULL. */
static char *answer(const mcp_request *q, const char *key) {
  char ptr[128];
  snprintf(ptr, sizeof ptr, "/%s", key);
  return get(mcp_request_input_responses(q), ptr);
}

/* One string field of an accepted elicitation answer, or NULL. */
static char *accepted_str(const mcp_request *q, const char *key, const char *field) {
  char ptr[160];
  mcp_str in = mcp_request_input_responses(q);
  snprintf(ptr, sizeof ptr, "/%s/action", key);
  char *action = str(in, ptr);
  int ok = action && strcmp(action, "accept") == 0;
  free(action);
  if (!ok) return NULL;
  snprintf(ptr, sizeof ptr, "/%s/content/%s", key, field);
  return str(in, ptr);
}

/* "decline" or "cancel" when the user refused elicitation `key`, else NULL (static strings). */
static const char *refusal(const mcp_request *q, const char *key) {
  char ptr[128];
  snprintf(ptr, sizeof ptr, "/%s/action", key);
  char *action = str(mcp_request_input_responses(q), ptr);
  const char *out = NULL;
  if (action && strcmp(action, "decline") == 0) out = "decline";
  if (action && strcmp(action, "cancel") == 0) out = "cancel";
  free(action);
  return out;
}

/* Answers with "the user chose to ..." when any of `keys` (NULL-terminated) was refused. */
static int ended_by_refusal(const mcp_request *q, mcp_responder *r, const char *const *keys) {
  for (; *keys; keys++) {
    const char *action = refusal(q, *keys);
    if (action) {
      char text[160];
      snprintf(text, sizeof text, "The user chose to %s the question (%s)", action, *keys);
      finish_text(r, text);
      return 1;
    }
  }
  return 0;
}

/* "action=..., content=..." of any elicitation answer. */
static char *describe(const char *answer_json) {
  mcp_str a = {answer_json, strlen(answer_json)};
  char *action = str(a, "/action");
  char *content = get(a, "/content");
  char *out = fmt("action=%s, content=%s", action ? action : "unknown", content ? content : "{}");
  free(action);
  free(content);
  return out;
}

/* The text of a sampling answer (content is one block or an array of blocks), or NULL. */
static char *sampled_text(const mcp_request *q, const char *key) {
  char ptr[160];
  mcp_str in = mcp_request_input_responses(q);
  snprintf(ptr, sizeof ptr, "/%s/content/text", key);
  char *text = str(in, ptr);
  for (int i = 0; !text && i < 16; i++) {
    snprintf(ptr, sizeof ptr, "/%s/content/%d/type", key, i);
    char *type = str(in, ptr);
    if (!type) break;
    if (strcmp(type, "text") == 0) {
      snprintf(ptr, sizeof ptr, "/%s/content/%d/text", key, i);
      text = str(in, ptr);
    }
    free(type);
  }
  return text;
}

/* The roots of a roots/list answer as "uri (name), ...", or NULL when there is no such answer. */
static char *root_list(const mcp_request *q, const char *key) {
  char ptr[160];
  mcp_str in = mcp_request_input_responses(q);
  snprintf(ptr, sizeof ptr, "/%s/roots", key);
  char *roots = get(in, ptr);
  if (!roots || roots[0] != '[') {
    free(roots);
    return NULL;
  }
  free(roots);
  char *out = fmt("%s", "");
  for (int i = 0;; i++) {
    snprintf(ptr, sizeof ptr, "/%s/roots/%d/uri", key, i);
    char *uri = str(in, ptr);
    if (!uri) break;
    snprintf(ptr, sizeof ptr, "/%s/roots/%d/name", key, i);
    char *name = str(in, ptr);
    char *next = name ? fmt("%s%s%s (%s)", out, i ? ", " : "", uri, name)
                      : fmt("%s%s%s", out, i ? ", " : "", uri);
    free(out);
    free(uri);
    free(name);
    out = next;
  }
  return out;
}

/* ---- input requests ---- */

#define STRING_FORM(field, desc)                                                          \
  "{\"type\":\"object\",\"properties\":{\"" field "\":{\"type\":\"string\",\"description\":\"" \
  desc "\"}},\"required\":[\"" field "\"]}"
#define ASK_NAME(key)                                                                       \
  "\"" key "\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":" \
  "\"What is your name?\",\"requestedSchema\":" STRING_FORM("name", "Your name") "}}"
#define SAMPLE(key, text, max)                                                               \
  "\"" key "\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[{\"role\":"   \
  "\"user\",\"content\":{\"type\":\"text\",\"text\":\"" text "\"}}],\"maxTokens\":" #max "}}"
#define ROOTS(key) "\"" key "\":{\"method\":\"roots/list\",\"params\":{}}"
#define ASK_COLOR                                                                            \
  "{\"step2\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":"  \
  "\"Step 2: What is your favorite color?\",\"requestedSchema\":"                           \
  STRING_FORM("color", "Your favorite color") "}}}"

static void sampling(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *text = sampled_text(q, "sample");
  if (text) {
    char *reply = fmt("LLM response: %s", text);
    finish_text(r, reply);
    free(reply);
    free(text);
    return;
  }
  char *prompt = arg(q, "prompt");
  char *quoted = quote(prompt ? prompt : "");
  char *req = fmt("{\"sample\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":"
                  "[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":%s}}],"
                  "\"maxTokens\":100}}}", quoted);
  finish_input(r, req, NULL);
  free(req);
  free(quoted);
  free(prompt);
}

/* Finishes with "<prefix>: action=..., content=..." when `key` was answered; returns 1 then. */
static int finish_described(const mcp_request *q, mcp_responder *r, const char *key,
                            const char *prefix) {
  char *a = answer(q, key);
  if (!a) return 0;
  char *d = describe(a);
  char *text = fmt("%s: %s", prefix, d);
  finish_text(r, text);
  free(text);
  free(d);
  free(a);
  return 1;
}

static void elicitation(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (finish_described(q, r, "response", "User response")) return;
  char *message = arg(q, "message");
  char *quoted = quote(message ? message : "");
  char *req = fmt("{\"response\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
                  "\"message\":%s,\"requestedSchema\":" STRING_FORM("response", "Your response")
                  "}}}", quoted);
  finish_input(r, req, NULL);
  free(req);
  free(quoted);
  free(message);
}

static void sep1034_defaults(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (finish_described(q, r, "defaults", "Elicitation completed")) return;
  finish_input(r,
      "{\"defaults\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":"
      "\"Please review and update the form fields with defaults\",\"requestedSchema\":{\"type\":"
      "\"object\",\"properties\":{"
      "\"name\":{\"type\":\"string\",\"description\":\"User name\",\"default\":\"John Doe\"},"
      "\"age\":{\"type\":\"integer\",\"description\":\"User age\",\"default\":30},"
      "\"score\":{\"type\":\"number\",\"description\":\"User score\",\"default\":95.5},"
      "\"status\":{\"type\":\"string\",\"description\":\"User status\",\"enum\":[\"active\","
      "\"inactive\",\"pending\"],\"default\":\"active\"},"
      "\"verified\":{\"type\":\"boolean\",\"description\":\"Verification status\",\"default\":true}"
      "}}}}}", NULL);
}

#define TITLED                                                                           \
  "[{\"const\":\"value1\",\"title\":\"First Option\"},{\"const\":\"value2\",\"title\":" \
  "\"Second Option\"},{\"const\":\"value3\",\"title\":\"Third Option\"}]"

static void sep1330_enums(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (finish_described(q, r, "enums", "Elicitation completed")) return;
  finish_input(r,
      "{\"enums\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":"
      "\"Please select options from the enum fields\",\"requestedSchema\":{\"type\":\"object\","
      "\"properties\":{"
      "\"untitledSingle\":{\"type\":\"string\",\"description\":\"Untitled single-select\","
      "\"enum\":[\"option1\",\"option2\",\"option3\"]},"
      "\"titledSingle\":{\"type\":\"string\",\"description\":\"Titled single-select\",\"oneOf\":"
      TITLED "},"
      "\"legacyEnum\":{\"type\":\"string\",\"description\":\"Legacy titled enum\",\"enum\":[\"opt1\","
      "\"opt2\",\"opt3\"],\"enumNames\":[\"Option One\",\"Option Two\",\"Option Three\"]},"
      "\"untitledMulti\":{\"type\":\"array\",\"description\":\"Untitled multi-select\",\"items\":"
      "{\"type\":\"string\",\"enum\":[\"option1\",\"option2\",\"option3\"]}},"
      "\"titledMulti\":{\"type\":\"array\",\"description\":\"Titled multi-select\",\"items\":"
      "{\"anyOf\":" TITLED "}}}}}}}", NULL);
}

static void streaming_elicitation(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_responder_progress(r, 0, true, 1, S("asking the user"), NULL);
  if (finish_described(q, r, "confirmation", "Streaming elicitation completed")) return;
  finish_input(r,
      "{\"confirmation\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
      "\"message\":\"Please confirm to continue\",\"requestedSchema\":"
      STRING_FORM("confirmation", "Type anything to confirm") "}}}", NULL);
}

/* ---- SEP-2322 input-required tools ---- */

static const char *const USER_NAME[] = {"user_name", NULL};

static void mrtr_elicitation(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (ended_by_refusal(q, r, USER_NAME)) return;
  char *name = accepted_str(q, "user_name", "name");
  if (!name) {
    finish_input(r, "{" ASK_NAME("user_name") "}", NULL);
    return;
  }
  char *text = fmt("Hello, %s!", name);
  finish_text(r, text);
  free(text);
  free(name);
}

static void mrtr_sampling(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *text = sampled_text(q, "capital_question");
  if (!text) {
    finish_input(r, "{" SAMPLE("capital_question", "What is the capital of France?", 100) "}", NULL);
    return;
  }
  char *reply = fmt("Sampling result: %s", text);
  finish_text(r, reply);
  free(reply);
  free(text);
}

static void mrtr_roots(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *roots = root_list(q, "client_roots");
  if (!roots) {
    finish_input(r, "{" ROOTS("client_roots") "}", NULL);
    return;
  }
  char *text = fmt("Client roots: %s", roots);
  finish_text(r, text);
  free(text);
  free(roots);
}

static void mrtr_request_state(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  static const char *const keys[] = {"confirm", NULL};
  if (ended_by_refusal(q, r, keys)) return;
  mcp_str in = mcp_request_input_responses(q);
  char *action = str(in, "/confirm/action");
  char *ok = get(in, "/confirm/content/ok");
  int confirmed = action && strcmp(action, "accept") == 0 && ok &&
                  (strcmp(ok, "true") == 0 || strcmp(ok, "false") == 0);
  mcp_str state = mcp_request_state(q);
  if (confirmed && strcmp(state.data, "state-ok") == 0) {
    char *text = fmt("Request state verified: state-ok (ok=%s)", ok);
    finish_text(r, text);
    free(text);
  } else {
    finish_input(r,
                 "{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
                 "\"message\":\"Please confirm\",\"requestedSchema\":{\"type\":\"object\","
                 "\"properties\":{\"ok\":{\"type\":\"boolean\",\"description\":\"Confirm\"}},"
                 "\"required\":[\"ok\"]}}}}",
                 "state-ok");
  }
  free(action);
  free(ok);
}

static void mrtr_multiple(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (ended_by_refusal(q, r, USER_NAME)) return;
  char *name = accepted_str(q, "user_name", "name");
  char *greeting = sampled_text(q, "greeting");
  char *roots = root_list(q, "client_roots");
  if (name && greeting && roots && strcmp(mcp_request_state(q).data, "multiple-inputs") == 0) {
    char *text = fmt("Hello, %s! Greeting: %s. Roots: %s", name, greeting, roots);
    finish_text(r, text);
    free(text);
  } else {
    finish_input(r, "{" ASK_NAME("user_name") "," SAMPLE("greeting", "Write a short greeting.", 50)
                    "," ROOTS("client_roots") "}",
                 "multiple-inputs");
  }
  free(name);
  free(greeting);
  free(roots);
}

static void mrtr_multi_round(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  static const char *const keys[] = {"step1", "step2", NULL};
  if (ended_by_refusal(q, r, keys)) return;
  const char *state = mcp_request_state(q).data;
  if (strcmp(state, "round-1") == 0) {
    char *name = accepted_str(q, "step1", "name");
    if (name) {
      char *next = fmt("round-2:%s", name);
      finish_input(r, ASK_COLOR, next);
      free(next);
      free(name);
      return;
    }
  } else if (strncmp(state, "round-2:", 8) == 0) {
    char *color = accepted_str(q, "step2", "color");
    if (color) {
      char *text = fmt("Hello, %s! Your favorite color is %s.", state + 8, color);
      finish_text(r, text);
      free(text);
      free(color);
    } else {
      finish_input(r, ASK_COLOR, state);
    }
    return;
  }
  finish_input(r, "{" ASK_NAME("step1") "}", "round-1");
}

static void mrtr_tampered(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (ended_by_refusal(q, r, USER_NAME)) return;
  char *name = accepted_str(q, "user_name", "name");
  if (name && strcmp(mcp_request_state(q).data, "untampered") == 0) {
    char *text = fmt("State verified, hello %s!", name);
    finish_text(r, text);
    free(text);
  } else {
    finish_input(r, "{" ASK_NAME("user_name") "}", "untampered");
  }
  free(name);
}

static void mrtr_capabilities(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (ended_by_refusal(q, r, USER_NAME)) return;
  bool elicit = mcp_request_has_client_capability(q, S("elicitation/form"));
  bool sample = mcp_request_has_client_capability(q, S("sampling"));
  bool roots = mcp_request_has_client_capability(q, S("roots"));
  if (!elicit && !sample && !roots) {
    finish_text(r, "The client declared no input capability: nothing to ask");
    return;
  }
  char *name = elicit ? accepted_str(q, "user_name", "name") : NULL;
  char *text = sample ? sampled_text(q, "capital_question") : NULL;
  char *list = roots ? root_list(q, "client_roots") : NULL;
  if ((!elicit || name) && (!sample || text) && (!roots || list)) {
    char *reply = fmt("Received:%s%s%s%s%s%s", elicit ? " name=" : "", elicit ? name : "",
                      sample ? " sampling=" : "", sample ? text : "", roots ? " roots=" : "",
                      roots ? list : "");
    finish_text(r, reply);
    free(reply);
  } else {
    char *req = fmt("{%s%s%s%s%s}", elicit ? ASK_NAME("user_name") : "",
                    elicit && (sample || roots) ? "," : "",
                    sample ? SAMPLE("capital_question", "What is the capital of France?", 100) : "",
                    sample && roots ? "," : "", roots ? ROOTS("client_roots") : "");
    finish_input(r, req, NULL);
    free(req);
  }
  free(name);
  free(text);
  free(list);
}

/* ---- resources, prompts, completion ---- */

static void static_text(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"contents\":[{\"uri\":\"test://static-text\",\"mimeType\":\"text/plain\","
                     "\"text\":\"This is the content of the static text resource.\"}]}"));
}

static void static_binary(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"contents\":[{\"uri\":\"test://static-binary\",\"mimeType\":"
                     "\"image/png\",\"blob\":\"" PNG "\"}]}"));
}

static void watched(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"contents\":[{\"uri\":\"test://watched-resource\",\"mimeType\":"
                     "\"text/plain\",\"text\":\"This is the content of the watched resource.\"}]}"));
}

static void template_data(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *id = str(mcp_request_template_vars(q), "/id");
  char *data_text = fmt("Data for ID: %s", id ? id : "");
  char *qid = quote(id ? id : ""), *qdata = quote(data_text);
  char *data = fmt("{\"id\":%s,\"templateTest\":true,\"data\":%s}", qid, qdata);
  char *qtext = quote(data), *quri = quote(mcp_request_uri(q).data);
  finish_json(r, fmt("{\"contents\":[{\"uri\":%s,\"mimeType\":\"application/json\",\"text\":%s}]}",
                     quri, qtext));
  free(id), free(data_text), free(qid), free(qdata), free(data), free(qtext), free(quri);
}

#define USER_TEXT(text) "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":" text "}}"

static void simple_prompt(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"messages\":[" USER_TEXT("\"This is a simple prompt for testing.\"") "]}"));
}

static void prompt_with_arguments(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *a1 = arg(q, "arg1"), *a2 = arg(q, "arg2");
  char *text = fmt("Prompt with arguments: arg1='%s', arg2='%s'", a1 ? a1 : "", a2 ? a2 : "");
  char *qt = quote(text);
  finish_json(r, fmt("{\"messages\":[" USER_TEXT("%s") "]}", qt));
  free(a1), free(a2), free(text), free(qt);
}

static void prompt_with_resource(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *uri = arg(q, "resourceUri");
  if (!uri) {
    mcp_responder_error(r, -32602, S("resourceUri must be a string"), NULL, 0);
    mcp_responder_free(r);
    return;
  }
  char *quri = quote(uri);
  finish_json(r, fmt("{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"resource\","
                     "\"resource\":{\"uri\":%s,\"mimeType\":\"text/plain\",\"text\":"
                     "\"Embedded resource content for testing.\"}}},"
                     USER_TEXT("\"Please process the embedded resource above.\"") "]}", quri));
  free(quri);
  free(uri);
}

static void prompt_with_image(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_json(r, fmt("{\"messages\":[{\"role\":\"user\",\"content\":" IMAGE_BLOCK "},"
                     USER_TEXT("\"Please analyze the image above.\"") "]}"));
}

static void mrtr_prompt(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  if (refusal(q, "user_context")) {
    finish_json(r, fmt("{\"description\":\"A prompt without user context (the user refused)\","
                       "\"messages\":[" USER_TEXT("\"No context was provided.\"") "]}"));
    return;
  }
  char *context = accepted_str(q, "user_context", "context");
  if (!context) {
    finish_input(r, "{\"user_context\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":"
                    "\"form\",\"message\":\"What context should the prompt use?\","
                    "\"requestedSchema\":" STRING_FORM("context", "Context for the prompt") "}}}",
                 NULL);
    return;
  }
  char *text = fmt("Use this context: %s", context);
  char *qt = quote(text);
  finish_json(r, fmt("{\"description\":\"A prompt built from user-provided context\","
                     "\"messages\":[" USER_TEXT("%s") "]}", qt));
  free(qt), free(text), free(context);
}

static void complete(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_str p = mcp_request_params(q);
  char *type = str(p, "/ref/type"), *name = str(p, "/ref/name"), *arg = str(p, "/argument/name");
  char *prefix = str(p, "/argument/value");
  int is_arg1 = type && name && arg && strcmp(type, "ref/prompt") == 0 &&
                strcmp(name, "test_prompt_with_arguments") == 0 && strcmp(arg, "arg1") == 0;
  static const char *const values[] = {"hello", "help", "world", "paris"};
  char list[128] = "";
  int n = 0;
  for (int i = 0; is_arg1 && i < 4; i++) {
    if (strncmp(values[i], prefix ? prefix : "", strlen(prefix ? prefix : "")) == 0) {
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s\"%s\"", n ? "," : "", values[i]);
      n++;
    }
  }
  finish_json(r, fmt("{\"completion\":{\"values\":[%s],\"total\":%d,\"hasMore\":false}}", list, n));
  free(type), free(name), free(arg), free(prefix);
}

/* Echoes its region argument, which clients also send as the Mcp-Param-Region header (the engine
 * checks that the two agree). */
static void x_mcp_header(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *region = arg(q, "region");
  if (region) {
    char *text = fmt("region=%s", region);
    finish_text(r, text);
    free(text);
  } else {
    mcp_responder_tool_error(r, S("region must be a string"));
    mcp_responder_free(r);
  }
  free(region);
}

/* ---- registration and serving ---- */

#define NO_ARGS(name, desc)                                                        \
  "{\"name\":\"" name "\",\"description\":\"" desc "\",\"inputSchema\":{\"type\":" \
  "\"object\",\"properties\":{}}}"

struct entry {
  const char *definition;
  mcp_handler_cb cb;
};

static const struct entry TOOLS[] = {
    {NO_ARGS("test_simple_text", "Returns a simple text response"), simple_text},
    {NO_ARGS("test_image_content", "Returns an image (a 1x1 PNG)"), image},
    {NO_ARGS("test_audio_content", "Returns audio (a short WAV)"), audio},
    {NO_ARGS("test_embedded_resource", "Returns an embedded text resource"), embedded},
    {NO_ARGS("test_multiple_content_types", "Returns text, an image and an embedded resource"), mixed},
    {NO_ARGS("test_error_handling", "Always fails with a tool error (isError), not a protocol error"), error_handling},
    {NO_ARGS("test_tool_with_logging", "Sends three info log messages about 50 ms apart, then returns"), with_logging},
    {NO_ARGS("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 about 50 ms apart"), with_progress},
    {NO_ARGS("test_reconnection", "Closes its SSE response stream mid-call; the result arrives after the client reconnects with Last-Event-ID"), reconnection},
    {NO_ARGS("test_logging_tool", "Logs at debug, info and warning; modern requests get them only with a logLevel"), logging_tool},
    {NO_ARGS("test_missing_capability", "Needs the client's sampling capability (-32021 without it)"), missing_capability},
    {"{\"name\":\"json_schema_2020_12_tool\",\"description\":\"Tool with a JSON Schema 2020-12 input "
     "schema ($defs, $anchor, $ref, allOf/anyOf, if/then/else)\",\"inputSchema\":{\"$schema\":"
     "\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"$defs\":{\"address\":"
     "{\"$anchor\":\"addressDef\",\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"},"
     "\"city\":{\"type\":\"string\"},\"postalCode\":{\"type\":\"string\"}},\"required\":[\"street\","
     "\"city\"]}},\"properties\":{\"name\":{\"type\":\"string\",\"description\":\"The contact's name\"},"
     "\"address\":{\"$ref\":\"#/$defs/address\"},\"contactMethod\":{\"type\":\"string\",\"enum\":"
     "[\"phone\",\"email\"]},\"phone\":{\"type\":\"string\"},\"email\":{\"type\":\"string\",\"format\":"
     "\"email\"}},\"allOf\":[{\"anyOf\":[{\"required\":[\"phone\"]},{\"required\":[\"email\"]}]}],"
     "\"if\":{\"properties\":{\"contactMethod\":{\"const\":\"phone\"}},\"required\":"
     "[\"contactMethod\"]},\"then\":{\"required\":[\"phone\"]},\"else\":{\"required\":[\"email\"]},"
     "\"additionalProperties\":false}}", schema_2020_12},
    {"{\"name\":\"test_sampling\",\"description\":\"Asks the client's LLM to answer a prompt "
     "(sampling/createMessage)\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"prompt\":"
     "{\"type\":\"string\",\"description\":\"The prompt to send\"}},\"required\":[\"prompt\"]}}", sampling},
    {"{\"name\":\"test_elicitation\",\"description\":\"Asks the user for input "
     "(elicitation/create)\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"message\":"
     "{\"type\":\"string\",\"description\":\"The message to show the user\"}},\"required\":"
     "[\"message\"]}}", elicitation},
    {NO_ARGS("test_elicitation_sep1034_defaults", "Elicitation whose form fields carry default values (SEP-1034)"), sep1034_defaults},
    {NO_ARGS("test_elicitation_sep1330_enums", "Elicitation with the five enum variants of SEP-1330"), sep1330_enums},
    {NO_ARGS("test_streaming_elicitation", "Elicitation without server-to-client requests in the modern era"), streaming_elicitation},
    {NO_ARGS("test_input_required_result_elicitation", "MRTR: asks for the user's name, then greets them"), mrtr_elicitation},
    {NO_ARGS("test_input_required_result_sampling", "MRTR: asks the client's LLM for the capital of France"), mrtr_sampling},
    {NO_ARGS("test_input_required_result_list_roots", "MRTR: asks for the client's roots"), mrtr_roots},
    {NO_ARGS("test_input_required_result_request_state", "MRTR: asks for a confirmation and carries a requestState"), mrtr_request_state},
    {NO_ARGS("test_input_required_result_multiple_inputs", "MRTR: asks for a name, a sampled greeting and the roots at once"), mrtr_multiple},
    {NO_ARGS("test_input_required_result_multi_round", "MRTR: asks for a name, then for a favourite colour"), mrtr_multi_round},
    {NO_ARGS("test_input_required_result_tampered_state", "MRTR: a modified requestState is rejected with -32602"), mrtr_tampered},
    {NO_ARGS("test_input_required_result_capabilities", "MRTR: asks only for the kinds of input the client declared"), mrtr_capabilities},
    {NO_ARGS("test_trigger_tool_change", "Adds and removes a temporary tool, so listeners get notifications/tools/list_changed"), trigger_tool_change},
    {NO_ARGS("test_trigger_prompt_change", "Adds and removes a temporary prompt, so listeners get notifications/prompts/list_changed"), trigger_prompt_change},
    {"{\"name\":\"test_x_mcp_header\",\"description\":\"Echoes its region argument, which clients "
     "also send as the Mcp-Param-Region header\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
     "{\"region\":{\"type\":\"string\",\"description\":\"A region name, mirrored in the "
     "Mcp-Param-Region header\",\"x-mcp-header\":\"Region\"}},\"required\":[\"region\"]}}", x_mcp_header},
};

/* ---- tasks (the suite's tasks-* scenarios): tools whose definitions set execution.taskSupport;
 * their handlers start the task (mcp_responder_start_task) and answer it, often later ---- */

#define TASK_TOOL(name, desc, support, props)                                                     \
  "{\"name\":\"" name "\",\"description\":\"" desc "\",\"inputSchema\":{\"type\":\"object\","   \
  "\"properties\":{" props "}},\"execution\":{\"taskSupport\":\"" support "\"}}"
#define BOOL_FORM(field, desc)                                                             \
  "{\"type\":\"object\",\"properties\":{\"" field "\":{\"type\":\"boolean\",\"description\":\"" \
  desc "\"}},\"required\":[\"" field "\"]}"
#define ELICIT(key, message, schema)                                                          \
  "\"" key "\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":" \
  message ",\"requestedSchema\":" schema "}}"

/* Sleeps `ms` milliseconds, or less when the request (the task) is cancelled; whether it was. */
static int sleep_unless_cancelled(mcp_responder *r, long ms) {
  for (long waited = 0; waited < ms && !mcp_responder_is_cancelled(r); waited += 10) sleep_ms(10);
  return mcp_responder_is_cancelled(r);
}

/* A boolean field of an accepted elicitation answer: 1 true, 0 false, -1 none. */
static int accepted_bool(const mcp_request *q, const char *key, const char *field) {
  char ptr[160];
  mcp_str in = mcp_request_input_responses(q);
  snprintf(ptr, sizeof ptr, "/%s/action", key);
  char *action = str(in, ptr);
  int ok = action && strcmp(action, "accept") == 0;
  free(action);
  bool value = false;
  snprintf(ptr, sizeof ptr, "/%s/content/%s", key, field);
  if (!ok || mcp_json_get_bool(in.data, in.len, ptr, strlen(ptr), &value) != MCP_STATUS_OK) return -1;
  return value;
}

static void greet(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *name = arg(q, "name");
  char *text = fmt("Hello, %s!", name ? name : "World");
  finish_text(r, text);
  free(text);
  free(name);
}

static void *slow_compute_worker(void *arg) {
  mcp_responder *r = arg;
  mcp_str args = mcp_request_arguments(mcp_responder_request(r));
  double seconds = 0;
  mcp_json_get_double(args.data, args.len, S("/seconds"), &seconds);
  char *label = str(args, "/label");
  if (sleep_unless_cancelled(r, (long)(seconds * 1000))) {
    /* The task is cancelled already; this answer is dropped. */
    mcp_responder_tool_error(r, S("cancelled"));
    mcp_responder_free(r);
  } else {
    char *text = fmt("Computed %s after %g s", label ? label : "unlabelled", seconds);
    finish_text(r, text);
    free(text);
  }
  free(label);
  return NULL;
}

static void slow_compute(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  (void)q;
  mcp_responder_start_task(r, NULL);
  later(r, slow_compute_worker);
}

static void *failing_job_worker(void *arg) {
  mcp_responder *r = arg;
  sleep_unless_cancelled(r, 1000);
  mcp_responder_tool_error(r, S("failing_job always fails"));
  mcp_responder_free(r);
  return NULL;
}

static void failing_job(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  (void)q;
  mcp_responder_start_task(r, NULL);
  later(r, failing_job_worker);
}

static void protocol_error_job(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  (void)q;
  mcp_responder_start_task(r, NULL);
  mcp_responder_error(r, -32603, S("protocol_error_job always fails with a protocol error"), NULL, 0);
  mcp_responder_free(r);
}

static void confirm_delete(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_responder_start_task(r, NULL);
  char *filename = arg(q, "filename");
  const char *file = filename ? filename : "the file";
  int confirmed = accepted_bool(q, "confirm", "confirm");
  if (confirmed < 0) {
    char *message = fmt("Delete %s?", file);
    char *quoted = quote(message);
    char *requests = fmt("{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
                         "\"message\":%s,\"requestedSchema\":" BOOL_FORM("confirm", "Confirm the deletion") "}}}",
                         quoted);
    finish_input(r, requests, NULL);
    free(requests);
    free(quoted);
    free(message);
  } else {
    char *text = fmt("%s %s", confirmed ? "Deleted" : "Kept", file);
    finish_text(r, text);
    free(text);
  }
  free(filename);
}

static void multi_input(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_responder_start_task(r, NULL);
  char *name = accepted_str(q, "name", "name");
  int confirmed = accepted_bool(q, "confirm", "confirm");
  if (!name || confirmed < 0) {
    finish_input(r, "{" ELICIT("name", "\"What is your name?\"", STRING_FORM("name", "Your name")) ","
                    ELICIT("confirm", "\"Confirm?\"", BOOL_FORM("confirm", "Confirm")) "}", NULL);
  } else {
    char *text = fmt("name=%s, confirm=%s", name, confirmed ? "true" : "false");
    finish_text(r, text);
    free(text);
  }
  free(name);
}

static void *greet_later_worker(void *arg) {
  mcp_responder *r = arg;
  sleep_unless_cancelled(r, 200);
  char *name = accepted_str(mcp_responder_request(r), "user_name", "name");
  char *text = fmt("Hello, %s! (from the task)", name ? name : "stranger");
  finish_text(r, text);
  free(text);
  free(name);
  return NULL;
}

/* Round 1 asks for the name before any task exists; the round that brings it starts the task. */
static void tool_with_task(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  char *name = accepted_str(q, "user_name", "name");
  if (!name) {
    finish_input(r, "{" ASK_NAME("user_name") "}", NULL);
    return;
  }
  free(name);
  mcp_responder_start_task(r, NULL);
  later(r, greet_later_worker);
}

static const struct entry TASK_TOOLS[] = {
    {"{\"name\":\"greet\",\"description\":\"Sync-only: greets by name\",\"inputSchema\":{\"type\":"
     "\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}}", greet},
    {TASK_TOOL("slow_compute", "Task-supporting: sleeps `seconds` seconds, then reports the label (stops when cancelled)",
               "optional", "\"seconds\":{\"type\":\"number\",\"minimum\":0},\"label\":{\"type\":\"string\"}"), slow_compute},
    {TASK_TOOL("failing_job", "Task-required: fails with a tool error after about a second", "required", ""), failing_job},
    {TASK_TOOL("protocol_error_job", "Task-supporting: ends with a protocol (JSON-RPC) error", "optional", ""), protocol_error_job},
    {TASK_TOOL("confirm_delete", "Task-supporting: asks the user to confirm deleting `filename` (inside the task), then reports",
               "optional", "\"filename\":{\"type\":\"string\"}"), confirm_delete},
    {TASK_TOOL("multi_input", "Task-supporting: asks two questions at once, then reports both answers", "optional", ""), multi_input},
    {TASK_TOOL("test_tool_with_task", "Task-required: asks for the user's name synchronously (MRTR), then runs as a task that greets them",
               "required", ""), tool_with_task},
};

static const struct entry RESOURCES[] = {
    {"{\"uri\":\"test://static-text\",\"name\":\"static-text\",\"title\":\"Static text\","
     "\"description\":\"A static text resource\",\"mimeType\":\"text/plain\"}", static_text},
    {"{\"uri\":\"test://static-binary\",\"name\":\"static-binary\",\"title\":\"Static binary\","
     "\"description\":\"A static binary resource (a 1x1 PNG)\",\"mimeType\":\"image/png\"}", static_binary},
    {"{\"uri\":\"test://watched-resource\",\"name\":\"watched-resource\",\"title\":\"Watched "
     "resource\",\"description\":\"A resource to subscribe to\",\"mimeType\":\"text/plain\"}", watched},
};

static const struct entry PROMPTS[] = {
    {"{\"name\":\"test_simple_prompt\",\"description\":\"A simple prompt without arguments\"}", simple_prompt},
    {"{\"name\":\"test_prompt_with_arguments\",\"description\":\"A prompt with two required "
     "arguments\",\"arguments\":[{\"name\":\"arg1\",\"description\":\"First argument\",\"required\":"
     "true},{\"name\":\"arg2\",\"description\":\"Second argument\",\"required\":true}]}", prompt_with_arguments},
    {"{\"name\":\"test_prompt_with_embedded_resource\",\"description\":\"A prompt embedding a "
     "resource\",\"arguments\":[{\"name\":\"resourceUri\",\"description\":\"URI of the resource to "
     "embed\",\"required\":true}]}", prompt_with_resource},
    {"{\"name\":\"test_prompt_with_image\",\"description\":\"A prompt with an image\"}", prompt_with_image},
    {"{\"name\":\"test_input_required_result_prompt\",\"description\":\"A prompt that first asks "
     "the user for context (MRTR)\"}", mrtr_prompt},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Prints why a setup call failed, and frees the error. */
static void report(mcp_error *err) {
  mcp_str m = mcp_error_message(err);
  fprintf(stderr, "everything-server: %.*s\n", (int)m.len, m.data);
  mcp_error_free(err);
}

/* ---- OAuth: the resource server's token table and verifier ---- */

#define MAX_TOKENS 8

/* A token the verifier accepts: "TOKEN=SUBJECT[:SCOPE,...]" split in place. */
struct grant {
  const char *token, *subject;
  char scopes[256]; /* JSON array members: "a","b" */
};

static struct {
  const char *resource, *issuer;
  struct grant grants[MAX_TOKENS];
  size_t count;
} oauth = {NULL, "https://auth.example.com", {{0}}, 0};

/* Parses one --oauth-token value (kept in argv). */
static int add_grant(char *spec) {
  char *eq = strchr(spec, '=');
  if (!eq || eq == spec || oauth.count == MAX_TOKENS) return 0;
  *eq = '\0';
  struct grant *g = &oauth.grants[oauth.count++];
  g->token = spec;
  g->subject = eq + 1;
  char *colon = strchr(eq + 1, ':');
  g->scopes[0] = '\0';
  if (!colon) return 1;
  *colon = '\0';
  size_t used = 0;
  for (char *scope = strtok(colon + 1, ","); scope; scope = strtok(NULL, ",")) {
    int n = snprintf(g->scopes + used, sizeof g->scopes - used, "%s\"%s\"", used ? "," : "", scope);
    if (n < 0 || (size_t)n >= sizeof g->scopes - used || strpbrk(scope, "\"\\")) return 0;
    used += (size_t)n;
  }
  return 1;
}

/* The token verifier: a lookup in the table, answered at once (a JWT check or an introspection call
 * would answer from a thread of its own). The library checks audience, expiry and scopes. */
static void verify_token(void *ud, const char *token, size_t len, mcp_token_responder *r) {
  (void)ud;
  for (size_t i = 0; i < oauth.count; i++) {
    const struct grant *g = &oauth.grants[i];
    if (strlen(g->token) != len || memcmp(g->token, token, len) != 0) continue;
    char *subject = quote(g->subject), *resource = quote(oauth.resource);
    char *json = fmt("{\"subject\":%s,\"clientId\":\"everything-server-c\",\"scopes\":[%s],"
                     "\"audience\":[%s],\"expiresAt\":%lld}",
                     subject, g->scopes, resource, (long long)time(NULL) + 3600);
    mcp_token_responder_accept(r, json, strlen(json), NULL);
    free(json);
    free(subject);
    free(resource);
    mcp_token_responder_free(r);
    return;
  }
  mcp_token_responder_reject(r, MCP_TOKEN_INVALID, S("unknown token"));
  mcp_token_responder_free(r);
}

static void whoami(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  mcp_str sub = mcp_request_auth_subject(q), scopes = mcp_request_auth_scopes(q);
  char *text = fmt("subject %.*s with scopes %.*s", (int)sub.len, sub.data, (int)scopes.len,
                   scopes.data);
  finish_text(r, text);
  free(text);
}

static void admin(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud, (void)q;
  finish_text(r, "admin done");
}

static const struct entry OAUTH_TOOLS[] = {
    {NO_ARGS("whoami", "Who the caller is (its token's subject and scopes)"), whoami},
    {NO_ARGS("admin", "Needs the scope mcp:admin"), admin},
};

/* Requires OAuth on `config`: the resource server configuration with the C verifier. */
static int require_oauth(mcp_http_server_config *config) {
  mcp_resource_server_config *auth = NULL;
  mcp_error *err = NULL;
  if (mcp_resource_server_config_new(oauth.resource, strlen(oauth.resource), verify_token, NULL,
                                     NULL, &auth) != MCP_STATUS_OK)
    return 0;
  mcp_resource_server_config_add_authorization_server(auth, oauth.issuer, strlen(oauth.issuer));
  mcp_resource_server_config_set_scopes_supported(auth, S("mcp:read mcp:admin"));
  mcp_resource_server_config_set_required_scopes(auth, S("mcp:read"));
  mcp_resource_server_config_set_tool_scopes(auth, S("admin"), S("mcp:admin"));
  mcp_resource_server_config_set_resource_name(auth, S("libmcp everything-server (C)"));
  mcp_status st = mcp_http_server_config_set_auth(config, auth, &err);
  mcp_resource_server_config_free(auth);
  if (st != MCP_STATUS_OK) {
    report(err);
    return 0;
  }
  return 1;
}

/* ---- skills (the suite's sep-2640-skills-* scenarios): the skill the Rust everything-server
 * serves (examples/src/everything/skills.rs), a SKILL.md and a file in a subdirectory, so listing,
 * retrieval, verification and directory reads all have something to work on. */

static const char SKILL_MD[] =
    "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n"
    "license: Apache-2.0\n---\n\n# PDF processing\n\nUse the form reference in "
    "references/FORMS.md when a PDF has fields to fill.\n";
static const char FORMS_MD[] = "# Forms\n\nFill every field, then flatten the document.\n";

/* Adds the skill to `b`; returns nonzero (after reporting why) when it was refused. */
static int add_skills(mcp_server_builder *b) {
  mcp_skill *skill = NULL;
  mcp_error *err = NULL;
  if (mcp_skill_new(SKILL_MD, sizeof SKILL_MD - 1, &skill, &err) != MCP_STATUS_OK) {
    report(err);
    return 1;
  }
  int bad = 0;
  if (mcp_skill_add_file(skill, S("references/FORMS.md"), S("text/markdown"),
                         (const uint8_t *)FORMS_MD, sizeof FORMS_MD - 1, &err) != MCP_STATUS_OK) {
    report(err);
    bad = 1;
  }
  bad |= !bad && mcp_server_builder_add_skill(b, skill) != MCP_STATUS_OK;
  mcp_skill_free(skill);
  return bad;
}

static mcp_server *build(void) {
  mcp_server_builder *b = NULL;
  mcp_server *server = NULL;
  mcp_error *err = NULL;
  if (mcp_server_builder_new(S("libmcp-everything-server-c"), S("1.0.0"), &b) != MCP_STATUS_OK)
    return NULL;
  mcp_server_builder_instructions(
      b, S("Conformance fixture: every tool, resource and prompt named by the MCP conformance suite."));
  int bad = 0;
  for (size_t i = 0; i < COUNT(TOOLS); i++)
    bad |= mcp_server_builder_add_tool(b, TOOLS[i].definition, strlen(TOOLS[i].definition),
                                       TOOLS[i].cb, NULL, NULL) != MCP_STATUS_OK;
  for (size_t i = 0; i < COUNT(TASK_TOOLS); i++)
    bad |= mcp_server_builder_add_tool(b, TASK_TOOLS[i].definition, strlen(TASK_TOOLS[i].definition),
                                       TASK_TOOLS[i].cb, NULL, NULL) != MCP_STATUS_OK;
  for (size_t i = 0; oauth.count && i < COUNT(OAUTH_TOOLS); i++)
    bad |= mcp_server_builder_add_tool(b, OAUTH_TOOLS[i].definition,
                                       strlen(OAUTH_TOOLS[i].definition), OAUTH_TOOLS[i].cb, NULL,
                                       NULL) != MCP_STATUS_OK;
  for (size_t i = 0; i < COUNT(RESOURCES); i++)
    bad |= mcp_server_builder_add_resource(b, RESOURCES[i].definition,
                                           strlen(RESOURCES[i].definition), RESOURCES[i].cb, NULL,
                                           NULL) != MCP_STATUS_OK;
  for (size_t i = 0; i < COUNT(PROMPTS); i++)
    bad |= mcp_server_builder_add_prompt(b, PROMPTS[i].definition, strlen(PROMPTS[i].definition),
                                         PROMPTS[i].cb, NULL, NULL) != MCP_STATUS_OK;
  bad |= mcp_server_builder_add_template(
             b, S("{\"uriTemplate\":\"test://template/{id}/data\",\"name\":\"template-data\","
                  "\"title\":\"Template data\",\"description\":\"Data for an id\",\"mimeType\":"
                  "\"application/json\"}"),
             template_data, NULL, NULL) != MCP_STATUS_OK;
  bad |= mcp_server_builder_set_completion(b, complete, NULL, NULL) != MCP_STATUS_OK;
  bad |= add_skills(b);
  if (bad) {
    fprintf(stderr, "everything-server: a registration was rejected\n");
  } else if (mcp_server_builder_build(b, &server, &err) != MCP_STATUS_OK) {
    report(err);
  }
  mcp_server_builder_free(b);
  return server;
}

/* Serves HTTP until SIGINT or SIGTERM, which a thread waits for with sigwait. */
static int serve_http(mcp_runtime *rt, const char *addr) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM); /* blocked in main before the runtime's threads started */
  mcp_http_server_config *config = NULL;
  mcp_http_server *http = NULL;
  mcp_error *err = NULL;
  mcp_http_server_config_new(&config);
  if (mcp_http_server_config_set_bind(config, addr, strlen(addr)) != MCP_STATUS_OK) {
    fprintf(stderr, "everything-server: bad address \"%s\"\n", addr);
    mcp_http_server_config_free(config);
    return 2;
  }
  if (oauth.count && !require_oauth(config)) {
    mcp_http_server_config_free(config);
    return 2;
  }
  mcp_status st = mcp_server_serve_http(the_server, rt, config, &http, &err);
  mcp_http_server_config_free(config);
  if (st != MCP_STATUS_OK) {
    report(err);
    return 1;
  }
  mcp_str bound = mcp_http_server_local_addr(http);
  fprintf(stderr, "listening on http://%.*s/mcp\n", (int)bound.len, bound.data);
  int sig = 0;
  sigwait(&set, &sig);
  mcp_http_server_free(http);
  return 0;
}

static int usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--http [ADDR] [--oauth-token TOKEN=SUBJECT[:SCOPE,...]]... "
          "[--oauth-resource URL] [--oauth-issuer URL]]\n",
          argv0);
  return 2;
}

int main(int argc, char **argv) {
  int http = argc >= 2 && strcmp(argv[1], "--http") == 0;
  if (argc >= 2 && !http) return usage(argv[0]);
  const char *addr = "127.0.0.1:3000";
  int i = 2;
  if (http && i < argc && strncmp(argv[i], "--", 2) != 0) addr = argv[i++];
  for (; i < argc; i += 2) {
    if (i + 1 == argc) return usage(argv[0]);
    if (strcmp(argv[i], "--oauth-token") == 0) {
      if (!add_grant(argv[i + 1])) return usage(argv[0]);
    } else if (strcmp(argv[i], "--oauth-resource") == 0) {
      oauth.resource = argv[i + 1];
    } else if (strcmp(argv[i], "--oauth-issuer") == 0) {
      oauth.issuer = argv[i + 1];
    } else {
      return usage(argv[0]);
    }
  }
  char *default_resource = fmt("http://%s/mcp", addr);
  if (!oauth.resource) oauth.resource = default_resource;
  mcp_runtime *rt = NULL;
  if (http) {
    /* Block the signals before any thread starts, so only sigwait sees them. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
  }
  if (mcp_runtime_new(0, &rt) != MCP_STATUS_OK) {
    free(default_resource);
    return 1;
  }
  the_server = build();
  if (!the_server) {
    mcp_runtime_free(rt);
    free(default_resource);
    return 1;
  }
  int rc = 0;
  if (http) {
    rc = serve_http(rt, addr);
  } else {
    mcp_serve *serve = NULL;
    rc = mcp_server_serve_stdio(the_server, rt, &serve) != MCP_STATUS_OK ||
         mcp_serve_wait(serve, NULL) != MCP_STATUS_OK;
    mcp_serve_free(serve);
  }
  mcp_server_free(the_server);
  mcp_runtime_free(rt);
  free(default_resource);
  if (!rc) fprintf(stderr, "everything-server: clean exit\n");
  return rc;
}
