// The x86 kernels of the base62 encoding (base62.c): AVX2 and AVX-512 take 8 values at once, by long
// division of five 32-bit limbs by 62^5 (multiply-high with a reciprocal and one exact correction).
// Off x86 their entry points fall back to the portable scalar kernel.
#include "base62_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

// The byte shuffles that put the AVX-512 VBMI KSUID kernel's digits in id order (see
// ksuid_emit_vbmi): `b62_top7` joins each lane's top two digits and next five; for the pair of ids
// 2p, 2p + 1, `b62_mid[p]` takes digits 0–11 of each from the joined register and the third chunk,
// `b62_low[p]` digits 12–21 from the fourth and fifth chunks, `b62_last[p]` digits 22–26 from the
// sixth, each id in its own 32-byte half.
static uint8_t b62_top7[64], b62_mid[4][64], b62_low[4][64], b62_last[4][64];
__attribute__((constructor)) static void b62_build_shuffles(void) {
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) b62_top7[8 * i + j] = (uint8_t)(j < 2 ? 8 * i + j : j < 7 ? 64 + 8 * i + j - 2 : 0);
    for (int p = 0; p < 4; p++)
        for (int half = 0; half < 2; half++)
            for (int o = 0; o < 32; o++) {
                int id = 2 * p + half, k = 32 * half + o;
                b62_mid[p][k] = (uint8_t)(o < 7 ? 8 * id + o : o < 12 ? 64 + 8 * id + o - 7 : 0);
                b62_low[p][k] = (uint8_t)(o >= 12 && o < 17 ? 8 * id + o - 12 : o >= 17 && o < 22 ? 64 + 8 * id + o - 17 : 0);
                b62_last[p][k] = (uint8_t)(o >= 22 && o < 27 ? 8 * id + o - 22 : 0);
            }
}

// The SIMD kernels keep each value's five 32-bit limbs (most significant first) in 64-bit lanes and
// divide by D = 62^5 limb by limb. With r < D the remainder so far and w the next limb, the quotient of
// acc = r·2^32 + w is below 2^32. R = floor(2^62 / D) = 2^32 + R1 (R1 < 2^30) gives the estimate
//     q' = (r·R + w + floor(w·R1 / 2^32)) >> 30  (= floor(acc·R / 2^62) up to the dropped fraction),
// which is q or q − 1 (acc·(2^62/D − R)/2^62 < acc/2^62 < 1); the low 32 bits of acc − q'·D (below 2D)
// say which, and one conditional subtraction makes it exact. Before pass k the value is below
// 2^(160 − 29.77k), so pass k starts at limb k − 1 (k ≥ 2): 5 + 5 + 4 + 3 + 2 steps, and what is left
// after five passes (< 62^2) is the top two digits. Digits of a remainder x < 2^30 by x/62 =
// (x·M) >> 35, M = ceil(2^35/62), exact for x < 2^35/30.
// The block kernels' loops have constant bounds once unrolled; unrolled, their registers stay in
// registers (rolled up, clang kept the limbs in memory, about 1.35× slower).
#if defined(__clang__)
#define B62_UNROLL _Pragma("clang loop unroll(full)")
#else
#define B62_UNROLL
#endif
#define B62_R1 738894451ULL
#define B62_M62 554189329ULL

// A block is 32 values: four (AVX-512) or eight (AVX2) registers whose divisions are independent
// chains, so that the multiply latency of one hides behind the others.
#define B62_BLOCK 32

// Gathers the limbs of up to B62_BLOCK values (zeros past n) into limbs[j][lane].
static inline void gather_block(const uint8_t *values, size_t n, uint32_t limbs[5][B62_BLOCK]) {
    for (size_t i = 0; i < B62_BLOCK; i++)
        for (int j = 0; j < 5; j++) limbs[j][i] = i < n ? load_be32(values + 20 * i + 4 * j) : 0;
}

// The same from a KSUID's parts: limb 0 the stamp for every value, limbs 1–4 the 16 random bytes at
// random + 16 i.
static inline void gather_ksuid(uint32_t stamp, const uint8_t *random, size_t n, uint32_t limbs[5][B62_BLOCK]) {
    for (size_t i = 0; i < B62_BLOCK; i++) {
        limbs[0][i] = i < n ? stamp : 0;
        for (int j = 1; j < 5; j++) limbs[j][i] = i < n ? load_be32(random + 16 * i + 4 * (j - 1)) : 0;
    }
}

