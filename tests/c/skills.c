/* The skills extension (SEP-2640) through the C ABI, HTTP in one process, both eras: a C server
 * serving a skill (SKILL.md, a text file in a subdirectory and a binary file) read by a C client
 * (skills/list, skills/get, every file read back byte for byte through mcp_bytes), the client's
 * verification (a file the entry does not list, an entry whose size or digest does not match the
 * served bytes: MCP_STATUS_PROTOCOL, no bytes), and misuse: SKILL.md texts the core refuses
 * (MCP_STATUS_INVALID_ARGUMENT with the reason), bad file paths and collisions, a skill added
 * twice, two skills of one name failing the build, NULLs and bad JSON, a server without
 * skills, and skills added to, replaced on and removed from a server while it serves. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

static const char BAD_UTF8[] = {'\xff', '\xfe'};

static const char SKILL_MD[] =
    "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\n"
    "# PDF processing\n";
static const char FORMS_MD[] = "# Forms\n\nFill every field.\n";
/* Not UTF-8 (served as a base64 blob) and with a NUL inside. */
static const uint8_t LOGO[] = {0x89, 'P', 'N', 'G', 0x00, 0xff, 0x10};

/* Expects `st` to be `want` with an error whose message contains `needle`; frees the error. */
static void expect_error(mcp_status st, mcp_error *err, mcp_status want, const char *needle) {
  if (st != want || !err || !view_has(mcp_error_message(err), needle)) {
    fprintf(stderr, "expected status %d with \"%s\", got %d\n", (int)want, needle, (int)st);
    if (err) dump_error("error", err);
    exit(1);
  }
  CHECK(mcp_error_status(err) == want);
  mcp_error_free(err);
}

/* Runs `call` (which writes `err`), then expect_error: the call must come first, as C leaves the
 * order in which a function's arguments are evaluated unspecified. */
#define EXPECT_ERROR(want, needle, call)        \
  do {                                          \
    mcp_status st_ = (call);                    \
    expect_error(st_, err, (want), (needle));   \
    err = NULL;                                 \
  } while (0)

/* SKILL.md texts and files the core refuses, each with its own reason. */
static void bad_skills(void) {
  mcp_skill *s = NULL;
  mcp_error *err = NULL;
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "frontmatter",
               mcp_skill_new(S("# no frontmatter\n"), &s, &err));
  CHECK(s == NULL);
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "has no description",
               mcp_skill_new(S("---\nname: pdf-processing\n---\nbody\n"), &s, &err));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "breaks the naming rules",
               mcp_skill_new(S("---\nname: PDF_Tool\ndescription: d\n---\n"), &s, &err));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "has no string name",
               mcp_skill_new(S("---\ndescription: d\n---\n"), &s, &err));
  /* error_out may be NULL; misuse is caught before the text is looked at. */
  EXPECT(MCP_STATUS_INVALID_ARGUMENT, mcp_skill_new(S("nothing"), &s, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_skill_new(S(SKILL_MD), NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_skill_new(NULL, 4, &s, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_skill_new(BAD_UTF8, 2, &s, NULL));
  CHECK(s == NULL);

  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "invalid file path",
               mcp_skill_add_file(s, S("../secrets"), S("text/plain"), NULL, 0, &err));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "invalid file path",
               mcp_skill_add_file(s, S("a//b"), S("text/plain"), NULL, 0, &err));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "collides with another file",
               mcp_skill_add_file(s, S("SKILL.md"), S("text/markdown"), NULL, 0, &err));
  OK(mcp_skill_add_file(s, S("references"), S("text/plain"), NULL, 0, NULL));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "collides with another file",
               mcp_skill_add_file(s, S("references/FORMS.md"), S("text/markdown"), NULL, 0, &err));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_skill_add_file(s, S("x"), S("text/plain"), NULL, 3, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_skill_add_file(NULL, S("x"), S("text/plain"), NULL, 0, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_skill_add_file(s, BAD_UTF8, 2, S("text/plain"), NULL, 0, NULL));

  /* Added once; the handle is then spent, and the builder keeps the skill. */
  mcp_server_builder *b = NULL;
  OK(mcp_server_builder_new(S("skills-misuse"), S("1.0"), &b));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_add_skill(b, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_builder_add_skill(NULL, s));
  OK(mcp_server_builder_add_skill(b, s));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_add_skill(b, s));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_skill_add_file(s, S("x"), S("text/plain"), NULL, 0, NULL));
  mcp_skill_free(s);
  /* A second skill of the same name: its URIs are taken, so the build fails naming one. */
  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  OK(mcp_server_builder_add_skill(b, s));
  mcp_skill_free(s);
  mcp_server *server = NULL;
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "skill://pdf-processing/SKILL.md",
               mcp_server_builder_build(b, &server, &err));
  CHECK(server == NULL);
  /* Built (if only into a failure): adding now is too late. */
  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_builder_add_skill(b, s));
  OK(mcp_skill_add_file(s, S("still/usable.txt"), S("text/plain"), (const uint8_t *)"x", 1, NULL));
  mcp_skill_free(s);
  mcp_server_builder_free(b);
  mcp_skill_free(NULL);
}

