// What the base62 kernels share (private to CTokens): the alphabet, 62^5, big-endian loads, and the
// x86 block kernels base62.c dispatches to (base62_x86.c). See base62.c for the encoding.
#ifndef IDT_BASE62_KERNELS_H
#define IDT_BASE62_KERNELS_H
#include "CTokens.h"
#include <string.h>

#define B62_D5 916132832ULL  // 62^5

static const char b62_alphabet[62] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static inline uint32_t load_be32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return __builtin_bswap32(v);
}

#if defined(__x86_64__)
// Values from `values` (20 bytes each) or, when it is NULL, KSUIDs from `stamp` and `random`; the
// caller has checked that the CPU has the kernel's instructions (`vbmi`: AVX-512 VBMI and IFMA too).
__attribute__((visibility("hidden"))) void idt_b62_run_avx2(
    const uint8_t *values, uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
__attribute__((visibility("hidden"))) void idt_b62_run_avx512(
    const uint8_t *values, uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride, int vbmi);
#endif

#endif