// Writes n ids from chunks[c][lane]: c = 0 the top two characters, c = 1..5 five each.
static inline void scatter_block(const uint64_t chunks[6][B62_BLOCK], size_t n, uint8_t *out, size_t stride) {
    for (size_t i = 0; i < n; i++) {
        uint8_t *o = out + i * stride;
        // Each 8-byte store's last 3 bytes are overwritten by the next; the last chunk is cut to 5.
        memcpy(o, &chunks[0][i], 8);
        memcpy(o + 2, &chunks[1][i], 8);
        memcpy(o + 7, &chunks[2][i], 8);
        memcpy(o + 12, &chunks[3][i], 8);
        memcpy(o + 17, &chunks[4][i], 8);
        memcpy(o + 22, &chunks[5][i], 4);
        o[26] = (uint8_t)(chunks[5][i] >> 32);
    }
}

__attribute__((target("avx2"))) static inline __m256i b62_chars_avx2(__m256i d) {
    // digit → '0'+d, 'A'+d−10 (d ≥ 10), 'a'+d−36 (d ≥ 36), byte by byte.
    __m256i c = _mm256_add_epi8(d, _mm256_set1_epi8('0'));
    c = _mm256_add_epi8(c, _mm256_and_si256(_mm256_cmpgt_epi8(d, _mm256_set1_epi8(9)), _mm256_set1_epi8(7)));
    return _mm256_add_epi8(c, _mm256_and_si256(_mm256_cmpgt_epi8(d, _mm256_set1_epi8(35)), _mm256_set1_epi8(6)));
}

// One division step on four lanes: w ← floor((r·2^32 + w) / D), r ← the remainder.
__attribute__((target("avx2"))) static inline void b62_step_avx2(__m256i *r, __m256i *w) {
    const __m256i r1 = _mm256_set1_epi64x((long long)B62_R1), d = _mm256_set1_epi64x((long long)B62_D5);
    const __m256i low32 = _mm256_set1_epi64x(0xffffffffLL), dm1 = _mm256_set1_epi64x((long long)B62_D5 - 1);
    __m256i hi = _mm256_add_epi64(_mm256_mul_epu32(*r, r1), _mm256_slli_epi64(*r, 32));
    hi = _mm256_add_epi64(hi, _mm256_add_epi64(*w, _mm256_srli_epi64(_mm256_mul_epu32(*w, r1), 32)));
    __m256i q = _mm256_srli_epi64(hi, 30);
    __m256i rem = _mm256_and_si256(_mm256_sub_epi32(*w, _mm256_mul_epu32(q, d)), low32);
    __m256i over = _mm256_cmpgt_epi64(rem, dm1);  // rem ≥ D: q was one short
    *r = _mm256_sub_epi64(rem, _mm256_and_si256(over, d));
    *w = _mm256_sub_epi64(q, over);
}

// The five characters of each lane's x < 62^5, most significant in the low byte, with one multiply:
// F = floor(x·C / 2^29) + 1, C = ceil(2^61 / 62^5) (below 2^32), is x/62^5 as a 32-bit fraction
// rounded up by less than 62^5/2^29 + 1 < 2.71 units, inside the 2^32/62^5 ≈ 4.69 units that keep
// every digit right (digit k is floor(62^k·F / 2^32) mod 62: exact while 62^k times the error stays
// below the distance 1/62^(5−k) from x/62^(5−k) to the next integer, i.e. the error below 2^32/62^5).
// Each digit is then the top of 62·F, F its low 32 bits, and 62·F is (F << 6) − (F << 1): no
// multiply (checked for all 62^5 values when this was written). Two multiplies a digit before: on
// AMD Zen's one 256-bit multiplier they were half of a KSUID's encoding time.
#define B62_F5 2516930874ULL  // ceil(2^61 / 62^5)
__attribute__((target("avx2"))) static inline __m256i b62_digits5_avx2(__m256i x) {
    const __m256i low32 = _mm256_set1_epi64x(0xffffffffLL);
    __m256i f = _mm256_add_epi64(_mm256_srli_epi64(_mm256_mul_epu32(x, _mm256_set1_epi64x((long long)B62_F5)), 29), _mm256_set1_epi64x(1));
    __m256i text = _mm256_setzero_si256();
    for (int k = 0; k < 5; k++) {
        __m256i y = _mm256_sub_epi64(_mm256_slli_epi64(f, 6), _mm256_slli_epi64(f, 1));
        text = _mm256_or_si256(text, _mm256_slli_epi64(_mm256_srli_epi64(y, 32), 8 * k));
        f = _mm256_and_si256(y, low32);
    }
    return b62_chars_avx2(text);
}

