/* Config handles and JSON helpers without a peer: lifecycles, defaults accepted by the builders,
 * every setter's rejection of bad values (NULL, invalid UTF-8, zero, unknown versions), use after
 * build, and the exact output of mcp_json_get / _get_string / _keys / _quote. */
#include "check.h"

static const char BAD_UTF8[] = {'\xff', '\xfe'};

/* Runs `call` (which writes `out`), then checks the string it wrote and frees it. */
#define EXPECT_STRING(call, want)         \
  do {                                    \
    out = NULL;                           \
    OK(call);                             \
    expect_string(out, want);             \
  } while (0)

static void expect_string(mcp_string *s, const char *want) {
  if (strcmp(mcp_string_data(s), want) != 0) {
    fprintf(stderr, "got %s, expected %s\n", mcp_string_data(s), want);
    exit(1);
  }
  CHECK(mcp_string_len(s) == strlen(want));
  mcp_string_free(s);
}

static void json_helpers(void) {
  const char doc[] = "{\"a\":{\"b\":[1,\"two\",{\"c/d\":null}]},\"s\":\"x\\\"y\"}";
  mcp_string *out = NULL;
  EXPECT_STRING(mcp_json_get(S(doc), S("/a/b/0"), &out), "1");
  EXPECT_STRING(mcp_json_get(S(doc), S("/a/b/1"), &out), "\"two\"");
  EXPECT_STRING(mcp_json_get(S(doc), S("/a/b/2/c~1d"), &out), "null");
  EXPECT_STRING(mcp_json_get(S(doc), S("/a/b"), &out), "[1,\"two\",{\"c/d\":null}]");
  EXPECT_STRING(mcp_json_get_string(S(doc), S("/a/b/1"), &out), "two");
  EXPECT_STRING(mcp_json_get_string(S(doc), S("/s"), &out), "x\"y");
  EXPECT_STRING(mcp_json_get(S("[true]"), NULL, 0, &out), "[true]"); /* "" = whole doc */
  EXPECT_STRING(mcp_json_keys(S("{\"k\":1}"), S(""), &out), "[\"k\"]");
  EXPECT_STRING(mcp_json_keys(S(doc), S("/a/b/2"), &out), "[\"c/d\"]");
  EXPECT_STRING(mcp_json_quote(S("say \"hi\"\n"), &out), "\"say \\\"hi\\\"\\n\"");
  EXPECT_STRING(mcp_json_quote(NULL, 0, &out), "\"\"");

  out = NULL;
  EXPECT(MCP_STATUS_NOT_FOUND, mcp_json_get(S(doc), S("/a/x"), &out));
  EXPECT(MCP_STATUS_NOT_FOUND, mcp_json_get(S(doc), S("/a/b/9"), &out));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_string(S(doc), S("/a/b/0"), &out));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get(S(doc), S("a"), &out));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_keys(S(doc), S("/a/b"), &out));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_json_get(S("{\"a\":"), S("/a"), &out));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_json_get(BAD_UTF8, 2, S("/a"), &out));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_json_get(S(doc), BAD_UTF8, 2, &out));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_json_quote(BAD_UTF8, 2, &out));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_json_get(NULL, 3, S("/a"), &out));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_json_get(S(doc), S("/a"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_json_keys(S(doc), S(""), NULL));
  CHECK(out == NULL); /* written only on success */

  /* Scalars: numbers as double or int64, booleans; the wrong kind changes nothing. */
  const char nums[] = "{\"i\":-9007199254740993,\"f\":2.5,\"e\":1e3,\"t\":true,\"n\":null}";
  double d = -1;
  int64_t i = -1;
  bool b = false;
  OK(mcp_json_get_double(S(nums), S("/f"), &d));
  CHECK(d == 2.5);
  OK(mcp_json_get_double(S(nums), S("/e"), &d));
  CHECK(d == 1000.0);
  OK(mcp_json_get_int64(S(nums), S("/i"), &i));
  CHECK(i == -9007199254740993LL);
  OK(mcp_json_get_bool(S(nums), S("/t"), &b));
  CHECK(b);
  d = -1, i = -1, b = false;
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_int64(S(nums), S("/f"), &i));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_int64(S(nums), S("/e"), &i));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_int64(S("[18446744073709551615]"), S("/0"), &i));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_double(S(nums), S("/t"), &d));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_json_get_bool(S(nums), S("/n"), &b));
  EXPECT(MCP_STATUS_NOT_FOUND, mcp_json_get_bool(S(nums), S("/x"), &b));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_json_get_double(S("{"), S(""), &d));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_json_get_int64(S(nums), S("/i"), NULL));
  CHECK(d == -1 && i == -1 && !b);
}

