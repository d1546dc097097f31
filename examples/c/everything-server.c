/* everything-server in C: tools (echo, slow with progress from a worker thread, ask_name with an
 * elicitation round, fail), a resource, a resource template, a prompt and completion, over stdio.
 * Build: cc -std=c11 everything-server.c $(pkg-config --cflags --libs mcp) -lpthread */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mcp.h"

#define S(lit) lit, (sizeof(lit) - 1)

/* Appends `in` to `out` as the inside of a JSON string; returns the length written. */
static size_t json_escape(const char *in, size_t len, char *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < len && n + 7 < cap; i++) {
    unsigned char c = (unsigned char)in[i];
    if (c == '"' || c == '\\') {
      out[n++] = '\\';
      out[n++] = (char)c;
    } else if (c < 0x20) {
      n += (size_t)snprintf(out + n, cap - n, "\\u%04x", c);
    } else {
      out[n++] = (char)c;
    }
  }
  out[n] = '\0';
  return n;
}

static void reply_text(mcp_responder *r, const char *text) {
  char escaped[4096], buf[4500];
  json_escape(text, strlen(text), escaped, sizeof escaped);
  int n = snprintf(buf, sizeof buf, "{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}", escaped);
  mcp_responder_result(r, buf, (size_t)n);
}

static void echo(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_str args = mcp_request_arguments(req);
  char text[4200];
  snprintf(text, sizeof text, "echo: %s", args.data);
  reply_text(r, text);
  mcp_responder_free(r);
}

static void *slow_worker(void *arg) {
  mcp_responder *r = arg;
  for (int i = 1; i <= 3; i++) {
    struct timespec ts = {0, 100000000L};
    nanosleep(&ts, NULL);
    mcp_responder_progress(r, i, true, 3, S("working"), NULL);
  }
  mcp_responder_log(r, MCP_LOG_INFO, S("everything-server"), S("\"slow finished\""), NULL);
  reply_text(r, "slow: done after 3 steps");
  mcp_responder_free(r);
  return NULL;
}

static void slow(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  pthread_t t;
  if (pthread_create(&t, NULL, slow_worker, r) != 0) {
    mcp_responder_error(r, -32603, S("cannot start a thread"), NULL, 0);
    mcp_responder_free(r);
    return;
  }
  pthread_detach(t);
}

static void ask_name(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  mcp_str answers = mcp_request_input_responses(req);
  if (answers.len == 0) {
    mcp_responder_input_required(
        r,
        S("{\"name\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
          "\"message\":\"What is your name?\",\"requestedSchema\":{\"type\":\"object\","
          "\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}}}}"),
        NULL, 0);
  } else {
    char text[2048];
    snprintf(text, sizeof text, "the client answered: %s", answers.data);
    reply_text(r, text);
  }
  mcp_responder_free(r);
}

static void fail(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder_tool_error(r, S("this tool always fails"));
  mcp_responder_free(r);
}

static void readme(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder_result(r, S("{\"contents\":[{\"uri\":\"example://readme\",\"mimeType\":"
                            "\"text/plain\",\"text\":\"An MCP server written in C.\"}]}"));
  mcp_responder_free(r);
}

static void note(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  char uri[1024], buf[2300];
  mcp_str u = mcp_request_uri(req);
  json_escape(u.data, u.len, uri, sizeof uri);
  int n = snprintf(buf, sizeof buf, "{\"contents\":[{\"uri\":\"%s\",\"text\":\"note at %s\"}]}",
                   uri, uri);
  mcp_responder_result(r, buf, (size_t)n);
  mcp_responder_free(r);
}

static void greet(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  char args[1024], buf[1400];
  mcp_str a = mcp_request_arguments(req);
  json_escape(a.data, a.len, args, sizeof args);
  int n = snprintf(buf, sizeof buf,
                   "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":"
                   "\"Please greet %s\"}}]}",
                   args);
  mcp_responder_result(r, buf, (size_t)n);
  mcp_responder_free(r);
}

static void complete(void *ud, const mcp_request *req, mcp_responder *r) {
  (void)ud;
  (void)req;
  mcp_responder_result(
      r, S("{\"completion\":{\"values\":[\"Ada\",\"Alan\",\"Grace\"],\"hasMore\":false}}"));
  mcp_responder_free(r);
}

static int check(mcp_status s, const char *what) {
  if (s != MCP_STATUS_OK) {
    fprintf(stderr, "everything-server: %s: %s\n", what, mcp_status_describe(s));
    return 1;
  }
  return 0;
}

#define TOOL(name, desc) \
  "{\"name\":\"" name "\",\"description\":\"" desc "\",\"inputSchema\":{\"type\":\"object\"}}"

int main(void) {
  mcp_runtime *rt = NULL;
  mcp_server_builder *b = NULL;
  mcp_server *server = NULL;
  mcp_serve *serve = NULL;
  mcp_error *err = NULL;
  if (check(mcp_runtime_new(0, &rt), "runtime")) return 1;
  if (check(mcp_server_builder_new(S("everything-server-c"), S("1.0.0"), &b), "builder")) return 1;
  int bad = 0;
  bad |= check(mcp_server_builder_instructions(b, S("Try every tool.")), "instructions");
  bad |= check(mcp_server_builder_add_tool(b, S(TOOL("echo", "Echoes its arguments")), echo, NULL, NULL), "echo");
  bad |= check(mcp_server_builder_add_tool(b, S(TOOL("slow", "Reports progress, then answers")), slow, NULL, NULL), "slow");
  bad |= check(mcp_server_builder_add_tool(b, S(TOOL("ask_name", "Asks the user for a name")), ask_name, NULL, NULL), "ask_name");
  bad |= check(mcp_server_builder_add_tool(b, S(TOOL("fail", "Always a tool error")), fail, NULL, NULL), "fail");
  bad |= check(mcp_server_builder_add_resource(b, S("{\"uri\":\"example://readme\",\"name\":\"readme\"}"), readme, NULL, NULL), "readme");
  bad |= check(mcp_server_builder_add_template(b, S("{\"uriTemplate\":\"example://notes/{id}\",\"name\":\"notes\"}"), note, NULL, NULL), "notes");
  bad |= check(mcp_server_builder_add_prompt(b, S("{\"name\":\"greet\",\"arguments\":[{\"name\":\"who\",\"required\":true}]}"), greet, NULL, NULL), "greet");
  bad |= check(mcp_server_builder_set_completion(b, complete, NULL, NULL), "completion");
  if (bad || mcp_server_builder_build(b, &server, &err) != MCP_STATUS_OK) {
    if (err) {
      mcp_str m = mcp_error_message(err);
      fprintf(stderr, "everything-server: %.*s\n", (int)m.len, m.data);
      mcp_error_free(err);
    }
    return 1;
  }
  mcp_server_builder_free(b);
  int rc = check(mcp_server_serve_stdio(server, rt, &serve), "serve");
  if (!rc) rc = check(mcp_serve_wait(serve, NULL), "serve");
  mcp_serve_free(serve);
  mcp_server_free(server);
  mcp_runtime_free(rt);
  return rc;
}
