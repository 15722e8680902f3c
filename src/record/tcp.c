/* tcp.c - the TCP sink: streams rows as text lines to every connected client. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "record/recorder.h"
#include "core/clock.h"

/* Protocol (docs/repl.md): a client receives
 *   #lied-stream 1
 *   #units s,<unit>,...
 *   time,<name>,...          (the CSV header)
 *   <t>,<v>,...              one line per output point, %.17g
 *   #end <rows>              after the last row; then the server closes.
 * A client that connects during a run gets the three header lines first and
 * the rows from then on. Lines starting with '#' are not CSV rows. */

#define TCP_FLUSH_BYTES 65536
#define TCP_FLUSH_SECONDS 0.05 /* latency of the live stream */
#define TCP_POLL_MS 100

typedef struct tcp_sink {
  lied_sink base;
  int lfd;                  /* listening socket */
  int *cl;                  /* connected clients */
  int ncl, capcl;
  int wait;                 /* clients to wait for in begin() */
  volatile sig_atomic_t *stop;
  char *header;
  size_t hlen;
  char *buf;                /* rows not yet sent */
  size_t len, cap;
  size_t n;
  long rows;
  double last_flush;
  char where[288]; /* host (< 256) ":" port */
} tcp_sink;

static void drop_client(tcp_sink *t, int i) {
  close(t->cl[i]);
  t->cl[i] = t->cl[--t->ncl];
}

/* Send all of buf to client i; drop the client when it is gone, or when it
 * does not read and a stop was requested (a client that leaves is not an
 * error of the run). */
static void send_all(tcp_sink *t, int i, const char *buf, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t k = send(t->cl[i], buf + off, len - off, MSG_NOSIGNAL);
    if (k > 0) {
      off += (size_t)k;
      continue;
    }
    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      struct pollfd p = {t->cl[i], POLLOUT, 0};
      int r = poll(&p, 1, TCP_POLL_MS);
      if (r == 0 && t->stop && *t->stop) break; /* stuck client during Ctrl-C */
      continue;
    }
    break; /* EPIPE, ECONNRESET, ...: the client left */
  }
  if (off < len) drop_client(t, i);
}

/* Accept every pending connection; each new client gets the header.
 * LIED_OK, or LIED_E_NOMEM when the client table cannot grow; *full is set
 * when a pending client cannot be accepted for want of file descriptors
 * (it stays pending: waiting for it again would spin). */
static int accept_clients(tcp_sink *t, int *full, lied_err *e) {
  for (;;) {
    int fd = accept(t->lfd, NULL, NULL);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        if (full) *full = errno;
      }
      return LIED_OK; /* EAGAIN: none pending */
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
      close(fd);
      continue;
    }
    int rc = lied_grow((void **)&t->cl, &t->capcl, t->ncl + 1, sizeof *t->cl, e);
    if (rc) {
      close(fd);
      return rc;
    }
    t->cl[t->ncl++] = fd;
    if (t->header) send_all(t, t->ncl - 1, t->header, t->hlen);
  }
}

static int flush_rows(tcp_sink *t, lied_err *e) {
  LIED_TRY(accept_clients(t, NULL, e)); /* out of descriptors: the client waits */
  for (int i = t->ncl - 1; i >= 0; i--) send_all(t, i, t->buf, t->len);
  t->len = 0;
  t->last_flush = lied_wall();
  return LIED_OK;
}

static int put(tcp_sink *t, const char *s, size_t n, lied_err *e) {
  if (t->len + n + 1 > t->cap) {
    size_t nc = t->cap ? t->cap : 4096;
    while (nc < t->len + n + 1) nc *= 2;
    char *nb = realloc(t->buf, nc);
    if (!nb) return lied_errc(e, LIED_E_NOMEM, "out of memory (TCP buffer of %zu bytes)", nc);
    t->buf = nb;
    t->cap = nc;
  }
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  return LIED_OK;
}

/* A CSV field, quoted when it holds a comma, a quote or a newline. */
static int put_field(tcp_sink *t, const char *s, lied_err *e) {
  if (!strpbrk(s, ",\"\n\r")) return put(t, s, strlen(s), e);
  LIED_TRY(put(t, "\"", 1, e));
  for (; *s; s++) {
    if (*s == '"') LIED_TRY(put(t, "\"", 1, e));
    LIED_TRY(put(t, s, 1, e));
  }
  return put(t, "\"", 1, e);
}

