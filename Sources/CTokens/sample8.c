// Branch-free rejection sampling of whole random bytes, for the alphabets whose cheapest chunk is 8
// bits (base36, and most sizes from 65 to 256): byte b < limit is accepted as symbols[b], the rest are
// dropped. AVX-512 VBMI/VBMI2 looks 64 bytes up in the 256-entry table at once (two vpermi2b over its
// halves, chosen by each byte's top bit) and left-packs the accepted ones with vpcompressb; elsewhere
// a portable loop. Both give the same output.
#include "CTokens.h"
#include <string.h>

size_t idt_sample8_scalar(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, uint8_t *out) {
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++) {
        out[n] = symbols[random[i]];
        n += random[i] < limit;
    }
    out[n] = 0;  // the last rejected byte's symbol, if any, is not left behind
    return n;
}

#if defined(__x86_64__)
#include <immintrin.h>

// Whole blocks of 64 bytes, then the rest with a masked load (its accept mask cut to the bytes read).
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))
static size_t sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, uint8_t *out) {
    const __m512i t0 = _mm512_loadu_si512((const void *)symbols), t1 = _mm512_loadu_si512((const void *)(symbols + 64));
    const __m512i t2 = _mm512_loadu_si512((const void *)(symbols + 128)), t3 = _mm512_loadu_si512((const void *)(symbols + 192));
    // limit ≤ 256: every byte is below 256, so limit 256 accepts all.
    const __m512i limitv = _mm512_set1_epi8((char)(limit > 255 ? 255 : limit));
    size_t n = 0;
    for (size_t i = 0; i < bytes; i += 64) {
        __mmask64 loaded = bytes - i >= 64 ? ~0ULL : (1ULL << (bytes - i)) - 1;
        __m512i in = _mm512_maskz_loadu_epi8(loaded, random + i);
        __mmask64 accept = loaded & (limit > 255 ? ~0ULL : _mm512_cmplt_epu8_mask(in, limitv));
        __m512i low = _mm512_permutex2var_epi8(t0, in, t1), high = _mm512_permutex2var_epi8(t2, in, t3);
        __m512i s = _mm512_mask_blend_epi8(_mm512_movepi8_mask(in), low, high);
        _mm512_storeu_si512((void *)(out + n), _mm512_maskz_compress_epi8(accept, s));
        n += (size_t)__builtin_popcountll(accept);
    }
    out[n] = 0;  // as the scalar loop leaves it, when the last block accepted all 64
    return n;
}

size_t idt_sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, uint8_t *out) {
    return idt_sample6_avx512_available() ? sample8_avx512(random, bytes, symbols, limit, out)
                                          : idt_sample8_scalar(random, bytes, symbols, limit, out);
}
#else
size_t idt_sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, uint8_t *out) {
    return idt_sample8_scalar(random, bytes, symbols, limit, out);
}
#endif

// The 6-bit sampler's choice, read once (not a string compare every round).
static int chosen_simd = -1;
int idt_sample8_simd(void) {
    int k = __atomic_load_n(&chosen_simd, __ATOMIC_RELAXED);
    if (__builtin_expect(k < 0, 0)) {
        k = strcmp(idt_sample6_kernel_name(), "avx512") == 0;  // every thread computes the same value
        __atomic_store_n(&chosen_simd, k, __ATOMIC_RELAXED);
    }
    return k;
}

size_t idt_sample8(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, uint8_t *out) {
    return idt_sample8_simd() ? idt_sample8_avx512(random, bytes, symbols, limit, out)
                              : idt_sample8_scalar(random, bytes, symbols, limit, out);
}
