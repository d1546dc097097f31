/* The C side of the cross-host test: every case of tests/hosts/expectations.json (the file the Rust,
 * Python and Node tests read too, path in argv[1]) run through the C ABI and compared with the answer
 * written there. A refusal is the status named for C in `kinds`, and its reason reaches the log
 * callback as "setting refused: <option>: <reason>". Run as "hosts serve" it is the C server of the
 * test (named hosts 1.0.0, the instructions of HOSTS_INSTRUCTIONS when set), which the client side
 * spawns. */
#define _DEFAULT_SOURCE /* realpath, nanosleep */
#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "check.h"

/* The expectations file, read whole. */
static char *doc;
static size_t doc_len;

static void load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  CHECK(fseek(f, 0, SEEK_END) == 0);
  long n = ftell(f);
  CHECK(n > 0);
  rewind(f);
  doc = malloc((size_t)n + 1);
  CHECK(doc != NULL);
  CHECK(fread(doc, 1, (size_t)n, f) == (size_t)n);
  doc[n] = '\0';
  doc_len = (size_t)n;
  fclose(f);
}

/* The string at `pointer` in the expectations (owned), or NULL when nothing is there. */
static mcp_string *get(const char *pointer) {
  mcp_string *out = NULL;
  mcp_status s = mcp_json_get_string(doc, doc_len, pointer, strlen(pointer), &out);
  if (s == MCP_STATUS_NOT_FOUND) return NULL;
  OK(s);
  return out;
}

/* The last message logged under the target "libmcp_ffi". */
static char last[1024];

static void on_log(void *ud, mcp_log_level level, mcp_str target, mcp_str message) {
  (void)ud, (void)level;
  if (target.len == strlen("libmcp_ffi") && memcmp(target.data, "libmcp_ffi", target.len) == 0) {
    snprintf(last, sizeof last, "%.*s", (int)message.len, message.data);
  }
}

/* The status a refusal of `kind` is on the C surface. */
static mcp_status status_of_kind(const char *kind) {
  char pointer[128];
  snprintf(pointer, sizeof pointer, "/kinds/%s/c", kind);
  mcp_string *name = get(pointer);
  CHECK(name != NULL);
  mcp_status s = strcmp(mcp_string_data(name), "MCP_STATUS_INVALID_ARGUMENT") == 0
                     ? MCP_STATUS_INVALID_ARGUMENT
                     : MCP_STATUS_OK;
  CHECK(s != MCP_STATUS_OK); /* a kind this test does not know */
  mcp_string_free(name);
  return s;
}

/* Checks one answer: `got` from a setter fed `input` against case `i`. */
static void check_answer(const char *section, int i, const char *input, mcp_status got) {
  char pointer[128];
  snprintf(pointer, sizeof pointer, "/%s/cases/%d/refused", section, i);
  mcp_string *kind = get(pointer);
  if (kind == NULL) {
    if (got != MCP_STATUS_OK) {
      fprintf(stderr, "%s %d (\"%s\"): refused with %s, expected accepted\n", section, i, input,
              mcp_status_describe(got));
      exit(1);
    }
    return;
  }
  EXPECT(status_of_kind(mcp_string_data(kind)), got);
  mcp_string_free(kind);
  snprintf(pointer, sizeof pointer, "/%s/option/c", section);
  mcp_string *option = get(pointer);
  snprintf(pointer, sizeof pointer, "/%s/cases/%d/reason", section, i);
  mcp_string *reason = get(pointer);
  CHECK(option != NULL && reason != NULL);
  char want[1024];
  snprintf(want, sizeof want, "setting refused: %s: %s", mcp_string_data(option),
           mcp_string_data(reason));
  if (strcmp(last, want) != 0) {
    fprintf(stderr, "%s %d: logged \"%s\", expected \"%s\"\n", section, i, last, want);
    exit(1);
  }
  mcp_string_free(option);
  mcp_string_free(reason);
}

/* version_preference: mcp_client_config_set_version and mcp_client_builder_set_protocol_version. */
static int version_preference(void) {
  int i = 0;
  for (;; i++) {
    char pointer[128];
    snprintf(pointer, sizeof pointer, "/version_preference/cases/%d/input", i);
    mcp_string *input = get(pointer);
    if (input == NULL) break;
    const char *text = mcp_string_data(input);

    mcp_client_config *config = NULL;
    OK(mcp_client_config_new(&config));
    last[0] = '\0';
    check_answer("version_preference", i, text,
                 mcp_client_config_set_version(config, text, mcp_string_len(input)));
    mcp_client_config_free(config);

    mcp_client_builder *builder = NULL;
    OK(mcp_client_builder_new(S("hosts"), S("1"), &builder));
    last[0] = '\0';
    check_answer("version_preference", i, text,
                 mcp_client_builder_set_protocol_version(builder, text, mcp_string_len(input)));
    mcp_client_builder_free(builder);
    mcp_string_free(input);
  }
  return i;
}

