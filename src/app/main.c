/* main.c - the lied command: dispatches to the Lua CLI (lua/lied/cli.lua)
 * or starts the REPL. Exit status 0 success, 1 model/simulation error, 2 usage. */
#include <lauxlib.h>
#include <lualib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "app/repl.h"
#include "dist/dist.h"
#include "binding/lua_lied.h"

static volatile sig_atomic_t stop_requested, stop_signal;

/* First Ctrl-C (or SIGTERM, SIGHUP) asks the running simulation to stop: it
 * ends at a whole row, the outputs are completed; a second one kills. The
 * flag is 128 + the signal: lua_run.c keeps it pending for the run that
 * starts after it (a signal while the model loads stops the run at once; the
 * REPL's own handler sets 1, which a run forgets). */
static void on_sigint(int sig) {
  if (stop_requested) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  stop_requested = 128 + sig;
  stop_signal = sig;
}

/* Message handler for errors outside cli.main's own (which reports them):
 * the message (an error object's __tostring) and the traceback. */
static int traceback(lua_State *L) {
  luaL_traceback(L, L, lied_lua_errtext(L, 1), 1);
  return 1;
}

/* A closed pipe (lied run ... --out - | head): the write fails with EPIPE
 * and the run ends with a message, every other output completed on a whole
 * row (issue 47: SIGPIPE killed lied, exit 141, no message, a MAT file that
 * claimed 0 rows). A handler, not SIG_IGN, so that programs lied starts
 * (gnuplot) get the default action back. */
static void on_sigpipe(int sig) { (void)sig; }

/* Ctrl-C, SIGTERM and SIGHUP set the stop flag (a run stops at its next
 * row), from the first thing main does. */
static void install_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

/* Under mpirun: SIGTERM and SIGHUP (mpirun ends a job with them when one
 * rank fails, MPI_Abort, or when mpirun itself is ended) stop the run as in
 * one process, and the rank says nothing more: its stderr goes to /dev/null
 * (dup2 is async-signal-safe). The failed rank's message is the job's; a rank
 * that stopped so would otherwise report the failed rank's rows still in
 * flight as a mismatch of its own. The rank does not die at once: Open MPI's
 * mpirun (4.1) then hung now and then with every rank ended (1 in 8 runs of
 * test_mpi, as with its kill timeout at 0). */
static int devnull_fd = -1;

static void on_mpirun_end(int sig) {
  if (devnull_fd >= 0) dup2(devnull_fd, STDERR_FILENO);
  on_sigint(sig);
}

static void quiet_on_mpirun_end(void) {
  devnull_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_mpirun_end;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

/* cli.main(args) (lua/lied/cli.lua): its exit status, *repl whether the
 * REPL follows (-i); -1 when the command line cannot be loaded. */
static int run_cli(lua_State *L, int argc, char **argv, int *repl) {
  lua_pushcfunction(L, traceback);
  int h = lua_gettop(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lied.cli");
  if (lua_pcall(L, 1, 1, h) != LUA_OK) {
    fprintf(stderr, "lied: cannot load the command line: %s\n", lua_tostring(L, -1));
    return -1;
  }
  lua_getfield(L, -1, "main");
  lua_createtable(L, argc - 1, 0);
  for (int i = 1; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i);
  }
  int rc = 1;
  /* cli.main returns the exit status and whether the REPL follows (-i) */
  if (lua_pcall(L, 1, 2, h) != LUA_OK) {
    fprintf(stderr, "lied: %s\n", lied_lua_errtext(L, -1));
  } else {
    rc = (int)lua_tointeger(L, -2);
    *repl = lua_toboolean(L, -1);
  }
  return rc;
}

/* The exit status: that of a run SIGTERM or SIGHUP ended, and a failure
 * when standard output could not be written. */
static int exit_status(int rc) {
  /* stopped by SIGTERM or SIGHUP: the status of a run that signal ended */
  if (stop_signal && stop_signal != SIGINT && rc != 2) {
    if (rc == 0) fprintf(stderr, "lied: stopped by signal %d (%s)\n", (int)stop_signal,
                         stop_signal == SIGTERM ? "SIGTERM" : "SIGHUP");
    rc = 128 + stop_signal;
  }
  /* output on a full disk or a closed pipe is an error, not a silent loss */
  if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
    fprintf(stderr, "lied: cannot write to standard output: %s\n", strerror(errno ? errno : EIO));
    rc = 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  /* a file size limit (ulimit -f): writes fail with EFBIG and are reported */
  signal(SIGXFSZ, SIG_IGN);
  struct sigaction pipe_sa;
  memset(&pipe_sa, 0, sizeof pipe_sa);
  pipe_sa.sa_handler = on_sigpipe;
  sigaction(SIGPIPE, &pipe_sa, NULL);
  if (argc >= 2) install_signals(); /* a signal while starting up stops the run too */
  /* under mpirun: MPI (docs/distributed.md); otherwise nothing */
  if (lied_dist_init(&argc, &argv) != 0) return 1;
  if (lied_dist_size() > 1) quiet_on_mpirun_end();
  lua_State *L = lied_lua_new(&stop_requested);
  if (!L) {
    fprintf(stderr, "lied: out of memory starting Lua\n");
    return 1;
  }
  if (argc < 2 && lied_dist_size() < 2) { /* under mpirun cli.main refuses the REPL */
    int rc = lied_repl(L, &stop_requested);
    lua_close(L);
    return rc;
  }
  int repl = 0, rc = run_cli(L, argc, argv, &repl);
  if (rc < 0) {
    lua_close(L);
    return 1;
  }
  if (repl && rc == 0) {
    lua_settop(L, 0);
    fflush(stdout);
    rc = lied_repl(L, &stop_requested);
  }
  rc = exit_status(rc);
  lua_close(L);
  /* a failure on one rank of a distributed run ends every rank */
  if (rc != 0 && lied_dist_size() > 1) lied_dist_abort(rc);
  lied_dist_finalize();
  return rc;
}
