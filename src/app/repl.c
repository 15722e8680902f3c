/* repl.c - the interactive session, after lua.c: a line is first tried as
 * `return <line>` so expressions print; incomplete chunks continue on a
 * second prompt; errors print with a traceback and the session goes on. */
#include "app/repl.h"
#include <lauxlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef LIED_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

static volatile sig_atomic_t *repl_stop;

static void on_sigint(int sig) {
  (void)sig;
  if (repl_stop) *repl_stop = 1;
}

/* Read one line with prompt; NULL at end of input. Caller frees. */
static char *read_line(const char *prompt) {
#ifdef LIED_HAVE_READLINE
  if (isatty(STDIN_FILENO)) return readline(prompt);
#endif
  if (isatty(STDIN_FILENO)) {
    fputs(prompt, stdout);
    fflush(stdout);
  }
  size_t cap = 256, n = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  int c;
  while ((c = getchar()) != EOF && c != '\n') {
    if (n + 1 == cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    buf[n++] = (char)c;
  }
  if (c == EOF && n == 0) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  return buf;
}

static int msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (!msg) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* Is the compile error an unfinished chunk? */
static int incomplete(lua_State *L, int status) {
  if (status != LUA_ERRSYNTAX) return 0;
  size_t len;
  const char *msg = lua_tolstring(L, -1, &len);
  const char *eof = "<eof>";
  size_t le = strlen(eof);
  return len >= le && strcmp(msg + len - le, eof) == 0;
}

static void print_results(lua_State *L, int base) {
  int n = lua_gettop(L) - base;
  if (n <= 0) return;
  lua_getglobal(L, "print");
  lua_insert(L, base + 1);
  if (lua_pcall(L, n, 0, 0) != LUA_OK)
    fprintf(stderr, "error calling print: %s\n", lua_tostring(L, -1));
}

int lied_repl(lua_State *L, volatile sig_atomic_t *stop) {
  repl_stop = stop;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, NULL);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lied");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    fprintf(stderr, "lied: %s\n", lua_tostring(L, -1));
    return 1;
  }
  lua_setglobal(L, "lied");
  if (isatty(STDIN_FILENO))
    printf("lied %s (%s) - Lua REPL with lied loaded; Ctrl-D quits\n", LIED_VERSION, LUA_VERSION);
  char *line;
  while ((line = read_line("> ")) != NULL) {
    int base = lua_gettop(L);
    luaL_Buffer b;
    (void)b;
    lua_pushstring(L, line);
#ifdef LIED_HAVE_READLINE
    if (*line && isatty(STDIN_FILENO)) add_history(line);
#endif
    free(line);
    /* try as an expression first */
    const char *src = lua_tostring(L, -1);
    lua_pushfstring(L, "return %s;", src);
    int st = luaL_loadbuffer(L, lua_tostring(L, -1), lua_rawlen(L, -1), "=stdin");
    if (st == LUA_OK) {
      lua_remove(L, -2); /* the return-string */
    } else {
      lua_pop(L, 2); /* error, return-string */
      for (;;) {
        size_t len;
        const char *chunk = lua_tolstring(L, -1, &len);
        st = luaL_loadbuffer(L, chunk, len, "=stdin");
        if (!incomplete(L, st)) break;
        lua_pop(L, 1);
        char *more = read_line(">> ");
        if (!more) break;
        lua_pushliteral(L, "\n");
        lua_pushstring(L, more);
        free(more);
        lua_concat(L, 3);
      }
    }
    /* stack: source, function-or-error */
    lua_remove(L, base + 1);
    if (st == LUA_OK) {
      lua_pushcfunction(L, msghandler);
      lua_insert(L, base + 1);
      *stop = 0;
      st = lua_pcall(L, 0, LUA_MULTRET, base + 1);
      lua_remove(L, base + 1);
    }
    if (st == LUA_OK) {
      print_results(L, base);
    } else {
      fprintf(stderr, "%s\n", lua_tostring(L, -1));
    }
    lua_settop(L, base);
  }
  if (isatty(STDIN_FILENO)) putchar('\n');
  return 0;
}
