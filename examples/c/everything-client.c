/* everything-client in C, in two modes.
 *
 * Conformance mode (MCP_CONFORMANCE_SCENARIO set; what the official suite runs): connects to the URL
 * the harness appends (or spawns a server command over stdio), picks the era from
 * MCP_CONFORMANCE_PROTOCOL_VERSION and runs the named scenario; unknown scenarios exit 1 ("Unknown
 * scenario: NAME"). The auth/ scenarios authorize with OAuth 2.1 through an mcp_authorize_cb that
 * checks it runs off the main thread and answers with mcp_oauth_auto_redirect (the suite's
 * authorization servers redirect at once); pre-registered credentials (client_id, client_secret)
 * come from MCP_CONFORMANCE_CONTEXT, and servers that support client ID metadata documents get the
 * suite's URL. The OAuth extension scenarios set a grant that needs no user from the context
 * (client credentials with a secret or a private_key_jwt key, workload identity's JWT bearer,
 * enterprise-managed authorization; the callback must then never run), and the DPoP ones turn DPoP
 * on. The sep-2640-client-* scenarios list the skills and load each (its SKILL.md, then its other
 * files, every one verified by the library against the entry).
 *
 * Demo mode (no scenario): runs against examples/c/everything-server (stdio command or http:// URL):
 * lists, calls tools (an input round answered by the elicitation handler, progress through a
 * completion callback), reads resources, gets prompts, completes, and subscribes to tool-list
 * changes; prints "everything worked".
 *
 * Usage: everything-client SERVER-COMMAND [ARGS...] | everything-client [...] http://HOST:PORT/mcp
 * Build: cc -std=c11 everything-client.c $(pkg-config --cflags --libs mcp) -lpthread */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcp.h"

#define S(lit) lit, (sizeof(lit) - 1)

static int failures;

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

static char *take(mcp_string *s) {
  if (!s) return NULL;
  char *out = fmt("%s", mcp_string_data(s));
  mcp_string_free(s);
  return out;
}

static char *get(const char *json, const char *pointer) {
  mcp_string *v = NULL;
  if (mcp_json_get(json, strlen(json), pointer, strlen(pointer), &v) != MCP_STATUS_OK) return NULL;
  return take(v);
}

static char *str(const char *json, const char *pointer) {
  mcp_string *v = NULL;
  if (mcp_json_get_string(json, strlen(json), pointer, strlen(pointer), &v) != MCP_STATUS_OK)
    return NULL;
  return take(v);
}

/* Reports a failed call (and frees the error); returns 1 when `st` is a failure. */
static int failed(const char *what, mcp_status st, mcp_error *err) {
  if (st == MCP_STATUS_OK) return 0;
  mcp_str m = mcp_error_message(err);
  fprintf(stderr, "%s failed: %s (code %d): %.*s\n", what, mcp_status_describe(st),
          (int)mcp_error_code(err), (int)(err ? m.len : 0), err ? m.data : "");
  mcp_error_free(err);
  failures++;
  return 1;
}

/* ---- input handlers ---- */

/* A value of the property's type for a required field without a default. */
static char *placeholder(const char *params, const char *prop) {
  char ptr[256];
  snprintf(ptr, sizeof ptr, "/requestedSchema/properties/%s/enum/0", prop);
  char *v = get(params, ptr);
  if (v) return v;
  snprintf(ptr, sizeof ptr, "/requestedSchema/properties/%s/oneOf/0/const", prop);
  if ((v = get(params, ptr))) return v;
  snprintf(ptr, sizeof ptr, "/requestedSchema/properties/%s/type", prop);
  char *type = str(params, ptr);
  const char *out = "\"conformance\"";
  if (type && strcmp(type, "boolean") == 0) out = "true";
  if (type && (strcmp(type, "integer") == 0 || strcmp(type, "number") == 0)) out = "0";
  if (type && strcmp(type, "array") == 0) out = "[]";
  free(type);
  return fmt("%s", out);
}

/* Whether `prop` is listed in requestedSchema.required. */
static int required(const char *params, const char *prop) {
  char ptr[64];
  for (int i = 0;; i++) {
    snprintf(ptr, sizeof ptr, "/requestedSchema/required/%d", i);
    char *r = str(params, ptr);
    if (!r) return 0;
    int hit = strcmp(r, prop) == 0;
    free(r);
    if (hit) return 1;
  }
}