// Four independent chains at a time (w[5][4] and r[4] in sixteen registers, give or take a spill).
__attribute__((target("avx2"))) static void b62_block_avx2(const uint32_t limbs[5][B62_BLOCK], uint64_t chunks[6][B62_BLOCK]) {
    B62_UNROLL
    for (int h = 0; h < B62_BLOCK; h += 16) {
        __m256i w[5][4];
        B62_UNROLL
        for (int j = 0; j < 5; j++)
            B62_UNROLL
            for (int g = 0; g < 4; g++) w[j][g] = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)&limbs[j][h + 4 * g]));
        B62_UNROLL
        for (int pass = 0; pass < 5; pass++) {
            __m256i r[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
            B62_UNROLL
            for (int j = pass < 2 ? 0 : pass - 1; j < 5; j++)
                B62_UNROLL
                for (int g = 0; g < 4; g++) b62_step_avx2(&r[g], &w[j][g]);
            B62_UNROLL
            for (int g = 0; g < 4; g++) _mm256_storeu_si256((__m256i *)&chunks[5 - pass][h + 4 * g], b62_digits5_avx2(r[g]));
        }
        // The top two digits: w[4] < 62^2.
        const __m256i m = _mm256_set1_epi64x((long long)B62_M62);
        B62_UNROLL
        for (int g = 0; g < 4; g++) {
            __m256i q = _mm256_srli_epi64(_mm256_mul_epu32(w[4][g], m), 35);
            __m256i lo = _mm256_sub_epi64(w[4][g], _mm256_mul_epu32(q, _mm256_set1_epi64x(62)));
            _mm256_storeu_si256((__m256i *)&chunks[0][h + 4 * g], b62_chars_avx2(_mm256_or_si256(q, _mm256_slli_epi64(lo, 8))));
        }
    }
}

int idt_base62_160_avx2_available(void) { return __builtin_cpu_supports("avx2"); }

// The random bytes of 4 KSUIDs (64 bytes at p): limb j (a big-endian 32-bit word) of each id, as
// w[j]'s four 64-bit lanes — each 16 bytes byte-swapped a word at a time, then a 4×4 transpose.
__attribute__((target("avx2"))) static inline void b62_load4_avx2(const uint8_t *p, __m256i w[4]) {
    const __m128i bswap = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), bswap);
    __m128i b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
    __m128i c = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
    __m128i d = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
    __m128i ab0 = _mm_unpacklo_epi32(a, b), ab1 = _mm_unpackhi_epi32(a, b);  // a0 b0 a1 b1, a2 b2 a3 b3
    __m128i cd0 = _mm_unpacklo_epi32(c, d), cd1 = _mm_unpackhi_epi32(c, d);
    w[0] = _mm256_cvtepu32_epi64(_mm_unpacklo_epi64(ab0, cd0));
    w[1] = _mm256_cvtepu32_epi64(_mm_unpackhi_epi64(ab0, cd0));
    w[2] = _mm256_cvtepu32_epi64(_mm_unpacklo_epi64(ab1, cd1));
    w[3] = _mm256_cvtepu32_epi64(_mm_unpackhi_epi64(ab1, cd1));
}

