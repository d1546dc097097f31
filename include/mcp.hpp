/*
 * mcp.hpp: a header-only C++17 layer over mcp.h (the C API of libmcp). Written by hand, not
 * generated; it depends on nothing but mcp.h and the C++ standard library.
 *
 * - Handles own what the C API hands out (runtime, builders, server, serve, HTTP server, mounted
 *   HTTP endpoint and its exchanges, client, responder) and free it in their destructors; they are move-only.
 * - Strings go in as std::string_view and come back as std::string (JSON text stays text: pair this
 *   header with the JSON library you already use).
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

/* A callable the library holds as userdata: deleted exactly once through `drop`. */
template <typename F>
void drop(void *userdata) {
  delete static_cast<F *>(userdata);
}

}  // namespace detail

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
    detail::check(mcp_responder_tool_error(h_.get(), text.data(), text.size()));
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
  const mcp_server *get() const noexcept { return h_.get(); }

 private:
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
    detail::check(mcp_server_builder_instructions(h_.get(), text.data(), text.size()));
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
  server_builder &completion(result_handler f) {
    auto *call = new detail::result_call{std::move(f), false};
    detail::check(mcp_server_builder_set_completion(h_.get(), &detail::result_call::run, call,
                                                    &detail::drop<detail::result_call>));
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
    mcp_string *out = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_call_tool(h_.get(), name.data(), name.size(), arguments_json.data(),
                                       arguments_json.size(), &out, &err);
    detail::check(status, err);
    return detail::take(out);
  }
  std::string read_resource(std::string_view uri) const {
    mcp_string *out = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_read_resource(h_.get(), uri.data(), uri.size(), &out, &err);
    detail::check(status, err);
    return detail::take(out);
  }
  std::string get_prompt(std::string_view name, std::string_view arguments_json = "{}") const {
    mcp_string *out = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_get_prompt(h_.get(), name.data(), name.size(), arguments_json.data(),
                                        arguments_json.size(), &out, &err);
    detail::check(status, err);
    return detail::take(out);
  }
  /* Any request; `timeout_ms` 0 keeps the client's idle timeout. */
  std::string call(std::string_view method, std::string_view params_json = "{}", uint64_t timeout_ms = 0) const {
    mcp_string *out = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = mcp_client_call(h_.get(), method.data(), method.size(), params_json.data(), params_json.size(),
                                  timeout_ms, &out, &err);
    detail::check(status, err);
    return detail::take(out);
  }
  /* Calls a tool without blocking; the future holds the result's JSON or the mcp::error. Callable
   * from a handler too (wait on the future elsewhere). */
  std::future<std::string> call_tool_async(std::string_view name, std::string_view arguments_json = "{}") const {
    auto *promise = new std::promise<std::string>();
    std::future<std::string> future = promise->get_future();
    auto done = [](void *ud, mcp_status status, mcp_string *result, mcp_error *err) noexcept {
      auto *p = static_cast<std::promise<std::string> *>(ud);
      try {
        if (status == MCP_STATUS_OK) {
          p->set_value(detail::take(result));
        } else {
          p->set_exception(std::make_exception_ptr(detail::make_error(status, err)));
        }
      } catch (...) {
        // set_value/set_exception failing leaves the future broken: nothing safer to do here.
      }
    };
    mcp_status s = mcp_client_call_tool_async(h_.get(), name.data(), name.size(), arguments_json.data(),
                                              arguments_json.size(), 0, nullptr, done, promise,
                                              &detail::drop<std::promise<std::string>>, nullptr);
    detail::check(s);
    return future;
  }
  /* Closes the connection (the server process is stopped); idempotent. */
  void close() { detail::check(mcp_client_close(h_.get())); }
  const mcp_client *get() const noexcept { return h_.get(); }

 private:
  using list_fn = mcp_status (*)(const mcp_client *, mcp_string **, mcp_error **);
  std::string blocking(list_fn f) const {
    mcp_string *out = nullptr;
    mcp_error *err = nullptr;
    mcp_status status = f(h_.get(), &out, &err);
    detail::check(status, err);
    return detail::take(out);
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
    detail::check(mcp_client_builder_set_protocol_version(h_.get(), version.data(), version.size()));
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
  detail::handle<mcp_client_builder, mcp_client_builder_free> h_;
};

}  // namespace mcp

#endif  // MCP_HPP
