// Batch base62 encoding of 160-bit values (KSUIDs): 20 big-endian bytes → 27 characters over
// 0-9A-Za-z, zero-padded. A portable scalar kernel (64-bit limbs divided by 62^10 with a precomputed
// reciprocal, then 2-digit tables), and AVX2 and AVX-512 kernels that take 8 values at once (long
// division of five 32-bit limbs by 62^5 by multiply-high with a reciprocal and one exact correction;
// base62_x86.c). Every kernel gives the same output; see CTokens.h for the dispatch.
#include "base62_kernels.h"
#include <stdlib.h>

#define B62_D10 839299365868340224ULL      // 62^10 = (62^5)^2, just under 2^60
#define B62_D10N (B62_D10 << 4)            // normalised: top bit set
#define B62_D10N_INV 6893020016967578277ULL  // floor((2^128 - 1) / B62_D10N) - 2^64

// Each value below 62^2 as two characters, first in the low byte (built at load time: a constant
// once main runs, so no thread sees it half-built).
static uint16_t b62_pairs[3844];
__attribute__((constructor)) static void b62_build_pairs(void) {
    for (int v = 0; v < 3844; v++)
        b62_pairs[v] = (uint16_t)((uint8_t)b62_alphabet[v / 62] | (uint16_t)(uint8_t)b62_alphabet[v % 62] << 8);
}

static inline uint64_t load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

#if defined(__SIZEOF_INT128__)
// (u1:u0) / B62_D10N for u1 < B62_D10N, by the Möller–Granlund 2/1 division with a precomputed
// reciprocal (two multiplications, at most two corrections); *r gets the remainder.
static inline uint64_t div_d10n(uint64_t u1, uint64_t u0, uint64_t *r) {
    unsigned __int128 q = (unsigned __int128)B62_D10N_INV * u1 + (((unsigned __int128)u1 << 64) | u0);
    uint64_t q1 = (uint64_t)(q >> 64) + 1, q0 = (uint64_t)q;
    uint64_t rem = u0 - q1 * B62_D10N;
    if (rem > q0) {
        q1--;
        rem += B62_D10N;
    }
    if (__builtin_expect(rem >= B62_D10N, 0)) {
        q1++;
        rem -= B62_D10N;
    }
    *r = rem;
    return q1;
}
#endif

// Five digits of x < 62^5 at out: one character, then two pairs.
static inline void put5(uint8_t *out, uint32_t x) {
    uint32_t a = x / 3844, p2 = x - a * 3844;
    uint32_t b = a / 3844, p1 = a - b * 3844;
    out[0] = (uint8_t)b62_alphabet[b];
    memcpy(out + 1, &b62_pairs[p1], 2);
    memcpy(out + 3, &b62_pairs[p2], 2);
}
// Ten digits of x < 62^10.
static inline void put10(uint8_t *out, uint64_t x) {
    uint64_t hi = x / B62_D5;
    put5(out, (uint32_t)hi);
    put5(out + 5, (uint32_t)(x - hi * B62_D5));
}

// The portable reference. 160 bits = 7 + 10 + 10 digits: the value over 62^10 twice (as 36:64:64-bit
// limbs, shifted left by 4 to divide by the normalised divisor), the last quotient (< 62^7) on its own.
void idt_base62_160_scalar(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *v = values + 20 * i;
        uint8_t *o = out + i * stride;
#if defined(__SIZEOF_INT128__)
        uint64_t t = load_be32(v), m = load_be64(v + 4), l = load_be64(v + 12);
        uint64_t r0, r1;
        uint64_t qh = div_d10n(t << 4 | m >> 60, m << 4 | l >> 60, &r0);  // < 2^37
        uint64_t ql = div_d10n(r0, l << 4, &r0);
        uint64_t top = div_d10n(qh << 4 | ql >> 60, ql << 4, &r1);  // < 62^7
        r0 >>= 4;
        r1 >>= 4;
        uint64_t th = top / B62_D5;  // < 62^2
        memcpy(o, &b62_pairs[th], 2);
        put5(o + 2, (uint32_t)(top - th * B62_D5));
        put10(o + 7, r1);
        put10(o + 17, r0);
        t = m = l = qh = ql = top = r0 = r1 = th = 0;
#else
        // No 128-bit integers: five 32-bit limbs over 62^5, six times.
        uint32_t w[5];
        for (int j = 0; j < 5; j++) w[j] = load_be32(v + 4 * j);
        uint8_t text[30];
        for (int pass = 0; pass < 6; pass++) {
            uint64_t rem = 0;
            for (int j = 0; j < 5; j++) {
                uint64_t acc = rem << 32 | w[j];
                w[j] = (uint32_t)(acc / B62_D5);
                rem = acc % B62_D5;
            }
            put5(text + 25 - 5 * pass, (uint32_t)rem);
        }
        memcpy(o, text + 3, 27);
        idt_erase(text, sizeof text);
        idt_erase(w, sizeof w);
#endif
    }
}