static mcp_server *skills_server(void) {
  mcp_server_builder *b = NULL;
  mcp_skill *s = NULL;
  mcp_server *server = NULL;
  OK(mcp_server_builder_new(S("skills-test-server"), S("1.0"), &b));
  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  OK(mcp_skill_add_file(s, S("references/FORMS.md"), S("text/markdown"), (const uint8_t *)FORMS_MD,
                        sizeof FORMS_MD - 1, NULL));
  OK(mcp_skill_add_file(s, S("assets/logo.png"), S("image/png"), LOGO, sizeof LOGO, NULL));
  OK(mcp_server_builder_add_skill(b, s));
  mcp_skill_free(s);
  OK(mcp_server_builder_build(b, &server, NULL));
  mcp_server_builder_free(b);
  return server;
}

static mcp_client *connect(mcp_runtime *rt, const char *url, const char *version) {
  mcp_client_builder *b = NULL;
  mcp_client_config *cfg = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  OK(mcp_client_builder_new(S("skills-test"), S("1.0"), &b));
  OK(mcp_client_config_new(&cfg));
  OK(mcp_client_config_set_version(cfg, version, strlen(version)));
  OK(mcp_client_builder_set_config(b, cfg));
  mcp_client_config_free(cfg);
  mcp_status st = mcp_client_builder_connect_http(b, rt, url, strlen(url), NULL, 0, &c, &err);
  if (st != MCP_STATUS_OK) dump_error("connect", err);
  EXPECT(MCP_STATUS_OK, st);
  mcp_client_builder_free(b);
  return c;
}

/* Reads `uri` of `entry` and checks the bytes are `want`. */
static void read_back(mcp_client *c, const char *entry, const char *uri, const void *want, size_t n) {
  mcp_bytes *bytes = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_read_skill_file(c, entry, strlen(entry), uri, strlen(uri), &bytes, &err);
  if (st != MCP_STATUS_OK) dump_error(uri, err);
  EXPECT(MCP_STATUS_OK, st);
  CHECK(mcp_bytes_len(bytes) == n && memcmp(mcp_bytes_data(bytes), want, n) == 0);
  mcp_bytes_free(bytes);
}

/* Expects reading `uri` of `entry` to fail verification. */
static void unverified(mcp_client *c, const char *entry, const char *uri, const char *needle) {
  mcp_bytes *bytes = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_read_skill_file(c, entry, strlen(entry), uri, strlen(uri), &bytes, &err);
  CHECK(st == MCP_STATUS_PROTOCOL && bytes == NULL && view_has(mcp_error_message(err), needle));
  expect_error(st, err, MCP_STATUS_PROTOCOL, "skill verification failed");
}