/* Accepts an elicitation form with every schema default filled in, and a placeholder for required
 * fields without one. Property names here are plain identifiers (no '/' or '~' to escape). */
static void on_elicitation(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  char *p = fmt("%.*s", (int)params.len, params.data);
  mcp_string *keys_s = NULL;
  char *content = fmt("{");
  if (mcp_json_keys(p, strlen(p), S("/requestedSchema/properties"), &keys_s) == MCP_STATUS_OK) {
    char *keys = take(keys_s);
    char ptr[256];
    for (int i = 0;; i++) {
      snprintf(ptr, sizeof ptr, "/%d", i);
      char *key = str(keys, ptr);
      if (!key) break;
      snprintf(ptr, sizeof ptr, "/requestedSchema/properties/%s/default", key);
      char *value = get(p, ptr);
      if (!value && required(p, key)) value = placeholder(p, key);
      if (value) {
        char *next = fmt("%s%s\"%s\":%s", content, content[1] ? "," : "", key, value);
        free(content);
        content = next;
      }
      free(value);
      free(key);
    }
    free(keys);
  }
  char *result = fmt("{\"action\":\"accept\",\"content\":%s}}", content);
  mcp_input_reply_result(reply, result, strlen(result));
  mcp_input_reply_free(reply);
  free(result);
  free(content);
  free(p);
}

static void on_sampling(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud, (void)params;
  mcp_input_reply_result(
      reply, S("{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"This is a canned "
               "answer from the libmcp C everything-client.\"},\"model\":\"libmcp-everything-"
               "client-c\",\"stopReason\":\"endTurn\"}"));
  mcp_input_reply_free(reply);
}

static void on_roots(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud, (void)params;
  mcp_input_reply_result(
      reply, S("{\"roots\":[{\"uri\":\"file:///tmp/libmcp-everything-client-c\",\"name\":\"Scratch\"}]}"));
  mcp_input_reply_free(reply);
}

/* ---- calls ---- */

/* tools/list: the JSON array of tools (free with free), or NULL after reporting the failure. */
static char *list_tools(mcp_client *c) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_list_tools(c, &out, &err);
  if (failed("tools/list", st, err)) return NULL;
  return take(out);
}

/* Calls a tool; a tool error (isError) counts as a failure. Returns the result JSON (free it). */
static char *call(mcp_client *c, const char *tool, const char *args) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_call_tool(c, tool, strlen(tool), args, strlen(args), &out, &err);
  char *what = fmt("tools/call %s", tool);
  int bad = failed(what, st, err);
  free(what);
  if (bad) return NULL;
  char *result = take(out);
  char *is_error = get(result, "/isError");
  if (is_error && strcmp(is_error, "true") == 0) {
    fprintf(stderr, "tools/call %s returned a tool error: %s\n", tool, result);
    failures++;
  }
  free(is_error);
  return result;
}

static void call_and_drop(mcp_client *c, const char *tool, const char *args) {
  free(call(c, tool, args));
}

/* ---- conformance scenarios ---- */

static const char *const SCENARIOS[] = {
    "initialize", "tools_call", "elicitation-sep1034-client-defaults", "request-metadata",
    "sep-2322-client-request-state", "json-schema-2020-12-preservation", "json-schema-ref-no-deref",
    "sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers", NULL};

/* The OAuth scenarios (authorization code with PKCE over HTTP). */
static const char *const AUTH_SCENARIOS[] = {
    "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
    "auth/basic-cimd", "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
    "auth/pre-registration", "auth/resource-mismatch", "auth/offline-access-scope",
    "auth/offline-access-not-supported", "auth/authorization-server-migration", "auth/iss-supported",
    "auth/iss-not-advertised", "auth/iss-supported-missing", "auth/iss-wrong-issuer",
    "auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
    "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/client-credentials-jwt", "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization", "auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer",
    NULL};

/* The OAuth extension scenarios whose grant needs no user (the authorization callback never runs). */
static const char *const GRANT_SCENARIOS[] = {
    "auth/client-credentials-jwt", "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization", "auth/wif-jwt-bearer", NULL};

