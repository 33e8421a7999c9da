// Branch-free rejection sampling of 6-bit chunks with SSSE3/SSE4.1: unpack 12 bytes into sixteen
// 6-bit values (the shuffle-and-multiply unpacking SIMD base64 encoders use), map them through a
// 64-entry table with four byte shuffles, and left-pack the accepted ones with a 256-entry shuffle table.
#include "CTokens.h"
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

// pack_table[m]: the pshufb control that moves the bytes whose bit is set in m to the front and
// zeroes the rest (0x80). A constant, so no thread can ever see it half-built.
static const uint64_t pack_table[256] = {
    0x8080808080808080ULL, 0x8080808080808000ULL, 0x8080808080808001ULL, 0x8080808080800100ULL,
    0x8080808080808002ULL, 0x8080808080800200ULL, 0x8080808080800201ULL, 0x8080808080020100ULL,
    0x8080808080808003ULL, 0x8080808080800300ULL, 0x8080808080800301ULL, 0x8080808080030100ULL,
    0x8080808080800302ULL, 0x8080808080030200ULL, 0x8080808080030201ULL, 0x8080808003020100ULL,
    0x8080808080808004ULL, 0x8080808080800400ULL, 0x8080808080800401ULL, 0x8080808080040100ULL,
    0x8080808080800402ULL, 0x8080808080040200ULL, 0x8080808080040201ULL, 0x8080808004020100ULL,
    0x8080808080800403ULL, 0x8080808080040300ULL, 0x8080808080040301ULL, 0x8080808004030100ULL,
    0x8080808080040302ULL, 0x8080808004030200ULL, 0x8080808004030201ULL, 0x8080800403020100ULL,
    0x8080808080808005ULL, 0x8080808080800500ULL, 0x8080808080800501ULL, 0x8080808080050100ULL,
    0x8080808080800502ULL, 0x8080808080050200ULL, 0x8080808080050201ULL, 0x8080808005020100ULL,
    0x8080808080800503ULL, 0x8080808080050300ULL, 0x8080808080050301ULL, 0x8080808005030100ULL,
    0x8080808080050302ULL, 0x8080808005030200ULL, 0x8080808005030201ULL, 0x8080800503020100ULL,
    0x8080808080800504ULL, 0x8080808080050400ULL, 0x8080808080050401ULL, 0x8080808005040100ULL,
    0x8080808080050402ULL, 0x8080808005040200ULL, 0x8080808005040201ULL, 0x8080800504020100ULL,
    0x8080808080050403ULL, 0x8080808005040300ULL, 0x8080808005040301ULL, 0x8080800504030100ULL,
    0x8080808005040302ULL, 0x8080800504030200ULL, 0x8080800504030201ULL, 0x8080050403020100ULL,
    0x8080808080808006ULL, 0x8080808080800600ULL, 0x8080808080800601ULL, 0x8080808080060100ULL,
    0x8080808080800602ULL, 0x8080808080060200ULL, 0x8080808080060201ULL, 0x8080808006020100ULL,
    0x8080808080800603ULL, 0x8080808080060300ULL, 0x8080808080060301ULL, 0x8080808006030100ULL,
    0x8080808080060302ULL, 0x8080808006030200ULL, 0x8080808006030201ULL, 0x8080800603020100ULL,
    0x8080808080800604ULL, 0x8080808080060400ULL, 0x8080808080060401ULL, 0x8080808006040100ULL,
    0x8080808080060402ULL, 0x8080808006040200ULL, 0x8080808006040201ULL, 0x8080800604020100ULL,
    0x8080808080060403ULL, 0x8080808006040300ULL, 0x8080808006040301ULL, 0x8080800604030100ULL,
    0x8080808006040302ULL, 0x8080800604030200ULL, 0x8080800604030201ULL, 0x8080060403020100ULL,
    0x8080808080800605ULL, 0x8080808080060500ULL, 0x8080808080060501ULL, 0x8080808006050100ULL,
    0x8080808080060502ULL, 0x8080808006050200ULL, 0x8080808006050201ULL, 0x8080800605020100ULL,
    0x8080808080060503ULL, 0x8080808006050300ULL, 0x8080808006050301ULL, 0x8080800605030100ULL,
    0x8080808006050302ULL, 0x8080800605030200ULL, 0x8080800605030201ULL, 0x8080060503020100ULL,
    0x8080808080060504ULL, 0x8080808006050400ULL, 0x8080808006050401ULL, 0x8080800605040100ULL,
    0x8080808006050402ULL, 0x8080800605040200ULL, 0x8080800605040201ULL, 0x8080060504020100ULL,
    0x8080808006050403ULL, 0x8080800605040300ULL, 0x8080800605040301ULL, 0x8080060504030100ULL,
    0x8080800605040302ULL, 0x8080060504030200ULL, 0x8080060504030201ULL, 0x8006050403020100ULL,
    0x8080808080808007ULL, 0x8080808080800700ULL, 0x8080808080800701ULL, 0x8080808080070100ULL,
    0x8080808080800702ULL, 0x8080808080070200ULL, 0x8080808080070201ULL, 0x8080808007020100ULL,
    0x8080808080800703ULL, 0x8080808080070300ULL, 0x8080808080070301ULL, 0x8080808007030100ULL,
    0x8080808080070302ULL, 0x8080808007030200ULL, 0x8080808007030201ULL, 0x8080800703020100ULL,
    0x8080808080800704ULL, 0x8080808080070400ULL, 0x8080808080070401ULL, 0x8080808007040100ULL,
    0x8080808080070402ULL, 0x8080808007040200ULL, 0x8080808007040201ULL, 0x8080800704020100ULL,
    0x8080808080070403ULL, 0x8080808007040300ULL, 0x8080808007040301ULL, 0x8080800704030100ULL,
    0x8080808007040302ULL, 0x8080800704030200ULL, 0x8080800704030201ULL, 0x8080070403020100ULL,
    0x8080808080800705ULL, 0x8080808080070500ULL, 0x8080808080070501ULL, 0x8080808007050100ULL,
    0x8080808080070502ULL, 0x8080808007050200ULL, 0x8080808007050201ULL, 0x8080800705020100ULL,
    0x8080808080070503ULL, 0x8080808007050300ULL, 0x8080808007050301ULL, 0x8080800705030100ULL,
    0x8080808007050302ULL, 0x8080800705030200ULL, 0x8080800705030201ULL, 0x8080070503020100ULL,
    0x8080808080070504ULL, 0x8080808007050400ULL, 0x8080808007050401ULL, 0x8080800705040100ULL,
    0x8080808007050402ULL, 0x8080800705040200ULL, 0x8080800705040201ULL, 0x8080070504020100ULL,
    0x8080808007050403ULL, 0x8080800705040300ULL, 0x8080800705040301ULL, 0x8080070504030100ULL,
    0x8080800705040302ULL, 0x8080070504030200ULL, 0x8080070504030201ULL, 0x8007050403020100ULL,
    0x8080808080800706ULL, 0x8080808080070600ULL, 0x8080808080070601ULL, 0x8080808007060100ULL,
    0x8080808080070602ULL, 0x8080808007060200ULL, 0x8080808007060201ULL, 0x8080800706020100ULL,
    0x8080808080070603ULL, 0x8080808007060300ULL, 0x8080808007060301ULL, 0x8080800706030100ULL,
    0x8080808007060302ULL, 0x8080800706030200ULL, 0x8080800706030201ULL, 0x8080070603020100ULL,
    0x8080808080070604ULL, 0x8080808007060400ULL, 0x8080808007060401ULL, 0x8080800706040100ULL,
    0x8080808007060402ULL, 0x8080800706040200ULL, 0x8080800706040201ULL, 0x8080070604020100ULL,
    0x8080808007060403ULL, 0x8080800706040300ULL, 0x8080800706040301ULL, 0x8080070604030100ULL,
    0x8080800706040302ULL, 0x8080070604030200ULL, 0x8080070604030201ULL, 0x8007060403020100ULL,
    0x8080808080070605ULL, 0x8080808007060500ULL, 0x8080808007060501ULL, 0x8080800706050100ULL,
    0x8080808007060502ULL, 0x8080800706050200ULL, 0x8080800706050201ULL, 0x8080070605020100ULL,
    0x8080808007060503ULL, 0x8080800706050300ULL, 0x8080800706050301ULL, 0x8080070605030100ULL,
    0x8080800706050302ULL, 0x8080070605030200ULL, 0x8080070605030201ULL, 0x8007060503020100ULL,
    0x8080808007060504ULL, 0x8080800706050400ULL, 0x8080800706050401ULL, 0x8080070605040100ULL,
    0x8080800706050402ULL, 0x8080070605040200ULL, 0x8080070605040201ULL, 0x8007060504020100ULL,
    0x8080800706050403ULL, 0x8080070605040300ULL, 0x8080070605040301ULL, 0x8007060504030100ULL,
    0x8080070605040302ULL, 0x8007060504030200ULL, 0x8007060504030201ULL, 0x0706050403020100ULL,
};