static void server_config(void) {
  mcp_server_config *c = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_config_new(NULL));
  OK(mcp_server_config_new(&c));
  OK(mcp_server_config_set_page_size(c, 2));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_page_size(c, 0));
  OK(mcp_server_config_set_max_message_bytes(c, 1 << 20));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_max_message_bytes(c, 0));
  OK(mcp_server_config_set_state_ttl_ms(c, 1000));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_state_ttl_ms(c, 0));
  OK(mcp_server_config_set_max_input_rounds(c, 3));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_max_input_rounds(c, 0));
  OK(mcp_server_config_set_max_request_state_bytes(c, 4096));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_max_request_state_bytes(c, 0));
  OK(mcp_server_config_set_max_in_flight(c, 64));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_max_in_flight(c, 0));
  OK(mcp_server_config_set_cache(c, 5000, true));
  OK(mcp_server_config_set_client_request_timeout_ms(c, 2000));
  OK(mcp_server_config_set_handler_timeout_ms(c, 5000));
  OK(mcp_server_config_set_handler_timeout_ms(c, 0)); /* no limit again */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_client_request_timeout_ms(c, 0));
  OK(mcp_server_config_set_shutdown_grace_ms(c, 0));
  OK(mcp_server_config_add_version(c, S("2026-07-28")));
  OK(mcp_server_config_add_version(c, S("2026-07-28"))); /* twice: no further effect */
  OK(mcp_server_config_add_version(c, S("2025-11-25")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_add_version(c, S("2099-01-01")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_server_config_add_version(c, BAD_UTF8, 2));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_config_add_version(c, NULL, 4));
  unsigned char key[32] = {1, 2, 3};
  OK(mcp_server_config_set_state_key(c, key, 32));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_server_config_set_state_key(c, key, 16));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_config_set_state_key(c, NULL, 32));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_config_set_page_size(NULL, 2));

  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  OK(mcp_server_builder_new(S("cfg"), S("1"), &b));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_set_config(b, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_set_config(NULL, c));
  OK(mcp_server_builder_set_config(b, c));
  mcp_server_config_free(c); /* the builder holds a copy */
  OK(mcp_server_builder_build(b, &s, NULL));
  OK(mcp_server_config_new(&c));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_set_config(b, c));
  mcp_server_config_free(c);
  mcp_server_config_free(NULL);
  mcp_server_builder_free(b);
  mcp_server_free(s);
}

static void http_config(void) {
  mcp_http_server_config *c = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_config_new(NULL));
  OK(mcp_http_server_config_new(&c));
  OK(mcp_http_server_config_set_bind(c, S("127.0.0.1:0")));
  OK(mcp_http_server_config_set_bind(c, S("[::1]:8080")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_bind(c, S("localhost:80")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_bind(c, S("127.0.0.1")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_http_server_config_set_bind(c, BAD_UTF8, 2));
  OK(mcp_http_server_config_set_path(c, S("/api/mcp")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_path(c, S("mcp")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_path(c, S("/mcp?x=1")));
  OK(mcp_http_server_config_set_legacy_sessions(c, false));
  OK(mcp_http_server_config_set_assume_2025_03_26(c, true));
  OK(mcp_http_server_config_set_http_sse(c, true, NULL, 0, S("/msg")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_http_sse(c, true, S("sse"), NULL, 0));
  OK(mcp_http_server_config_set_dns_rebinding_protection(c, true));
  OK(mcp_http_server_config_add_allowed_host(c, S("example.test")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_add_allowed_host(c, NULL, 0));
  OK(mcp_http_server_config_add_allowed_origin(c, S("https://app.example.test")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_add_allowed_origin(c, S("app")));
  OK(mcp_http_server_config_set_max_body_bytes(c, 1024));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_max_body_bytes(c, 0));
  OK(mcp_http_server_config_set_max_header_bytes(c, 8192));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_max_header_bytes(c, 8191));
  OK(mcp_http_server_config_set_max_headers(c, 10));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_max_headers(c, 0));
  OK(mcp_http_server_config_set_max_sessions(c, 4));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_max_sessions(c, 0));
  OK(mcp_http_server_config_set_session_idle_timeout_ms(c, 1000));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_session_idle_timeout_ms(c, 0));
  OK(mcp_http_server_config_set_sse_keepalive_ms(c, 500));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_http_server_config_set_sse_keepalive_ms(c, 0));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_config_set_max_sessions(NULL, 4));
  mcp_http_server_config_free(c);
  mcp_http_server_config_free(NULL);
  /* NULL handles of the running server. */
  CHECK(mcp_http_server_port(NULL) == 0);
  CHECK(mcp_http_server_local_addr(NULL).len == 0);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_stop(NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_http_server_wait(NULL));
  mcp_http_server_free(NULL);
}

