// Branch-free rejection sampling of 6-bit chunks with SSSE3/SSE4.1: unpack 12 bytes into sixteen
// 6-bit values (the shuffle-and-multiply unpacking SIMD base64 encoders use), map them through a
// 64-entry table with four byte shuffles, and left-pack the accepted ones with a 256-entry shuffle table.
#include "CTokens.h"
#include <stdlib.h>
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
static inline __m512i sample6_block(const uint8_t *random, __mmask64 bytes, __mmask64 chunks, __m512i table, __m512i limitv, __mmask64 *accept) {
    const __m512i spread = _mm512_loadu_si512((const void *)spread48);
    const __m512i shifts = _mm512_set1_epi64(0x3036242a1016040aLL);
    __m512i in = _mm512_maskz_loadu_epi8(bytes, random);
    __m512i c = _mm512_and_si512(_mm512_multishift_epi64_epi8(shifts, _mm512_permutexvar_epi8(spread, in)), _mm512_set1_epi8(0x3f));
    *accept = chunks & _mm512_cmplt_epu8_mask(c, limitv);
    return _mm512_maskz_compress_epi8(*accept, _mm512_permutexvar_epi8(c, table));
}

// Two blocks a step, so that where the second block's symbols go (after the first's count) does not
// wait on the first store; a last block of fewer than four groups is read by a shorter masked load,
// its accept mask cut to their chunks.
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))
static size_t sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    const __m512i table = _mm512_loadu_si512((const void *)symbols);
    const __m512i limitv = _mm512_set1_epi8((char)limit);
    const __mmask64 whole = 0x0000ffffffffffffULL;
    size_t n = 0, g = 0;
    for (; g + 8 <= groups; g += 8) {
        __mmask64 a0, a1;
        __m512i s0 = sample6_block(random + 12 * g, whole, ~0ULL, table, limitv, &a0);
        __m512i s1 = sample6_block(random + 12 * g + 48, whole, ~0ULL, table, limitv, &a1);
        size_t c0 = (size_t)__builtin_popcountll(a0);
        _mm512_storeu_si512((void *)(out + n), s0);
        _mm512_storeu_si512((void *)(out + n + c0), s1);
        n += c0 + (size_t)__builtin_popcountll(a1);
    }
    for (; g < groups; g += 4) {
        size_t left = groups - g;
        __mmask64 bytes = whole, chunks = ~0ULL, a;
        if (left < 4) {
            bytes = (1ULL << (12 * left)) - 1;
            chunks = (1ULL << (16 * left)) - 1;
        }
        __m512i s0 = sample6_block(random + 12 * g, bytes, chunks, table, limitv, &a);
        _mm512_storeu_si512((void *)(out + n), s0);
        n += (size_t)__builtin_popcountll(a);
    }
    return n;
}

size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    size_t n = sample6_avx512(random, groups, symbols, limit, out);
    out[n] = 0;  // as the other kernels leave it, when the last block accepted all 64
    return n;
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
static void sample4_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out) {
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

int idt_sample6_avx2_available(void) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && idt_sample6_available();
}

