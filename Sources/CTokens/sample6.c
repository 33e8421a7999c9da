// Branch-free rejection sampling of 6-bit chunks with SSSE3/SSE4.1: unpack 12 bytes into sixteen
// 6-bit values (the shuffle-and-multiply unpacking SIMD base64 encoders use), map them through a
// 64-entry table with four byte shuffles, and left-pack the accepted ones with a 256-entry shuffle table.
#include "CTokens.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

static uint64_t pack_table[256];
static int pack_ready = 0;

static void build_pack_table(void) {
    for (int m = 0; m < 256; m++) {
        uint64_t idx = 0;
        int k = 0;
        for (int bit = 0; bit < 8; bit++)
            if (m & (1 << bit)) idx |= (uint64_t)bit << (8 * k++);
        for (; k < 8; k++) idx |= (uint64_t)0x80 << (8 * k);  // 0x80: shuffle writes zero
        pack_table[m] = idx;
    }
    pack_ready = 1;
}

int idt_sample6_available(void) {
    static int available = -1;
    if (available < 0) {
        available = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1");
        if (available) build_pack_table();
    }
    return available;
}

__attribute__((target("ssse3,sse4.1,popcnt")))
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    const __m128i t0 = _mm_loadu_si128((const __m128i *)(symbols + 0));
    const __m128i t1 = _mm_loadu_si128((const __m128i *)(symbols + 16));
    const __m128i t2 = _mm_loadu_si128((const __m128i *)(symbols + 32));
    const __m128i t3 = _mm_loadu_si128((const __m128i *)(symbols + 48));
    // Bytes (b0 b1 b2) become the 16-bit words (b1 b0) (b2 b1) for each 3-byte group.
    const __m128i spread = _mm_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    const __m128i limitv = _mm_set1_epi8((char)limit);
    const __m128i three = _mm_set1_epi8(3);
    size_t n = 0;
    for (size_t g = 0; g < groups; g++) {
        __m128i in = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(random + 12 * g)), spread);
        // For v = b0 b1 b2 (24 bits): c0 = v>>18, c1 = (v>>12)&63, c2 = (v>>6)&63, c3 = v&63.
        __m128i a = _mm_mulhi_epu16(_mm_and_si128(in, _mm_set1_epi32(0x0fc0fc00)), _mm_set1_epi32(0x04000040));
        __m128i b = _mm_mullo_epi16(_mm_and_si128(in, _mm_set1_epi32(0x003f03f0)), _mm_set1_epi32(0x01000010));
        __m128i c = _mm_or_si128(a, b);  // sixteen bytes, each in 0..63
        // Table lookup: pshufb reads the low 4 bits; pick the 16-entry quarter by bits 4-5.
        __m128i q = _mm_and_si128(_mm_srli_epi16(c, 4), three);
        __m128i s = _mm_shuffle_epi8(t0, c);
        s = _mm_blendv_epi8(s, _mm_shuffle_epi8(t1, c), _mm_cmpeq_epi8(q, _mm_set1_epi8(1)));
        s = _mm_blendv_epi8(s, _mm_shuffle_epi8(t2, c), _mm_cmpeq_epi8(q, _mm_set1_epi8(2)));
        s = _mm_blendv_epi8(s, _mm_shuffle_epi8(t3, c), _mm_cmpeq_epi8(q, _mm_set1_epi8(3)));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(limitv, c));  // c < limit (c, limit ≤ 64)
        __m128i lo = _mm_shuffle_epi8(s, _mm_cvtsi64_si128((long long)pack_table[mask & 0xff]));
        _mm_storel_epi64((__m128i *)(out + n), lo);
        n += (size_t)__builtin_popcount(mask & 0xff);
        __m128i hi = _mm_shuffle_epi8(_mm_srli_si128(s, 8), _mm_cvtsi64_si128((long long)pack_table[mask >> 8]));
        _mm_storel_epi64((__m128i *)(out + n), hi);
        n += (size_t)__builtin_popcount(mask >> 8);
    }
    return n;
}
__attribute__((target("ssse3")))
void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out) {
    const __m128i table = _mm_loadu_si128((const __m128i *)symbols);
    const __m128i low4 = _mm_set1_epi8(0x0f);
    for (size_t g = 0; g < groups; g++) {
        __m128i r = _mm_loadu_si128((const __m128i *)(random + 16 * g));
        __m128i lo = _mm_shuffle_epi8(table, _mm_and_si128(r, low4));
        __m128i hi = _mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16(r, 4), low4));
        _mm_storeu_si128((__m128i *)(out + 32 * g), _mm_unpacklo_epi8(lo, hi));
        _mm_storeu_si128((__m128i *)(out + 32 * g + 16), _mm_unpackhi_epi8(lo, hi));
    }
}
#else
void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out) {
    for (size_t i = 0; i < 16 * groups; i++) {
        out[2 * i] = symbols[random[i] & 15];
        out[2 * i + 1] = symbols[random[i] >> 4];
    }
}
int idt_sample6_available(void) { return 0; }
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    (void)random; (void)groups; (void)symbols; (void)limit; (void)out;
    return 0;
}
#endif
