/* repl.c - the interactive session, after lua.c: a line is first tried as
 * `return <line>` so expressions print; incomplete chunks continue on a
 * second prompt; errors print with a traceback and the session goes on.
 * Readline (when built with it and stdin is a terminal) gives line editing,
 * a persistent history ($HOME/.lied_history) and tab completion; Ctrl-C stops
 * a running simulation or Lua loop, or clears the line. Commands: lied/repl.lua. */
#include "app/repl.h"
#include "binding/lua_lied.h"
#include <errno.h>
#include <lauxlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#ifdef LIED_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#define HISTORY_FILE ".lied_history"
#define HISTORY_LINES 1000

static volatile sig_atomic_t *repl_stop;   /* the simulation's stop flag */
static volatile sig_atomic_t got_sigint;   /* Ctrl-C seen (prompt or run) */
static volatile sig_atomic_t evaluating;   /* a chunk is running */
static lua_State *repl_L;
static int interactive;                    /* stdin is a terminal */
static long lines_read;                    /* input lines so far: the next is lines_read + 1 */
static int line_had_nul;                   /* the line read last held a NUL byte */

/* Marker returned by read_line when Ctrl-C discarded the line. */
static char interrupted_line[1];
#define INTERRUPTED interrupted_line

/* Lua hook set from the signal handler: stops a running Lua chunk unless a
 * simulation already consumed the Ctrl-C (it resets the flag and keeps its
 * rows). */
static int internal_error(const char *msg);
static void lstop(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lua_sethook(L, NULL, 0, 0);
  if (repl_stop && *repl_stop) {
    *repl_stop = 0;
    /* the position of the user's code ("stdin:3: interrupted!"), not of
     * lied's own Lua code the Ctrl-C landed in (load, set, lied.build,
     * linearize): that would read as an internal error, with a traceback
     * (issue 47) */
    luaL_where(L, 1);
    if (internal_error(lua_tostring(L, -1))) {
      lua_pop(L, 1);
      lua_pushliteral(L, "");
    }
    lua_pushliteral(L, "interrupted!");
    lua_concat(L, 2);
    lua_error(L);
  }
}

static void on_sigint(int sig) {
  (void)sig;
  got_sigint = 1;
  if (repl_stop) *repl_stop = 1;
  if (evaluating && repl_L)
    lua_sethook(repl_L, lstop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* ---- plain input (stdin not a terminal, or no readline) ------------------ */

static char *read_plain(const char *prompt) {
  if (interactive) {
    fputs(prompt, stdout);
    fflush(stdout);
  }
  size_t cap = 256, n = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  for (;;) {
    int c = getchar();
    if (c == EOF) {
      if (ferror(stdin) && errno == EINTR) {
        clearerr(stdin);
        if (got_sigint) {
          got_sigint = 0;
          free(buf);
          if (interactive) fputc('\n', stdout);
          return INTERRUPTED;
        }
        continue;
      }
      if (n == 0) {
        free(buf);
        return NULL;
      }
      break;
    }
    if (c == '\n') break;
    if (c == 0) line_had_nul = 1; /* kept: the REPL refuses the line whole (a C string would cut it) */
    if (n + 1 == cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        fputs("lied: out of memory reading a line\n", stderr);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    buf[n++] = (char)c;
  }
  buf[n] = 0;
  return buf;
}

/* ---- readline: callback interface, so Ctrl-C can clear the line ---------- */

#ifdef LIED_HAVE_READLINE
static char *line_result;
static int line_done;
static char *history_path;
static int history_ok;

static void on_line(char *line) {
  line_result = line;
  line_done = 1;
  rl_callback_handler_remove();
}

/* SIGINT is blocked except inside pselect, so a Ctrl-C always interrupts the
 * wait (no window between testing the flag and waiting). */
static char *read_rl(const char *prompt) {
  line_done = 0;
  line_result = NULL;
  got_sigint = 0;
  sigset_t block, orig;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &orig);
  rl_callback_handler_install(prompt, on_line);
  while (!line_done) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fileno(rl_instream), &fds);
    int r = pselect(fileno(rl_instream) + 1, &fds, NULL, NULL, NULL, &orig);
    if (r < 0 && errno == EINTR) {
      if (got_sigint) {
        got_sigint = 0;
        if (repl_stop) *repl_stop = 0;
        rl_free_line_state();
        rl_callback_sigcleanup();
        rl_callback_handler_remove();
        fputc('\n', rl_outstream);
        sigprocmask(SIG_SETMASK, &orig, NULL);
        return INTERRUPTED;
      }
      continue;
    }
    if (r < 0) {
      rl_callback_handler_remove();
      break;
    }
    rl_callback_read_char();
  }
  sigprocmask(SIG_SETMASK, &orig, NULL);
  return line_result;
}

