/* progress.c - a progress bar with time and rate for simulation runs (stderr). */
#include "record/progress.h"
#include "core/clock.h"
#include <math.h>
#include <string.h>
#include <time.h>

#define PROGRESS_REDRAW 0.1 /* seconds between redraws */
#define PROGRESS_WIDTH 24   /* characters of bar */

void lied_progress_init(lied_progress *p, FILE *f, int tty, double start, double stop,
                        double delay) {
  memset(p, 0, sizeof *p);
  p->f = f;
  p->tty = tty;
  p->start = start;
  p->stop = stop;
  p->delay = delay;
  p->wall0 = lied_wall();
}

/* "[#######.........]  42%  t = 126 / 300  1.2 s  105 x real time  0.9 s left" */
static void draw(lied_progress *p, double t, double now) {
  double span = p->stop - p->start;
  double frac = span > 0 ? (t - p->start) / span : 1;
  if (!(frac >= 0)) frac = 0;
  if (frac > 1) frac = 1;
  double el = now - p->wall0;
  char bar[PROGRESS_WIDTH + 1];
  int full = (int)(frac * PROGRESS_WIDTH);
  for (int i = 0; i < PROGRESS_WIDTH; i++) bar[i] = i < full ? '#' : '.';
  bar[PROGRESS_WIDTH] = 0;
  double rate = el > 0 ? (t - p->start) / el : 0;
  char left[32] = "";
  if (frac > 0 && frac < 1) snprintf(left, sizeof left, "  %.1f s left", el * (1 - frac) / frac);
  fprintf(p->f, "%s[%s] %3d%%  t = %.6g / %.6g  %.1f s  %.3g x real time%s%s",
          p->tty ? "\r" : "", bar, (int)floor(frac * 100), t, p->stop, el, rate, left,
          p->tty ? "\033[K" : "\n");
  fflush(p->f);
}

void lied_progress_update(void *ctx, double t) {
  lied_progress *p = ctx;
  double now = lied_wall();
  if (now - p->wall0 < p->delay) return;
  if (p->shown && now - p->last_draw < PROGRESS_REDRAW) return;
  p->shown = 1;
  p->last_draw = now;
  draw(p, t, now);
}

void lied_progress_finish(lied_progress *p, double t, int interrupted) {
  if (!p->shown) return;
  if (p->tty) {
    fputs("\r\033[K", p->f);
  } else {
    draw(p, t, lied_wall());
    if (interrupted) fprintf(p->f, "interrupted at t = %.17g\n", t);
  }
  fflush(p->f);
}