// Kernel choice, made once: the best the CPU has, AVX-512 > AVX2 > scalar (KSUID text, measured when
// the block loops were unrolled, on an AMD EPYC with AVX-512: 5.2, 12.4 and 15.6 ns an id), or the one
// named by IDTOKENS_ENCODER, else by IDTOKENS_SAMPLER (so IDTOKENS_SAMPLER=scalar|avx2|avx512 forces
// the encoder too; its ssse3 and neon mean scalar here), when the CPU has it; else the best.
enum { E_UNSET = 0, E_SCALAR, E_AVX2, E_AVX512 };
static int chosen_encoder = E_UNSET;

static int has_encoder(int k) {
    switch (k) {
    case E_SCALAR: return 1;
    case E_AVX2: return idt_base62_160_avx2_available();
    case E_AVX512: return idt_base62_160_avx512_available();
    default: return 0;
    }
}

static int choose_encoder(void) {
    int best = has_encoder(E_AVX512) ? E_AVX512 : has_encoder(E_AVX2) ? E_AVX2 : E_SCALAR;
    const char *want = getenv("IDTOKENS_ENCODER");
    if (want == NULL || *want == 0) want = getenv("IDTOKENS_SAMPLER");
    if (want == NULL || *want == 0) return best;
    int k = strcmp(want, "scalar") == 0 || strcmp(want, "ssse3") == 0 || strcmp(want, "neon") == 0 ? E_SCALAR
          : strcmp(want, "avx2") == 0 ? E_AVX2 : strcmp(want, "avx512") == 0 ? E_AVX512 : best;
    return has_encoder(k) ? k : best;
}

static int encoder(void) {
    int k = __atomic_load_n(&chosen_encoder, __ATOMIC_RELAXED);
    if (__builtin_expect(k == E_UNSET, 0)) {
        k = choose_encoder();
        __atomic_store_n(&chosen_encoder, k, __ATOMIC_RELAXED);
    }
    return k;
}

const char *idt_base62_160_kernel_name(void) {
    switch (encoder()) {
    case E_AVX512: return "avx512";
    case E_AVX2: return "avx2";
    default: return "scalar";
    }
}

void idt_base62_160(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    switch (encoder()) {
    case E_AVX512: idt_base62_160_avx512(values, count, out, stride); return;
    case E_AVX2: idt_base62_160_avx2(values, count, out, stride); return;
    default: idt_base62_160_scalar(values, count, out, stride);
    }
}

// The portable path: each KSUID's 20 bytes put together on the stack, then erased.
static void ksuid_scalar(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    uint8_t value[20];
    uint32_t be = __builtin_bswap32(stamp);
    memcpy(value, &be, 4);
    for (size_t i = 0; i < count; i++) {
        memcpy(value + 4, random + 16 * i, 16);
        idt_base62_160_scalar(value, 1, out + i * stride, stride);
    }
    idt_erase(value, sizeof value);
}

// One entry for every kernel: the AVX-512 one with or without its VBMI/IFMA emit, where the CPU has
// what it needs; else the portable loop.
enum { K_TEXT_AVX2, K_TEXT_AVX512BW, K_TEXT_AVX512 };
static void ksuid_text(int kernel, uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
#if defined(__x86_64__)
    if (kernel == K_TEXT_AVX2 && idt_base62_160_avx2_available()) {
        idt_b62_run_avx2(NULL, stamp, random, count, out, stride);
        return;
    }
    if (kernel != K_TEXT_AVX2 && idt_base62_160_avx512_available()) {
        int vbmi = kernel == K_TEXT_AVX512 && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512ifma");
        idt_b62_run_avx512(NULL, stamp, random, count, out, stride, vbmi);
        return;
    }
#endif
    ksuid_scalar(stamp, random, count, out, stride);
}

void idt_ksuid_text_scalar(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    ksuid_scalar(stamp, random, count, out, stride);
}
void idt_ksuid_text_avx2(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    ksuid_text(K_TEXT_AVX2, stamp, random, count, out, stride);
}
void idt_ksuid_text_avx512(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    ksuid_text(K_TEXT_AVX512, stamp, random, count, out, stride);
}
void idt_ksuid_text_avx512bw(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    ksuid_text(K_TEXT_AVX512BW, stamp, random, count, out, stride);
}

void idt_ksuid_text(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    switch (encoder()) {
    case E_AVX512: idt_ksuid_text_avx512(stamp, random, count, out, stride); return;
    case E_AVX2: idt_ksuid_text_avx2(stamp, random, count, out, stride); return;
    default: ksuid_scalar(stamp, random, count, out, stride);
    }
}
