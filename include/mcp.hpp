/*
 * mcp.hpp: a header-only C++17 layer over mcp.h (the C API of libmcp). Written by hand, not
 * generated; it depends on nothing but mcp.h and the C++ standard library.
 *
 * - Handles own what the C API hands out (runtime, builders, configurations, server, serve, HTTP
 *   server, mounted HTTP endpoint and its exchanges, skill, client, subscription, responder, token
 *   responder, input reply) and free it in their destructors; they are move-only.
 * - Strings go in as std::string_view and come back as std::string (JSON text stays text: pair this
 *   header with the JSON library you already use, or read values with mcp::json).
 * - Failures throw mcp::error (the mcp_status and the library's message, plus the JSON-RPC code and
 *   data for MCP_STATUS_RPC_ERROR) at the C++ boundary. No exception ever crosses into the C library:
 *   every callback catches what a handler throws.
 * - Handlers are lambdas (any callable), kept alive until the library drops them.
 *   A tool handler returning a CallToolResult's JSON answers with it; one that throws answers as the C
 *   side would for a failing tool: mcp::tool_error or any std::exception becomes a tool error
 *   (`isError: true` with the exception's text), mcp::rpc_error a JSON-RPC error with its code.
 *   Resource, prompt and completion handlers answer the same way, except that a plain exception
 *   becomes an internal error (-32603). A handler taking an mcp::responder answers when it likes,
 *   from any thread; a responder dropped unanswered gives the client an internal error.
 * - Blocking client calls must not run on a runtime thread (inside a handler or callback): the
 *   library refuses them there with MCP_STATUS_WRONG_THREAD, thrown as mcp::error.
 * - Callbacks that are not request handlers (token verifiers, input handlers, the authorizer,
 *   subscription, progress and cancellation handlers) run on library threads too; what they throw
 *   is handled as each one's comment says, never let through.
 * - Not wrapped yet (use mcp.h beside this header): the HTTP server's session and event stores,
 *   Redis, the OAuth credential store, mcp_server_config and the client's limits.
 */

#ifndef MCP_HPP
#define MCP_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp.h"

namespace mcp {

/* A failed call: the status, the library's message, and for MCP_STATUS_RPC_ERROR the JSON-RPC code
 * and data (JSON text, empty when none). */
class error : public std::runtime_error {
 public:
  error(mcp_status status, const std::string &message, int32_t code = 0, std::string data = {})
      : std::runtime_error(message), status_(status), code_(code), data_(std::move(data)) {}
  mcp_status status() const noexcept { return status_; }
  int32_t code() const noexcept { return code_; }
  const std::string &data() const noexcept { return data_; }

 private:
  mcp_status status_;
  int32_t code_;
  std::string data_;
};

/* Thrown by a handler: the client gets the JSON-RPC error `code`, `message` and `data` (JSON text,
 * empty for none). */
class rpc_error : public std::runtime_error {
 public:
  rpc_error(int32_t code, const std::string &message, std::string data = {})
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int32_t code() const noexcept { return code_; }
  const std::string &data() const noexcept { return data_; }

 private:
  int32_t code_;
  std::string data_;
};

/* Thrown by a tool handler: the tool's result is an error (`isError: true`) with this text. */
class tool_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

inline std::string_view view(mcp_str s) { return s.len ? std::string_view(s.data, s.len) : std::string_view(); }

/* Takes an mcp_string the library returned: its text, the string freed. */
inline std::string take(mcp_string *s) {
  std::string out(mcp_string_data(s), mcp_string_len(s));
  mcp_string_free(s);
  return out;
}

/* The mcp::error for `status` and the library's `err` (freed here; may be NULL). */
inline error make_error(mcp_status status, mcp_error *err) {
  std::string message = err ? std::string(view(mcp_error_message(err))) : std::string();
  if (message.empty()) message = mcp_status_describe(status);
  int32_t code = mcp_error_code(err);
  std::string data(view(mcp_error_data(err)));
  mcp_error_free(err);
  return error(status, message, code, std::move(data));
}

inline void check(mcp_status status, mcp_error *err = nullptr) {
  if (status != MCP_STATUS_OK) throw make_error(status, err);
}

template <typename T, void (*Free)(T *)>
struct deleter {
  void operator()(T *p) const noexcept { Free(p); }
};

template <typename T, void (*Free)(T *)>
using handle = std::unique_ptr<T, deleter<T, Free>>;

/* Calls a setter taking one UTF-8 string, throwing mcp::error when it refuses. */
template <typename T, typename U>
void set_text(mcp_status (*set)(T *, const char *, size_t), U *target, std::string_view text) {
  check(set(target, text.data(), text.size()));
}

/* Runs `call(&out, &err)`, a library call writing an mcp_string: its text, or mcp::error. */
template <typename F>
std::string text_of(F call) {
  mcp_string *out = nullptr;
  mcp_error *err = nullptr;
  mcp_status status = call(&out, &err);
  check(status, err);
  return take(out);
}

/* A callable the library holds as userdata: deleted exactly once through `drop`. */
template <typename F>
void drop(void *userdata) {
  delete static_cast<F *>(userdata);
}

}  // namespace detail

/* Reading and writing JSON text without a JSON library (over mcp_json_*). Values are found by JSON
 * Pointer (RFC 6901: "" the whole document, "/a/0/b" walks object keys and array indexes; build
 * steps with json::escape). Each reader returns std::nullopt when `json` holds no value of its type
 * at `pointer`, also when `json` is empty (as request texts are when there is nothing: no input
 * responses, no template variables); it throws mcp::error (MCP_STATUS_INVALID_JSON) for text that
 * is not JSON and (MCP_STATUS_INVALID_ARGUMENT) for a pointer that is neither empty nor starts with
 * '/'. */