/* History in $HOME/.lied_history; any failure only disables saving. */
static void history_open(void) {
  const char *home = getenv("HOME");
  stifle_history(HISTORY_LINES);
  if (!home || !*home) return;
  size_t n = strlen(home) + sizeof HISTORY_FILE + 2;
  history_path = malloc(n);
  if (!history_path) return;
  snprintf(history_path, n, "%s/%s", home, HISTORY_FILE);
  int rc = read_history(history_path);
  if (rc == ENOENT) rc = write_history(history_path); /* create it */
  history_ok = rc == 0;
}

static void history_add(const char *line) {
  if (!*line) return;
  HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
  if (last && strcmp(last->line, line) == 0) return;
  add_history(line);
  if (history_ok && append_history(1, history_path) != 0) history_ok = 0;
}

static void history_close(void) {
  if (history_ok) history_truncate_file(history_path, HISTORY_LINES);
  free(history_path);
  history_path = NULL;
}

/* Completion: lied.repl.complete(before, word, quote) in Lua. */
static char **cands;
static size_t ncands, next_cand;

static void free_cands(void) {
  for (size_t i = next_cand; i < ncands; i++) free(cands[i]);
  free(cands);
  cands = NULL;
  ncands = next_cand = 0;
}

static char *cand_generator(const char *text, int state) {
  (void)text;
  (void)state;
  if (next_cand < ncands) return cands[next_cand++]; /* readline frees it */
  return NULL;
}