// KSUIDs, 32 at a time from 512 random bytes, as the AVX-512 kernel does them (see
// b62_ksuid_chunks_avx512): R alone through the divisions (4 + 4 + 3 + 2 steps instead of a whole
// 160-bit value's 19), then T·2^128's chunks `tc` added with the carry, least significant first.
__attribute__((target("avx2"))) static void b62_ksuid_block_avx2(const uint8_t *random, const uint64_t tc[6], uint64_t chunks[6][B62_BLOCK]) {
    const __m256i d = _mm256_set1_epi64x((long long)B62_D5), dm1 = _mm256_set1_epi64x((long long)B62_D5 - 1);
    const __m256i m = _mm256_set1_epi64x((long long)B62_M62), k62 = _mm256_set1_epi64x(62);
    B62_UNROLL
    for (int h = 0; h < B62_BLOCK; h += 16) {
        __m256i w[4][4], lanes[4];
        B62_UNROLL
        for (int g = 0; g < 4; g++) {
            b62_load4_avx2(random + 16 * (h + 4 * g), lanes);
            B62_UNROLL
            for (int j = 0; j < 4; j++) w[j][g] = lanes[j];
        }
        __m256i carry[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
        B62_UNROLL
        for (int pass = 0; pass < 5; pass++) {
            __m256i r[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
            if (pass < 4) {
                B62_UNROLL
                for (int j = pass < 2 ? 0 : pass - 1; j < 4; j++)
                    B62_UNROLL
                    for (int g = 0; g < 4; g++) b62_step_avx2(&r[g], &w[j][g]);
            } else {
                B62_UNROLL
                for (int g = 0; g < 4; g++) r[g] = w[3][g];
            }
            const __m256i t = _mm256_set1_epi64x((long long)tc[5 - pass]);
            B62_UNROLL
            for (int g = 0; g < 4; g++) {
                __m256i sum = _mm256_add_epi64(_mm256_add_epi64(r[g], t), carry[g]);
                __m256i over = _mm256_cmpgt_epi64(sum, dm1);  // sum ≥ D (all values below 2^31)
                sum = _mm256_sub_epi64(sum, _mm256_and_si256(over, d));
                carry[g] = _mm256_srli_epi64(over, 63);
                _mm256_storeu_si256((__m256i *)&chunks[5 - pass][h + 4 * g], b62_digits5_avx2(sum));
            }
        }
        // The top two digits: T·2^128's, plus the last carry (the whole is below 62^27).
        B62_UNROLL
        for (int g = 0; g < 4; g++) {
            __m256i top = _mm256_add_epi64(_mm256_set1_epi64x((long long)tc[0]), carry[g]);
            __m256i q = _mm256_srli_epi64(_mm256_mul_epu32(top, m), 35);
            __m256i lo = _mm256_sub_epi64(top, _mm256_mul_epu32(q, k62));
            _mm256_storeu_si256((__m256i *)&chunks[0][h + 4 * g], b62_chars_avx2(_mm256_or_si256(q, _mm256_slli_epi64(lo, 8))));
        }
    }
}

static void stamp_chunks(uint32_t stamp, uint64_t tc[6]);

// Values from `values` (20 bytes each) or, when it is NULL, KSUIDs from `stamp` and `random` (a last
// block of fewer than 32 ids is read from a zeroed copy, erased after, so nothing past `random` is read).
void idt_b62_run_avx2(const uint8_t *values, uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride) {
    uint32_t limbs[5][B62_BLOCK];
    uint64_t chunks[6][B62_BLOCK];
    uint8_t tail[16 * B62_BLOCK];
    uint64_t tc[6];
    if (!values) stamp_chunks(stamp, tc);
    for (size_t i = 0; i < count; i += B62_BLOCK) {
        size_t n = count - i < B62_BLOCK ? count - i : B62_BLOCK;
        if (values) {
            gather_block(values + 20 * i, n, limbs);
            b62_block_avx2(limbs, chunks);
        } else if (n == B62_BLOCK) {
            b62_ksuid_block_avx2(random + 16 * i, tc, chunks);
        } else {
            memcpy(tail, random + 16 * i, 16 * n);
            memset(tail + 16 * n, 0, sizeof tail - 16 * n);
            b62_ksuid_block_avx2(tail, tc, chunks);
        }
        scatter_block(chunks, n, out + i * stride, stride);
    }
    idt_erase(limbs, sizeof limbs);
    idt_erase(chunks, sizeof chunks);
    idt_erase(tail, sizeof tail);
}

void idt_base62_160_avx2(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    idt_b62_run_avx2(values, 0, NULL, count, out, stride);
}

// AVX-512 (F and BW): the same steps with all 8 values in one register, mask registers for the
// correction and the character mapping.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i b62_chars_avx512(__m512i d) {
    __m512i c = _mm512_add_epi8(d, _mm512_set1_epi8('0'));
    c = _mm512_mask_add_epi8(c, _mm512_cmpgt_epu8_mask(d, _mm512_set1_epi8(9)), c, _mm512_set1_epi8(7));
    return _mm512_mask_add_epi8(c, _mm512_cmpgt_epu8_mask(d, _mm512_set1_epi8(35)), c, _mm512_set1_epi8(6));
}

__attribute__((target("avx512f,avx512bw"))) static inline void b62_step_avx512(__m512i *r, __m512i *w) {
    const __m512i r1 = _mm512_set1_epi64((long long)B62_R1), d = _mm512_set1_epi64((long long)B62_D5);
    const __m512i low32 = _mm512_set1_epi64(0xffffffffLL);
    __m512i hi = _mm512_add_epi64(_mm512_mul_epu32(*r, r1), _mm512_slli_epi64(*r, 32));
    hi = _mm512_add_epi64(hi, _mm512_add_epi64(*w, _mm512_srli_epi64(_mm512_mul_epu32(*w, r1), 32)));
    __m512i q = _mm512_srli_epi64(hi, 30);
    __m512i rem = _mm512_and_si512(_mm512_sub_epi32(*w, _mm512_mul_epu32(q, d)), low32);
    __mmask8 over = _mm512_cmpge_epu64_mask(rem, d);
    *r = _mm512_mask_sub_epi64(rem, over, rem, d);
    *w = _mm512_mask_add_epi64(q, over, q, _mm512_set1_epi64(1));
}

// The five digits (0–61, not yet characters) of each lane's x < 62^5, most significant in the low byte.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i b62_digits5_raw_avx512(__m512i x) {
    const __m512i m = _mm512_set1_epi64((long long)B62_M62), k62 = _mm512_set1_epi64(62);
    __m512i text = _mm512_setzero_si512();
    for (int k = 0; k < 4; k++) {
        __m512i q = _mm512_srli_epi64(_mm512_mul_epu32(x, m), 35);
        __m512i digit = _mm512_sub_epi64(x, _mm512_mul_epu32(q, k62));
        text = _mm512_or_si512(text, _mm512_slli_epi64(digit, 32 - 8 * k));
        x = q;
    }
    return _mm512_or_si512(text, x);
}