static int tcp_begin(lied_sink *s, size_t n, char *const *names, const char *const *units,
                     lied_err *e) {
  tcp_sink *t = (tcp_sink *)s;
  t->n = n;
  /* build the header in the row buffer, then keep it */
  t->len = 0;
  const char *hello = "#lied-stream 1\n#units s";
  LIED_TRY(put(t, hello, strlen(hello), e));
  for (size_t i = 0; i < n; i++) {
    LIED_TRY(put(t, ",", 1, e));
    LIED_TRY(put_field(t, units[i], e));
  }
  LIED_TRY(put(t, "\ntime", 5, e));
  for (size_t i = 0; i < n; i++) {
    LIED_TRY(put(t, ",", 1, e));
    LIED_TRY(put_field(t, names[i], e));
  }
  LIED_TRY(put(t, "\n", 1, e));
  t->header = lied_xmalloc(t->len, "TCP header", e);
  if (!t->header) return LIED_E_NOMEM;
  memcpy(t->header, t->buf, t->len);
  t->hlen = t->len;
  t->len = 0;
  /* clients that connected before the run started get the header now */
  for (int i = t->ncl - 1; i >= 0; i--) send_all(t, i, t->header, t->hlen);
  while (t->ncl < t->wait) {
    if (t->stop && *t->stop)
      return lied_errc(e, LIED_E_IO,
                       "interrupted while waiting for TCP clients on %s (%d of %d connected)",
                       t->where, t->ncl, t->wait);
    struct pollfd p = {t->lfd, POLLIN, 0};
    int full = 0;
    if (poll(&p, 1, TCP_POLL_MS) > 0) LIED_TRY(accept_clients(t, &full, e));
    if (full) {
      struct rlimit rl;
      long lim = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (long)rl.rlim_cur : -1;
      return lied_errc(e, LIED_E_IO,
                       "cannot accept TCP client %d of %d on %s: %s (the limit of open files "
                       "is %ld: raise it with ulimit -n)",
                       t->ncl + 1, t->wait, t->where, strerror(full), lim);
    }
  }
  t->last_flush = lied_wall();
  return LIED_OK;
}

static int tcp_row(lied_sink *s, double tm, const double *v, lied_err *e) {
  tcp_sink *t = (tcp_sink *)s;
  char num[32];
  int k = snprintf(num, sizeof num, "%.17g", tm);
  LIED_TRY(put(t, num, (size_t)k, e));
  for (size_t i = 0; i < t->n; i++) {
    k = snprintf(num, sizeof num, ",%.17g", v[i]);
    LIED_TRY(put(t, num, (size_t)k, e));
  }
  LIED_TRY(put(t, "\n", 1, e));
  t->rows++;
  if (t->len >= TCP_FLUSH_BYTES || lied_wall() - t->last_flush >= TCP_FLUSH_SECONDS)
    return flush_rows(t, e);
  return LIED_OK;
}

/* Send what is left and "#end", then close every client connection. */
static int tcp_end(lied_sink *s, lied_err *e) {
  tcp_sink *t = (tcp_sink *)s;
  char line[64];
  int k = snprintf(line, sizeof line, "#end %ld\n", t->rows);
  LIED_TRY(put(t, line, (size_t)k, e));
  LIED_TRY(flush_rows(t, e));
  while (t->ncl > 0) {
    int fd = t->cl[t->ncl - 1];
    shutdown(fd, SHUT_WR);
    char junk[256]; /* unread input would turn close() into a reset */
    while (read(fd, junk, sizeof junk) > 0) {
    }
    drop_client(t, t->ncl - 1);
  }
  return LIED_OK;
}

static void tcp_destroy(lied_sink *s) {
  tcp_sink *t = (tcp_sink *)s;
  for (int i = 0; i < t->ncl; i++) close(t->cl[i]);
  if (t->lfd >= 0) close(t->lfd);
  free(t->cl);
  free(t->header);
  free(t->buf);
  free(t);
}

/* spec: "PORT" or "HOST:PORT" (HOST a name or numeric address; "[v6]:PORT"):
 * the host into host (default 127.0.0.1), *port pointing into spec. */
