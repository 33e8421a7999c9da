// ChaCha20 keystream (RFC 8439), several blocks at a time: lane j of every state vector belongs to
// block counter + j. Written with GCC/Clang vector extensions so that rotations stay vector shifts.
#define _GNU_SOURCE
#include "CTokens.h"
#include <stdlib.h>
#include <string.h>

// The kernels store each 32-bit word in native order, which is ChaCha's (little-endian) on x86-64 and
// arm64, the only targets built.
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ChaCha20 kernels assume a little-endian CPU");

#define CHACHA_KERNEL(NAME, LANES, ATTR)                                                          \
    typedef uint32_t NAME##_v __attribute__((vector_size(4 * LANES)));                               \
    ATTR static inline NAME##_v NAME##_rotl(NAME##_v x, int n) { return (x << n) | (x >> (32 - n)); } \
    ATTR static void NAME(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, uint8_t *out) { \
        NAME##_v s[16], x[16];                                                                       \
        const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};                  \
        for (int i = 0; i < 4; i++) s[i] = (NAME##_v){0} + sigma[i];                                 \
        for (int i = 0; i < 8; i++) s[4 + i] = (NAME##_v){0} + key[i];                               \
        for (int j = 0; j < LANES; j++) s[12][j] = counter + (uint32_t)j;                            \
        for (int i = 0; i < 3; i++) s[13 + i] = (NAME##_v){0} + nonce[i];                            \
        for (int i = 0; i < 16; i++) x[i] = s[i];                                                    \
        for (int r = 0; r < 10; r++) {                                                               \
            QR(NAME, x[0], x[4], x[8], x[12]); QR(NAME, x[1], x[5], x[9], x[13]);                    \
            QR(NAME, x[2], x[6], x[10], x[14]); QR(NAME, x[3], x[7], x[11], x[15]);                  \
            QR(NAME, x[0], x[5], x[10], x[15]); QR(NAME, x[1], x[6], x[11], x[12]);                  \
            QR(NAME, x[2], x[7], x[8], x[13]); QR(NAME, x[3], x[4], x[9], x[14]);                    \
        }                                                                                            \
        for (int i = 0; i < 16; i++) x[i] += s[i];                                                   \
        for (int j = 0; j < LANES; j++)                                                              \
            for (int i = 0; i < 16; i++) {                                                           \
                uint32_t w = x[i][j];                                                                \
                memcpy(out + 64 * j + 4 * i, &w, 4); /* little-endian, as ChaCha's output */     \
            }                                                                                        \
    }

#define QR(NAME, a, b, c, d)                        \
    do {                                            \
        a += b; d ^= a; d = NAME##_rotl(d, 16);     \
        c += d; b ^= c; b = NAME##_rotl(b, 12);     \
        a += b; d ^= a; d = NAME##_rotl(d, 8);      \
        c += d; b ^= c; b = NAME##_rotl(b, 7);      \
    } while (0)

CHACHA_KERNEL(chacha_x4, 4, )
#if defined(__x86_64__)
CHACHA_KERNEL(chacha_x8, 8, __attribute__((target("avx2"))))

#include <immintrin.h>

// AVX-512: 16 blocks, one per 32-bit lane of 16 registers (32 registers, so nothing spills), vprold
// for every rotation, and the 16×16 word transpose done in registers — two unpack stages make 4×4
// transposes inside each 128-bit lane, two 128-bit shuffle stages move the lanes — instead of word
// by word through memory. About twice the AVX2 kernel's bytes/s (the benchmark report's CSPRNG row).
#define QR16(a, b, c, d)                                                        \
    do {                                                                        \
        a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16); \
        c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12); \
        a = _mm512_add_epi32(a, b); d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);  \
        c = _mm512_add_epi32(c, d); b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);  \
    } while (0)