/* The skills extension's client scenarios (SEP-2640). */
static const char *const SKILL_SCENARIOS[] = {
    "sep-2640-client-no-prefetch", "sep-2640-client-verify-digest", "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter", NULL};

static int in_list(const char *const *list, const char *scenario) {
  for (const char *const *s = list; *s; s++)
    if (strcmp(*s, scenario) == 0) return 1;
  return 0;
}

static int known(const char *scenario) {
  return in_list(SCENARIOS, scenario) || in_list(AUTH_SCENARIOS, scenario) ||
         in_list(SKILL_SCENARIOS, scenario);
}

/* ---- OAuth ---- */

/* The authorization callback's userdata: the runtime for mcp_oauth_auto_redirect, the main thread
 * (the callback must run elsewhere) and counters checked at exit. */
struct auth_state {
  mcp_runtime *rt;
  pthread_t main_thread;
  pthread_mutex_t mu;
  int calls;
  int on_main_thread;
  int freed;
};

static mcp_string *authorize(void *userdata, const char *url, size_t url_len) {
  struct auth_state *a = userdata;
  pthread_mutex_lock(&a->mu);
  a->calls++;
  if (pthread_equal(pthread_self(), a->main_thread)) a->on_main_thread++;
  pthread_mutex_unlock(&a->mu);
  if (url[url_len] != '\0') return NULL; /* the URL must come NUL-terminated */
  mcp_string *redirect = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_oauth_auto_redirect(a->rt, url, url_len, &redirect, &err);
  if (st != MCP_STATUS_OK) {
    mcp_str m = mcp_error_message(err);
    fprintf(stderr, "authorization at %s failed: %.*s\n", url, (int)m.len, m.data);
    mcp_error_free(err);
    return NULL; /* declines: the request that needed authorization fails */
  }
  return redirect;
}

static void auth_state_free(void *userdata) {
  struct auth_state *a = userdata;
  pthread_mutex_lock(&a->mu);
  a->freed++;
  pthread_mutex_unlock(&a->mu);
}

/* A string of the scenario context, or NULL (free with free). */
static char *context_str(const char *pointer) {
  const char *context = getenv("MCP_CONFORMANCE_CONTEXT");
  return context ? str(context, pointer) : NULL;
}

#define LEN(s) ((s) ? strlen(s) : 0)

/* Sets the grant of an OAuth extension scenario from the context (the fields the suite gives each);
 * returns nonzero when a field is missing or the library refused it. */
static int configure_grant(mcp_oauth_config *oauth, const char *scenario) {
  char *id = context_str("/client_id"), *secret = context_str("/client_secret");
  mcp_status st = MCP_STATUS_INVALID_ARGUMENT;
  if (!strcmp(scenario, "auth/client-credentials-basic")) {
    if (id && secret) st = mcp_oauth_config_set_grant_client_secret(oauth, id, strlen(id), secret,
                                                                    strlen(secret));
  } else if (!strcmp(scenario, "auth/client-credentials-jwt")) {
    char *pem = context_str("/private_key_pem"), *alg = context_str("/signing_algorithm");
    mcp_error *err = NULL;
    if (id && pem) {
      st = mcp_oauth_config_set_grant_private_key_jwt(oauth, id, strlen(id), pem, strlen(pem), alg,
                                                      LEN(alg), &err);
      failed("private_key_jwt", st, err);
    }
    free(pem);
    free(alg);
  } else if (!strcmp(scenario, "auth/wif-jwt-bearer")) {
    char *jwt = context_str("/valid_jwt");
    if (jwt) st = mcp_oauth_config_set_grant_jwt_bearer(oauth, id, LEN(id), jwt, strlen(jwt), false);
    free(jwt);
  } else if (!strcmp(scenario, "auth/enterprise-managed-authorization")) {
    char *endpoint = context_str("/idp_token_endpoint"), *idp_id = context_str("/idp_client_id");
    char *id_token = context_str("/idp_id_token");
    if (endpoint && idp_id && id_token && id)
      st = mcp_oauth_config_set_grant_enterprise_managed(
          oauth, endpoint, strlen(endpoint), idp_id, strlen(idp_id), NULL, 0, id_token,
          strlen(id_token), false, id, strlen(id), secret, LEN(secret));
    free(endpoint);
    free(idp_id);
    free(id_token);
  }
  if (st != MCP_STATUS_OK)
    fprintf(stderr, "everything-client: the grant of %s was not set: %s\n", scenario,
            mcp_status_describe(st));
  free(id);
  free(secret);
  return st != MCP_STATUS_OK;
}

