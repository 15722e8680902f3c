/* text.h - name matching shared by the engine and the binding: the "did
 * you mean" suggestion, the glob patterns of variable selections, and the
 * hash of names and bytes. */
#ifndef LIED_CORE_TEXT_H
#define LIED_CORE_TEXT_H
#include <stddef.h>
#include <stdint.h>

/* 64-bit FNV-1a: h (LIED_FNV_BASIS to start) carried over the n bytes at
 * p; the same value for the same bytes in every process. */
#define LIED_FNV_BASIS 1469598103934665603ull
#define LIED_FNV_PRIME 1099511628211ull
uint64_t lied_fnv1a(uint64_t h, const void *p, size_t n);

/* Suggest the closest of `n` candidate names to `name` (edit distance; a
 * prefix either way counts as close), or NULL when none is close. */
const char *lied_suggest(const char *name, const char *const *cand, int n);

/* The message part " (did you mean 'x'?)" for the closest candidate, or ""
 * into buf (cap bytes); returns buf, so it can stand in a format call. */
const char *lied_did_you_mean(char *buf, size_t cap, const char *name,
                              const char *const *cand, int n);

/* Glob match of a whole name: '*' any run of characters (dots included),
 * '?' one character; everything else literal, brackets too, so "crab[3].*"
 * selects copy 3. Nonzero on a match. */
int lied_glob(const char *pattern, const char *name);
/* 1 when some name that starts with prefix can match the glob pattern. */
int lied_glob_prefix(const char *pattern, const char *prefix);

/* Nonzero when the text has a glob wildcard ('*' or '?'). */
int lied_is_glob(const char *s);

/* The next item of a comma-separated list of names or patterns ("t1.*,
 * p1.m_flow"): copied into item (room for strlen of the list + 1) with its
 * blanks around trimmed, *p moved past it and its comma. Returns item
 * (empty for an empty item), or NULL at the list's end. */
const char *lied_list_next(const char **p, char *item);

#endif