/* `entry` with the first hex digit of its first digest changed (free with free). */
static char *flip_digest(const char *entry) {
  char *out = malloc(strlen(entry) + 1);
  CHECK(out != NULL);
  strcpy(out, entry);
  char *at = strstr(out, "\"digest\":\"sha256:");
  CHECK(at != NULL);
  at += strlen("\"digest\":\"sha256:");
  *at = *at == '0' ? '1' : '0';
  return out;
}

/* `entry` with the first occurrence of `from` replaced by `to` (free with free). */
static char *tampered(const char *entry, const char *from, const char *to) {
  const char *at = strstr(entry, from);
  if (!at) fprintf(stderr, "no %s in %s\n", from, entry);
  CHECK(at != NULL);
  size_t head = (size_t)(at - entry), n = strlen(entry) - strlen(from) + strlen(to);
  char *out = malloc(n + 1);
  CHECK(out != NULL);
  memcpy(out, entry, head);
  strcpy(out + head, to);
  strcat(out, at + strlen(from));
  return out;
}

static void exercise(mcp_runtime *rt, const char *url, const char *version) {
  mcp_client *c = connect(rt, url, version);
  mcp_string *list = NULL, *got = NULL, *entry = NULL;
  mcp_error *err = NULL;
  OK(mcp_client_list_skills(c, &list, &err));
  /* One skill: its SKILL.md URI, frontmatter, and three listed files with sizes and digests. */
  OK(mcp_json_get(mcp_string_data(list), mcp_string_len(list), S("/0"), &entry));
  mcp_string *v = NULL;
  CHECK(mcp_json_get(mcp_string_data(list), mcp_string_len(list), S("/1"), &v) ==
        MCP_STATUS_NOT_FOUND);
  const char *e = mcp_string_data(entry);
  OK(mcp_json_get_string(e, strlen(e), S("/uri"), &v));
  CHECK(strcmp(mcp_string_data(v), "skill://pdf-processing/SKILL.md") == 0);
  mcp_string_free(v);
  OK(mcp_json_get_string(e, strlen(e), S("/frontmatter/description"), &v));
  CHECK(strcmp(mcp_string_data(v), "Extract, fill, and assemble PDF documents") == 0);
  mcp_string_free(v);
  int64_t size = 0;
  OK(mcp_json_get_int64(e, strlen(e), S("/resources/2/size"), &size));
  CHECK(size == (int64_t)sizeof LOGO);
  OK(mcp_json_get_string(e, strlen(e), S("/resources/0/digest"), &v));
  CHECK(strncmp(mcp_string_data(v), "sha256:", 7) == 0 && mcp_string_len(v) == 7 + 64);
  mcp_string_free(v);

  /* skills/get gives the same entry. */
  OK(mcp_client_get_skill(c, S("skill://pdf-processing/SKILL.md"), &got, &err));
  CHECK(strcmp(mcp_string_data(got), e) == 0);
  mcp_string_free(got);
  err = NULL;
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_get_skill(c, S("skill://nope/SKILL.md"), &got, &err));
  CHECK(mcp_error_code(err) != 0);
  mcp_error_free(err);

  /* Every file, verified, byte for byte (the binary one came as a blob). */
  read_back(c, e, "skill://pdf-processing/SKILL.md", SKILL_MD, sizeof SKILL_MD - 1);
  read_back(c, e, "skill://pdf-processing/references/FORMS.md", FORMS_MD, sizeof FORMS_MD - 1);
  read_back(c, e, "skill://pdf-processing/assets/logo.png", LOGO, sizeof LOGO);

  /* Verification: an unlisted file, a size and a digest that do not match what is served. */
  char *unlisted = tampered(e, "references/FORMS.md\"", "references/OTHER.md\"");
  unverified(c, unlisted, "skill://pdf-processing/references/FORMS.md", "is not listed in the entry");
  free(unlisted);
  char buf[32];
  snprintf(buf, sizeof buf, "\"size\":%d,", (int)sizeof LOGO); /* the other sizes have 2+ digits */
  char *wrong_size = tampered(e, buf, "\"size\":6,");
  unverified(c, wrong_size, "skill://pdf-processing/assets/logo.png", "7 bytes read, the entry says 6");
  free(wrong_size);
  char *wrong_digest = flip_digest(e);
  unverified(c, wrong_digest, "skill://pdf-processing/SKILL.md", "does not match the entry's");
  free(wrong_digest);

  /* Misuse. */
  mcp_bytes *bytes = NULL;
  EXPECT(MCP_STATUS_INVALID_JSON,
         mcp_client_read_skill_file(c, S("{\"uri\":1}"), S("skill://a/SKILL.md"), &bytes, NULL));
  EXPECT(MCP_STATUS_INVALID_JSON,
         mcp_client_read_skill_file(c, S("not json"), S("skill://a/SKILL.md"), &bytes, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_read_skill_file(c, e, strlen(e), S("skill://a/SKILL.md"), NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER,
         mcp_client_read_skill_file(NULL, e, strlen(e), S("skill://a/SKILL.md"), &bytes, NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_client_get_skill(c, BAD_UTF8, 2, &got, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_list_skills(c, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_client_list_skills(NULL, &list, NULL));
  CHECK(bytes == NULL);
  CHECK(mcp_bytes_len(NULL) == 0 && mcp_bytes_data(NULL) != NULL);
  mcp_bytes_free(NULL);

  mcp_string_free(entry);
  mcp_string_free(list);
  mcp_client_free(c);
}

/* Serves `server` over HTTP on a free loopback port; writes its /mcp URL to `url`. */
static mcp_http_server *serve(mcp_runtime *rt, const mcp_server *server, char *url, size_t cap) {
  mcp_http_server_config *hc = NULL;
  mcp_http_server *http = NULL;
  OK(mcp_http_server_config_new(&hc));
  OK(mcp_http_server_config_set_bind(hc, S("127.0.0.1:0")));
  OK(mcp_server_serve_http(server, rt, hc, &http, NULL));
  mcp_http_server_config_free(hc);
  snprintf(url, cap, "http://127.0.0.1:%u/mcp", (unsigned)mcp_http_server_port(http));
  return http;
}

static void stop(mcp_http_server *http, mcp_server *server) {
  OK(mcp_http_server_stop(http));
  mcp_http_server_free(http);
  mcp_server_free(server);
}

/* A server without skills: listing them is the server's error (method not found). */
static void no_skills(mcp_runtime *rt, const char *version) {
  mcp_server *server = tool_server("no-skills", NULL, 0);
  char url[64];
  mcp_http_server *http = serve(rt, server, url, sizeof url);
  mcp_client *c = connect(rt, url, version);
  mcp_string *list = NULL;
  mcp_error *err = NULL;
  EXPECT(MCP_STATUS_RPC_ERROR, mcp_client_list_skills(c, &list, &err));
  CHECK(mcp_error_code(err) == -32601 && list == NULL);
  mcp_error_free(err);
  mcp_client_free(c);
  stop(http, server);
}

static void clash_resource(void *ud, const mcp_request *q, mcp_responder *r) {
  (void)ud;
  (void)q;
  OK(mcp_responder_result(r, S("{\"contents\":[{\"uri\":\"skill://clash/SKILL.md\",\"text\":\"mine\"}]}")));
  mcp_responder_free(r);
}

/* The names `skills/list` gives, as JSON text (the caller frees it), or NULL with -32601. */
static mcp_string *listed(mcp_client *c) {
  mcp_string *list = NULL;
  mcp_error *err = NULL;
  mcp_status st = mcp_client_list_skills(c, &list, &err);
  if (st == MCP_STATUS_RPC_ERROR) {
    CHECK(mcp_error_code(err) == -32601 && list == NULL);
    mcp_error_free(err);
    return NULL;
  }
  EXPECT(MCP_STATUS_OK, st);
  return list;
}

/* Skills added to and removed from a built server while it serves: one added, replaced by a
 * second version, a clashing one refused (and still usable), then removed. */
static void runtime_skills(mcp_runtime *rt, const char *version) {
  mcp_server *server = tool_server("runtime-skills", NULL, 0);
  mcp_error *err = NULL;
  OK(mcp_server_add_resource(server, S("{\"uri\":\"skill://clash/SKILL.md\",\"name\":\"mine\"}"), clash_resource,
                             NULL, NULL, NULL));
  char url[64];
  mcp_http_server *http = serve(rt, server, url, sizeof url);
  mcp_client *c = connect(rt, url, version);
  CHECK(listed(c) == NULL);

  mcp_skill *s = NULL;
  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  OK(mcp_skill_add_file(s, S("references/FORMS.md"), S("text/markdown"), (const uint8_t *)FORMS_MD,
                        sizeof FORMS_MD - 1, NULL));
  OK(mcp_server_add_skill(server, s, &err));
  EXPECT(MCP_STATUS_ALREADY_USED, mcp_server_add_skill(server, s, NULL));
  mcp_skill_free(s);
  mcp_string *list = listed(c);
  CHECK(list != NULL && has(list, "skill://pdf-processing/references/FORMS.md"));
  mcp_string_free(list);

  /* The same name again replaces the skill: FORMS.md is gone. */
  OK(mcp_skill_new(S(SKILL_MD), &s, NULL));
  OK(mcp_server_add_skill(server, s, NULL));
  mcp_skill_free(s);
  list = listed(c);
  CHECK(list != NULL && has(list, "skill://pdf-processing/SKILL.md") && !has(list, "FORMS.md"));
  mcp_string_free(list);

  /* A file URI another resource has: refused, the skill keeps its contents. */
  OK(mcp_skill_new(S("---\nname: clash\ndescription: Clashes\n---\n"), &s, NULL));
  EXPECT_ERROR(MCP_STATUS_INVALID_ARGUMENT, "skill://clash/SKILL.md", mcp_server_add_skill(server, s, &err));
  OK(mcp_skill_add_file(s, S("still/usable.txt"), S("text/plain"), (const uint8_t *)"x", 1, NULL));
  mcp_skill_free(s);
  list = listed(c);
  CHECK(list != NULL && !has(list, "clash"));
  mcp_string_free(list);

  bool removed = false;
  OK(mcp_server_remove_skill(server, S("pdf-processing"), &removed));
  CHECK(removed);
  OK(mcp_server_remove_skill(server, S("pdf-processing"), &removed));
  CHECK(!removed);
  OK(mcp_server_remove_skill(server, S("pdf-processing"), NULL));
  CHECK(listed(c) == NULL);

  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_add_skill(NULL, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_add_skill(server, NULL, NULL));
  EXPECT(MCP_STATUS_NULL_PARAMETER, mcp_server_remove_skill(NULL, S("x"), NULL));
  EXPECT(MCP_STATUS_INVALID_UTF8, mcp_server_remove_skill(server, BAD_UTF8, sizeof BAD_UTF8, NULL));
  mcp_client_free(c);
  stop(http, server);
}

int main(void) {
  bad_skills();
  mcp_runtime *rt = NULL;
  OK(mcp_runtime_new(2, &rt));
  mcp_server *server = skills_server();
  char url[64];
  mcp_http_server *http = serve(rt, server, url, sizeof url);
  exercise(rt, url, "2026-07-28");
  exercise(rt, url, "2025-11-25");
  stop(http, server);
  no_skills(rt, "2026-07-28");
  no_skills(rt, "2025-11-25");
  runtime_skills(rt, "2026-07-28");
  runtime_skills(rt, "2025-11-25");
  mcp_runtime_free(rt);
  printf("skills: ok\n");
  return 0;
}