__attribute__((target("avx512f"))) static void chacha_x16(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, uint8_t *out) {
    __m512i s[16], x[16];
    const uint32_t sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 4; i++) s[i] = _mm512_set1_epi32((int)sigma[i]);
    for (int i = 0; i < 8; i++) s[4 + i] = _mm512_set1_epi32((int)key[i]);
    s[12] = _mm512_add_epi32(_mm512_set1_epi32((int)counter), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    for (int i = 0; i < 3; i++) s[13 + i] = _mm512_set1_epi32((int)nonce[i]);
    for (int i = 0; i < 16; i++) x[i] = s[i];
    for (int r = 0; r < 10; r++) {
        QR16(x[0], x[4], x[8], x[12]); QR16(x[1], x[5], x[9], x[13]);
        QR16(x[2], x[6], x[10], x[14]); QR16(x[3], x[7], x[11], x[15]);
        QR16(x[0], x[5], x[10], x[15]); QR16(x[1], x[6], x[11], x[12]);
        QR16(x[2], x[7], x[8], x[13]); QR16(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) x[i] = _mm512_add_epi32(x[i], s[i]);
    // u[g][m], lane L: words 4g…4g+3 of block 4L + m.
    __m512i u[4][4];
    for (int g = 0; g < 4; g++) {
        __m512i t0 = _mm512_unpacklo_epi32(x[4 * g], x[4 * g + 1]), t1 = _mm512_unpackhi_epi32(x[4 * g], x[4 * g + 1]);
        __m512i t2 = _mm512_unpacklo_epi32(x[4 * g + 2], x[4 * g + 3]), t3 = _mm512_unpackhi_epi32(x[4 * g + 2], x[4 * g + 3]);
        u[g][0] = _mm512_unpacklo_epi64(t0, t2);
        u[g][1] = _mm512_unpackhi_epi64(t0, t2);
        u[g][2] = _mm512_unpacklo_epi64(t1, t3);
        u[g][3] = _mm512_unpackhi_epi64(t1, t3);
    }
    for (int m = 0; m < 4; m++) {
        __m512i p = _mm512_shuffle_i32x4(u[0][m], u[1][m], 0x44), q = _mm512_shuffle_i32x4(u[0][m], u[1][m], 0xee);
        __m512i r = _mm512_shuffle_i32x4(u[2][m], u[3][m], 0x44), t = _mm512_shuffle_i32x4(u[2][m], u[3][m], 0xee);
        _mm512_storeu_si512((void *)(out + 64 * (0 + m)), _mm512_shuffle_i32x4(p, r, 0x88));
        _mm512_storeu_si512((void *)(out + 64 * (4 + m)), _mm512_shuffle_i32x4(p, r, 0xdd));
        _mm512_storeu_si512((void *)(out + 64 * (8 + m)), _mm512_shuffle_i32x4(q, t, 0x88));
        _mm512_storeu_si512((void *)(out + 64 * (12 + m)), _mm512_shuffle_i32x4(q, t, 0xdd));
    }
}

// The 16-block kernel runs where the CPU has AVX-512F, unless IDTOKENS_SAMPLER names a narrower
// kernel (avx2, ssse3, scalar), so that CI's forced-AVX2 pass runs the AVX2 keystream too.
static int chacha_wide = -1;
static int use_x16(void) {
    int w = __atomic_load_n(&chacha_wide, __ATOMIC_RELAXED);
    if (__builtin_expect(w < 0, 0)) {
        const char *want = getenv("IDTOKENS_SAMPLER");
        int narrow = want != NULL && (strcmp(want, "avx2") == 0 || strcmp(want, "ssse3") == 0 || strcmp(want, "scalar") == 0);
        w = __builtin_cpu_supports("avx512f") && !narrow;
        __atomic_store_n(&chacha_wide, w, __ATOMIC_RELAXED);
    }
    return w;
}

const char *idt_chacha20_kernel_name(void) { return use_x16() ? "avx512" : __builtin_cpu_supports("avx2") ? "avx2" : "sse2"; }
#else
const char *idt_chacha20_kernel_name(void) { return "neon"; }
#endif

void idt_chacha20_blocks(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, size_t blocks,
                         uint8_t *out) {
    size_t b = 0;
#if defined(__x86_64__)
    // __builtin_cpu_supports reads flags set before main, so this is safe from any thread.
    if (use_x16())
        for (; b + 16 <= blocks; b += 16) chacha_x16(key, nonce, counter + (uint32_t)b, out + 64 * b);
    if (__builtin_cpu_supports("avx2"))
        for (; b + 8 <= blocks; b += 8) chacha_x8(key, nonce, counter + (uint32_t)b, out + 64 * b);
#endif
    for (; b + 4 <= blocks; b += 4) chacha_x4(key, nonce, counter + (uint32_t)b, out + 64 * b);
    if (b < blocks) {
        // The last 1 to 3 blocks: compute four and keep what was asked for.
        uint8_t tail[4 * 64];
        chacha_x4(key, nonce, counter + (uint32_t)b, tail);
        memcpy(out + 64 * b, tail, 64 * (blocks - b));
        idt_erase(tail, sizeof tail);
    }
}
