/* fuzz_bytes.h - reading a libFuzzer input byte by byte (fuzz_embed.c,
 * fuzz_descriptor.c): 0 once it is used up. */
#ifndef LIED_FUZZ_BYTES_H
#define LIED_FUZZ_BYTES_H
#include <stddef.h>
#include <stdint.h>

typedef struct in {
  const uint8_t *p;
  size_t n;
} in;

static inline unsigned byte(in *b) {
  if (!b->n) return 0;
  b->n--;
  return *b->p++;
}

#endif
