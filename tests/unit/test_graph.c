/* test_graph.c - unit tests for CSR graphs, strong components, levels and cycles. */
#include "cases.h"
#include "check.h"
#include "sched/graph.h"

#include <stdint.h>
#include <string.h>

/* lied_scc's count of components, after checking that it succeeded. */
static uint32_t scc_count(const lied_graph *g, uint32_t *comp) {
  uint32_t n = UINT32_MAX;
  CHECK(lied_scc(g, comp, &n, NULL) == LIED_OK);
  return n;
}

/* Build g from m edges (src[i] -> dst[i]) by counting sort; 0 or -1. */
static int build(lied_graph *g, uint32_t n, uint32_t m, const uint32_t *src,
                 const uint32_t *dst) {
  if (lied_graph_alloc(g, n, m, NULL) != 0)
    return -1;
  for (uint32_t i = 0; i < m; i++)
    g->rowptr[src[i] + 1]++;
  for (uint32_t v = 0; v < n; v++)
    g->rowptr[v + 1] += g->rowptr[v];
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!fill)
    return -1;
  memcpy(fill, g->rowptr, ((size_t)n + 1) * sizeof *fill);
  for (uint32_t i = 0; i < m; i++)
    g->adj[fill[src[i]]++] = dst[i];
  free(fill);
  return 0;
}