/* task_poll_interval: mcp_server_config_set_task_poll_interval_ms. */
static int task_poll_interval(void) {
  int i = 0;
  for (;; i++) {
    char pointer[128];
    snprintf(pointer, sizeof pointer, "/task_poll_interval/cases/%d/input", i);
    int64_t ms = -1;
    mcp_status s = mcp_json_get_int64(doc, doc_len, pointer, strlen(pointer), &ms);
    if (s == MCP_STATUS_NOT_FOUND) break;
    OK(s);
    CHECK(ms >= 0);
    char input[32];
    snprintf(input, sizeof input, "%lld", (long long)ms);
    mcp_server_config *config = NULL;
    OK(mcp_server_config_new(&config));
    last[0] = '\0';
    check_answer("task_poll_interval", i, input,
                 mcp_server_config_set_task_poll_interval_ms(config, (uint64_t)ms));
    mcp_server_config_free(config);
  }
  return i;
}

/* ---- the server ---- */

/* The value at `pointer` in `json`, compact (owned), or NULL when nothing is there. */
static mcp_string *value_at(const char *json, size_t len, const char *pointer);

/* The kit's name of a C level ("warn" for MCP_LOG_WARNING). */
static const char *level_name(mcp_log_level level) {
  switch (level) {
    case MCP_LOG_DEBUG: return "debug";
    case MCP_LOG_INFO: return "info";
    case MCP_LOG_WARNING: return "warn";
    case MCP_LOG_ERROR: return "error";
    default: return "other";
  }
}

/* The server's diagnostics, each one stderr line "diagnostic <level> <target> <message>" (tabs
 * between), which reaches the client's log callback as a libmcp::child_stderr line. */
static void to_stderr(void *ud, mcp_log_level level, mcp_str target, mcp_str message) {
  (void)ud;
  fprintf(stderr, "diagnostic\t%s\t%.*s\t%.*s\n", level_name(level), (int)target.len, target.data,
          (int)message.len, message.data);
  fflush(stderr);
}

/* The handler of tool_result case `ud` (its index): the outcome the case gives, as C answers it. */
static void tool_result_handler(void *ud, const mcp_request *request, mcp_responder *r) {
  (void)request;
  int i = (int)(intptr_t)ud;
  char pointer[128];
  snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/throws", i);
  mcp_string *throws = get(pointer);
  snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/returns", i);
  mcp_string *returns = value_at(doc, doc_len, pointer);
  if (throws != NULL) {
    OK(mcp_responder_tool_error(r, mcp_string_data(throws), mcp_string_len(throws)));
  } else if (strcmp(mcp_string_data(returns), "null") == 0) {
    OK(mcp_responder_nothing(r));
  } else if (mcp_string_data(returns)[0] == '"') {
    mcp_string *text = NULL;
    OK(mcp_json_get_string(mcp_string_data(returns), mcp_string_len(returns), "", 0, &text));
    OK(mcp_responder_text(r, mcp_string_data(text), mcp_string_len(text)));
    mcp_string_free(text);
  } else {
    /* A result the engine refuses says so here too; the diagnostic is what the test compares. */
    mcp_status st = mcp_responder_result(r, mcp_string_data(returns), mcp_string_len(returns));
    CHECK(st == MCP_STATUS_OK || st == MCP_STATUS_INVALID_RESULT);
  }
  mcp_string_free(throws);
  mcp_string_free(returns);
  mcp_responder_free(r);
}

/* Registers the tool of every tool_result case. */
static void add_tool_result_tools(mcp_server_builder *b) {
  for (int i = 0;; i++) {
    char pointer[128];
    snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/tool", i);
    mcp_string *name = get(pointer);
    if (name == NULL) return;
    snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/output_schema", i);
    mcp_string *schema = value_at(doc, doc_len, pointer);
    char definition[1024];
    snprintf(definition, sizeof definition, "{\"name\":\"%s\"%s%s}", mcp_string_data(name),
             schema ? ",\"outputSchema\":" : "", schema ? mcp_string_data(schema) : "");
    OK(mcp_server_builder_add_tool(b, definition, strlen(definition), tool_result_handler,
                                   (void *)(intptr_t)i, NULL));
    mcp_string_free(name);
    mcp_string_free(schema);
  }
}