__attribute__((target("avx512f,avx512bw"))) static inline __m512i b62_digits5_avx512(__m512i x) {
    return b62_chars_avx512(b62_digits5_raw_avx512(x));
}

__attribute__((target("avx512f,avx512bw"))) static void b62_block_avx512(const uint32_t limbs[5][B62_BLOCK], uint64_t chunks[6][B62_BLOCK]) {
    __m512i w[5][4];
    B62_UNROLL
    for (int j = 0; j < 5; j++)
        B62_UNROLL
        for (int g = 0; g < 4; g++) w[j][g] = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)&limbs[j][8 * g]));
    B62_UNROLL
    for (int pass = 0; pass < 5; pass++) {
        __m512i r[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
        B62_UNROLL
        for (int j = pass < 2 ? 0 : pass - 1; j < 5; j++)
            B62_UNROLL
            for (int g = 0; g < 4; g++) b62_step_avx512(&r[g], &w[j][g]);
        B62_UNROLL
        for (int g = 0; g < 4; g++) _mm512_storeu_si512(&chunks[5 - pass][8 * g], b62_digits5_avx512(r[g]));
    }
    const __m512i m = _mm512_set1_epi64((long long)B62_M62);
    B62_UNROLL
    for (int g = 0; g < 4; g++) {
        __m512i q = _mm512_srli_epi64(_mm512_mul_epu32(w[4][g], m), 35);
        __m512i lo = _mm512_sub_epi64(w[4][g], _mm512_mul_epu32(q, _mm512_set1_epi64(62)));
        _mm512_storeu_si512(&chunks[0][8 * g], b62_chars_avx512(_mm512_or_si512(q, _mm512_slli_epi64(lo, 8))));
    }
}