/* Applies the conformance OAuth configuration of `scenario` to `config`; returns nonzero on
 * failure. */
static int configure_oauth(mcp_client_config *config, struct auth_state *a, const char *scenario) {
  mcp_oauth_config *oauth = NULL;
  if (mcp_oauth_config_new(S("libmcp-everything-client-c"), S("http://localhost:3000/callback"),
                           &oauth) != MCP_STATUS_OK)
    return 1;
  int bad = mcp_oauth_config_set_client_metadata_url(
                oauth, S("https://conformance-test.local/client-metadata.json")) != MCP_STATUS_OK;
  bad |= mcp_oauth_config_set_authorize_callback(oauth, authorize, a, auth_state_free) !=
         MCP_STATUS_OK;
  if (in_list(GRANT_SCENARIOS, scenario)) {
    bad |= configure_grant(oauth, scenario);
  } else {
    char *id = context_str("/client_id");
    char *secret = context_str("/client_secret");
    if (id) {
      bad |= mcp_oauth_config_set_client_credentials(oauth, id, strlen(id), secret, LEN(secret),
                                                     NULL, 0, NULL, 0) != MCP_STATUS_OK;
    }
    free(id);
    free(secret);
    bad |= mcp_oauth_config_set_dpop(oauth, strncmp(scenario, "auth/dpop", 9) == 0) !=
           MCP_STATUS_OK;
  }
  bad |= mcp_client_config_set_oauth(config, oauth) != MCP_STATUS_OK;
  mcp_oauth_config_free(oauth);
  return bad;
}

/* ---- skills ---- */

/* Reads the file `uri` of the skill `entry` (JSON); the library returns it only once it matches the
 * entry's size and digest (and, for SKILL.md, its frontmatter). Returns nonzero on failure. */
static int read_skill_file(mcp_client *c, const char *entry, const char *uri) {
  mcp_bytes *bytes = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_read_skill_file(c, entry, strlen(entry), uri, strlen(uri), &bytes, &err);
  char *what = fmt("reading skill file %s", uri);
  int bad = failed(what, st, err);
  free(what);
  if (!bad) {
    printf("%s: %zu bytes, verified\n", uri, mcp_bytes_len(bytes));
    mcp_bytes_free(bytes);
  }
  return bad;
}

/* Loads every skill: its SKILL.md, then its other listed files; the first that fails verification
 * ends the scenario (a client must not use content that does not match its entry). */
static void load_skills(mcp_client *c) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  if (failed("skills/list", mcp_client_list_skills(c, &out, &err), err)) return;
  char *skills = take(out);
  char ptr[64];
  int bad = 0;
  for (int i = 0; !bad; i++) {
    snprintf(ptr, sizeof ptr, "/%d", i);
    char *entry = get(skills, ptr);
    if (!entry) break;
    char *uri = str(entry, "/uri");
    bad = !uri || read_skill_file(c, entry, uri);
    for (int j = 0; !bad; j++) {
      snprintf(ptr, sizeof ptr, "/resources/%d/uri", j);
      char *file = str(entry, ptr);
      if (!file) break;
      if (strcmp(file, uri) != 0) bad = read_skill_file(c, entry, file);
      free(file);
    }
    free(uri);
    free(entry);
  }
  free(skills);
}

/* The version to pin: the harness's, except json-schema-ref-no-deref (a legacy-only mock). */
static const char *version_for(const char *scenario, const char *version) {
  if (strcmp(scenario, "json-schema-ref-no-deref") == 0)
    return version && strcmp(version, "2026-07-28") != 0 ? version : "2025-11-25";
  return version;
}