// AVX2: two 12-byte groups (24 bytes) give 32 chunks per step, in the SSSE3 kernel's order: each
// 128-bit lane unpacks one group exactly as the SSSE3 kernel does (one 32-byte load from 4 bytes before
// the pair puts the second group at the start of the upper lane; the first pair, which has no bytes
// before it, takes two 16-byte loads). The 64-entry lookup is four byte shuffles of XOR-chained tables
// (d_q = t_{q-1} ^ t_q, indexed by c - 16q, which shuffles to zero for c < 16q, so the XOR of the first
// q+1 gives t_q[c & 15] for c in quarter q), with no blends. One shuffle packs the accepted bytes of
// each 8-byte quarter to its front (pack_table, the upper quarter of a lane offset by 8), and four
// 8-byte stores put the quarters end to end; bytes past the accepted ones are zero.
__attribute__((target("avx2,popcnt,bmi2")))
static size_t sample6_avx2(const uint8_t *random, size_t pairs, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    const __m256i t0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(symbols + 0)));
    const __m256i t1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(symbols + 16)));
    const __m256i t2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(symbols + 32)));
    const __m256i t3 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(symbols + 48)));
    const __m256i d1 = _mm256_xor_si256(t0, t1), d2 = _mm256_xor_si256(t1, t2), d3 = _mm256_xor_si256(t2, t3);
    // Bytes (b0 b1 b2) become the 16-bit words (b1 b0) (b2 b1) for each 3-byte group; spread4 for a
    // lower lane that starts 4 bytes before its group.
    const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                            1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    const __m256i spread4 = _mm256_setr_epi8(5, 4, 6, 5, 8, 7, 9, 8, 11, 10, 12, 11, 14, 13, 15, 14,
                                             1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    const __m256i hi8 = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8,
                                         0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
    const __m256i limitv = _mm256_set1_epi8((char)limit);
    const __m256i c16 = _mm256_set1_epi8(16), c32 = _mm256_set1_epi8(32), c48 = _mm256_set1_epi8(48);
    const __m256i am = _mm256_set1_epi32(0x0fc0fc00), ak = _mm256_set1_epi32(0x04000040);
    const __m256i bm = _mm256_set1_epi32(0x003f03f0), bk = _mm256_set1_epi32(0x01000010);
    size_t n = 0;
    for (size_t p = 0; p < pairs; p++) {
        __m256i in = p == 0 ? _mm256_shuffle_epi8(_mm256_inserti128_si256(
                                  _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)random)),
                                  _mm_loadu_si128((const __m128i *)(random + 12)), 1), spread)
                            : _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(random + 24 * p - 4)), spread4);
        // For v = b0 b1 b2 (24 bits): c0 = v>>18, c1 = (v>>12)&63, c2 = (v>>6)&63, c3 = v&63.
        __m256i a = _mm256_mulhi_epu16(_mm256_and_si256(in, am), ak);
        __m256i b = _mm256_mullo_epi16(_mm256_and_si256(in, bm), bk);
        __m256i c = _mm256_or_si256(a, b);  // 32 bytes, each in 0..63
        __m256i s = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_shuffle_epi8(t0, c), _mm256_shuffle_epi8(d1, _mm256_sub_epi8(c, c16))),
            _mm256_xor_si256(_mm256_shuffle_epi8(d2, _mm256_sub_epi8(c, c32)), _mm256_shuffle_epi8(d3, _mm256_sub_epi8(c, c48))));
        uint32_t m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(limitv, c));  // c < limit (c, limit ≤ 64)
        __m128i p01 = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)&pack_table[m & 0xff])),
                                                    (const double *)&pack_table[(m >> 8) & 0xff]));
        __m128i p23 = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)&pack_table[(m >> 16) & 0xff])),
                                                    (const double *)&pack_table[m >> 24]));
        s = _mm256_shuffle_epi8(s, _mm256_add_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(p01), p23, 1), hi8));
        __m128i l0 = _mm256_castsi256_si128(s), l1 = _mm256_extracti128_si256(s, 1);
        _mm_storel_epi64((__m128i *)(out + n), l0);
        _mm_storeh_pd((double *)(out + n + (size_t)__builtin_popcount(m & 0xff)), _mm_castsi128_pd(l0));
        _mm_storel_epi64((__m128i *)(out + n + (size_t)__builtin_popcount(m & 0xffff)), l1);
        _mm_storeh_pd((double *)(out + n + (size_t)__builtin_popcount(m & 0xffffff)), _mm_castsi128_pd(l1));
        n += (size_t)__builtin_popcount(m);
    }
    return n;
}

size_t idt_sample6_avx2(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    size_t n = sample6_avx2(random, groups / 2, symbols, limit, out);
    size_t g = groups / 2 * 2;
    return n + idt_sample6_ssse3(random + 12 * g, groups - g, symbols, limit, out + n);
}