int idt_base62_160_avx512_available(void) { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"); }

// Values from `values` (20 bytes each) or, when it is NULL, KSUIDs from `stamp` and `random`.
// KSUIDs share their stamp T within a call, so each value is T·2^128 + R with R the 128 random bits:
// R alone goes through the divisions (4 + 4 + 3 + 2 steps, as R < 2^128 < 62^21.5 leaves a fifth
// chunk below 62^2 in its last limb, and no top two digits), and the chunks of T·2^128 (`tc`, worked
// out once a call) are added chunk by chunk, least significant first, with the carry: the sum of two
// chunks and a carry is below 2D, so one conditional subtraction keeps each below D.
// The random bytes of n ≤ 32 ids are read 8 ids (128 bytes) a register pair, zeros past n: each
// 32-bit word byte-swapped, then word j of the 8 ids gathered into one register by vpermt2d.
__attribute__((target("avx512f,avx512bw"))) static inline void b62_ksuid_chunks_avx512(const uint8_t *random, size_t n, const uint64_t tc[6], __m512i chunk[6][4]) {
    __m512i w[4][4];
    const __m512i bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
    B62_UNROLL
    for (int g = 0; g < 4; g++) {
        size_t words = n > 8 * (size_t)g ? 4 * (n - 8 * (size_t)g) : 0;  // 32-bit words of this group's ids
        __mmask16 m0 = words >= 16 ? 0xffff : (__mmask16)((1u << words) - 1);
        __mmask16 m1 = words >= 32 ? 0xffff : words > 16 ? (__mmask16)((1u << (words - 16)) - 1) : 0;
        __m512i a = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi32(m0, random + 128 * g), bswap);
        __m512i b = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi32(m1, random + 128 * g + 64), bswap);
        B62_UNROLL
        for (int j = 0; j < 4; j++) {
            const __m512i pick = _mm512_setr_epi32(j, 4 + j, 8 + j, 12 + j, 16 + j, 20 + j, 24 + j, 28 + j, 0, 0, 0, 0, 0, 0, 0, 0);
            w[j][g] = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(_mm512_permutex2var_epi32(a, pick, b)));
        }
    }
    const __m512i d = _mm512_set1_epi64((long long)B62_D5), one = _mm512_set1_epi64(1);
    __m512i carry[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    B62_UNROLL
    for (int pass = 0; pass < 5; pass++) {
        __m512i r[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
        if (pass < 4) {
            B62_UNROLL
            for (int j = pass < 2 ? 0 : pass - 1; j < 4; j++)
                B62_UNROLL
                for (int g = 0; g < 4; g++) b62_step_avx512(&r[g], &w[j][g]);
        } else {
            B62_UNROLL
            for (int g = 0; g < 4; g++) r[g] = w[3][g];
        }
        const __m512i t = _mm512_set1_epi64((long long)tc[5 - pass]);
        B62_UNROLL
        for (int g = 0; g < 4; g++) {
            __m512i sum = _mm512_add_epi64(_mm512_add_epi64(r[g], t), carry[g]);
            __mmask8 over = _mm512_cmpge_epu64_mask(sum, d);
            sum = _mm512_mask_sub_epi64(sum, over, sum, d);
            carry[g] = _mm512_maskz_mov_epi64(over, one);
            chunk[5 - pass][g] = sum;
        }
    }
    // The top two digits' value: T·2^128's, plus the last carry (the whole is below 62^27, so below 62^2).
    B62_UNROLL
    for (int g = 0; g < 4; g++) chunk[0][g] = _mm512_add_epi64(_mm512_set1_epi64((long long)tc[0]), carry[g]);
}

// The two digits (0–61) of each lane's x < 62^2, the first in the low byte.
__attribute__((target("avx512f,avx512bw"))) static inline __m512i b62_digits2_raw_avx512(__m512i x) {
    __m512i q = _mm512_srli_epi64(_mm512_mul_epu32(x, _mm512_set1_epi64((long long)B62_M62)), 35);
    __m512i lo = _mm512_sub_epi64(x, _mm512_mul_epu32(q, _mm512_set1_epi64(62)));
    return _mm512_or_si512(q, _mm512_slli_epi64(lo, 8));
}

// The digits of every chunk of a block, by the multiply-and-subtract chain.
__attribute__((target("avx512f,avx512bw"))) static inline void b62_ksuid_digits_avx512(const uint8_t *random, size_t n, const uint64_t tc[6], __m512i dig[6][4]) {
    b62_ksuid_chunks_avx512(random, n, tc, dig);
    B62_UNROLL
    for (int g = 0; g < 4; g++) {
        dig[0][g] = b62_digits2_raw_avx512(dig[0][g]);
        B62_UNROLL
        for (int c = 1; c < 6; c++) dig[c][g] = b62_digits5_raw_avx512(dig[c][g]);
    }
}

// With IFMA, the five digits of x < 62^5 cost fewer operations: the first is x·M >> 54 with
// M = ceil(2^54/62^4) (exact, as x·62^4 < 2^54), and the rest come from x' = x − first·62^4 < 62^4 as
// a 52-bit fraction: x'·F with F = ceil(2^52/62^3) has the second digit above bit 52 (vpmadd52huq)
// and the fraction below it (vpmadd52luq); each further digit is the fraction times 62 the same way.
// The fraction's error, x'·(F − 2^52/62^3) units, times up to 62^3, stays below the gap 1/62^(3−k) a
// digit k needs since x'·62^3 < 62^7 < 2^52. (Checked for all 62^5 values when this was written.)
// The digits are then placed a byte apart by multiply-adds of 2^8k.
#define B62_M4 1219138392ULL     // ceil(2^54 / 62^4)
#define B62_F3 18896645075ULL    // ceil(2^52 / 62^3)
__attribute__((target("avx512f,avx512bw,avx512ifma"))) static inline __m512i b62_digits5_ifma(__m512i x) {
    const __m512i zero = _mm512_setzero_si512(), k62 = _mm512_set1_epi64(62);
    __m512i d0 = _mm512_srli_epi64(_mm512_mul_epu32(x, _mm512_set1_epi64((long long)B62_M4)), 54);
    __m512i rest = _mm512_sub_epi64(x, _mm512_mul_epu32(d0, _mm512_set1_epi64(62LL * 62 * 62 * 62)));
    const __m512i f = _mm512_set1_epi64((long long)B62_F3);
    __m512i text = _mm512_madd52lo_epu64(d0, _mm512_madd52hi_epu64(zero, rest, f), _mm512_set1_epi64(1 << 8));
    __m512i y = _mm512_madd52lo_epu64(zero, rest, f);
    text = _mm512_madd52lo_epu64(text, _mm512_madd52hi_epu64(zero, y, k62), _mm512_set1_epi64(1 << 16));
    y = _mm512_madd52lo_epu64(zero, y, k62);
    text = _mm512_madd52lo_epu64(text, _mm512_madd52hi_epu64(zero, y, k62), _mm512_set1_epi64(1 << 24));
    y = _mm512_madd52lo_epu64(zero, y, k62);
    return _mm512_madd52lo_epu64(text, _mm512_madd52hi_epu64(zero, y, k62), _mm512_set1_epi64(1LL << 32));
}

__attribute__((target("avx512f,avx512bw,avx512ifma"))) static inline void b62_ksuid_digits_ifma(const uint8_t *random, size_t n, const uint64_t tc[6], __m512i dig[6][4]) {
    b62_ksuid_chunks_avx512(random, n, tc, dig);
    B62_UNROLL
    for (int g = 0; g < 4; g++) {
        dig[0][g] = b62_digits2_raw_avx512(dig[0][g]);
        B62_UNROLL
        for (int c = 1; c < 6; c++) dig[c][g] = b62_digits5_ifma(dig[c][g]);
    }
}

// Without VBMI: the digits as characters into `chunks`, for scatter_block.
__attribute__((target("avx512f,avx512bw"))) static void b62_ksuid_block_avx512(const uint8_t *random, size_t n, const uint64_t tc[6], uint64_t chunks[6][B62_BLOCK]) {
    __m512i dig[6][4];
    b62_ksuid_digits_avx512(random, n, tc, dig);
    for (int c = 0; c < 6; c++)
        for (int g = 0; g < 4; g++) _mm512_storeu_si512(&chunks[c][8 * g], b62_chars_avx512(dig[c][g]));
    idt_erase(dig, sizeof dig);
}

// With VBMI and IFMA (every CPU with VBMI but one short-lived Intel part has both): the digits by
// multiply-adds, then each group's six digit registers (lane i: id i's digits of that chunk) put in
// id order by byte shuffles (two ids a register, one in each 32-byte half), mapped to characters by
// one vpermb over the alphabet, and each id stored with a 27-byte masked store — nothing else in
// `out` is touched.
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512ifma"))) static void b62_ksuid_block_vbmi(const uint8_t *random, size_t n, const uint64_t tc[6], uint8_t *out, size_t stride) {
    __m512i dig[6][4];
    b62_ksuid_digits_ifma(random, n, tc, dig);
    const __m512i alphabet = _mm512_maskz_loadu_epi8(0x3fffffffffffffffULL, b62_alphabet);
    const __m512i top7 = _mm512_loadu_si512((const void *)b62_top7);
    const __mmask64 low = 0x003ff000003ff000ULL, last = 0x07c0000007c00000ULL;
    for (int g = 0; g < 4 && 8 * (size_t)g < n; g++) {
        __m512i joined = _mm512_permutex2var_epi8(dig[0][g], top7, dig[1][g]);
        for (int p = 0; p < 4; p++) {
            size_t id = 8 * (size_t)g + 2 * (size_t)p;
            if (id >= n) break;
            __m512i o = _mm512_permutex2var_epi8(joined, _mm512_loadu_si512((const void *)b62_mid[p]), dig[2][g]);
            o = _mm512_mask_blend_epi8(low, o, _mm512_permutex2var_epi8(dig[3][g], _mm512_loadu_si512((const void *)b62_low[p]), dig[4][g]));
            o = _mm512_mask_blend_epi8(last, o, _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)b62_last[p]), dig[5][g]));
            o = _mm512_permutexvar_epi8(o, alphabet);
            _mm512_mask_storeu_epi8(out + id * stride, 0x07ffffff, o);
            if (id + 1 < n) _mm512_mask_storeu_epi8(out + (id + 1) * stride, 0x07ffffff, _mm512_castsi256_si512(_mm512_extracti64x4_epi64(o, 1)));
        }
    }
    idt_erase(dig, sizeof dig);
}

