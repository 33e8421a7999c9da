// Branch-free rejection sampling of whole random bytes, for the alphabets whose cheapest chunk is 8
// bits (base36, and most sizes from 65 to 256): byte b < limit is accepted as symbols[b], the rest are
// dropped. AVX-512 VBMI/VBMI2 looks 64 bytes up in the 256-entry table at once (two vpermi2b over its
// halves, chosen by each byte's top bit) and left-packs the accepted ones with vpcompressb; AVX2 looks
// 32 up with 16 vpshufb and packs them 8 at a time; elsewhere a portable loop. All give the same output.
#include "CTokens.h"
#include <string.h>

size_t idt_sample8_scalar(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    (void)period;  // the table is read as it is
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
static size_t sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
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

size_t idt_sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    return idt_sample6_avx512_available() ? sample8_avx512(random, bytes, symbols, limit, period, out)
                                          : idt_sample8_scalar(random, bytes, symbols, limit, period, out);
}

// For each 8-bit accept mask, the positions of its set bits in order, then 0x80 (pshufb's zero):
// the shuffle that left-packs 8 bytes (built at load time, a constant once main runs).
static uint64_t sample8_pack[256];
__attribute__((constructor)) static void sample8_build_pack(void) {
    for (int m = 0; m < 256; m++) {
        uint64_t v = 0;
        int k = 0;
        for (int b = 0; b < 8; b++)
            if (m >> b & 1) v |= (uint64_t)b << (8 * k++);
        for (; k < 8; k++) v |= (uint64_t)0x80 << (8 * k);
        sample8_pack[m] = v;
    }
}

// AVX2, 32 bytes at a time. The table repeats with the period n (symbols[b] = symbols[b mod n] for
// b < limit), so an accepted byte is first reduced to r = b mod n, two 16-bit halves at a time:
// q = floor(b·M / 2^16) with M = ceil(2^16/n) is floor(b/n) for every b < 256 and 2 ≤ n ≤ 255 (the
// rounding adds b·(M·n − 2^16)/(n·2^16) < 256/2^16 to b/n, whose fraction is at most (n − 1)/n).
// r < n then needs only the ceil(n/16) slices of 16 symbols its high nibble can name: 3 vpshufb for
// base36 where the whole table takes 16 (the lookup was most of this kernel's time). Rejected bytes
// are reduced too and dropped. The accepted bytes are left-packed 8 at a time by a vpshufb from
// `sample8_pack` and an 8-byte store (whose bytes past the accepted ones are zeros, overwritten by the
// next store or left as the zero the scalar loop leaves). The tail: the scalar loop.
__attribute__((target("avx2"))) static inline __m256i sample8_reduce(__m256i in, unsigned period) {
    if (period == 1) return _mm256_setzero_si256();
    const __m256i m = _mm256_set1_epi16((short)(uint16_t)((65536u + period - 1) / period));
    const __m256i n = _mm256_set1_epi16((short)period);
    __m256i even = _mm256_and_si256(in, _mm256_set1_epi16(0x00ff)), odd = _mm256_srli_epi16(in, 8);
    even = _mm256_sub_epi16(even, _mm256_mullo_epi16(_mm256_mulhi_epu16(even, m), n));
    odd = _mm256_sub_epi16(odd, _mm256_mullo_epi16(_mm256_mulhi_epu16(odd, m), n));
    return _mm256_or_si256(even, _mm256_slli_epi16(odd, 8));
}

__attribute__((target("avx2,popcnt"))) static inline size_t sample8_avx2_run(
    const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, int reduce, uint8_t *out) {
    const int slices = reduce ? (int)(period + 15) / 16 : 16;
    __m256i slice[16];
    for (int k = 0; k < slices; k++) slice[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(symbols + 16 * k)));
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    // b < limit ⇔ max(b, limit − 1) = limit − 1 (unsigned); limit 256 accepts every byte.
    const __m256i top = _mm256_set1_epi8((char)(limit > 255 ? 255 : limit - 1));
    const int all = limit > 255;
    size_t n = 0, i = 0;
    for (; i + 32 <= bytes; i += 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(random + i));
        __m256i index = reduce ? sample8_reduce(in, period) : in;
        __m256i lo = _mm256_and_si256(index, low4), hi = _mm256_and_si256(_mm256_srli_epi16(index, 4), low4);
        __m256i s = _mm256_setzero_si256();
        for (int k = 0; k < slices; k++)
            s = _mm256_or_si256(s, _mm256_and_si256(_mm256_cmpeq_epi8(hi, _mm256_set1_epi8((char)k)), _mm256_shuffle_epi8(slice[k], lo)));
        uint32_t accept = all ? 0xffffffffu : (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(in, top), top));
        __m128i half[2] = {_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1)};
        for (int g = 0; g < 4; g++) {
            unsigned m = accept >> (8 * g) & 0xff;
            // This group's 8 bytes sit at offset 8·(g & 1) of its half: the pack shuffle's positions moved there.
            __m128i order = _mm_add_epi8(_mm_cvtsi64_si128((long long)sample8_pack[m]), _mm_set1_epi8((char)(8 * (g & 1))));
            _mm_storel_epi64((__m128i *)(out + n), _mm_shuffle_epi8(half[g >> 1], order));
            n += (size_t)__builtin_popcount(m);
        }
    }
    return n + idt_sample8_scalar(random + i, bytes - i, symbols, limit, period, out + n);
}

// Two copies of the loop, so that the common one (a period below the limit) has no test inside.
__attribute__((target("avx2,popcnt")))
static size_t sample8_avx2(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    if (period >= 1 && period < limit) return sample8_avx2_run(random, bytes, symbols, limit, period, 1, out);
    return sample8_avx2_run(random, bytes, symbols, limit, period, 0, out);
}

size_t idt_sample8_avx2(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    return __builtin_cpu_supports("avx2") ? sample8_avx2(random, bytes, symbols, limit, period, out)
                                          : idt_sample8_scalar(random, bytes, symbols, limit, period, out);
}
#else
size_t idt_sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    return idt_sample8_scalar(random, bytes, symbols, limit, period, out);
}
size_t idt_sample8_avx2(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    return idt_sample8_scalar(random, bytes, symbols, limit, period, out);
}
#endif

// The 6-bit sampler's choice, read once (not a string compare every round): 2 when it is AVX-512
// (then this one is too), 1 when it is AVX2, else 0 (the portable loop; IDTOKENS_SAMPLER=scalar or
// ssse3 forces it).
static int chosen_simd = -1;
int idt_sample8_simd(void) {
    int k = __atomic_load_n(&chosen_simd, __ATOMIC_RELAXED);
    if (__builtin_expect(k < 0, 0)) {
        const char *name = idt_sample6_kernel_name();  // every thread computes the same value
        k = strcmp(name, "avx512") == 0 ? 2 : strcmp(name, "avx2") == 0 ? 1 : 0;
        __atomic_store_n(&chosen_simd, k, __ATOMIC_RELAXED);
    }
    return k;
}

size_t idt_sample8(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out) {
    switch (idt_sample8_simd()) {
    case 2: return idt_sample8_avx512(random, bytes, symbols, limit, period, out);
    case 1: return idt_sample8_avx2(random, bytes, symbols, limit, period, out);
    default: return idt_sample8_scalar(random, bytes, symbols, limit, period, out);
    }
}