/* Nonzero when v -> u is an edge of g. */
static int has_edge(const lied_graph *g, uint32_t v, uint32_t u) {
  for (uint32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
    if (g->adj[e] == u)
      return 1;
  return 0;
}

/* Nonzero when every cross-component edge goes to a smaller component id. */
static int dependency_order_ok(const lied_graph *g, const uint32_t *comp) {
  for (uint32_t v = 0; v < g->n; v++)
    for (uint32_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++) {
      uint32_t u = g->adj[e];
      if (comp[u] != comp[v] && !(comp[u] < comp[v]))
        return 0;
    }
  return 1;
}

/* Nonzero when path[0..len) (len <= maxlen) is a cycle through v in comp[v]. */
static int valid_cycle(const lied_graph *g, const uint32_t *comp, uint32_t v,
                       const uint32_t *path, long len) {
  if (len <= 0 || path[0] != v)
    return 0;
  for (long i = 0; i < len; i++) {
    uint32_t a = path[i], b = path[(i + 1) % len];
    if (comp[a] != comp[v] || !has_edge(g, a, b))
      return 0;
  }
  return 1;
}

/* Deterministic 64-bit LCG (Knuth's MMIX constants); returns the high bits. */
static uint32_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static void test_empty(void) {
  lied_graph g;
  CHECK(lied_graph_alloc(&g, 0, 0, NULL) == 0);
  CHECK(g.n == 0 && g.rowptr[0] == 0);
  uint32_t comp[1] = {7}, start[1] = {9}, members[1];
  CHECK(scc_count(&g, comp) == 0);
  lied_scc_members(&g, comp, 0, start, members);
  CHECK(start[0] == 0);
  lied_graph_free(&g);
  lied_graph_free(&g);
  CHECK(g.rowptr == NULL && g.adj == NULL && g.n == 0);
  lied_graph z = {0};
  lied_graph_free(&z);
}

static void test_single(void) {
  lied_graph g;
  uint32_t comp[1], start[2], members[1], level[1], path[4];
  uint32_t zero = 0;
  CHECK(build(&g, 1, 0, NULL, NULL) == 0);
  CHECK(scc_count(&g, comp) == 1 && comp[0] == 0);
  CHECK(!lied_graph_self_loop(&g, 0));
  CHECK(lied_scc_cycle(&g, comp, 0, path, 4) == 0);
  lied_scc_members(&g, comp, 1, start, members);
  CHECK(start[0] == 0 && start[1] == 1 && members[0] == 0);
  lied_scc_levels(&g, comp, 1, start, members, level);
  CHECK(level[0] == 0);
  lied_graph_free(&g);

  CHECK(build(&g, 1, 1, &zero, &zero) == 0);
  CHECK(scc_count(&g, comp) == 1 && comp[0] == 0);
  CHECK(lied_graph_self_loop(&g, 0));
  path[0] = 99;
  CHECK(lied_scc_cycle(&g, comp, 0, path, 4) == 1 && path[0] == 0);
  lied_scc_members(&g, comp, 1, start, members);
  lied_scc_levels(&g, comp, 1, start, members, level);
  CHECK(level[0] == 0); /* a self loop is not a dependency on another component */
  lied_graph_free(&g);
}

static void test_dag(void) {
  /* Edges only go from a higher to a lower rank, ranks a permutation of ids. */
  enum { N = 500, M = 2000 };
  uint32_t rank[N], src[M], dst[M], comp[N];
  uint64_t s = 12345;
  for (uint32_t i = 0; i < N; i++)
    rank[i] = i;
  for (uint32_t i = N - 1; i > 0; i--) {
    uint32_t j = lcg(&s) % (i + 1), t = rank[i];
    rank[i] = rank[j];
    rank[j] = t;
  }
  for (uint32_t i = 0; i < M; i++) {
    uint32_t a = lcg(&s) % N, b = lcg(&s) % N;
    if (a == b)
      b = (b + 1) % N;
    /* node rank[x] depends on rank[y] only when x > y */
    src[i] = a > b ? rank[a] : rank[b];
    dst[i] = a > b ? rank[b] : rank[a];
  }
  lied_graph g;
  CHECK(build(&g, N, M, src, dst) == 0);
  CHECK(scc_count(&g, comp) == N);
  char seen[N] = {0};
  int distinct = 1;
  for (uint32_t v = 0; v < N; v++) {
    if (comp[v] >= N || seen[comp[v]])
      distinct = 0;
    else
      seen[comp[v]] = 1;
  }
  CHECK(distinct);
  CHECK(dependency_order_ok(&g, comp));
  uint32_t path[8];
  CHECK(lied_scc_cycle(&g, comp, rank[N - 1], path, 8) == 0);
  lied_graph_free(&g);
}

static void test_two_cycles(void) {
  /* A = {0, 2, 4}: 0->2->4->0; B = {1, 3}: 1->3->1; B depends on A by 3->2. */
  uint32_t src[] = {0, 2, 4, 1, 3, 3};
  uint32_t dst[] = {2, 4, 0, 3, 1, 2};
  lied_graph g;
  uint32_t comp[5], start[3], members[5], level[2], path[5];
  CHECK(build(&g, 5, 6, src, dst) == 0);
  CHECK(scc_count(&g, comp) == 2);
  CHECK(comp[0] == 0 && comp[2] == 0 && comp[4] == 0);
  CHECK(comp[1] == 1 && comp[3] == 1);
  CHECK(dependency_order_ok(&g, comp));
  lied_scc_members(&g, comp, 2, start, members);
  CHECK(start[0] == 0 && start[1] == 3 && start[2] == 5);
  CHECK(members[0] == 0 && members[1] == 2 && members[2] == 4);
  CHECK(members[3] == 1 && members[4] == 3);
  lied_scc_levels(&g, comp, 2, start, members, level);
  CHECK(level[0] == 0 && level[1] == 1);
  long len = lied_scc_cycle(&g, comp, 3, path, 5);
  CHECK(len == 2 && valid_cycle(&g, comp, 3, path, len));
  len = lied_scc_cycle(&g, comp, 4, path, 5);
  CHECK(len == 3 && valid_cycle(&g, comp, 4, path, len));
  lied_graph_free(&g);

  /* The same with the DFS forced to start inside the dependent cycle first. */
  uint32_t src2[] = {0, 1, 0, 2, 3, 4};
  uint32_t dst2[] = {1, 0, 2, 3, 4, 2};
  CHECK(build(&g, 5, 6, src2, dst2) == 0);
  CHECK(scc_count(&g, comp) == 2);
  CHECK(comp[2] == 0 && comp[3] == 0 && comp[4] == 0);
  CHECK(comp[0] == 1 && comp[1] == 1);
  lied_graph_free(&g);
}

/* n-node chain; forward: v depends on v - 1, else v depends on v + 1. */
static int build_chain(lied_graph *g, uint32_t n, int forward, int cyclic) {
  uint32_t m = cyclic ? n : n - 1;
  if (lied_graph_alloc(g, n, m, NULL) != 0)
    return -1;
  uint32_t e = 0;
  for (uint32_t v = 0; v < n; v++) {
    g->rowptr[v] = e;
    if (forward ? v > 0 : v + 1 < n)
      g->adj[e++] = forward ? v - 1 : v + 1;
    else if (cyclic)
      g->adj[e++] = forward ? n - 1 : 0;
  }
  g->rowptr[n] = e;
  return 0;
}

static void test_chain(void) {
  /* deeper than a call stack holds, so a recursive walk would crash; a
   * million under sanitizers is still far deeper than 8 MB of stack holds */
  const uint32_t n = SANITIZED ? 1000000 : 10000000;
  lied_graph g;
  uint32_t *comp = malloc((size_t)n * sizeof *comp);
  uint32_t *start = malloc(((size_t)n + 1) * sizeof *start);
  uint32_t *members = malloc((size_t)n * sizeof *members);
  uint32_t *level = malloc((size_t)n * sizeof *level);
  CHECK(comp && start && members && level);
  if (!comp || !start || !members || !level)
    goto out;

  /* v depends on v - 1: components 0..n-1 in node order, levels 0..n-1. */
  CHECK(build_chain(&g, n, 1, 0) == 0);
  CHECK(scc_count(&g, comp) == n);
  int ok = 1;
  for (uint32_t v = 0; v < n; v++)
    ok &= comp[v] == v;
  CHECK(ok);
  lied_scc_members(&g, comp, n, start, members);
  lied_scc_levels(&g, comp, n, start, members, level);
  ok = 1;
  for (uint32_t c = 0; c < n; c++)
    ok &= start[c] == c && members[c] == c && level[c] == c;
  CHECK(ok && start[n] == n);
  lied_graph_free(&g);

  /* v depends on v + 1: the DFS from node 0 is n deep. */
  CHECK(build_chain(&g, n, 0, 0) == 0);
  CHECK(scc_count(&g, comp) == n);
  ok = 1;
  for (uint32_t v = 0; v < n; v++)
    ok &= comp[v] == n - 1 - v;
  CHECK(ok);
  lied_scc_members(&g, comp, n, start, members);
  lied_scc_levels(&g, comp, n, start, members, level);
  ok = 1;
  for (uint32_t c = 0; c < n; c++)
    ok &= level[c] == c;
  CHECK(ok);
  lied_graph_free(&g);

  /* A single n-cycle: one component; its cycle is the whole ring. */
  CHECK(build_chain(&g, n, 0, 1) == 0);
  CHECK(scc_count(&g, comp) == 1);
  ok = 1;
  for (uint32_t v = 0; v < n; v++)
    ok &= comp[v] == 0;
  CHECK(ok);
  uint32_t path[16];
  CHECK(lied_scc_cycle(&g, comp, 5, path, 16) == (long)n);
  ok = 1;
  for (uint32_t i = 0; i < 16; i++)
    ok &= path[i] == 5 + i;
  CHECK(ok);
  lied_graph_free(&g);

  /* The reverse ring (v depends on v - 1, 0 on n - 1). */
  CHECK(build_chain(&g, n, 1, 1) == 0);
  CHECK(scc_count(&g, comp) == 1);
  lied_graph_free(&g);
out:
  free(comp);
  free(start);
  free(members);
  free(level);
}

/* Compare lied_scc with mutual reachability on a random graph. */
static void random_case(uint32_t n, uint32_t m, uint64_t seed) {
  uint32_t *src = calloc((size_t)m, sizeof *src);
  uint32_t *dst = calloc((size_t)m, sizeof *dst);
  uint32_t *comp = malloc((size_t)n * sizeof *comp);
  uint32_t *start = malloc(((size_t)n + 1) * sizeof *start);
  uint32_t *members = malloc((size_t)n * sizeof *members);
  uint32_t *level = malloc((size_t)n * sizeof *level);
  uint32_t *queue = malloc((size_t)n * sizeof *queue);
  uint32_t *path = malloc((size_t)n * sizeof *path);
  size_t words = ((size_t)n + 63) / 64;
  uint64_t *reach = calloc((size_t)n * words, sizeof *reach);
  lied_graph g = {0};
  CHECK(src && dst && comp && start && members && level && queue && path &&
        reach);
  if (!src || !dst || !comp || !start || !members || !level || !queue ||
      !path || !reach)
    goto out;
  uint64_t s = seed;
  for (uint32_t i = 0; i < m; i++) {
    src[i] = lcg(&s) % n;
    dst[i] = lcg(&s) % n;
  }
  CHECK(build(&g, n, m, src, dst) == 0);

  /* reach[a] = set of nodes reachable from a (a included) by BFS. */
  for (uint32_t a = 0; a < n; a++) {
    uint64_t *r = reach + (size_t)a * words;
    uint32_t qh = 0, qt = 0;
    r[a / 64] |= 1ull << (a % 64);
    queue[qt++] = a;
    while (qh < qt) {
      uint32_t x = queue[qh++];
      for (uint32_t e = g.rowptr[x]; e < g.rowptr[x + 1]; e++) {
        uint32_t w = g.adj[e];
        if (!(r[w / 64] >> (w % 64) & 1)) {
          r[w / 64] |= 1ull << (w % 64);
          queue[qt++] = w;
        }
      }
    }
  }
#define REACH(a, b) (reach[(size_t)(a) * words + (b) / 64] >> ((b) % 64) & 1)

  uint32_t ncomp = scc_count(&g, comp);
  CHECK(ncomp >= 1 && ncomp <= n);
  int partition_ok = 1, range_ok = 1;
  uint32_t naive_count = 0;
  for (uint32_t a = 0; a < n; a++) {
    range_ok &= comp[a] < ncomp;
    uint32_t first = a; /* smallest node mutually reachable with a */
    for (uint32_t b = 0; b < n; b++) {
      int mutual = REACH(a, b) && REACH(b, a);
      partition_ok &= mutual == (comp[a] == comp[b]);
      if (mutual && b < first)
        first = b;
    }
    naive_count += first == a;
  }
  CHECK(range_ok);
  CHECK(partition_ok);
  CHECK(ncomp == naive_count);
  CHECK(dependency_order_ok(&g, comp));

  lied_scc_members(&g, comp, ncomp, start, members);
  int members_ok = start[0] == 0 && start[ncomp] == n;
  for (uint32_t c = 0; c < ncomp; c++) {
    members_ok &= start[c] < start[c + 1]; /* no empty component */
    for (uint32_t i = start[c]; i < start[c + 1]; i++) {
      members_ok &= comp[members[i]] == c;
      if (i > start[c])
        members_ok &= members[i - 1] < members[i];
    }
  }
  CHECK(members_ok);

  /* Levels: strictly above every dependency, and tight (some dependency is
   * exactly one below) unless the component is a source (level 0). */
  lied_scc_levels(&g, comp, ncomp, start, members, level);
  int level_ok = 1;
  for (uint32_t c = 0; c < ncomp; c++) {
    uint32_t best = 0;
    int any = 0;
    for (uint32_t i = start[c]; i < start[c + 1]; i++) {
      uint32_t v = members[i];
      for (uint32_t e = g.rowptr[v]; e < g.rowptr[v + 1]; e++) {
        uint32_t cu = comp[g.adj[e]];
        if (cu == c)
          continue;
        level_ok &= level[cu] < level[c];
        if (!any || level[cu] + 1 > best)
          best = level[cu] + 1;
        any = 1;
      }
    }
    level_ok &= level[c] == (any ? best : 0);
  }
  CHECK(level_ok);

  /* Cycles: present exactly for nodes on a cycle, and valid. */
  int cycle_ok = 1;
  for (uint32_t v = 0; v < n; v += 7) {
    long len = lied_scc_cycle(&g, comp, v, path, n);
    int cyclic = start[comp[v] + 1] - start[comp[v]] > 1 ||
                 lied_graph_self_loop(&g, v);
    if (cyclic)
      cycle_ok &= len >= 1 && len <= (long)(start[comp[v] + 1] -
                                            start[comp[v]]) &&
                  valid_cycle(&g, comp, v, path, len);
    else
      cycle_ok &= len == 0;
  }
  CHECK(cycle_ok);
#undef REACH
out:
  lied_graph_free(&g);
  free(src);
  free(dst);
  free(comp);
  free(start);
  free(members);
  free(level);
  free(queue);
  free(path);
  free(reach);
}

static void test_random(void) {
  random_case(3000, 2400, 1);  /* sparse: mostly singletons */
  random_case(3000, 3000, 2);  /* near the giant-component threshold */
  random_case(3000, 4500, 3);  /* a giant component plus hangers-on */
  random_case(2000, 10000, 4); /* dense */
  random_case(50, 60, 5);
}

static void test_diamond(void) {
  /* 1->0, 2->0, 3->1, 3->2 (diamond), 4->3 and a shortcut 4->0. */
  uint32_t src[] = {1, 2, 3, 3, 4, 4};
  uint32_t dst[] = {0, 0, 1, 2, 3, 0};
  uint32_t comp[5], start[6], members[5], level[5];
  lied_graph g;
  CHECK(build(&g, 5, 6, src, dst) == 0);
  uint32_t ncomp = scc_count(&g, comp);
  CHECK(ncomp == 5);
  CHECK(dependency_order_ok(&g, comp));
  lied_scc_members(&g, comp, ncomp, start, members);
  lied_scc_levels(&g, comp, ncomp, start, members, level);
  CHECK(level[comp[0]] == 0);
  CHECK(level[comp[1]] == 1 && level[comp[2]] == 1);
  CHECK(level[comp[3]] == 2);
  CHECK(level[comp[4]] == 3);
  lied_graph_free(&g);
}

static void test_cycle(void) {
  /* Ring 0->1->2->3->4->0 with chords 0->2 and 2->4; node 5 -> 0 outside. */
  uint32_t src[] = {0, 1, 2, 3, 4, 0, 2, 5};
  uint32_t dst[] = {1, 2, 3, 4, 0, 2, 4, 0};
  uint32_t comp[6], path[6];
  lied_graph g;
  CHECK(build(&g, 6, 8, src, dst) == 0);
  CHECK(scc_count(&g, comp) == 2);
  CHECK(comp[0] == 0 && comp[1] == 0 && comp[2] == 0 && comp[3] == 0 &&
        comp[4] == 0 && comp[5] == 1);
  for (uint32_t v = 0; v < 5; v++) {
    long len = lied_scc_cycle(&g, comp, v, path, 6);
    CHECK(len >= 2 && len <= 5 && valid_cycle(&g, comp, v, path, len));
  }
  long len = lied_scc_cycle(&g, comp, 0, path, 6);
  CHECK(len == 3 && path[0] == 0 && path[1] == 2 && path[2] == 4);
  CHECK(lied_scc_cycle(&g, comp, 1, path, 6) == 4); /* 1->2->4->0 */
  CHECK(lied_scc_cycle(&g, comp, 5, path, 6) == 0);
  /* Truncation: the length is reported, only maxlen nodes are written. */
  path[1] = 77;
  CHECK(lied_scc_cycle(&g, comp, 0, path, 1) == 3 && path[0] == 0 &&
        path[1] == 77);
  CHECK(lied_scc_cycle(&g, comp, 0, NULL, 0) == 3);
  lied_graph_free(&g);
}

static void test_members_stable(void) {
  /* An arbitrary labelling (not from lied_scc): groups keep node order. */
  enum { N = 1000, C = 37 };
  uint32_t comp[N], start[C + 1], members[N];
  uint64_t s = 99;
  lied_graph g;
  CHECK(lied_graph_alloc(&g, N, 0, NULL) == 0);
  for (uint32_t v = 0; v < N; v++)
    comp[v] = lcg(&s) % C;
  comp[0] = C - 1; /* make sure the last group is used */
  lied_scc_members(&g, comp, C, start, members);
  int ok = start[0] == 0 && start[C] == N;
  uint32_t total = 0;
  for (uint32_t c = 0; c < C; c++) {
    total += start[c + 1] - start[c];
    for (uint32_t i = start[c]; i < start[c + 1]; i++) {
      ok &= comp[members[i]] == c;
      if (i > start[c])
        ok &= members[i - 1] < members[i];
    }
  }
  CHECK(ok && total == N);
  lied_graph_free(&g);
}

int main(void) {
  test_empty();
  test_single();
  test_dag();
  test_two_cycles();
  test_diamond();
  test_cycle();
  test_members_stable();
  test_random();
  test_chain();
  return CHECK_DONE();
}