// The base 62^5 chunks of T·2^128, most significant first (tc[0] the top two digits).
static void stamp_chunks(uint32_t stamp, uint64_t tc[6]) {
    uint32_t w[5] = {stamp, 0, 0, 0, 0};
    for (int pass = 0; pass < 5; pass++) {
        uint64_t rem = 0;
        for (int j = 0; j < 5; j++) {
            uint64_t acc = rem << 32 | w[j];
            w[j] = (uint32_t)(acc / B62_D5);
            rem = acc % B62_D5;
        }
        tc[5 - pass] = rem;
    }
    tc[0] = w[4];
}

void idt_b62_run_avx512(const uint8_t *values, uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride, int vbmi) {
    uint32_t limbs[5][B62_BLOCK];
    uint64_t chunks[6][B62_BLOCK];
    uint64_t tc[6];
    if (!values) stamp_chunks(stamp, tc);
    for (size_t i = 0; i < count; i += B62_BLOCK) {
        size_t n = count - i < B62_BLOCK ? count - i : B62_BLOCK;
        if (values) {
            gather_block(values + 20 * i, n, limbs);
            b62_block_avx512(limbs, chunks);
        } else if (vbmi) {
            b62_ksuid_block_vbmi(random + 16 * i, n, tc, out + i * stride, stride);
            continue;
        } else {
            b62_ksuid_block_avx512(random + 16 * i, n, tc, chunks);
        }
        scatter_block(chunks, n, out + i * stride, stride);
    }
    idt_erase(limbs, sizeof limbs);
    idt_erase(chunks, sizeof chunks);
}

void idt_base62_160_avx512(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    idt_b62_run_avx512(values, 0, NULL, count, out, stride, 0);
}
#else
int idt_base62_160_avx2_available(void) { return 0; }
int idt_base62_160_avx512_available(void) { return 0; }
void idt_base62_160_avx2(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    idt_base62_160_scalar(values, count, out, stride);
}
void idt_base62_160_avx512(const uint8_t *values, size_t count, uint8_t *out, size_t stride) {
    idt_base62_160_scalar(values, count, out, stride);
}
#endif
