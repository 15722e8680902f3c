/* progress.h - a progress bar with time and rate for simulation runs (stderr). */
#ifndef LIED_RECORD_PROGRESS_H
#define LIED_RECORD_PROGRESS_H
#include <stdio.h>

typedef struct lied_progress {
  FILE *f;
  double start, stop;  /* simulated time span */
  double wall0;        /* wall clock at the start */
  double delay;        /* seconds before the bar appears */
  double last_draw;
  int tty;             /* f is a terminal: redraw in place, erase at the end */
  int shown;
} lied_progress;

/* Prepare a bar for a run over [start, stop]; nothing is drawn before
 * `delay` seconds of wall time have passed. */
void lied_progress_init(lied_progress *p, FILE *f, int tty, double start, double stop,
                        double delay);
/* The simulator's hook (lied_sim_opts.progress): ctx is a lied_progress. */
void lied_progress_update(void *ctx, double t);
/* After the run: erase the bar on a terminal, else end its line. */
void lied_progress_finish(lied_progress *p, double t, int interrupted);

#endif