static int serve(const char *expectations) {
  mcp_runtime *rt = NULL;
  mcp_server_builder *b = NULL;
  mcp_server *s = NULL;
  mcp_serve *serving = NULL;
  load(expectations);
  OK(mcp_set_log_callback(MCP_LOG_WARNING, to_stderr, NULL, NULL));
  OK(mcp_runtime_new(1, &rt));
  OK(mcp_server_builder_new(S("hosts"), S("1.0.0"), &b));
  add_tool_result_tools(b);
  const char *instructions = getenv("HOSTS_INSTRUCTIONS");
  if (instructions) OK(mcp_server_builder_instructions(b, instructions, strlen(instructions)));
  OK(mcp_server_builder_build(b, &s, NULL));
  mcp_server_builder_free(b);
  OK(mcp_server_serve_stdio(s, rt, &serving));
  OK(mcp_serve_wait(serving, NULL));
  mcp_serve_free(serving);
  mcp_server_free(s);
  mcp_runtime_free(rt);
  OK(mcp_set_log_callback(MCP_LOG_WARNING, NULL, NULL, NULL));
  free(doc);
  return 0;
}

/* ---- the client ---- */

/* A client of this program run as "hosts serve", pinned to `version`. */
/* The expectations file's absolute path, for the server this program runs as. */
static char expectations_path[PATH_MAX];