static void client_config(void) {
  mcp_client_config *c = NULL;
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_config_new(NULL));
  OK(mcp_client_config_new(&c));
  OK(mcp_client_config_set_timeouts_ms(c, 1000, 5000, 200));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_timeouts_ms(c, 6000, 0, 0));
  OK(mcp_client_config_set_timeouts_ms(c, 0, 0, 0)); /* keeps everything */
  OK(mcp_client_config_set_limits(c, 4, 1 << 20));
  OK(mcp_client_config_set_log_level(c, MCP_LOG_WARNING));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_log_level(c, 99));
  OK(mcp_client_config_set_version(c, S("2026-07-28")));
  OK(mcp_client_config_set_version(c, S("2025-06-18")));
  OK(mcp_client_config_set_version(c, S("auto")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_version(c, S("latest")));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_client_config_set_version(c, BAD_UTF8, 2));
  OK(mcp_client_config_set_info_field(c, S("title"), S("\"C test\"")));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_client_config_set_info_field(c, S("name"), S("\"x\"")));
  EXPECT(MCP_STATUS_INVALID_JSON, mcp_client_config_set_info_field(c, S("title"), S("C test")));
  OK(mcp_client_config_set_capabilities(c, true, true));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_config_set_limits(NULL, 1, 1));

  mcp_client_builder *b = NULL;
  OK(mcp_client_builder_new(S("cfg"), S("1"), &b));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_builder_set_config(b, NULL));
  OK(mcp_client_builder_set_config(b, c));
  OK(mcp_client_builder_set_config(b, c)); /* replaces */
  mcp_client_config_free(c);
  mcp_client_config_free(NULL);

  /* Connecting with a bad URL consumes the builder and reports why. */
  mcp_runtime *rt = NULL;
  mcp_client *client = NULL;
  mcp_error *err = NULL;
  OK(mcp_runtime_new(1, &rt));
  mcp_header bad = {{"Bad Name", 8}, {"v", 1}};
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_builder_connect_http(b, rt, S("http://127.0.0.1:1/mcp"), NULL, 1, &client, &err));
  EXPECT(MCP_STATUS_INVALID_UTF8,
         mcp_client_builder_connect_http(b, rt, BAD_UTF8, 2, NULL, 0, &client, &err));
  EXPECT(MCP_STATUS_INVALID_ARGUMENT,
         mcp_client_builder_connect_http(b, rt, S("http://127.0.0.1:1/mcp"), &bad, 1, &client, &err));
  CHECK(err != NULL && mcp_error_status(err) == MCP_STATUS_INVALID_ARGUMENT);
  CHECK(view_has(mcp_error_message(err), "Bad Name"));
  mcp_error_free(err);
  err = NULL;
  EXPECT(MCP_STATUS_ALREADY_USED,
         mcp_client_builder_connect_http(b, rt, S("http://127.0.0.1:1/mcp"), NULL, 0, &client, &err));
  mcp_client_builder_free(b);

  OK(mcp_client_builder_new(S("cfg"), S("1"), &b));
  /* https is supported (rustls): a closed port is a transport error. */
  EXPECT(MCP_STATUS_TRANSPORT,
         mcp_client_builder_connect_http(b, rt, S("https://127.0.0.1:1/mcp"), NULL, 0, &client, &err));
  CHECK(mcp_error_message(err).len > 0);
  mcp_error_free(err);
  mcp_client_builder_free(b);
  CHECK(client == NULL);
  mcp_runtime_free(rt);
}

static int finalized;
static void count_free(void *p) {
  (void)p;
  finalized++;
}
static void never_cancel(void *p) { (void)p; }
static void never_notified(void *ud, mcp_str m, mcp_str p) { (void)ud, (void)m, (void)p; }

/* NULL handles of the new functions: an error status, and ownership of userdata honoured. */
static void null_handles(void) {
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_responder_on_cancel(NULL, never_cancel, NULL, count_free));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_subscribe(NULL, S("{\"toolsListChanged\":true}"), never_notified, NULL,
                              count_free, NULL, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_server_add_prompt(NULL, S("{\"name\":\"p\"}"), NULL, NULL, count_free, NULL));
  CHECK(finalized == 3);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_subscription_close(NULL));
  mcp_subscription_free(NULL);
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_remove_prompt(NULL, S("p"), NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_notify_resource_updated(NULL, S("a://b")));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_serve_http(NULL, NULL, NULL, NULL, NULL));
  CHECK(mcp_request_template_vars(NULL).len == 0);
}

int main(void) {
  json_helpers();
  null_handles();
  server_config();
  http_config();
  client_config();
  printf("config: ok\n");
  return 0;
}