static void run_scenario(mcp_client *c, const char *name) {
  if (!strcmp(name, "initialize") || !strcmp(name, "json-schema-ref-no-deref")) {
    free(list_tools(c));
  } else if (!strcmp(name, "tools_call") || !strcmp(name, "http-standard-headers")) {
    free(list_tools(c));
    call_and_drop(c, "add_numbers", "{\"a\":5,\"b\":3}");
  } else if (!strcmp(name, "request-metadata")) {
    if (mcp_client_era(c) == MCP_ERA_MODERN) {
      mcp_string *out = NULL;
      mcp_error *err = NULL;
      mcp_status st = mcp_client_call(c, S("server/discover"), NULL, 0, 0, &out, &err);
      if (!failed("server/discover", st, err)) mcp_string_free(out);
    }
    free(list_tools(c));
    call_and_drop(c, "add_numbers", "{\"a\":5,\"b\":3}");
  } else if (!strcmp(name, "elicitation-sep1034-client-defaults")) {
    call_and_drop(c, "test_client_elicitation_defaults", "{}");
  } else if (!strcmp(name, "sse-retry")) {
    free(list_tools(c));
    call_and_drop(c, "test_reconnection", "{}");
  } else if (!strcmp(name, "sep-2322-client-request-state")) {
    free(list_tools(c));
    call_and_drop(c, "test_mrtr_echo_state", "{}");
    call_and_drop(c, "test_mrtr_unrelated", "{}");
    call_and_drop(c, "test_mrtr_no_state", "{}");
    call_and_drop(c, "test_mrtr_no_result_type", "{}");
  } else if (!strcmp(name, "json-schema-2020-12-preservation")) {
    char *tools = list_tools(c);
    char *schema = NULL;
    char ptr[64];
    for (int i = 0; tools && !schema; i++) {
      snprintf(ptr, sizeof ptr, "/%d/name", i);
      char *n = str(tools, ptr);
      if (!n) break;
      if (strcmp(n, "json_schema_2020_12_tool") == 0) {
        snprintf(ptr, sizeof ptr, "/%d/inputSchema", i);
        schema = get(tools, ptr);
      }
      free(n);
    }
    if (schema) {
      char *args = fmt("{\"schema\":%s}", schema);
      call_and_drop(c, "json_schema_echo", args);
      free(args);
    } else {
      fprintf(stderr, "json_schema_2020_12_tool is not listed\n");
      failures++;
    }
    free(schema);
    free(tools);
  } else if (!strcmp(name, "http-custom-headers")) {
    /* The transport learns each tool's x-mcp-header parameters from tools/list. */
    free(list_tools(c));
    const char *context = getenv("MCP_CONFORMANCE_CONTEXT");
    char ptr[64];
    for (int i = 0; context; i++) {
      snprintf(ptr, sizeof ptr, "/toolCalls/%d/name", i);
      char *tool = str(context, ptr);
      if (!tool) break;
      snprintf(ptr, sizeof ptr, "/toolCalls/%d/arguments", i);
      char *args = get(context, ptr);
      call_and_drop(c, tool, args ? args : "{}");
      free(args);
      free(tool);
    }
  } else if (!strcmp(name, "http-invalid-tool-headers")) {
    free(list_tools(c));
    call_and_drop(c, "valid_tool", "{}");
  } else if (!strcmp(name, "sep-2640-client-no-prefetch")) {
    /* Listing reads no skill file (files are read only when a skill is loaded). */
    mcp_string *out = NULL;
    mcp_error *err = NULL;
    if (!failed("skills/list", mcp_client_list_skills(c, &out, &err), err)) mcp_string_free(out);
  } else if (in_list(SKILL_SCENARIOS, name)) {
    load_skills(c);
  } else if (in_list(AUTH_SCENARIOS, name)) {
    /* The transport authorizes every request; a second request lets the step-up and migration
     * scenarios challenge again. */
    free(list_tools(c));
    call_and_drop(c, "test-tool", "{}");
  }
}

/* ---- demo mode against examples/c/everything-server ---- */

struct waiter {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int events;  /* notifications seen */
  int ended;   /* the final callback ran */
  int done;    /* the async call finished */
};

static void wait_until(struct waiter *w, int *field, int at_least) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 10;
  pthread_mutex_lock(&w->mu);
  while (*field < at_least)
    if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) != 0) break;
  pthread_mutex_unlock(&w->mu);
}