static mcp_client *connect_self(mcp_runtime *rt, const char *self, const char *version,
                                const char *instructions) {
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  mcp_str args[] = {MCP_STR_LIT("serve"), {expectations_path, strlen(expectations_path)}};
  OK(mcp_client_builder_new(S("hosts"), S("1"), &b));
  OK(mcp_client_builder_set_protocol_version(b, version, strlen(version)));
  if (instructions)
    OK(mcp_client_builder_add_child_env(b, S("HOSTS_INSTRUCTIONS"), instructions,
                                        strlen(instructions)));
  mcp_status st = mcp_client_builder_connect_stdio(b, rt, self, strlen(self), args, 2, &c, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  OK(st);
  mcp_client_builder_free(b);
  return c;
}

/* The value at `pointer` in `json`, compact (owned), or NULL when nothing is there. */
static mcp_string *value_at(const char *json, size_t len, const char *pointer) {
  mcp_string *out = NULL;
  mcp_status s = mcp_json_get(json, len, pointer, strlen(pointer), &out);
  if (s == MCP_STATUS_NOT_FOUND) return NULL;
  OK(s);
  return out;
}

/* How many items the JSON array `json` holds. */
static int array_len(const char *json, size_t len) {
  int n = 0;
  for (;; n++) {
    char pointer[32];
    snprintf(pointer, sizeof pointer, "/%d", n);
    mcp_string *item = value_at(json, len, pointer);
    if (item == NULL) return n;
    mcp_string_free(item);
  }
}

/* server_description: mcp_client_server_info against the C server. */
static int server_description(mcp_runtime *rt, const char *self) {
  int i = 0;
  for (;; i++) {
    char pointer[128];
    snprintf(pointer, sizeof pointer, "/server_description/cases/%d/protocol_version", i);
    mcp_string *version = get(pointer);
    if (version == NULL) break;
    snprintf(pointer, sizeof pointer, "/server_description/cases/%d/instructions", i);
    mcp_string *instructions = NULL;
    mcp_string *raw = value_at(doc, doc_len, pointer);
    CHECK(raw != NULL);
    if (strcmp(mcp_string_data(raw), "null") != 0) instructions = get(pointer);
    mcp_string_free(raw);

    mcp_client *c = connect_self(rt, self, mcp_string_data(version),
                                 instructions ? mcp_string_data(instructions) : NULL);
    mcp_string *got = NULL;
    OK(mcp_client_server_info(c, &got));
    const char *g = mcp_string_data(got);
    size_t g_len = mcp_string_len(got);

    /* The same keys: as many, and each of the expected ones present. */
    mcp_string *keys = value_at(doc, doc_len, "/server_description/keys");
    mcp_string *got_keys = NULL;
    OK(mcp_json_keys(g, g_len, S(""), &got_keys));
    int n = array_len(mcp_string_data(keys), mcp_string_len(keys));
    CHECK(n == array_len(mcp_string_data(got_keys), mcp_string_len(got_keys)));
    for (int k = 0; k < n; k++) {
      snprintf(pointer, sizeof pointer, "/server_description/keys/%d", k);
      mcp_string *key = get(pointer);
      char at[128];
      snprintf(at, sizeof at, "/%s", mcp_string_data(key));
      mcp_string *v = value_at(g, g_len, at);
      if (v == NULL) {
        fprintf(stderr, "server_description %d: no %s in %s\n", i, mcp_string_data(key), g);
        exit(1);
      }
      mcp_string_free(v);
      mcp_string_free(key);
    }
    mcp_string_free(keys);
    mcp_string_free(got_keys);

    /* The expected values, both re-serialized compactly by the same JSON writer. */
    snprintf(pointer, sizeof pointer, "/server_description/cases/%d/expected", i);
    mcp_string *expected = value_at(doc, doc_len, pointer);
    mcp_string *names = NULL;
    OK(mcp_json_keys(mcp_string_data(expected), mcp_string_len(expected), S(""), &names));
    int m = array_len(mcp_string_data(names), mcp_string_len(names));
    CHECK(m >= 4);
    for (int k = 0; k < m; k++) {
      char at[128];
      snprintf(at, sizeof at, "/%d", k);
      mcp_string *name = NULL;
      OK(mcp_json_get_string(mcp_string_data(names), mcp_string_len(names), at, strlen(at), &name));
      snprintf(at, sizeof at, "/%s", mcp_string_data(name));
      mcp_string *want = value_at(mcp_string_data(expected), mcp_string_len(expected), at);
      mcp_string *have = value_at(g, g_len, at);
      if (have == NULL || strcmp(mcp_string_data(want), mcp_string_data(have)) != 0) {
        fprintf(stderr, "server_description %d: %s is %s, expected %s\n", i, mcp_string_data(name),
                have ? mcp_string_data(have) : "(absent)", mcp_string_data(want));
        exit(1);
      }
      mcp_string_free(want);
      mcp_string_free(have);
      mcp_string_free(name);
    }
    mcp_string_free(names);
    mcp_string_free(expected);
    mcp_string_free(got);
    mcp_client_free(c);
    mcp_string_free(version);
    if (instructions) mcp_string_free(instructions);
  }
  return i;
}

/* The last diagnostic line of the server (its stderr line after "diagnostic\t"). */
static char served[2048];

static void on_child_log(void *ud, mcp_log_level level, mcp_str target, mcp_str message) {
  (void)ud, (void)level;
  const char *prefix = "diagnostic\t";
  if (target.len == strlen("libmcp::child_stderr") &&
      memcmp(target.data, "libmcp::child_stderr", target.len) == 0 &&
      message.len > strlen(prefix) && memcmp(message.data, prefix, strlen(prefix)) == 0) {
    snprintf(served, sizeof served, "%.*s", (int)(message.len - strlen(prefix)),
             message.data + strlen(prefix));
  }
}

/* Checks that the JSON value at `pointer` of `json` is `want` (compact, from the same writer). */
static void expect_at(const char *what, const char *json, size_t len, const char *pointer,
                      const char *want) {
  mcp_string *have = value_at(json, len, pointer);
  if (have == NULL ? want != NULL : want == NULL || strcmp(mcp_string_data(have), want) != 0) {
    fprintf(stderr, "%s: %s is %s, expected %s\n", what, pointer,
            have ? mcp_string_data(have) : "(absent)", want ? want : "(absent)");
    exit(1);
  }
  mcp_string_free(have);
}

/* tool_result: each case's tool of the C server called by the C client, in both eras. */
static int tool_result(mcp_runtime *rt, const char *self) {
  const char *versions[] = {"2026-07-28", "2025-11-25"};
  int n = 0;
  for (int v = 0; v < 2; v++) {
    mcp_client *c = connect_self(rt, self, versions[v], NULL);
    for (n = 0;; n++) {
      char pointer[128];
      snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/tool", n);
      mcp_string *tool = get(pointer);
      if (tool == NULL) break;
      char what[128];
      snprintf(what, sizeof what, "tool_result %s %s", versions[v], mcp_string_data(tool));
      mcp_string *out = NULL;
      mcp_error *err = NULL;
      served[0] = '\0';
      mcp_status st = mcp_client_call_tool(c, mcp_string_data(tool), mcp_string_len(tool), NULL,
                                           0, &out, &err);
      snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/error", n);
      mcp_string *error = value_at(doc, doc_len, pointer);
      if (error == NULL) {
        if (st != MCP_STATUS_OK) dump_error(what, err);
        OK(st);
        snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/expected", n);
        mcp_string *expected = value_at(doc, doc_len, pointer);
        const char *e = mcp_string_data(expected);
        size_t e_len = mcp_string_len(expected);
        mcp_string *content = value_at(e, e_len, "/content");
        mcp_string *is_error = value_at(e, e_len, "/isError");
        expect_at(what, mcp_string_data(out), mcp_string_len(out), "/content",
                  mcp_string_data(content));
        expect_at(what, mcp_string_data(out), mcp_string_len(out), "/isError",
                  is_error ? mcp_string_data(is_error) : NULL);
        mcp_string_free(content);
        mcp_string_free(is_error);
        mcp_string_free(expected);
        mcp_string_free(out);
      } else {
        EXPECT(MCP_STATUS_RPC_ERROR, st);
        int64_t code = 0;
        OK(mcp_json_get_int64(mcp_string_data(error), mcp_string_len(error), S("/code"), &code));
        CHECK(mcp_error_code(err) == code);
        mcp_string *message = NULL;
        OK(mcp_json_get_string(mcp_string_data(error), mcp_string_len(error), S("/message"),
                               &message));
        mcp_str got = mcp_error_message(err);
        if (got.len != mcp_string_len(message) || memcmp(got.data, mcp_string_data(message), got.len)) {
          fprintf(stderr, "%s: error %.*s, expected %s\n", what, (int)got.len, got.data,
                  mcp_string_data(message));
          exit(1);
        }
        mcp_string_free(message);
        mcp_error_free(err);
        /* The server's diagnostic, in C's shape: level, target and the flat text. */
        char want[2048];
        mcp_string *level = NULL, *target = NULL, *text = NULL;
        snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/diagnostic/level", n);
        level = get(pointer);
        snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/diagnostic/target", n);
        target = get(pointer);
        snprintf(pointer, sizeof pointer, "/tool_result/cases/%d/diagnostic/text", n);
        text = get(pointer);
        CHECK(level && target && text);
        /* The line arrives with the field of a child_stderr event, the program, appended. */
        snprintf(want, sizeof want, "%s\t%s\t%s program=%s", mcp_string_data(level),
                 mcp_string_data(target), mcp_string_data(text), self);
        /* The stderr line arrives on its own thread: wait for it (up to 5 s). */
        for (int tries = 0; strcmp(served, want) != 0 && tries < 500; tries++) {
          struct timespec ms10 = {0, 10 * 1000 * 1000};
          nanosleep(&ms10, NULL);
        }
        if (strcmp(served, want) != 0) {
          fprintf(stderr, "%s: diagnostic \"%s\", expected \"%s\"\n", what, served, want);
          exit(1);
        }
        mcp_string_free(level);
        mcp_string_free(target);
        mcp_string_free(text);
      }
      mcp_string_free(error);
      mcp_string_free(tool);
    }
    mcp_client_free(c);
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "serve") == 0) return serve(argv[2]);
  const char *path = argc > 1 ? argv[1] : "tests/hosts/expectations.json";
  load(path);
  CHECK(realpath(path, expectations_path) != NULL);
  char self[PATH_MAX];
  CHECK(realpath(argv[0], self) != NULL);
  OK(mcp_set_log_callback(MCP_LOG_DEBUG, on_log, NULL, NULL));
  int n = version_preference();
  CHECK(n >= 5); /* the cases were read */
  int p = task_poll_interval();
  CHECK(p >= 2);
  OK(mcp_set_log_callback(MCP_LOG_DEBUG, NULL, NULL, NULL));

  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(1, &rt));
  int d = server_description(rt, self);
  CHECK(d >= 2);
  OK(mcp_set_log_callback(MCP_LOG_INFO, on_child_log, NULL, NULL));
  int t = tool_result(rt, self);
  CHECK(t >= 3);
  OK(mcp_set_log_callback(MCP_LOG_INFO, NULL, NULL, NULL));
  mcp_runtime_free(rt);
  free(doc);
  printf("hosts: %d version_preference, %d server_description, %d task_poll_interval and %d "
         "tool_result cases as expected\n",
         n, d, p, t);
  return 0;
}