// 16-symbol alphabets, 32 random bytes (64 symbols) a step; same order as the SSSE3 kernel.
__attribute__((target("avx2")))
static void sample4_avx2(const uint8_t *random, size_t pairs, const uint8_t symbols[16], uint8_t *out) {
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)symbols));
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    for (size_t p = 0; p < pairs; p++) {
        __m256i r = _mm256_loadu_si256((const __m256i *)(random + 32 * p));
        __m256i lo = _mm256_shuffle_epi8(table, _mm256_and_si256(r, low4));
        __m256i hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(r, 4), low4));
        // unpack works per lane: (lane0 lo, lane1 lo) and (lane0 hi, lane1 hi) → reorder the 128-bit halves.
        __m256i x = _mm256_unpacklo_epi8(lo, hi), y = _mm256_unpackhi_epi8(lo, hi);
        _mm256_storeu_si256((__m256i *)(out + 64 * p), _mm256_permute2x128_si256(x, y, 0x20));
        _mm256_storeu_si256((__m256i *)(out + 64 * p + 32), _mm256_permute2x128_si256(x, y, 0x31));
    }
}
#endif


// The portable reference: what every kernel must produce.
size_t idt_sample6_scalar(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    size_t n = 0;
    for (size_t t = 0; t < 4 * groups; t++) {
        uint32_t v = (uint32_t)random[3 * t] << 16 | (uint32_t)random[3 * t + 1] << 8 | random[3 * t + 2];
        uint8_t c[4] = {(uint8_t)(v >> 18), (uint8_t)((v >> 12) & 63), (uint8_t)((v >> 6) & 63), (uint8_t)(v & 63)};
        for (int i = 0; i < 4; i++) {
            out[n] = symbols[c[i]];
            n += c[i] < limit;
        }
    }
    out[n] = 0;  // the last rejected chunk's symbol, if any, is not left behind
    return n;
}

static void sample4_scalar(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out) {
    for (size_t i = 0; i < 16 * groups; i++) {
        out[2 * i] = symbols[random[i] & 15];
        out[2 * i + 1] = symbols[random[i] >> 4];
    }
}

#if defined(__aarch64__)
#include <arm_neon.h>
int idt_sample6_neon_available(void) { return 1; }  // Advanced SIMD is part of every AArch64 CPU

// NEON: four 12-byte groups (48 bytes) a step. vld3q splits the 16 triples b0 b1 b2 into three
// vectors, shifts cut the four 6-bit chunks, vqtbl4q looks the symbols up in the 64-byte table, and
// vst4q interleaves chunk 0..3 of each triple back into the scalar order; a branch-free loop keeps
// the accepted ones.
size_t idt_sample6_neon(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    const uint8x16x4_t table = vld1q_u8_x4(symbols);
    const uint8x16_t limitv = vdupq_n_u8(limit);
    size_t n = 0, g = 0;
    for (; g + 4 <= groups; g += 4) {
        uint8x16x3_t in = vld3q_u8(random + 12 * g);
        uint8x16_t c0 = vshrq_n_u8(in.val[0], 2);
        uint8x16_t c1 = vorrq_u8(vshlq_n_u8(vandq_u8(in.val[0], vdupq_n_u8(3)), 4), vshrq_n_u8(in.val[1], 4));
        uint8x16_t c2 = vorrq_u8(vshlq_n_u8(vandq_u8(in.val[1], vdupq_n_u8(15)), 2), vshrq_n_u8(in.val[2], 6));
        uint8x16_t c3 = vandq_u8(in.val[2], vdupq_n_u8(63));
        uint8x16x4_t sym = {{vqtbl4q_u8(table, c0), vqtbl4q_u8(table, c1), vqtbl4q_u8(table, c2), vqtbl4q_u8(table, c3)}};
        uint8x16x4_t acc = {{vcltq_u8(c0, limitv), vcltq_u8(c1, limitv), vcltq_u8(c2, limitv), vcltq_u8(c3, limitv)}};
        uint8_t s[64], a[64];
        vst4q_u8(s, sym);
        vst4q_u8(a, acc);
        for (int i = 0; i < 64; i++) {
            out[n] = s[i];
            n += a[i] & 1;
        }
    }
    return n + idt_sample6_scalar(random + 12 * g, groups - g, symbols, limit, out + n);
}
#else
int idt_sample6_neon_available(void) { return 0; }
size_t idt_sample6_neon(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    return idt_sample6_scalar(random, groups, symbols, limit, out);
}
#endif

