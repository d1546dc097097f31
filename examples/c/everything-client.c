/* everything-client in C: spawns a server (argv[1..]), lists what it offers, calls each tool
 * (answering elicitation), reads resources, gets a prompt, asks for completions, and makes one call
 * with a completion callback.
 * Build: cc -std=c11 everything-client.c $(pkg-config --cflags --libs mcp) -lpthread
 * Run:   ./everything-client ./everything-server */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"

#define S(lit) lit, (sizeof(lit) - 1)

static int failures;

/* Prints a JSON result or the error, and frees both. */
static void show(const char *what, mcp_status st, mcp_string *out, mcp_error *err) {
  if (st == MCP_STATUS_OK) {
    printf("%s: %s\n", what, mcp_string_data(out));
  } else {
    mcp_str m = mcp_error_message(err);
    printf("%s failed: %s (code %d): %.*s\n", what, mcp_status_describe(st),
           (int)mcp_error_code(err), (int)m.len, m.data);
    failures++;
  }
  mcp_string_free(out);
  mcp_error_free(err);
}

static void on_elicitation(void *ud, mcp_str params, mcp_input_reply *reply) {
  (void)ud;
  printf("elicitation request: %.*s\n", (int)params.len, params.data);
  mcp_input_reply_result(reply, S("{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}"));
  mcp_input_reply_free(reply);
}

struct done {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int finished;
};

static void on_slow_progress(void *ud, double progress, bool has_total, double total,
                             mcp_str message) {
  (void)ud;
  printf("slow progress: %g/%g %.*s\n", progress, has_total ? total : 0.0, (int)message.len,
         message.data);
}

static void on_slow_done(void *ud, mcp_status st, mcp_string *result, mcp_error *error) {
  struct done *d = ud;
  show("slow (callback)", st, result, error);
  pthread_mutex_lock(&d->mu);
  d->finished = 1;
  pthread_cond_signal(&d->cv);
  pthread_mutex_unlock(&d->mu);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SERVER [ARGS...]\n", argv[0]);
    return 2;
  }
  mcp_runtime *rt = NULL;
  mcp_client_builder *b = NULL;
  mcp_client *c = NULL;
  mcp_error *err = NULL;
  mcp_string *out = NULL;
  if (mcp_runtime_new(0, &rt) != MCP_STATUS_OK) return 1;
  mcp_client_builder_new(S("everything-client-c"), S("1.0.0"), &b);
  mcp_client_builder_set_timeout_ms(b, 30000);
  mcp_client_builder_on_elicitation(b, on_elicitation, NULL, NULL);
  mcp_str args[32];
  size_t nargs = 0;
  for (int i = 2; i < argc && nargs < 32; i++, nargs++) {
    args[nargs].data = argv[i];
    args[nargs].len = strlen(argv[i]);
  }
  mcp_status st =
      mcp_client_builder_connect_stdio(b, rt, argv[1], strlen(argv[1]), args, nargs, &c, &err);
  mcp_client_builder_free(b);
  if (st != MCP_STATUS_OK) {
    show("connect", st, NULL, err);
    mcp_runtime_free(rt);
    return 1;
  }
  st = mcp_client_server_info(c, &out);
  show("server", st, out, NULL);
  st = mcp_client_list_tools(c, &out, &err);
  show("tools", st, out, err);
  st = mcp_client_list_resources(c, &out, &err);
  show("resources", st, out, err);
  st = mcp_client_list_prompts(c, &out, &err);
  show("prompts", st, out, err);

  st = mcp_client_call_tool(c, S("echo"), S("{\"text\":\"hello\"}"), &out, &err);
  show("echo", st, out, err);
  st = mcp_client_call_tool(c, S("ask_name"), NULL, 0, &out, &err);
  show("ask_name", st, out, err);
  st = mcp_client_call_tool(c, S("fail"), NULL, 0, &out, &err);
  show("fail (a tool error is a result)", st, out, err);
  st = mcp_client_read_resource(c, S("example://readme"), &out, &err);
  show("readme", st, out, err);
  st = mcp_client_read_resource(c, S("example://notes/7"), &out, &err);
  show("note 7", st, out, err);
  st = mcp_client_get_prompt(c, S("greet"), S("{\"who\":\"Ada\"}"), &out, &err);
  show("greet", st, out, err);
  st = mcp_client_complete(c, S("{\"type\":\"ref/prompt\",\"name\":\"greet\"}"), S("who"), S("A"),
                           &out, &err);
  show("complete", st, out, err);

  struct done d = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
  st = mcp_client_call_async(c, S("tools/call"), S("{\"name\":\"slow\"}"), 0, on_slow_progress,
                             on_slow_done, &d, NULL);
  if (st == MCP_STATUS_OK) {
    pthread_mutex_lock(&d.mu);
    while (!d.finished) pthread_cond_wait(&d.cv, &d.mu);
    pthread_mutex_unlock(&d.mu);
  } else {
    failures++;
  }
  mcp_client_free(c);
  mcp_runtime_free(rt);
  printf("%s\n", failures ? "some calls failed" : "everything worked");
  return failures ? 1 : 0;
}