static char **complete(const char *text, int start, int end) {
  (void)end;
  lua_State *L = repl_L;
  int top = lua_gettop(L);
  free_cands();
  rl_attempted_completion_over = 1;
  rl_completion_append_character = '\0';
  char quote[2] = {(char)rl_completion_quote_character, 0};
  lua_getfield(L, LUA_REGISTRYINDEX, "lied.repl");
  lua_getfield(L, -1, "complete");
  lua_pushlstring(L, rl_line_buffer, (size_t)start);
  lua_pushstring(L, text);
  lua_pushstring(L, quote);
  if (lua_pcall(L, 3, 2, 0) != LUA_OK || !lua_istable(L, -2)) {
    lua_settop(L, top);
    return NULL;
  }
  if (lua_isstring(L, -1) && strcmp(lua_tostring(L, -1), "files") == 0) {
    lua_settop(L, top);
    rl_attempted_completion_over = 0; /* readline completes file names */
    return NULL;
  }
  lua_Integer n = luaL_len(L, -2);
  cands = calloc((size_t)n + 1, sizeof *cands);
  for (lua_Integer i = 1; cands && i <= n; i++) {
    lua_rawgeti(L, -2, i);
    const char *s = lua_tostring(L, -1);
    if (s && (cands[ncands] = strdup(s)) != NULL) ncands++;
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  if (ncands == 0) return NULL;
  /* inside a string, a path that goes on (ends in . or [) keeps it open */
  if (quote[0] && ncands == 1) {
    char last = cands[0][strlen(cands[0]) - 1];
    if (last == '.' || last == '[') rl_completion_suppress_quote = 1;
  }
  char **m = rl_completion_matches(text, cand_generator);
  free_cands();
  return m;
}

static void readline_setup(void) {
  rl_readline_name = "lied";
  rl_catch_signals = 0; /* our handler: Ctrl-C clears the line */
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,+-*/%^~#[]}";
  rl_completer_quote_characters = "\"'";
  history_open();
}
#endif

static char *read_line(const char *prompt) {
  line_had_nul = 0;
  char *l;
#ifdef LIED_HAVE_READLINE
  if (interactive) {
    l = read_rl(prompt);
    if (l && l != INTERRUPTED) history_add(l);
  } else
#endif
    l = read_plain(prompt);
  if (l && l != INTERRUPTED) lines_read++;
  return l;
}

/* The message with every "stdin:S:K:" (line K of the chunk read from input
 * line S, as compile_chunk names chunks) written "stdin:L:", L = S + K - 1:
 * the line of the input, in messages and tracebacks, also of a function
 * defined on an earlier line (issue 47: errors named line 1 of whatever
 * chunk). Pushes the result. */
static const char *input_lines(lua_State *L, const char *msg) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (const char *p = msg; *p;) {
    const char *q = strstr(p, "stdin:");
    char *e1, *e2;
    long sl = 0, kl = 0;
    if (q) sl = strtol(q + 6, &e1, 10);
    if (q && e1 > q + 6 && *e1 == ':' && (kl = strtol(e1 + 1, &e2, 10), e2 > e1 + 1) && *e2 == ':') {
      luaL_addlstring(&b, p, (size_t)(q - p));
      lua_pushfstring(L, "stdin:%d:", (int)(sl + kl - 1));
      luaL_addvalue(&b);
      p = e2 + 1;
    } else {
      luaL_addstring(&b, p);
      break;
    }
  }
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* ---- evaluation ---------------------------------------------------------- */

/* Tracebacks are for lied's own faults and for debugging: with LIED_DEBUG
 * set, `debug = true` or `lied.debug = true` at the prompt, or when the
 * message points into lied's Lua sources ("lied/repl.lua:12:", an internal
 * error). A user's error (a lied error object, an error in the typed code,
 * a bad argument to a command) prints its message alone. */
static int debugging(lua_State *L) {
  const char *env = getenv("LIED_DEBUG");
  if (env && *env && strcmp(env, "0") != 0) return 1;
  lua_getglobal(L, "debug");
  int on = lua_isboolean(L, -1) && lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (lua_getglobal(L, "lied") == LUA_TTABLE) {
    lua_getfield(L, -1, "debug");
    on |= lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return on;
}

static int internal_error(const char *msg) {
  for (const char *p = strstr(msg, "lied/"); p; p = strstr(p + 1, "lied/")) {
    const char *q = p + 5;
    while ((*q >= 'a' && *q <= 'z') || *q == '_') q++;
    if (q > p + 5 && strncmp(q, ".lua:", 5) == 0 && q[5] >= '0' && q[5] <= '9') return 1;
  }
  return 0;
}

static int msghandler(lua_State *L) {
  const char *msg = lied_lua_errtext(L, 1);
  if (debugging(L) || internal_error(msg))
    luaL_traceback(L, L, msg, 1);
  else
    lua_pushstring(L, msg);
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

/* Values of an expression: lied.repl.show (tables as their contents), else
 * print. */
static void print_results(lua_State *L, int base) {
  int n = lua_gettop(L) - base;
  if (n <= 0) return;
  lua_getfield(L, LUA_REGISTRYINDEX, "lied.repl");
  if (lua_istable(L, -1) && lua_getfield(L, -1, "show") == LUA_TFUNCTION) {
    lua_remove(L, -2);
  } else {
    lua_pop(L, lua_istable(L, -2) ? 2 : 1);
    lua_getglobal(L, "print");
  }
  lua_insert(L, base + 1);
  if (lua_pcall(L, n, 0, 0) != LUA_OK)
    fprintf(stderr, "error calling print: %s\n", lied_lua_errtext(L, -1));
}

/* Compile the chunk that starts with `line` (reading continuation lines as
 * needed). Leaves the function (LUA_OK) or an error message on the stack;
 * returns -1 when Ctrl-C abandoned the chunk. An unfinished chunk at the end
 * of the input is a syntax error (its message on the stack), as in lua. */
/* A line with a NUL byte is refused whole, with its line number: read as
 * a C string it was cut at the NUL, and the rest of its chunk swallowed
 * the next line as a continuation (issue 47). Pushes the message. */
static void nul_line(lua_State *L) {
  lua_pushfstring(L, "stdin:%d: the line holds a NUL byte (lied reads lines of text): not run",
                  (int)lines_read);
}

static int compile_chunk(lua_State *L, char *line) {
  if (line_had_nul) {
    free(line);
    nul_line(L);
    return LUA_ERRSYNTAX;
  }
  char name[32]; /* "=stdin:S": its messages name input lines (input_lines) */
  snprintf(name, sizeof name, "=stdin:%ld", lines_read);
  lua_pushfstring(L, "return %s;", line);
  int st = luaL_loadbufferx(L, lua_tostring(L, -1), lua_rawlen(L, -1), name, "t");
  if (st == LUA_OK) {
    lua_remove(L, -2);
    free(line);
    return st;
  }
  lua_pop(L, 2);
  lua_pushstring(L, line);
  free(line);
  for (;;) {
    size_t len;
    const char *chunk = lua_tolstring(L, -1, &len);
    st = luaL_loadbufferx(L, chunk, len, name, "t"); /* source text only */
    if (!incomplete(L, st)) break;
    char *more = read_line(">> ");
    if (!more) break; /* end of input: the syntax error stands */
    lua_pop(L, 1);
    if (more == INTERRUPTED) {
      lua_pop(L, 1);
      return -1;
    }
    if (line_had_nul) { /* the chunk is abandoned with its line */
      free(more);
      lua_pop(L, 1);
      nul_line(L);
      return LUA_ERRSYNTAX;
    }
    lua_pushliteral(L, "\n");
    lua_pushstring(L, more);
    free(more);
    lua_concat(L, 3);
  }
  lua_remove(L, -2); /* the source */
  return st;
}

static int setup(lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lied");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) return -1;
  lua_setglobal(L, "lied");
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lied.repl");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) return -1;
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "lied.repl");
  lua_getfield(L, -1, "install");
  lua_pushglobaltable(L);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) return -1;
  lua_pop(L, 1);
  return 0;
}

/* Evaluate one line of input (the chunk it starts, its results printed, an
 * error on stderr; line is freed): 1 when it failed, -1 when Ctrl-C
 * abandoned the chunk, 0 when it ran. A Ctrl-C that came after the line was
 * read, or comes while it runs, interrupts the chunk (lstop). */
static int eval_line(lua_State *L, char *line, volatile sig_atomic_t *stop) {
  int base = lua_gettop(L);
  int st = compile_chunk(L, line);
  if (st < 0) {
    lua_settop(L, base);
    return -1;
  }
  if (st == LUA_OK) {
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base + 1);
    evaluating = 1;
    /* a Ctrl-C that came after the line was read interrupts the chunk */
    if (got_sigint) lua_sethook(L, lstop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    st = lua_pcall(L, 0, LUA_MULTRET, base + 1);
    evaluating = 0;
    lua_sethook(L, NULL, 0, 0);
    *stop = 0;
    got_sigint = 0;
    lua_remove(L, base + 1);
  }
  if (st == LUA_OK) {
    print_results(L, base);
  } else {
    fflush(stdout);
    fprintf(stderr, "%s\n", input_lines(L, lied_lua_errtext(L, -1)));
  }
  fflush(stdout);
  lua_settop(L, base);
  return st != LUA_OK;
}

int lied_repl(lua_State *L, volatile sig_atomic_t *stop) {
  repl_stop = stop;
  repl_L = L;
  interactive = isatty(STDIN_FILENO);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint; /* no SA_RESTART: reads return EINTR */
  sigaction(SIGINT, &sa, NULL);
  if (setup(L)) {
    fprintf(stderr, "lied: %s\n", lua_tostring(L, -1));
    return 1;
  }
#ifdef LIED_HAVE_READLINE
  if (interactive) readline_setup();
#endif
  if (interactive)
    printf("lied %s (%s): help() lists the commands; Ctrl-D quits\n", LIED_VERSION,
           LUA_VERSION);
  char *line;
  int failed = 0; /* without a terminal: a chunk failed (exit status 1) */
  got_sigint = 0;
  *stop = 0;
  for (;;) {
    line = read_line("> ");
    if (!line) break;
    if (line == INTERRUPTED) continue;
    if (eval_line(L, line, stop) > 0) failed = 1;
  }
#ifdef LIED_HAVE_READLINE
  if (interactive) history_close();
#endif
  if (interactive) putchar('\n');
  /* a piped session is a script: an error makes the exit status 1 */
  return !interactive && failed ? 1 : 0;
}
