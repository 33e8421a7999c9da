// ChaCha20 keystream (RFC 8439), several blocks at a time: lane j of every state vector belongs to
// block counter + j. Written with GCC/Clang vector extensions so that rotations stay vector shifts.
#define _GNU_SOURCE
#include "CTokens.h"
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
#endif

void idt_chacha20_blocks(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, size_t blocks,
                         uint8_t *out) {
    size_t b = 0;
#if defined(__x86_64__)
    // __builtin_cpu_supports reads flags set before main, so this is safe from any thread.
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