namespace json {

namespace detail {

inline bool found(std::string_view json, std::string_view pointer, mcp_status status) {
  if (status == MCP_STATUS_OK) return true;
  // A pointer to nothing, or to a value of another type (the pointer itself was checked first).
  if (status == MCP_STATUS_NOT_FOUND || status == MCP_STATUS_INVALID_ARGUMENT) return false;
  std::string what = status == MCP_STATUS_INVALID_JSON ? "not JSON" : mcp_status_describe(status);
  throw error(status, what + " (reading " + std::string(pointer) + " of " +
                          std::string(json.substr(0, 80)) + (json.size() > 80 ? "...)" : ")"));
}

inline bool readable(std::string_view json, std::string_view pointer) {
  if (!pointer.empty() && pointer[0] != '/') {
    throw error(MCP_STATUS_INVALID_ARGUMENT,
                "a JSON Pointer is empty or starts with '/': \"" + std::string(pointer) + "\"");
  }
  return !json.empty();
}

using text_fn = mcp_status (*)(const char *, size_t, const char *, size_t, mcp_string **);

inline std::optional<std::string> text(text_fn f, std::string_view json, std::string_view pointer) {
  if (!readable(json, pointer)) return std::nullopt;
  mcp_string *out = nullptr;
  if (!found(json, pointer, f(json.data(), json.size(), pointer.data(), pointer.size(), &out))) {
    return std::nullopt;
  }
  return mcp::detail::take(out);
}

template <typename T>
std::optional<T> scalar(mcp_status (*f)(const char *, size_t, const char *, size_t, T *), std::string_view json,
                        std::string_view pointer) {
  if (!readable(json, pointer)) return std::nullopt;
  T value{};
  if (!found(json, pointer, f(json.data(), json.size(), pointer.data(), pointer.size(), &value))) {
    return std::nullopt;
  }
  return value;
}

}  // namespace detail

/* The value at `pointer` as compact JSON text. */
inline std::optional<std::string> get(std::string_view json, std::string_view pointer) {
  return detail::text(mcp_json_get, json, pointer);
}
/* The content of the JSON string at `pointer` (unescaped, without quotes). */
inline std::optional<std::string> get_string(std::string_view json, std::string_view pointer) {
  return detail::text(mcp_json_get_string, json, pointer);
}
inline std::optional<bool> get_bool(std::string_view json, std::string_view pointer) {
  return detail::scalar<bool>(mcp_json_get_bool, json, pointer);
}
/* A JSON number (integers beyond 2^53 lose precision). */
inline std::optional<double> get_double(std::string_view json, std::string_view pointer) {
  return detail::scalar<double>(mcp_json_get_double, json, pointer);
}
/* A JSON integer that fits an int64_t (not `3.0` nor `1e3`). */
inline std::optional<int64_t> get_int64(std::string_view json, std::string_view pointer) {
  return detail::scalar<int64_t>(mcp_json_get_int64, json, pointer);
}
/* The keys of the object at `pointer` (order not guaranteed). */
inline std::optional<std::vector<std::string>> keys(std::string_view json, std::string_view pointer) {
  std::optional<std::string> list = detail::text(mcp_json_keys, json, pointer);
  if (!list) return std::nullopt;
  std::vector<std::string> out;
  for (size_t i = 0;; i++) {
    std::optional<std::string> key = get_string(*list, "/" + std::to_string(i));
    if (!key) return out;
    out.push_back(std::move(*key));
  }
}
/* `text` (UTF-8) as a JSON string literal, quotes included: the safe way to splice text into JSON. */
inline std::string quote(std::string_view text) {
  mcp_string *out = nullptr;
  mcp::detail::check(mcp_json_quote(text.data(), text.size(), &out));
  return mcp::detail::take(out);
}
/* An object key or array index as one JSON Pointer step ('~' as "~0", '/' as "~1"), '/' first. */
inline std::string escape(std::string_view step) {
  std::string out = "/";
  for (char c : step) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace json

/* The library's version, e.g. "0.1.0" (compare with MCP_VERSION_STRING for a header mismatch). */
inline std::string version() { return mcp_version(); }

/* The threads the library runs transports and callbacks on (0: one per CPU). */
class runtime {
 public:
  explicit runtime(uint32_t worker_threads = 0) {
    mcp_runtime *r = nullptr;
    detail::check(mcp_runtime_new(worker_threads, &r));
    h_.reset(r);
  }
  const mcp_runtime *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_runtime, mcp_runtime_free> h_;
};

/* A request being answered (a view: valid while its responder lives, or during a handler call). */
class request {
 public:
  explicit request(const mcp_request *r) noexcept : r_(r) {}
  std::string_view method() const { return detail::view(mcp_request_method(r_)); }
  /* The tool's or prompt's name. */
  std::string_view name() const { return detail::view(mcp_request_name(r_)); }
  /* The resource's URI. */
  std::string_view uri() const { return detail::view(mcp_request_uri(r_)); }
  /* The arguments object as JSON ("{}" when none). */
  std::string_view arguments() const { return detail::view(mcp_request_arguments(r_)); }
  std::string_view params() const { return detail::view(mcp_request_params(r_)); }
  std::string_view protocol_version() const { return detail::view(mcp_request_protocol_version(r_)); }
  /* The answers to an earlier input round (MRTR) as JSON, empty when none. */
  std::string_view input_responses() const { return detail::view(mcp_request_input_responses(r_)); }
  /* The state an earlier input round carried, empty when none. */
  std::string_view state() const { return detail::view(mcp_request_state(r_)); }
  mcp_era era() const noexcept { return mcp_request_era(r_); }
  /* A header of the HTTP request that carried this one (name case-insensitive), if present. */
  std::optional<std::string_view> http_header(std::string_view name) const {
    mcp_str v{nullptr, 0};
    if (mcp_request_http_header(r_, name.data(), name.size(), &v) != MCP_STATUS_OK) return std::nullopt;
    return detail::view(v);
  }
  /* The principal the host attached (http_endpoint::handle), empty when none. */
  std::string_view http_principal() const { return detail::view(mcp_request_http_principal(r_)); }
  /* The legacy session (Mcp-Session-Id), empty for none. */
  std::string_view http_session_id() const { return detail::view(mcp_request_http_session_id(r_)); }
  /* The variables of the resource template that matched a resources/read URI, as a JSON object
   * ({"id":"123"} for test://template/{id}/data); empty for other requests. */
  std::string_view template_vars() const { return detail::view(mcp_request_template_vars(r_)); }
  /* Whether the client declared the capability at `path` (keys joined by '/'): "sampling",
   * "elicitation/form", "elicitation/url", "roots". */
  bool has_client_capability(std::string_view path) const noexcept {
    return mcp_request_has_client_capability(r_, path.data(), path.size());
  }
  /* The subject of the request's verified access token (OAuth), empty when none. */
  std::string_view auth_subject() const { return detail::view(mcp_request_auth_subject(r_)); }
  /* The scopes granted to the request's access token, space-separated, empty when none. */
  std::string_view auth_scopes() const { return detail::view(mcp_request_auth_scopes(r_)); }
  /* Whether the request's access token was granted `scope`. */
  bool has_scope(std::string_view scope) const noexcept {
    return mcp_request_has_scope(r_, scope.data(), scope.size());
  }
  /* The id of the task this request runs as (tasks extension), empty when none. */
  std::string_view task_id() const { return detail::view(mcp_request_task_id(r_)); }
  /* Whether responder::start_task would start a task for this request now. */
  bool can_run_as_task() const noexcept { return mcp_request_can_run_as_task(r_); }
  const mcp_request *get() const noexcept { return r_; }

 private:
  const mcp_request *r_;
};

/* The right and duty to answer one request, once, from any thread. Dropped unanswered, the client
 * gets an internal error. Each answer throws mcp::error when the library refuses it (a result that
 * is not JSON, a second answer, a result the engine rejects, with its reason). */
class responder {
 public:
  explicit responder(mcp_responder *r) noexcept : h_(r) {}
  request req() const noexcept { return request(mcp_responder_request(h_.get())); }
  void result(std::string_view json) {
    mcp_error *err = nullptr;
    mcp_status status = mcp_responder_result_checked(h_.get(), json.data(), json.size(), &err);
    detail::check(status, err);
  }
  void tool_error(std::string_view text) {
    detail::set_text(mcp_responder_tool_error, h_.get(), text);
  }
  void error(int32_t code, std::string_view message, std::string_view data_json = {}) {
    detail::check(mcp_responder_error(h_.get(), code, message.data(), message.size(),
                                      data_json.empty() ? nullptr : data_json.data(), data_json.size()));
  }
  /* Asks the client for input (MRTR): `requests_json` maps keys to input requests; `state` comes
   * back with the retried request. */
  void input_required(std::string_view requests_json, std::string_view state = {}) {
    detail::check(mcp_responder_input_required(h_.get(), requests_json.data(), requests_json.size(),
                                               state.empty() ? nullptr : state.data(), state.size()));
  }
  /* Sends progress (`value` must grow between calls); whether it was sent (the client asked for
   * progress). */
  bool progress(double value, std::optional<double> total = std::nullopt, std::string_view message = {}) {
    bool sent = false;
    detail::check(mcp_responder_progress(h_.get(), value, total.has_value(), total.value_or(0.0),
                                         message.empty() ? nullptr : message.data(), message.size(), &sent));
    return sent;
  }
  /* Sends a log message tied to this request (`data_json` any JSON value); whether it was sent. */
  bool log(mcp_log_level level, std::string_view data_json, std::string_view logger = {}) {
    bool sent = false;
    detail::check(mcp_responder_log(h_.get(), static_cast<uint32_t>(level),
                                    logger.empty() ? nullptr : logger.data(), logger.size(), data_json.data(),
                                    data_json.size(), &sent));
    return sent;
  }
  bool cancelled() const noexcept { return mcp_responder_is_cancelled(h_.get()); }
  /* Calls `f` (once, on a runtime thread, possibly while the handler runs elsewhere) when the
   * request is cancelled: by the client, because its connection closed, or at shutdown. It should
   * make the work stop soon; the handler still answers. At most one per responder; an exception
   * `f` throws is dropped. */
  void on_cancel(std::function<void()> f) {
    using fn = std::function<void()>;
    auto run = [](void *ud) noexcept {
      try {
        (*static_cast<fn *>(ud))();
      } catch (...) {
        // A cancellation callback has no one to report to.
      }
    };
    detail::check(mcp_responder_on_cancel(h_.get(), run, new fn(std::move(f)), &detail::drop<fn>));
  }
  /* Runs the request as a task (tasks extension) when it may: a tools/call of a tool whose
   * definition sets execution.taskSupport, from a client that can take a task. The client gets the
   * task at once; the answer given later through this responder completes it (an input request
   * puts it in input_required, and the handler runs again inside the task). Whether it now runs
   * as a task (false: answer directly, as usual). */
  bool start_task() {
    bool started = false;
    detail::check(mcp_responder_start_task(h_.get(), &started));
    return started;
  }
  /* Closes the SSE stream the request's messages travel on while it keeps running (SEP-1699
   * polling): the client resumes with Last-Event-ID and gets the rest, the answer included.
   * Whether a stream was closed (false on transports that cannot resume). */
  bool close_stream() {
    bool closed = false;
    detail::check(mcp_responder_close_stream(h_.get(), &closed));
    return closed;
  }
  mcp_responder *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_responder, mcp_responder_free> h_;
};

/* A handler that returns its result's JSON text. */
using result_handler = std::function<std::string(const request &)>;
/* A handler that answers through its responder, now or later. */
using responder_handler = std::function<void(responder)>;

namespace detail {

/* Answers `r` for an exception a handler threw: a tool error for tools (any std::exception), an
 * internal error otherwise; mcp::rpc_error as itself. Never throws. */
inline void answer_exception(responder &r, bool tool, std::exception_ptr e) noexcept {
  try {
    try {
      std::rethrow_exception(e);
    } catch (const rpc_error &x) {
      r.error(x.code(), x.what(), x.data());
    } catch (const mcp::tool_error &x) {
      if (tool) {
        r.tool_error(x.what());
      } else {
        r.error(-32603, x.what());
      }
    } catch (const std::exception &x) {
      if (tool) {
        r.tool_error(x.what());
      } else {
        r.error(-32603, x.what());
      }
    } catch (...) {
      const char *text = "the handler threw an exception that is not a std::exception";
      if (tool) {
        r.tool_error(text);
      } else {
        r.error(-32603, text);
      }
    }
  } catch (...) {
    // The responder was answered already (or refused the answer): dropping it is all that is left.
  }
}

struct result_call {
  result_handler f;
  bool tool;
  static void run(void *ud, const mcp_request *req, mcp_responder *raw) noexcept {
    auto *self = static_cast<result_call *>(ud);
    responder r(raw);
    try {
      std::string json = self->f(request(req));
      try {
        r.result(json);
      } catch (const mcp::error &e) {
        // A result the library refused (not JSON, or rejected by the engine): the client was told
        // for a rejected one; a text that is not JSON is answered here.
        if (e.status() == MCP_STATUS_INVALID_JSON) {
          r.error(-32603, std::string("the handler's result is not JSON: ") + e.what());
        }
      }
    } catch (...) {
      answer_exception(r, self->tool, std::current_exception());
    }
  }
};

struct responder_call {
  responder_handler f;
  static void run(void *ud, const mcp_request *, mcp_responder *raw) noexcept {
    auto *self = static_cast<responder_call *>(ud);
    try {
      self->f(responder(raw));
    } catch (...) {
      // The responder went with the handler's parameter: unanswered, the client got an internal
      // error; answered, nothing is left to do.
    }
  }
};

using add_fn = mcp_status (*)(mcp_server_builder *, const char *, size_t, mcp_handler_cb, void *,
                              mcp_userdata_free_cb);

}  // namespace detail

/* A skill (skills extension, SEP-2640): its SKILL.md, whose frontmatter names and describes it, and
 * its other files. Served as skill://<name>/<path> once added to a server (server_builder::skill,
 * server::add_skill), which takes its contents. */
class skill {
 public:
  /* Throws mcp::error with the reason when the frontmatter lacks a valid name or a description. */
  explicit skill(std::string_view skill_md) {
    mcp_skill *s = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_skill_new(skill_md.data(), skill_md.size(), &s, &err);
    detail::check(status, err);
    h_.reset(s);
  }
  /* Adds a file at `path` (relative, '/'-separated) with its MIME type and content (any bytes). */
  skill &file(std::string_view path, std::string_view mime_type, std::string_view content) {
    mcp_error *err = nullptr;
    mcp_status status =
        mcp_skill_add_file(h_.get(), path.data(), path.size(), mime_type.data(), mime_type.size(),
                           reinterpret_cast<const uint8_t *>(content.data()), content.size(), &err);
    detail::check(status, err);
    return *this;
  }
  mcp_skill *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_skill, mcp_skill_free> h_;
};

/* The answer channel of one token check: accept or reject once, now or later, from any thread.
 * Dropped unanswered, the HTTP request gets 503. */
class token_responder {
 public:
  explicit token_responder(mcp_token_responder *r) noexcept : h_(r) {}
  /* Accepts the token: `auth_json` is {"subject", "clientId", "scopes", "expiresAt", "audience",
   * "claims"} (each optional); the library then checks expiry, audience and required scopes. */
  void accept(std::string_view auth_json) {
    mcp_error *err = nullptr;
    mcp_status status = mcp_token_responder_accept(h_.get(), auth_json.data(), auth_json.size(), &err);
    detail::check(status, err);
  }
  /* Refuses the token; `message` goes to the client as error_description. */
  void reject(mcp_token_rejection kind, std::string_view message = {}) {
    detail::check(mcp_token_responder_reject(h_.get(), static_cast<uint32_t>(kind), message.data(), message.size()));
  }

 private:
  detail::handle<mcp_token_responder, mcp_token_responder_free> h_;
};

/* Checks one bearer token (on a runtime thread: a slow check answers from a thread of its own).
 * `token` stays valid while the responder lives. A verifier that throws drops its responder: the
 * request gets 503 unless it was answered first. */
using token_verifier = std::function<void(std::string_view token, token_responder)>;

/* OAuth 2.1 for an HTTP server (RFC 9728 protected resource): the resource's canonical URL and the
 * verifier of its bearer tokens; checked when applied (http_server_config::auth). */
class resource_server_config {
 public:
  resource_server_config(std::string_view resource, token_verifier verify) {
    auto run = [](void *ud, const char *token, size_t len, mcp_token_responder *raw) noexcept {
      try {
        (*static_cast<token_verifier *>(ud))(std::string_view(token, len), token_responder(raw));
      } catch (...) {
        // The responder went with the verifier's parameter: unanswered, the request got 503.
      }
    };
    mcp_resource_server_config *c = nullptr;
    detail::check(mcp_resource_server_config_new(resource.data(), resource.size(), run,
                                                  new token_verifier(std::move(verify)),
                                                  &detail::drop<token_verifier>, &c));
    h_.reset(c);
  }
  /* An authorization server's issuer (at least one). */
  resource_server_config &authorization_server(std::string_view issuer) {
    detail::set_text(mcp_resource_server_config_add_authorization_server, h_.get(), issuer);
    return *this;
  }
  /* The scopes listed in the metadata (space-separated). */
  resource_server_config &scopes_supported(std::string_view scopes) {
    detail::set_text(mcp_resource_server_config_set_scopes_supported, h_.get(), scopes);
    return *this;
  }
  /* The scopes every request needs (space-separated). */
  resource_server_config &required_scopes(std::string_view scopes) {
    detail::set_text(mcp_resource_server_config_set_required_scopes, h_.get(), scopes);
    return *this;
  }
  /* The scopes a tools/call of `tool` needs beyond the required ones (403 insufficient_scope). */
  resource_server_config &tool_scopes(std::string_view tool, std::string_view scopes) {
    detail::check(
        mcp_resource_server_config_set_tool_scopes(h_.get(), tool.data(), tool.size(), scopes.data(), scopes.size()));
    return *this;
  }
  resource_server_config &resource_name(std::string_view name) {
    detail::set_text(mcp_resource_server_config_set_resource_name, h_.get(), name);
    return *this;
  }
  resource_server_config &verify_timeout_ms(uint64_t ms) {
    detail::check(mcp_resource_server_config_set_verify_timeout_ms(h_.get(), ms));
    return *this;
  }
  const mcp_resource_server_config *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_resource_server_config, mcp_resource_server_config_free> h_;
};

/* How server::serve_http serves (the defaults: 127.0.0.1:3000, /mcp, both eras). */
class http_server_config {
 public:
  http_server_config() {
    mcp_http_server_config *c = nullptr;
    detail::check(mcp_http_server_config_new(&c));
    h_.reset(c);
  }
  /* "IP:PORT" (port 0 picks a free one). */
  http_server_config &bind(std::string_view addr) {
    detail::set_text(mcp_http_server_config_set_bind, h_.get(), addr);
    return *this;
  }
  http_server_config &path(std::string_view path) {
    detail::set_text(mcp_http_server_config_set_path, h_.get(), path);
    return *this;
  }
  /* Requires OAuth bearer tokens (copied; throws mcp::error with the reason for a bad resource
   * URL, no authorization server or an invalid scope). */
  http_server_config &auth(const resource_server_config &auth) {
    mcp_error *err = nullptr;
    mcp_status status = mcp_http_server_config_set_auth(h_.get(), auth.get(), &err);
    detail::check(status, err);
    return *this;
  }
  const mcp_http_server_config *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_http_server_config, mcp_http_server_config_free> h_;
};

class serve;
class http_server;

/* A built server: serve it over stdio or HTTP as many times as needed. */
class server {
 public:
  explicit server(mcp_server *s) noexcept : h_(s) {}
  /* Serves this process's stdin/stdout until stdin closes or serve::stop. */
  serve serve_stdio(const runtime &rt) const;
  /* Serves Streamable HTTP (both eras) on `bind` ("IP:PORT"; port 0 picks a free one, see
   * http_server::local_addr) at /mcp. */
  http_server serve_http(const runtime &rt, std::string_view bind = "127.0.0.1:3000") const;
  /* Serves Streamable HTTP with a full configuration (nullptr: the defaults). */
  http_server serve_http(const runtime &rt, const mcp_http_server_config *config) const;
  http_server serve_http(const runtime &rt, const http_server_config &config) const;

  /* Changing a built server, even while it serves (any thread, also from a handler): listening
   * clients are told the list changed. An add replaces an entry of the same name and throws
   * mcp::error with the reason for a rejected definition; a remove says whether there was one. */
  void add_tool(std::string_view definition, result_handler f) const {
    live_add(mcp_server_add_tool, definition, new detail::result_call{std::move(f), true}, &detail::result_call::run,
             &detail::drop<detail::result_call>);
  }
  void add_tool(std::string_view definition, responder_handler f) const {
    live_add(mcp_server_add_tool, definition, new detail::responder_call{std::move(f)},
             &detail::responder_call::run, &detail::drop<detail::responder_call>);
  }
  bool remove_tool(std::string_view name) const { return remove(mcp_server_remove_tool, name); }
  void add_prompt(std::string_view definition, result_handler f) const {
    live_add(mcp_server_add_prompt, definition, new detail::result_call{std::move(f), false},
             &detail::result_call::run, &detail::drop<detail::result_call>);
  }
  void add_prompt(std::string_view definition, responder_handler f) const {
    live_add(mcp_server_add_prompt, definition, new detail::responder_call{std::move(f)},
             &detail::responder_call::run, &detail::drop<detail::responder_call>);
  }
  bool remove_prompt(std::string_view name) const { return remove(mcp_server_remove_prompt, name); }
  void add_resource(std::string_view definition, result_handler f) const {
    live_add(mcp_server_add_resource, definition, new detail::result_call{std::move(f), false},
             &detail::result_call::run, &detail::drop<detail::result_call>);
  }
  bool remove_resource(std::string_view uri) const { return remove(mcp_server_remove_resource, uri); }
  /* Tells the clients subscribed to `uri` that it changed. */
  void notify_resource_updated(std::string_view uri) const {
    detail::set_text(mcp_server_notify_resource_updated, h_.get(), uri);
  }
  /* Serves `s` (taking its contents) beside the skills already served. */
  void add_skill(skill &&s) const {
    mcp_error *err = nullptr;
    mcp_status status = mcp_server_add_skill(h_.get(), s.get(), &err);
    detail::check(status, err);
  }
  bool remove_skill(std::string_view name) const { return remove(mcp_server_remove_skill, name); }
  /* Answers request method `method` itself, as server_builder::method does; throws mcp::error
   * (MCP_STATUS_INVALID_ARGUMENT) with the engine's reason when it refuses. */
  void set_method_handler(std::string_view method, result_handler f) const {
    live_add(mcp_server_set_method_handler, method, new detail::result_call{std::move(f), false},
             &detail::result_call::run, &detail::drop<detail::result_call>);
  }
  void set_method_handler(std::string_view method, responder_handler f) const {
    live_add(mcp_server_set_method_handler, method, new detail::responder_call{std::move(f)},
             &detail::responder_call::run, &detail::drop<detail::responder_call>);
  }
  /* Whether there was a handler of `method`; throws for a name no handler may have. */
  bool remove_method_handler(std::string_view method) const {
    bool removed = false;
    mcp_error *err = nullptr;
    mcp_status status = mcp_server_remove_method_handler(h_.get(), method.data(), method.size(), &removed, &err);
    detail::check(status, err);
    return removed;
  }
  /* Declares capabilities of the host's own (JSON text of an object), as server_builder's does. */
  void declare_capabilities(std::string_view json) const {
    mcp_error *err = nullptr;
    mcp_status status = mcp_server_declare_capabilities(h_.get(), json.data(), json.size(), &err);
    detail::check(status, err);
  }
  const mcp_server *get() const noexcept { return h_.get(); }

 private:
  using live_add_fn = mcp_status (*)(const mcp_server *, const char *, size_t, mcp_handler_cb, void *,
                                     mcp_userdata_free_cb, mcp_error **);
  using remove_fn = mcp_status (*)(const mcp_server *, const char *, size_t, bool *);
  /* The library owns `call` from the call on, also when it fails. */
  void live_add(live_add_fn add, std::string_view definition, void *call, mcp_handler_cb run,
                mcp_userdata_free_cb drop) const {
    mcp_error *err = nullptr;
    mcp_status status = add(h_.get(), definition.data(), definition.size(), run, call, drop, &err);
    detail::check(status, err);
  }
  bool remove(remove_fn f, std::string_view name) const {
    bool removed = false;
    detail::check(f(h_.get(), name.data(), name.size(), &removed));
    return removed;
  }
  detail::handle<mcp_server, mcp_server_free> h_;
};

/* A running stdio serve. */
class serve {
 public:
  explicit serve(mcp_serve *s) noexcept : h_(s) {}
  void stop() { detail::check(mcp_serve_stop(h_.get())); }
  /* Blocks until the serve ends; throws when reading or writing failed. */
  void wait() {
    mcp_error *err = nullptr;
    mcp_status status = mcp_serve_wait(h_.get(), &err);
    detail::check(status, err);
  }

 private:
  detail::handle<mcp_serve, mcp_serve_free> h_;
};

/* A running HTTP server; stopped when destroyed. */
class http_server {
 public:
  explicit http_server(mcp_http_server *h) noexcept : h_(h) {}
  /* The address bound, "IP:PORT". */
  std::string local_addr() const { return std::string(detail::view(mcp_http_server_local_addr(h_.get()))); }
  /* The endpoint's URL, http://IP:PORT/mcp. */
  std::string url() const { return "http://" + local_addr() + "/mcp"; }
  void stop() { detail::check(mcp_http_server_stop(h_.get())); }

 private:
  detail::handle<mcp_http_server, mcp_http_server_free> h_;
};

inline serve server::serve_stdio(const runtime &rt) const {
  mcp_serve *s = nullptr;
  detail::check(mcp_server_serve_stdio(h_.get(), rt.get(), &s));
  return serve(s);
}

inline http_server server::serve_http(const runtime &rt, std::string_view bind) const {
  mcp_http_server_config *raw = nullptr;
  detail::check(mcp_http_server_config_new(&raw));
  detail::handle<mcp_http_server_config, mcp_http_server_config_free> config(raw);
  detail::check(mcp_http_server_config_set_bind(raw, bind.data(), bind.size()));
  return serve_http(rt, config.get());
}

inline http_server server::serve_http(const runtime &rt, const http_server_config &config) const {
  return serve_http(rt, config.get());
}

inline http_server server::serve_http(const runtime &rt, const mcp_http_server_config *config) const {
  mcp_http_server *h = nullptr;
  mcp_error *err = nullptr;
  mcp_status status = mcp_server_serve_http(h_.get(), rt.get(), config, &h, &err);
  detail::check(status, err);
  return http_server(h);
}

/* What http_endpoint::handle delivers, on a runtime thread, one call at a time: the head once,
 * the body whole or one SSE event at a time, then the end. The views live during the call only.
 * They must not block, and must not throw (the exchange is a C callback: std::terminate). */
struct http_response_sink {
  std::function<void(uint16_t status, const std::vector<std::pair<std::string_view, std::string_view>> &headers)> head;
  std::function<void(std::string_view chunk)> body;
  std::function<void()> end;
};

/* One request being answered by an http_endpoint. Destroying it (or abandon()) when the host's
 * client went away before the end cancels the handler; no callback runs after either returns. */
class http_exchange {
 public:
  http_exchange(std::unique_ptr<http_response_sink> sink, mcp_http_exchange *x) noexcept
      : sink_(std::move(sink)), h_(x) {}
  /* Gives up on the exchange (idempotent here: a second call does nothing). */
  void abandon() noexcept {
    if (h_) (void)mcp_http_exchange_abandon(h_.get());
  }

 private:
  /* Declared first, destroyed last: the handle's free waits for a running callback. */
  std::unique_ptr<http_response_sink> sink_;
  detail::handle<mcp_http_exchange, mcp_http_exchange_free> h_;
};

/* The MCP endpoint of a server mounted in your own web server: route requests to handle(). */
class http_endpoint {
 public:
  /* `config` nullptr: the mount defaults (no Host/Origin check until names are listed; see mcp.h). */
  http_endpoint(const server &s, const runtime &rt, const mcp_http_server_config *config = nullptr) {
    mcp_http_endpoint *e = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_http_endpoint_new(s.get(), rt.get(), config, &e, &err);
    detail::check(status, err);
    h_.reset(e);
  }
  /* Answers one request; the response goes to `sink`. `principal` reaches handlers as
   * request::http_principal. */
  http_exchange handle(std::string_view method, std::string_view target,
                       const std::vector<std::pair<std::string, std::string>> &headers, std::string_view body,
                       http_response_sink sink, std::string_view principal = {}) const {
    std::vector<mcp_header> hs;
    hs.reserve(headers.size());
    for (const auto &h : headers) {
      hs.push_back(mcp_header{mcp_str{h.first.data(), h.first.size()}, mcp_str{h.second.data(), h.second.size()}});
    }
    auto owned = std::make_unique<http_response_sink>(std::move(sink));
    mcp_http_host_context host{mcp_str{principal.data(), principal.size()}, nullptr, nullptr};
    static const mcp_http_response_callbacks callbacks{on_head, on_body, on_end};
    mcp_http_exchange *x = nullptr;
    detail::check(mcp_http_endpoint_handle(h_.get(), method.data(), method.size(), target.data(), target.size(),
                                           hs.empty() ? nullptr : hs.data(), hs.size(),
                                           reinterpret_cast<const uint8_t *>(body.data()), body.size(), &host,
                                           &callbacks, owned.get(), &x));
    return http_exchange(std::move(owned), x);
  }
  /* Ends every session and open stream now. */
  void close() { detail::check(mcp_http_endpoint_close(h_.get())); }

 private:
  static void on_head(void *ud, uint16_t status, const mcp_header *headers, size_t n) noexcept {
    std::vector<std::pair<std::string_view, std::string_view>> hs;
    hs.reserve(n);
    for (size_t i = 0; i < n; i++) hs.emplace_back(detail::view(headers[i].name), detail::view(headers[i].value));
    static_cast<http_response_sink *>(ud)->head(status, hs);
  }
  static void on_body(void *ud, const uint8_t *data, size_t len) noexcept {
    static_cast<http_response_sink *>(ud)->body(std::string_view(reinterpret_cast<const char *>(data), len));
  }
  static void on_end(void *ud) noexcept { static_cast<http_response_sink *>(ud)->end(); }

  detail::handle<mcp_http_endpoint, mcp_http_endpoint_free> h_;
};

/* Registers what a server offers; build() makes the server. Definitions are the protocol's JSON. */
class server_builder {
 public:
  server_builder(std::string_view name, std::string_view version) {
    mcp_server_builder *b = nullptr;
    detail::check(mcp_server_builder_new(name.data(), name.size(), version.data(), version.size(), &b));
    h_.reset(b);
  }
  server_builder &instructions(std::string_view text) {
    detail::set_text(mcp_server_builder_instructions, h_.get(), text);
    return *this;
  }
  /* A tool whose handler returns a CallToolResult's JSON (exceptions become tool errors). */
  server_builder &tool(std::string_view definition, result_handler f) {
    return add_result(mcp_server_builder_add_tool, definition, std::move(f), true);
  }
  /* A tool whose handler answers through its responder. */
  server_builder &tool(std::string_view definition, responder_handler f) {
    return add_responder(mcp_server_builder_add_tool, definition, std::move(f));
  }
  server_builder &resource(std::string_view definition, result_handler f) {
    return add_result(mcp_server_builder_add_resource, definition, std::move(f), false);
  }
  server_builder &resource_template(std::string_view definition, result_handler f) {
    return add_result(mcp_server_builder_add_template, definition, std::move(f), false);
  }
  server_builder &prompt(std::string_view definition, result_handler f) {
    return add_result(mcp_server_builder_add_prompt, definition, std::move(f), false);
  }
  /* A prompt whose handler answers through its responder (input rounds included). */
  server_builder &prompt(std::string_view definition, responder_handler f) {
    return add_responder(mcp_server_builder_add_prompt, definition, std::move(f));
  }
  /* Serves `s` (taking its contents; two skills of one name make build() fail). */
  server_builder &skill(mcp::skill &&s) {
    detail::check(mcp_server_builder_add_skill(h_.get(), s.get()));
    return *this;
  }
  server_builder &completion(result_handler f) {
    auto *call = new detail::result_call{std::move(f), false};
    detail::check(mcp_server_builder_set_completion(h_.get(), &detail::result_call::run, call,
                                                    &detail::drop<detail::result_call>));
    return *this;
  }
  /* Answers request method `method` itself: a method the specification does not define, or a
   * feature method a host may own (tools/list, tools/call, the resources and prompts methods,
   * completion/complete, tasks/get ...; its capability declared with declare_capabilities). The
   * handler answers as a resource handler does (a plain exception is an internal error, -32603);
   * what the engine refuses (initialize, notifications/x, rpc.x, a capability not declared, a
   * registered tool beside owned tools/call) makes build() throw with the reason. */
  server_builder &method(std::string_view method, result_handler f) {
    return add_result(mcp_server_builder_set_method_handler, method, std::move(f), false);
  }
  server_builder &method(std::string_view method, responder_handler f) {
    return add_responder(mcp_server_builder_set_method_handler, method, std::move(f));
  }
  /* Capabilities of the host's own (JSON text of an object, e.g. {"tools":{}}), advertised over
   * the engine's for each key given: the methods the host owns need theirs. */
  server_builder &declare_capabilities(std::string_view json) {
    detail::set_text(mcp_server_builder_declare_capabilities, h_.get(), json);
    return *this;
  }
  /* The server; throws mcp::error naming every invalid registration. */
  server build() {
    mcp_server *s = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_server_builder_build(h_.get(), &s, &err);
    detail::check(status, err);
    return server(s);
  }

 private:
  server_builder &add_result(detail::add_fn add, std::string_view definition, result_handler f, bool tool) {
    // The library owns the userdata from the call on, also when it fails.
    auto *call = new detail::result_call{std::move(f), tool};
    detail::check(add(h_.get(), definition.data(), definition.size(), &detail::result_call::run, call,
                      &detail::drop<detail::result_call>));
    return *this;
  }
  server_builder &add_responder(detail::add_fn add, std::string_view definition, responder_handler f) {
    auto *call = new detail::responder_call{std::move(f)};
    detail::check(add(h_.get(), definition.data(), definition.size(), &detail::responder_call::run, call,
                      &detail::drop<detail::responder_call>));
    return *this;
  }
  detail::handle<mcp_server_builder, mcp_server_builder_free> h_;
};

/* The OAuth 2.1 client side of an HTTP connection (client_config::oauth): by default the
 * authorization code grant with PKCE, dynamic registration and the built-in auto-redirect
 * interaction; or one of the grants that need no user (grant_*). */
class oauth_config {
 public:
  /* Shows the authorization URL to the user and returns the URL the authorization server
   * redirected back to, or std::nullopt to decline (the request that needed it then fails). Runs
   * on a library thread reserved for blocking work; an exception declines too. */
  using authorizer = std::function<std::optional<std::string>(std::string_view authorization_url)>;

  oauth_config(std::string_view client_name, std::string_view redirect_uri) {
    mcp_oauth_config *c = nullptr;
    detail::check(mcp_oauth_config_new(client_name.data(), client_name.size(), redirect_uri.data(),
                                       redirect_uri.size(), &c));
    h_.reset(c);
  }
  /* The https URL of this client's metadata document (SEP-991 client ID metadata documents). */
  oauth_config &client_metadata_url(std::string_view url) {
    detail::set_text(mcp_oauth_config_set_client_metadata_url, h_.get(), url);
    return *this;
  }
  /* The user-interaction step (the default fetches the URL and follows its one redirect). */
  oauth_config &authorize(authorizer f) {
    auto run = [](void *ud, const char *url, size_t len) noexcept -> mcp_string * {
      try {
        std::optional<std::string> back = (*static_cast<authorizer *>(ud))(std::string_view(url, len));
        mcp_string *out = nullptr;
        if (back && mcp_string_new(back->data(), back->size(), &out) == MCP_STATUS_OK) return out;
      } catch (...) {
        // Declines, as the callback's contract offers.
      }
      return nullptr;
    };
    detail::check(mcp_oauth_config_set_authorize_callback(h_.get(), run, new authorizer(std::move(f)),
                                                          &detail::drop<authorizer>));
    return *this;
  }
  /* Pre-registered credentials instead of registering (`client_secret` empty: a public client;
   * `method` empty: chosen from the secret and the server's metadata; `issuer` empty: any). */
  oauth_config &client_credentials(std::string_view client_id, std::string_view client_secret = {},
                                   std::string_view method = {}, std::string_view issuer = {}) {
    detail::check(mcp_oauth_config_set_client_credentials(h_.get(), client_id.data(), client_id.size(),
                                                          client_secret.data(), client_secret.size(),
                                                          method.data(), method.size(), issuer.data(),
                                                          issuer.size()));
    return *this;
  }
  /* DPoP-bound tokens (RFC 9449), with every grant. */
  oauth_config &dpop(bool on) {
    detail::check(mcp_oauth_config_set_dpop(h_.get(), on));
    return *this;
  }
  /* The client credentials grant with a secret. */
  oauth_config &grant_client_secret(std::string_view client_id, std::string_view client_secret) {
    detail::check(mcp_oauth_config_set_grant_client_secret(h_.get(), client_id.data(), client_id.size(),
                                                           client_secret.data(), client_secret.size()));
    return *this;
  }
  /* The client credentials grant with a private_key_jwt assertion signed by `private_key_pem`
   * (PKCS #8) for `algorithm` ("ES256" when empty, or "RS256"). */
  oauth_config &grant_private_key_jwt(std::string_view client_id, std::string_view private_key_pem,
                                      std::string_view algorithm = {}) {
    mcp_error *err = nullptr;
    mcp_status status = mcp_oauth_config_set_grant_private_key_jwt(
        h_.get(), client_id.data(), client_id.size(), private_key_pem.data(), private_key_pem.size(),
        algorithm.data(), algorithm.size(), &err);
    detail::check(status, err);
    return *this;
  }
  /* The JWT bearer grant with a workload identity token (`from_file`: the path of a file holding
   * it, read at each use); `client_id` empty sends none. */
  oauth_config &grant_jwt_bearer(std::string_view client_id, std::string_view assertion, bool from_file = false) {
    detail::check(mcp_oauth_config_set_grant_jwt_bearer(h_.get(), client_id.data(), client_id.size(),
                                                        assertion.data(), assertion.size(), from_file));
    return *this;
  }
  /* Enterprise-managed authorization: the user's ID token exchanged at the identity provider for an
   * ID-JAG, redeemed at the MCP server's authorization server by `client_id`. */
  oauth_config &grant_enterprise_managed(std::string_view idp_token_endpoint, std::string_view idp_client_id,
                                         std::string_view idp_client_secret, std::string_view id_token,
                                         bool id_token_from_file, std::string_view client_id,
                                         std::string_view client_secret = {}) {
    detail::check(mcp_oauth_config_set_grant_enterprise_managed(
        h_.get(), idp_token_endpoint.data(), idp_token_endpoint.size(), idp_client_id.data(),
        idp_client_id.size(), idp_client_secret.data(), idp_client_secret.size(), id_token.data(),
        id_token.size(), id_token_from_file, client_id.data(), client_id.size(), client_secret.data(),
        client_secret.size()));
    return *this;
  }
  const mcp_oauth_config *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_oauth_config, mcp_oauth_config_free> h_;
};

/* The built-in auto-redirect interaction, for an authorizer that wants to log or check first:
 * fetches `authorization_url` on `rt` without following redirects and returns where it redirects.
 * Blocks; not on one of `rt`'s threads. */
inline std::string oauth_auto_redirect(const runtime &rt, std::string_view authorization_url) {
  return detail::text_of([&](mcp_string **out, mcp_error **err) {
    return mcp_oauth_auto_redirect(rt.get(), authorization_url.data(), authorization_url.size(), out, err);
  });
}

/* A client's settings beyond its name (client_builder::config applies a copy). */
class client_config {
 public:
  client_config() {
    mcp_client_config *c = nullptr;
    detail::check(mcp_client_config_new(&c));
    h_.reset(c);
  }
  /* The idle timeout of each request, the hard limit of one, the server/discover probe's wait
   * (0 keeps a value). */
  client_config &timeouts_ms(uint64_t request, uint64_t total = 0, uint64_t probe = 0) {
    detail::check(mcp_client_config_set_timeouts_ms(h_.get(), request, total, probe));
    return *this;
  }
  /* A clientInfo field ("title", "description", ...) as JSON. */
  client_config &info_field(std::string_view key, std::string_view value_json) {
    detail::check(mcp_client_config_set_info_field(h_.get(), key.data(), key.size(), value_json.data(),
                                                   value_json.size()));
    return *this;
  }
  /* "auto" (default), a modern revision or a legacy one; anything else throws. */
  client_config &version(std::string_view version) {
    detail::set_text(mcp_client_config_set_version, h_.get(), version);
    return *this;
  }
  /* Authorizes the HTTP connection with a copy of `oauth`. */
  client_config &oauth(const oauth_config &oauth) {
    detail::check(mcp_client_config_set_oauth(h_.get(), oauth.get()));
    return *this;
  }
  const mcp_client_config *get() const noexcept { return h_.get(); }

 private:
  detail::handle<mcp_client_config, mcp_client_config_free> h_;
};

/* The answer to one input request of the server (elicitation, sampling, roots): once, now or
 * later, from any thread. Dropped unanswered, the server gets an internal error. */
class input_reply {
 public:
  explicit input_reply(mcp_input_reply *r) noexcept : h_(r) {}
  /* An ElicitResult, CreateMessageResult or ListRootsResult as JSON. */
  void result(std::string_view json) { detail::set_text(mcp_input_reply_result, h_.get(), json); }
  void error(int32_t code, std::string_view message) {
    detail::check(mcp_input_reply_error(h_.get(), code, message.data(), message.size()));
  }

 private:
  detail::handle<mcp_input_reply, mcp_input_reply_free> h_;
};

/* An input handler returning its result's JSON (params JSON in). One that throws answers with a
 * JSON-RPC error: mcp::rpc_error's code, else -32603 with the exception's text. */
using input_handler = std::function<std::string(std::string_view params)>;
/* An input handler that answers through its reply, now or later. */
using input_reply_handler = std::function<void(std::string_view params, input_reply)>;

/* An open subscription (client::subscribe). Destroying it closes it and waits until its final
 * callback has returned, so not from one of its callbacks. */
class subscription {
 public:
  subscription(mcp_subscription *s, std::string acknowledged) noexcept : h_(s), ack_(std::move(acknowledged)) {}
  /* What the server agreed to deliver (a subset of the filter), as JSON. */
  const std::string &acknowledged() const noexcept { return ack_; }
  /* Ends it: the final callback follows soon. Idempotent; any thread, also a callback of its own. */
  void close() { detail::check(mcp_subscription_close(h_.get())); }

 private:
  detail::handle<mcp_subscription, mcp_subscription_free> h_;
  std::string ack_;
};

/* A notification of a subscription (method, params JSON), on a runtime thread, one at a time. */
using notification_handler = std::function<void(std::string_view method, std::string_view params)>;
/* The end of a subscription, once, after the last notification: {"reason": "..."}. */
using end_handler = std::function<void(std::string_view reason_json)>;
/* Progress of an async call: the value, the total when known, the message (empty when none). */
using progress_handler = std::function<void(double progress, std::optional<double> total, std::string_view message)>;

namespace detail {

/* Calls an input_handler and answers with what it returns or throws. */
inline void run_input(input_handler &f, mcp_str params, mcp_input_reply *raw) noexcept {
  input_reply r(raw);
  try {
    std::string json = f(view(params));
    r.result(json);
  } catch (const rpc_error &e) {
    try {
      r.error(e.code(), e.what());
    } catch (...) {
      // Answered already: dropping the reply is all that is left.
    }
  } catch (const std::exception &e) {
    try {
      r.error(-32603, e.what());
    } catch (...) {
      // As above.
    }
  } catch (...) {
    // Dropped unanswered: the server gets an internal error.
  }
}

inline void run_input(input_reply_handler &f, mcp_str params, mcp_input_reply *raw) noexcept {
  try {
    f(view(params), input_reply(raw));
  } catch (...) {
    // The reply went with the handler's parameter: unanswered, the server got an internal error.
  }
}

/* Fulfils `promise` with a call's outcome: its result's JSON, or the mcp::error. */
inline void fulfil(std::promise<std::string> &promise, mcp_status status, mcp_string *result, mcp_error *err) noexcept {
  try {
    if (status == MCP_STATUS_OK) {
      promise.set_value(take(result));
    } else {
      promise.set_exception(std::make_exception_ptr(make_error(status, err)));
    }
  } catch (...) {
    // set_value/set_exception failing leaves the future broken: nothing safer to do here.
  }
}

/* An mcp_call_cb whose userdata is a std::promise<std::string> (freed by drop). */
inline void settle(void *ud, mcp_status status, mcp_string *result, mcp_error *err) noexcept {
  fulfil(*static_cast<std::promise<std::string> *>(ud), status, result, err);
}

/* The callbacks of one async call: `progress` before `done`, `done` exactly once. */
struct async_call {
  std::promise<std::string> promise;
  progress_handler progress;
  static void on_progress(void *ud, double value, bool has_total, double total, mcp_str message) noexcept {
    try {
      auto *self = static_cast<async_call *>(ud);
      if (self->progress) {
        self->progress(value, has_total ? std::optional<double>(total) : std::nullopt, view(message));
      }
    } catch (...) {
      // A progress callback has no one to report to.
    }
  }
  static void on_done(void *ud, mcp_status status, mcp_string *result, mcp_error *err) noexcept {
    auto *self = static_cast<async_call *>(ud);
    fulfil(self->promise, status, result, err);
    delete self;  // mcp_client_call_async calls this exactly once and never again after it
  }
};

}  // namespace detail

/* A connected client. Blocking calls return the result's JSON text and throw mcp::error (an
 * MCP_STATUS_RPC_ERROR carries the server's code, message and data). */
class client {
 public:
  explicit client(mcp_client *c) noexcept : h_(c) {}
  mcp_era era() const noexcept { return mcp_client_era(h_.get()); }
  /* {"era", "protocolVersion", "supportedVersions", "capabilities", "serverInfo", "instructions"}. */
  std::string server_info() const {
    mcp_string *out = nullptr;
    detail::check(mcp_client_server_info(h_.get(), &out));
    return detail::take(out);
  }
  std::string list_tools() const { return blocking(mcp_client_list_tools); }
  std::string list_resources() const { return blocking(mcp_client_list_resources); }
  std::string list_prompts() const { return blocking(mcp_client_list_prompts); }
  std::string call_tool(std::string_view name, std::string_view arguments_json = "{}") const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_call_tool(h_.get(), name.data(), name.size(), arguments_json.data(),
                                  arguments_json.size(), out, err);
    });
  }
  std::string read_resource(std::string_view uri) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_read_resource(h_.get(), uri.data(), uri.size(), out, err);
    });
  }
  std::string get_prompt(std::string_view name, std::string_view arguments_json = "{}") const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_get_prompt(h_.get(), name.data(), name.size(), arguments_json.data(),
                                   arguments_json.size(), out, err);
    });
  }
  /* Any request; `timeout_ms` 0 keeps the client's idle timeout. */
  std::string call(std::string_view method, std::string_view params_json = "{}", uint64_t timeout_ms = 0) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_call(h_.get(), method.data(), method.size(), params_json.data(), params_json.size(),
                             timeout_ms, out, err);
    });
  }
  /* Calls a tool without blocking; the future holds the result's JSON or the mcp::error. Callable
   * from a handler too (wait on the future elsewhere). */
  std::future<std::string> call_tool_async(std::string_view name, std::string_view arguments_json = "{}") const {
    auto *promise = new std::promise<std::string>();
    std::future<std::string> future = promise->get_future();
    mcp_status s = mcp_client_call_tool_async(h_.get(), name.data(), name.size(), arguments_json.data(),
                                              arguments_json.size(), 0, nullptr, &detail::settle, promise,
                                              &detail::drop<std::promise<std::string>>, nullptr);
    detail::check(s);
    return future;
  }
  /* Any request without blocking; the future holds the result's JSON or the mcp::error.
   * `progress` (may be empty) sees the call's progress notifications first, on a runtime thread.
   * Callable from a handler too (wait on the future elsewhere). */
  std::future<std::string> call_async(std::string_view method, std::string_view params_json = "{}",
                                      progress_handler progress = {}, uint64_t timeout_ms = 0) const {
    auto *call = new detail::async_call{std::promise<std::string>(), std::move(progress)};
    std::future<std::string> future = call->promise.get_future();
    mcp_status s = mcp_client_call_async(h_.get(), method.data(), method.size(), params_json.data(),
                                         params_json.size(), timeout_ms, &detail::async_call::on_progress,
                                         &detail::async_call::on_done, call, nullptr);
    if (s != MCP_STATUS_OK) {
      delete call;  // no callback runs after a refusal
      detail::check(s);
    }
    return future;
  }
  std::string list_resource_templates() const { return blocking(mcp_client_list_resource_templates); }
  /* Completions of `argument` (typed so far: `value`) of `reference_json` ({"type": "ref/prompt",
   * "name": ...} or {"type": "ref/resource", "uri": ...}): the CompleteResult's JSON. */
  std::string complete(std::string_view reference_json, std::string_view argument, std::string_view value) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_complete(h_.get(), reference_json.data(), reference_json.size(), argument.data(),
                                 argument.size(), value.data(), value.size(), out, err);
    });
  }
  /* Subscribes to the notifications `filter_json` names ({"toolsListChanged": true,
   * "promptsListChanged": true, "resourcesListChanged": true, "resourceSubscriptions": [uri...],
   * "taskIds": [id...]}); returns once the server acknowledged. Each notification reaches
   * `on_notification`, then `on_end` (may be empty) once. The handlers must not block for long nor
   * make blocking client calls; what they throw is dropped. Not from a callback. */
  subscription subscribe(std::string_view filter_json, notification_handler on_notification,
                         end_handler on_end = {}) const {
    struct handlers {
      notification_handler notification;
      end_handler end;
    };
    auto run = [](void *ud, mcp_str method, mcp_str params) noexcept {
      auto *self = static_cast<handlers *>(ud);
      try {
        if (method.len) {
          self->notification(detail::view(method), detail::view(params));
        } else if (self->end) {
          self->end(detail::view(params));
        }
      } catch (...) {
        // A subscription callback has no one to report to.
      }
    };
    mcp_subscription *sub = nullptr;
    mcp_string *ack = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_subscribe(h_.get(), filter_json.data(), filter_json.size(), run,
                                             new handlers{std::move(on_notification), std::move(on_end)},
                                             &detail::drop<handlers>, &sub, &ack, &err);
    detail::check(status, err);
    return subscription(sub, ack ? detail::take(ack) : std::string());
  }
  /* skills/list (every page; reads no skill file): the JSON array of skill entries. */
  std::string list_skills() const { return blocking(mcp_client_list_skills); }
  /* skills/get: the entry of the skill whose SKILL.md is at `uri`. */
  std::string get_skill(std::string_view uri) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_get_skill(h_.get(), uri.data(), uri.size(), out, err);
    });
  }
  /* The bytes of the file at `uri` of the skill `entry_json` describes, returned only once they
   * match the entry (size, sha256 digest, and SKILL.md's frontmatter): a mismatch throws
   * mcp::error (MCP_STATUS_PROTOCOL, "skill verification failed ..."). */
  std::vector<uint8_t> read_skill_file(std::string_view entry_json, std::string_view uri) const {
    mcp_bytes *bytes = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_read_skill_file(h_.get(), entry_json.data(), entry_json.size(), uri.data(),
                                                   uri.size(), &bytes, &err);
    detail::check(status, err);
    detail::handle<mcp_bytes, mcp_bytes_free> owned(bytes);
    const uint8_t *data = mcp_bytes_data(bytes);
    return std::vector<uint8_t>(data, data + mcp_bytes_len(bytes));
  }
  /* Tasks (tasks extension). Calls tool `name` as a task: {"task": Task} when the server started
   * one (follow it by its taskId), or {"result": CallToolResult} when it answered at once. */
  std::string call_tool_as_task(std::string_view name, std::string_view arguments_json = "{}") const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_call_tool_as_task(h_.get(), name.data(), name.size(), arguments_json.data(),
                                          arguments_json.size(), out, err);
    });
  }
  /* tasks/get: the Task's current state. */
  std::string get_task(std::string_view task_id) const { return by_task(mcp_client_get_task, task_id); }
  /* Follows the task to its end (answering its input requests with the input handlers): the
   * tool's CallToolResult. A failed task throws its JSON-RPC error, a cancelled one
   * MCP_STATUS_CANCELLED (2026-07-28) or its error. */
  std::string task_result(std::string_view task_id) const { return by_task(mcp_client_task_result, task_id); }
  /* task_result without blocking: the future holds the CallToolResult or the mcp::error. */
  std::future<std::string> task_result_async(std::string_view task_id) const {
    auto *promise = new std::promise<std::string>();
    std::future<std::string> future = promise->get_future();
    detail::check(mcp_client_task_result_async(h_.get(), task_id.data(), task_id.size(), &detail::settle, promise,
                                               &detail::drop<std::promise<std::string>>, nullptr));
    return future;
  }
  /* tasks/cancel (cooperative: the handler sees responder::on_cancel). */
  void cancel_task(std::string_view task_id) const {
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_cancel_task(h_.get(), task_id.data(), task_id.size(), &err);
    detail::check(status, err);
  }
  /* One page of tasks/list (2025-11-25 only): {"tasks": [...], "nextCursor"?}; `cursor` empty for
   * the first. */
  std::string list_tasks(std::string_view cursor = {}) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return mcp_client_list_tasks(h_.get(), cursor.data(), cursor.size(), out, err);
    });
  }
  /* Closes the connection (the server process is stopped); idempotent. */
  void close() { detail::check(mcp_client_close(h_.get())); }
  const mcp_client *get() const noexcept { return h_.get(); }

 private:
  using task_fn = mcp_status (*)(const mcp_client *, const char *, size_t, mcp_string **, mcp_error **);
  std::string by_task(task_fn f, std::string_view task_id) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return f(h_.get(), task_id.data(), task_id.size(), out, err);
    });
  }
  using list_fn = mcp_status (*)(const mcp_client *, mcp_string **, mcp_error **);
  std::string blocking(list_fn f) const {
    return detail::text_of([&](mcp_string **out, mcp_error **err) {
      return f(h_.get(), out, err);
    });
  }
  detail::handle<mcp_client, mcp_client_free> h_;
};