static void on_change(void *ud, mcp_str method, mcp_str params) {
  struct waiter *w = ud;
  printf("subscription: %s %.*s\n", method.len ? method.data : "(ended)", (int)params.len,
         params.data);
  pthread_mutex_lock(&w->mu);
  if (method.len) w->events++;
  else w->ended = 1;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static void on_progress(void *ud, double progress, bool has_total, double total, mcp_str message) {
  (void)ud, (void)message;
  printf("progress: %g/%g\n", progress, has_total ? total : 0.0);
}

static void on_done(void *ud, mcp_status st, mcp_string *result, mcp_error *error) {
  struct waiter *w = ud;
  if (!failed("test_tool_with_progress (callback)", st, error)) {
    printf("test_tool_with_progress: %s\n", mcp_string_data(result));
    mcp_string_free(result);
  }
  pthread_mutex_lock(&w->mu);
  w->done = 1;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

/* Prints a blocking call's result, or reports its failure. */
static void show(const char *what, mcp_status st, mcp_string *out, mcp_error *err) {
  if (failed(what, st, err)) return;
  printf("%s: %s\n", what, mcp_string_data(out));
  mcp_string_free(out);
}

static void expect_text(mcp_client *c, const char *tool, const char *needle) {
  char *r = call(c, tool, "{}");
  if (!r) return;
  printf("%s: %s\n", tool, r);
  if (!strstr(r, needle)) {
    fprintf(stderr, "%s: expected \"%s\"\n", tool, needle);
    failures++;
  }
  free(r);
}

static int over_http; /* demo mode: connected over Streamable HTTP */

static void demo(mcp_client *c) {
  mcp_string *out = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_server_info(c, &out);
  show("server", st, out, NULL);
  char *tools = list_tools(c);
  if (tools && !strstr(tools, "\"test_input_required_result_elicitation\"")) failures++;
  free(tools);
  expect_text(c, "test_simple_text", "This is a simple text response for testing.");
  /* An input round: the elicitation handler answers with the placeholder for "name". */
  expect_text(c, "test_input_required_result_elicitation", "Hello, conformance!");
  expect_text(c, "test_input_required_result_sampling", "canned answer");
  expect_text(c, "test_input_required_result_list_roots", "file:///tmp/libmcp-everything-client-c");
  /* SEP-1699: a legacy HTTP session resumes the closed stream; other transports keep it open. */
  expect_text(c, "test_reconnection",
              over_http && mcp_client_era(c) == MCP_ERA_LEGACY ? "delivered on the resumed stream"
                                                               : "Reconnection test completed");
  st = mcp_client_read_resource(c, S("test://template/42/data"), &out, &err);
  if (st == MCP_STATUS_OK && !strstr(mcp_string_data(out), "Data for ID: 42")) failures++;
  show("template", st, out, err);
  st = mcp_client_get_prompt(c, S("test_prompt_with_arguments"),
                             S("{\"arg1\":\"hello\",\"arg2\":\"world\"}"), &out, &err);
  show("prompt", st, out, err);
  st = mcp_client_complete(c, S("{\"type\":\"ref/prompt\",\"name\":\"test_prompt_with_arguments\"}"),
                           S("arg1"), S("he"), &out, &err);
  show("complete", st, out, err);

  struct waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};
  st = mcp_client_call_async(c, S("tools/call"), S("{\"name\":\"test_tool_with_progress\"}"), 0,
                             on_progress, on_done, &w, NULL);
  if (failed("call_async", st, NULL)) w.done = 1;
  wait_until(&w, &w.done, 1);

  mcp_subscription *sub = NULL;
  mcp_string *ack = NULL;
  st = mcp_client_subscribe(c, S("{\"toolsListChanged\":true}"), on_change, &w, NULL, &sub, &ack,
                            &err);
  if (failed("subscribe", st, err)) return;
  printf("subscribed: %s\n", mcp_string_data(ack));
  mcp_string_free(ack);
  expect_text(c, "test_trigger_tool_change", "Tool list changed");
  wait_until(&w, &w.events, 1);
  if (w.events < 1) {
    fprintf(stderr, "no notifications/tools/list_changed arrived\n");
    failures++;
  }
  mcp_subscription_close(sub);
  mcp_subscription_free(sub);
  if (!w.ended) {
    fprintf(stderr, "the subscription's final callback did not run\n");
    failures++;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SERVER-COMMAND [ARGS...] | http://HOST:PORT/mcp\n", argv[0]);
    return 2;
  }
  const char *scenario = getenv("MCP_CONFORMANCE_SCENARIO");
  if (scenario && !known(scenario)) {
    fprintf(stderr, "Unknown scenario: %s\n", scenario);
    return 1;
  }
  const char *last = argv[argc - 1];
  int http = strncmp(last, "http://", 7) == 0 || strncmp(last, "https://", 8) == 0;
  const char *version = getenv("MCP_CONFORMANCE_PROTOCOL_VERSION");
  if (!version) version = getenv("MCP_TEST_VERSION"); /* demo mode: pin an era */
  if (scenario) version = version_for(scenario, version);

  mcp_runtime *rt = NULL;
  mcp_client_builder *b = NULL;
  mcp_client_config *config = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  if (mcp_runtime_new(2, &rt) != MCP_STATUS_OK) return 1;
  mcp_client_builder_new(S("libmcp-everything-client-c"), S("1.0.0"), &b);
  mcp_client_config_new(&config);
  mcp_client_config_set_timeouts_ms(config, 30000, 0, 0);
  mcp_client_config_set_info_field(config, S("title"), S("\"libmcp C everything-client\""));
  if (version && mcp_client_config_set_version(config, version, strlen(version)) != MCP_STATUS_OK) {
    fprintf(stderr, "everything-client: unknown protocol version %s\n", version);
    return 2;
  }
  int auth = scenario && in_list(AUTH_SCENARIOS, scenario);
  static struct auth_state auth_state = {.mu = PTHREAD_MUTEX_INITIALIZER};
  auth_state.rt = rt;
  auth_state.main_thread = pthread_self();
  if (auth && (!http || configure_oauth(config, &auth_state, scenario))) {
    fprintf(stderr, "everything-client: cannot configure OAuth (an http:// URL is needed)\n");
    return 2;
  }
  mcp_client_builder_set_config(b, config);
  mcp_client_config_free(config);
  mcp_client_builder_on_elicitation(b, on_elicitation, NULL, NULL);
  mcp_client_builder_on_sampling(b, on_sampling, NULL, NULL);
  mcp_client_builder_on_roots(b, on_roots, NULL, NULL);
  mcp_status st;
  over_http = http;
  if (http) {
    st = mcp_client_builder_connect_http(b, rt, last, strlen(last), NULL, 0, &c, &err);
  } else {
    mcp_str args[32];
    size_t nargs = 0;
    for (int i = 2; i < argc && nargs < 32; i++, nargs++) {
      args[nargs].data = argv[i];
      args[nargs].len = strlen(argv[i]);
    }
    /* The server's stderr is shown as "[program] line" (by default it goes to the log callback). */
    (void)mcp_client_builder_set_child_stderr(b, MCP_CHILD_STDERR_FORWARD);
    st = mcp_client_builder_connect_stdio(b, rt, argv[1], strlen(argv[1]), args, nargs, &c, &err);
  }
  mcp_client_builder_free(b);
  if (failed("connect", st, err)) {
    mcp_runtime_free(rt);
    return 1;
  }
  if (scenario) run_scenario(c, scenario);
  else demo(c);
  mcp_client_free(c);
  mcp_runtime_free(rt);
  if (auth) {
    /* The callback ran off the main thread, and its userdata was released exactly once (the
     * runtime is gone, so every copy of the configuration is). */
    int grant = in_list(GRANT_SCENARIOS, scenario);
    if (auth_state.on_main_thread || auth_state.freed != 1 || (grant && auth_state.calls)) {
      fprintf(stderr, "authorization callback: %d calls, %d on the main thread, freed %d times\n",
              auth_state.calls, auth_state.on_main_thread, auth_state.freed);
      failures++;
    }
  }
  if (scenario) {
    fprintf(stderr, "everything-client: scenario %s %s\n", scenario, failures ? "failed" : "passed");
  } else {
    printf("%s\n", failures ? "some calls failed" : "everything worked");
  }
  return failures ? 1 : 0;
}
