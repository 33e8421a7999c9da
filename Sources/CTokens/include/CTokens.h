#ifndef IDBUDGET_CTOKENS_H
#define IDBUDGET_CTOKENS_H
#include <stddef.h>
#include <stdint.h>

// Two implementations of the system layer, one file each, of which exactly one compiles:
// platform_linux.c, the Linux fast path (getrandom, MADV_WIPEONFORK, explicit_bzero), on Linux; and
// platform_portable.c (getentropy or arc4random_buf, no wipe-on-fork, pthread_atfork, a wipe the
// compiler cannot drop) everywhere else, and on Linux when built with -DIDTOKENS_PORTABLE (pass it to
// both compilers: -Xswiftc -DIDTOKENS_PORTABLE -Xcc -DIDTOKENS_PORTABLE).
#if defined(__linux__) && !defined(IDTOKENS_PORTABLE)
#define IDT_PLATFORM_LINUX 1
#else
#define IDT_PLATFORM_LINUX 0
#endif

/// Which system layer is built: "linux" (the Linux fast path) or "portable".
const char *idt_platform_name(void);

/// Fills buf with len bytes from the kernel CSPRNG. Linux path: getrandom, retrying short reads;
/// /dev/urandom (after the pool is initialised) where getrandom is missing or filtered. Portable path:
/// arc4random_buf on Apple and the BSDs, getentropy in 256-byte chunks elsewhere (/dev/urandom where it
/// is missing or filtered). 0 on success, -1 on failure.
int idt_kernel_random(void *buf, size_t len);
/// Tests only: take the /dev/urandom path even where the system call works.
void idt_force_urandom_for_testing(int on);

/// Page-aligned, zeroed, private memory, excluded from core dumps where the system can (MADV_DONTDUMP,
/// MADV_NOCORE). With wipe_on_fork, on the Linux path, asks the kernel to zero it in a child after
/// fork() (MADV_WIPEONFORK) and sets *wipes to whether it agreed; the portable path always sets 0.
void *idt_map_private(size_t len, int wipe_on_fork, int *wipes);
/// Erases then unmaps memory from idt_map_private.
void idt_unmap(void *addr, size_t len);
/// Zeroes memory in a way the compiler cannot drop (explicit_bzero; memset_s; or memset and a compiler
/// barrier).
void idt_erase(void *addr, size_t len);

/// How many times this process was made by a fork() that ran pthread_atfork handlers: the portable
/// path registers a child handler that adds 1 (on first idt_map_shared), so generator state stamped
/// with an older count is known inherited without any claim. Always 0 on the Linux path, which needs no
/// handler (wipe-on-fork pages, and the claim below where the kernel lacks them). A raw fork runs no
/// handler: the claim alone catches it.
extern uint64_t idt_fork_generation_count;
static inline uint64_t idt_fork_generation(void) {
    return __atomic_load_n(&idt_fork_generation_count, __ATOMIC_RELAXED);
}

/// Zeroed memory shared (MAP_SHARED) with every process later forked from this one, however it forks.
void *idt_map_shared(size_t len);
/// Unmaps memory from idt_map_shared in this process only, without erasing it (others may use it).
void idt_unmap_shared(void *addr, size_t len);