static int parse_spec(const char *spec, char host[256], const char **port, lied_err *e) {
  *port = spec;
  const char *colon = strrchr(spec, ':');
  if (colon) {
    size_t hl = (size_t)(colon - spec);
    const char *h = spec;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') h++, hl -= 2;
    if (hl == 0 || hl >= 256) return lied_errc(e, LIED_E_USAGE, "tcp:%s: bad host", spec);
    memcpy(host, h, hl);
    host[hl] = 0;
    *port = colon + 1;
  }
  char *endp;
  long pn = strtol(*port, &endp, 10);
  if (!**port || *endp || pn < 0 || pn > 65535)
    return lied_errc(e, LIED_E_USAGE, "tcp:%s: the port must be a number from 0 to 65535", spec);
  return LIED_OK;
}

/* Every client takes a file descriptor: raise the soft limit (up to the
 * hard one) so that the clients waited for fit, with room for the rest; a
 * usage error when they cannot. */
static int room_for_clients(const char *spec, int wait_clients, lied_err *e) {
  if (wait_clients <= 0) return LIED_OK;
  struct rlimit rl;
  rlim_t need = (rlim_t)wait_clients + 64;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
    rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
    struct rlimit nl = {want, rl.rlim_max};
    if (want > rl.rlim_cur && setrlimit(RLIMIT_NOFILE, &nl) == 0) rl.rlim_cur = want;
    if (rl.rlim_cur < need)
      return lied_errc(e, LIED_E_USAGE,
                       "tcp:%s: waiting for %d clients needs %d open files, the limit is %llu "
                       "(raise it with ulimit -n, or wait for fewer clients)",
                       spec, wait_clients, (int)need, (unsigned long long)rl.rlim_cur);
  }
  return LIED_OK;
}

/* A non-blocking socket of t listening on host and port (the first address
 * that binds), its address in t->where. */
static int listen_on(tcp_sink *t, const char *spec, const char *host, const char *port,
                     lied_err *e) {
  struct addrinfo hints, *ai = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  int g = getaddrinfo(host, port, &hints, &ai);
  if (g) return lied_errc(e, LIED_E_IO, "tcp:%s: %s", spec, gai_strerror(g));
  int err = 0;
  for (struct addrinfo *a = ai; a; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 16) == 0) {
      t->lfd = fd;
      break;
    }
    err = errno;
    close(fd);
  }
  freeaddrinfo(ai);
  int fl = t->lfd >= 0 ? fcntl(t->lfd, F_GETFL) : -1;
  if (fl < 0 || fcntl(t->lfd, F_SETFL, fl | O_NONBLOCK) < 0)
    return lied_errc(e, LIED_E_IO, "tcp:%s: cannot listen on %s port %s: %s", spec, host, port,
                     strerror(err ? err : errno));
  struct sockaddr_storage sa;
  socklen_t sl = sizeof sa;
  char sport[16] = "?";
  if (getsockname(t->lfd, (struct sockaddr *)&sa, &sl) == 0)
    getnameinfo((struct sockaddr *)&sa, sl, NULL, 0, sport, sizeof sport, NI_NUMERICSERV);
  snprintf(t->where, sizeof t->where, "%s:%s", host, sport);
  return LIED_OK;
}

lied_sink *lied_tcp_sink(const char *spec, int wait_clients, volatile sig_atomic_t *stop,
                         lied_err *e) {
  char host[256] = "127.0.0.1";
  const char *port;
  if (parse_spec(spec, host, &port, e) || room_for_clients(spec, wait_clients, e)) return NULL;
  tcp_sink *t = lied_xcalloc(1, sizeof *t, "TCP sink", e);
  if (!t) return NULL;
  t->base = (lied_sink){tcp_begin, tcp_row, tcp_end, tcp_destroy};
  t->lfd = -1;
  t->wait = wait_clients > 0 ? wait_clients : 0;
  t->stop = stop;
  if (listen_on(t, spec, host, port, e)) {
    tcp_destroy(&t->base);
    return NULL;
  }
  return &t->base;
}

const char *lied_tcp_sink_address(const lied_sink *s) {
  return ((const tcp_sink *)s)->where;
}