int idt_sample6_available(void) {
    // __builtin_cpu_supports reads flags the runtime fills in before main: safe from any thread.
    return __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("popcnt");
}

int idt_sample6_avx512_available(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2");
}

// AVX-512 VBMI/VBMI2: four 12-byte groups (48 bytes) at a time give 64 chunks in the same order as the
// SSSE3 kernel: vpermb spreads each 3-byte group b0 b1 b2 into the dword (b1 b0 b2 b1), vpmultishiftqb
// cuts the four 6-bit fields out of it (the shifts base64 encoders use), vpermb looks the symbols up,
// and vpcompressb left-packs the accepted ones.
static const uint8_t spread48[64] = {
    1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
    13, 12, 14, 13, 16, 15, 17, 16, 19, 18, 20, 19, 22, 21, 23, 22,
    25, 24, 26, 25, 28, 27, 29, 28, 31, 30, 32, 31, 34, 33, 35, 34,
    37, 36, 38, 37, 40, 39, 41, 40, 43, 42, 44, 43, 46, 45, 47, 46,
};

__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))
static size_t sample6_avx512(const uint8_t *random, size_t blocks, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    const __m512i table = _mm512_loadu_si512((const void *)symbols);
    const __m512i spread = _mm512_loadu_si512((const void *)spread48);
    const __m512i shifts = _mm512_set1_epi64(0x3036242a1016040aLL);
    const __m512i six = _mm512_set1_epi8(0x3f);
    const __m512i limitv = _mm512_set1_epi8((char)limit);
    size_t n = 0;
    for (size_t b = 0; b < blocks; b++) {
        __m512i in = _mm512_maskz_loadu_epi8(0x0000ffffffffffffULL, random + 48 * b);
        __m512i c = _mm512_and_si512(_mm512_multishift_epi64_epi8(shifts, _mm512_permutexvar_epi8(spread, in)), six);
        __mmask64 accept = _mm512_cmplt_epu8_mask(c, limitv);
        __m512i s = _mm512_maskz_compress_epi8(accept, _mm512_permutexvar_epi8(c, table));
        _mm512_storeu_si512((void *)(out + n), s);
        n += (size_t)__builtin_popcountll(accept);
    }
    return n;
}

size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    size_t n = 0, g = 0;
    if (idt_sample6_avx512_available()) {
        n = sample6_avx512(random, groups / 4, symbols, limit, out);
        g = groups / 4 * 4;
    }
    return n + idt_sample6_ssse3(random + 12 * g, groups - g, symbols, limit, out + n);
}

size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    size_t n = sample6_avx512(random, groups / 4, symbols, limit, out);
    size_t g = groups / 4 * 4;
    return n + idt_sample6_ssse3(random + 12 * g, groups - g, symbols, limit, out + n);
}

__attribute__((target("ssse3,sse4.1,popcnt")))
size_t idt_sample6_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
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
int idt_sample6_avx512_available(void) { return 0; }
size_t idt_sample6_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    (void)random; (void)groups; (void)symbols; (void)limit; (void)out;
    return 0;
}
size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    (void)random; (void)groups; (void)symbols; (void)limit; (void)out;
    return 0;
}
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    (void)random; (void)groups; (void)symbols; (void)limit; (void)out;
    return 0;
}
#endif
