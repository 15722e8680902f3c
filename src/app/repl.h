/* repl.h - the interactive session. */
#ifndef LIED_APP_REPL_H
#define LIED_APP_REPL_H
#include <lua.h>
#include <signal.h>

/* Read-eval-print loop on stdin until EOF; returns the exit status. */
int lied_repl(lua_State *L, volatile sig_atomic_t *stop);

#endif