/// Claims the next use of state guarded by the shared word *owner, of which this process's private copy
/// is *mine: the word is advanced from *mine to *mine + 1 in one atomic step, and only then is the claim
/// granted (1). A forked parent and child start with the same pair; whichever claims first advances
/// the word, and the other's claims all fail (0) from then on, however the fork was made and even when
/// both claim at once. No system call: one locked compare-and-swap on a line this thread alone writes.
static inline int idt_claim(uint64_t *owner, uint64_t *mine) {
    uint64_t expected = *mine;
    if (__atomic_compare_exchange_n(owner, &expected, expected + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        *mine = expected + 1;
        return 1;
    }
    return 0;
}

/// Atomic loads, stores and compare-and-swaps on words in raw memory (a node slot's state pages, which
/// several threads' generators share).
static inline uint64_t idt_atomic_load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void idt_atomic_store(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
/// Sets *p to desired if it holds *expected (1); else loads it into *expected (0).
static inline int idt_atomic_cas(uint64_t *p, uint64_t *expected, uint64_t desired) {
    return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/// Writes `blocks` ChaCha20 blocks (RFC 8439) for the 8-word little-endian key, the 3-word nonce and
/// the starting block counter into out, in standard byte order. Any block count; 16 blocks at a time
/// with AVX-512F (unless IDTOKENS_SAMPLER names avx2, ssse3 or scalar), then 8 with AVX2 when the CPU
/// has it, then 4 with the baseline vectors (SSE2, NEON).
void idt_chacha20_blocks(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, size_t blocks,
                         uint8_t *out);
/// The widest kernel idt_chacha20_blocks uses: "avx512", "avx2", "sse2" or "neon".
const char *idt_chacha20_kernel_name(void);

/// Whether the SSSE3 kernels can run here (SSSE3, SSE4.1, POPCNT). idt_sample6 and idt_sample4 run
/// everywhere (a portable loop where no SIMD kernel can).
int idt_sample6_available(void);

/// Rejection-samples symbols from 6-bit chunks: every 3 random bytes give four 6-bit values c
/// (big-endian bit order, as base64 reads them); c < limit is accepted as symbols[c], the rest are
/// dropped. Reads groups * 12 bytes from random (plus 4 bytes of slack that are not used), writes the
/// accepted symbols to out, returns how many; out needs groups * 16 + 64 bytes of room (the kernels
/// store whole vectors, zero past the last accepted symbol). Every kernel gives the same output.
/// The kernel is chosen on the first call: AVX-512 VBMI2 > AVX2 > SSSE3 > NEON > scalar, the best the CPU
/// has, or the one the environment variable IDTOKENS_SAMPLER names (avx512, avx2, ssse3, neon, scalar)
/// when the CPU has it (else the best).
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
/// The kernel idt_sample6 and idt_sample4 use: "avx512", "avx2", "ssse3", "neon" or "scalar".
const char *idt_sample6_kernel_name(void);
/// The kernels on their own, for the tests (each only where its availability check says so; the
/// scalar one anywhere). AVX-512 works in blocks of four groups (the last one a masked load) and AVX2
/// in pairs, with an SSSE3 tail.
int idt_sample6_avx512_available(void);
int idt_sample6_avx2_available(void);
size_t idt_sample6_scalar(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
size_t idt_sample6_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
size_t idt_sample6_avx2(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
/// AArch64 NEON (blocks of four groups, scalar tail); elsewhere the scalar kernel under this name.
int idt_sample6_neon_available(void);
size_t idt_sample6_neon(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);

/// For exactly 16-symbol alphabets (4-bit chunks, nothing rejected): every random byte gives two
/// symbols, symbols[low nibble] then symbols[high nibble]. Reads groups * 16 bytes, writes groups * 32.
/// AVX2 (for pairs of groups) when idt_sample6 uses AVX2 or AVX-512, else as idt_sample6's choice.
void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out);

/// Rejection-samples symbols from whole random bytes: byte b < limit (≤ 256) is accepted as
/// symbols[b], the rest are dropped, in order. The table repeats with `period` (symbols[b] =
/// symbols[b mod period] for b < limit; period = limit promises nothing): the AVX2 kernel then looks
/// up b mod period in the table's first ceil(period/16) slices. Reads `bytes` bytes, writes the accepted symbols to out
/// and returns how many; out needs bytes + 64 bytes of room (zero past the last accepted symbol).
/// AVX-512 VBMI2 when idt_sample6 uses it, AVX2 when it uses AVX2 (idt_sample8_simd() says which: 2,
/// 1, or 0 for the portable loop); all give the same output. The kernels on their own for the tests:
/// idt_sample8_avx512 (blocks of 64 bytes, the last one a masked load; the scalar loop where the CPU
/// lacks AVX-512 VBMI2), idt_sample8_avx2 (blocks of 32, the tail by the scalar loop) and
/// idt_sample8_scalar.
size_t idt_sample8(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out);
int idt_sample8_simd(void);
size_t idt_sample8_avx512(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out);
size_t idt_sample8_avx2(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out);
size_t idt_sample8_scalar(const uint8_t *random, size_t bytes, const uint8_t symbols[256], unsigned limit, unsigned period, uint8_t *out);

/// Base62 text of 160-bit values (KSUIDs): for each of count values (20 bytes each, big-endian, at
/// values + 20 i), writes exactly 27 characters over 0-9A-Za-z (the value's base62 digits, zero-padded,
/// most significant first) at out + i * stride and touches no other byte (stride ≥ 27). Every kernel
/// gives the same output; each erases its own scratch copies. The kernel is chosen on the first call:
/// AVX-512 (F+BW) > AVX2 > scalar, the best the CPU has, or the one the environment variable
/// IDTOKENS_ENCODER names (avx512, avx2, scalar), or when that is unset the one IDTOKENS_SAMPLER names
/// (its ssse3 and neon mean scalar here), when the CPU has it (else the best).
void idt_base62_160(const uint8_t *values, size_t count, uint8_t *out, size_t stride);
/// KSUID text: for each of count ids, the base62 text of the 160-bit value (stamp, then the 16 bytes
/// at random + 16 i, big-endian) at out + i * stride, as idt_base62_160 writes it, by the same kernel.
/// The AVX-512 kernel divides only the random 128 bits and adds the stamp's chunks in base 62^5; with
/// VBMI and IFMA it finds the digits by 52-bit multiply-adds, puts them in id order and maps them to
/// characters by byte shuffles.
void idt_ksuid_text(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
/// Its kernels on their own, for the tests (each the scalar one where the CPU lacks it).
void idt_ksuid_text_scalar(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
void idt_ksuid_text_avx2(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
void idt_ksuid_text_avx512(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
/// The AVX-512 kernel as on a CPU without VBMI and IFMA (the digits stored, then copied out id by id).
void idt_ksuid_text_avx512bw(uint32_t stamp, const uint8_t *random, size_t count, uint8_t *out, size_t stride);
/// The kernel idt_base62_160 uses: "avx512", "avx2" or "scalar".
const char *idt_base62_160_kernel_name(void);
/// The kernels on their own, for the tests: the portable one (64-bit limbs over 62^10 with a
/// precomputed reciprocal, 2-digit tables) anywhere; AVX2 and AVX-512 (8 values at once, five 32-bit
/// limbs over 62^5) only where their availability check says so (elsewhere the scalar one under their name).
void idt_base62_160_scalar(const uint8_t *values, size_t count, uint8_t *out, size_t stride);
int idt_base62_160_avx2_available(void);
void idt_base62_160_avx2(const uint8_t *values, size_t count, uint8_t *out, size_t stride);
int idt_base62_160_avx512_available(void);
void idt_base62_160_avx512(const uint8_t *values, size_t count, uint8_t *out, size_t stride);

/// Zeroes the vector registers (x86-64: xmm/ymm/zmm; arm64: the caller-saved v registers), where copies
/// of handed-out tokens may linger.
void idt_clear_registers(void);
/// Zeroes 4 KiB of stack below the caller (the frames of calls that just returned), then the registers.
void idt_scrub_stack(void);
/// The same over 16 KiB, after the KSUID encoder (its kernels' frames reach deeper than 4 KiB).
void idt_scrub_stack_deep(void);

/// Tests only: fork by the raw system call (SYS_fork, or clone on architectures without it), which
/// runs no pthread_atfork handler, as a runtime or sandbox that forks by syscall does. Returns as fork().
/// Linux only (both paths): elsewhere -1 with errno ENOSYS.
long idt_raw_fork_for_testing(void);
/// The millisecond clock of the time-ordered formats, one per generator (zeroed to start). Reading the
/// real-time clock costs about 20 ns in a VM, several times what minting an id does; so it is read once
/// a millisecond, and in between the CPU's counter (x86-64: the TSC, 4 ns; AArch64: CNTVCT_EL0) says
/// whether that millisecond is still running. The answer is the millisecond clock_gettime(CLOCK_REALTIME)
/// gave at most 1 ms ago, never a later one: the window a read opens ends, by the counter's rate less
/// 2 %, before the millisecond does. The counter is used only where it runs at one rate on every core
/// (x86-64: an invariant TSC that Linux keeps time with; AArch64 Linux: the generic timer), after its
/// rate has been measured against CLOCK_MONOTONIC_RAW for 5 ms; elsewhere, before that, or with
/// IDTOKENS_CLOCK=realtime, every call reads the real-time clock.
typedef struct {
    uint64_t start, end, ms;
} idt_clock;
/// Reads the real-time clock: its millisecond, and the counter window in which it stays current.
uint64_t idt_clock_ms_read(idt_clock *c);
/// What will stand in between reads once measured: "tsc", "cntvct", or "realtime" (nothing: every call
/// reads the clock).
const char *idt_clock_counter_name(void);
/// Milliseconds since the Unix epoch (see idt_clock).
static inline uint64_t idt_clock_ms(idt_clock *c) {
#if defined(__x86_64__)
    uint64_t t = __builtin_ia32_rdtsc();
    // Unsigned: a counter below the window's start (another core's, or after a reset) reads the clock.
    if (t - c->start < c->end - c->start) return c->ms;
#elif defined(__aarch64__)
    uint64_t t;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(t));
    if (t - c->start < c->end - c->start) return c->ms;
#endif
    return idt_clock_ms_read(c);
}

#endif