/* Configures a client, then connects it (once). */
class client_builder {
 public:
  client_builder(std::string_view name, std::string_view version) {
    mcp_client_builder *b = nullptr;
    detail::check(mcp_client_builder_new(name.data(), name.size(), version.data(), version.size(), &b));
    h_.reset(b);
  }
  /* The idle timeout of each request. */
  client_builder &timeout_ms(uint64_t ms) {
    detail::check(mcp_client_builder_set_timeout_ms(h_.get(), ms));
    return *this;
  }
  /* "auto" (default), a modern revision ("2026-07-28") or a legacy one ("2025-11-25", ...). */
  client_builder &protocol_version(std::string_view version) {
    detail::set_text(mcp_client_builder_set_protocol_version, h_.get(), version);
    return *this;
  }
  /* Sees every notification (method, params JSON) on a runtime thread; must not block. */
  client_builder &on_notification(std::function<void(std::string_view, std::string_view)> f) {
    using fn = std::function<void(std::string_view, std::string_view)>;
    auto *held = new fn(std::move(f));
    auto run = [](void *ud, mcp_str method, mcp_str params) noexcept {
      try {
        (*static_cast<fn *>(ud))(detail::view(method), detail::view(params));
      } catch (...) {
        // A notification callback has no one to report to.
      }
    };
    detail::check(mcp_client_builder_on_notification(h_.get(), run, held, &detail::drop<fn>));
    return *this;
  }
  /* Applies a copy of `config` (timeouts, version, info fields, OAuth). */
  client_builder &config(const client_config &config) {
    detail::check(mcp_client_builder_set_config(h_.get(), config.get()));
    return *this;
  }
  /* Answers elicitation/create (declares form elicitation), sampling/createMessage, roots/list. */
  client_builder &on_elicitation(input_handler f) { return input(mcp_client_builder_on_elicitation, std::move(f)); }
  client_builder &on_elicitation(input_reply_handler f) {
    return input(mcp_client_builder_on_elicitation, std::move(f));
  }
  client_builder &on_sampling(input_handler f) { return input(mcp_client_builder_on_sampling, std::move(f)); }
  client_builder &on_sampling(input_reply_handler f) { return input(mcp_client_builder_on_sampling, std::move(f)); }
  client_builder &on_roots(input_handler f) { return input(mcp_client_builder_on_roots, std::move(f)); }
  client_builder &on_roots(input_reply_handler f) { return input(mcp_client_builder_on_roots, std::move(f)); }
  /* Where a stdio server's stderr lines go (MCP_CHILD_STDERR_LOG by default). */
  client_builder &child_stderr(mcp_child_stderr mode) {
    detail::check(mcp_client_builder_set_child_stderr(h_.get(), static_cast<uint32_t>(mode)));
    return *this;
  }
  /* Starts `program` with `args` and connects over its stdin/stdout. */
  client connect_stdio(const runtime &rt, std::string_view program, const std::vector<std::string> &args = {}) {
    std::vector<mcp_str> views;
    views.reserve(args.size());
    for (const std::string &a : args) views.push_back(mcp_str{a.data(), a.size()});
    mcp_client *c = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_builder_connect_stdio(h_.get(), rt.get(), program.data(), program.size(),
                                                   views.empty() ? nullptr : views.data(), views.size(), &c, &err);
    detail::check(status, err);
    return client(c);
  }
  /* Connects to a Streamable HTTP endpoint, sending `headers` with every request. */
  client connect_http(const runtime &rt, std::string_view url,
                      const std::vector<std::pair<std::string, std::string>> &headers = {}) {
    std::vector<mcp_header> hs;
    hs.reserve(headers.size());
    for (const auto &h : headers) {
      hs.push_back(mcp_header{mcp_str{h.first.data(), h.first.size()}, mcp_str{h.second.data(), h.second.size()}});
    }
    mcp_client *c = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_builder_connect_http(h_.get(), rt.get(), url.data(), url.size(),
                                                  hs.empty() ? nullptr : hs.data(), hs.size(), &c, &err);
    detail::check(status, err);
    return client(c);
  }

 private:
  using input_fn = mcp_status (*)(mcp_client_builder *, mcp_input_cb, void *, mcp_userdata_free_cb);
  template <typename F>
  client_builder &input(input_fn set, F f) {
    auto run = [](void *ud, mcp_str params, mcp_input_reply *reply) noexcept {
      detail::run_input(*static_cast<F *>(ud), params, reply);
    };
    // The library owns the userdata from the call on, also when it fails.
    detail::check(set(h_.get(), run, new F(std::move(f)), &detail::drop<F>));
    return *this;
  }
  detail::handle<mcp_client_builder, mcp_client_builder_free> h_;
};

}  // namespace mcp

#endif  // MCP_HPP