#if !defined(__x86_64__)
int idt_sample6_available(void) { return 0; }
int idt_sample6_avx512_available(void) { return 0; }
int idt_sample6_avx2_available(void) { return 0; }
size_t idt_sample6_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    return idt_sample6_scalar(random, groups, symbols, limit, out);
}
size_t idt_sample6_avx2(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    return idt_sample6_scalar(random, groups, symbols, limit, out);
}
size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    return idt_sample6_scalar(random, groups, symbols, limit, out);
}
#endif

// Kernel choice, made once: the best the CPU has, or the one IDTOKENS_SAMPLER names (avx512, avx2,
// ssse3, neon, scalar) when the CPU has it; a name the CPU lacks, or an unknown one, falls back to the best.
enum { K_UNSET = 0, K_SCALAR, K_NEON, K_SSSE3, K_AVX2, K_AVX512 };
static int chosen_kernel = K_UNSET;

static int has_kernel(int k) {
    switch (k) {
    case K_SCALAR: return 1;
    case K_NEON: return idt_sample6_neon_available();
    // AVX-512 and AVX2 finish their tails with SSSE3.
    case K_SSSE3: return idt_sample6_available();
    case K_AVX2: return idt_sample6_available() && idt_sample6_avx2_available();
    case K_AVX512: return idt_sample6_available() && idt_sample6_avx512_available();
    default: return 0;
    }
}

static int choose_kernel(void) {
    int best = K_AVX512;
    while (!has_kernel(best)) best--;
    const char *want = getenv("IDTOKENS_SAMPLER");
    if (want == NULL || *want == 0) return best;
    int k = strcmp(want, "scalar") == 0 ? K_SCALAR : strcmp(want, "neon") == 0 ? K_NEON
          : strcmp(want, "ssse3") == 0 ? K_SSSE3 : strcmp(want, "avx2") == 0 ? K_AVX2
          : strcmp(want, "avx512") == 0 ? K_AVX512 : best;
    return has_kernel(k) ? k : best;
}

static int kernel(void) {
    int k = __atomic_load_n(&chosen_kernel, __ATOMIC_RELAXED);
    if (__builtin_expect(k == K_UNSET, 0)) {
        k = choose_kernel();  // every thread computes the same value: storing it twice is harmless
        __atomic_store_n(&chosen_kernel, k, __ATOMIC_RELAXED);
    }
    return k;
}

const char *idt_sample6_kernel_name(void) {
    switch (kernel()) {
    case K_AVX512: return "avx512";
    case K_AVX2: return "avx2";
    case K_SSSE3: return "ssse3";
    case K_NEON: return "neon";
    default: return "scalar";
    }
}

size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out) {
    switch (kernel()) {
#if defined(__x86_64__)
    case K_AVX512: return idt_sample6_avx512(random, groups, symbols, limit, out);
    case K_AVX2: return idt_sample6_avx2(random, groups, symbols, limit, out);
    case K_SSSE3: return idt_sample6_ssse3(random, groups, symbols, limit, out);
#endif
    case K_NEON: return idt_sample6_neon(random, groups, symbols, limit, out);
    default: return idt_sample6_scalar(random, groups, symbols, limit, out);
    }
}

void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out) {
    switch (kernel()) {
#if defined(__x86_64__)
    case K_AVX512:
    case K_AVX2:
        sample4_avx2(random, groups / 2, symbols, out);
        sample4_ssse3(random + 32 * (groups / 2), groups % 2, symbols, out + 64 * (groups / 2));
        return;
    case K_SSSE3: sample4_ssse3(random, groups, symbols, out); return;
#endif
    default: sample4_scalar(random, groups, symbols, out);
    }
}
