#ifndef IDBUDGET_CTOKENS_H
#define IDBUDGET_CTOKENS_H
#include <stddef.h>
#include <stdint.h>

/// Fills buf with len bytes from the kernel CSPRNG: getrandom, retrying short reads; /dev/urandom
/// (after the pool is initialised) where getrandom is missing or filtered. 0 on success, -1 on failure.
int idt_kernel_random(void *buf, size_t len);
/// Tests only: take the /dev/urandom path even where getrandom works.
void idt_force_urandom_for_testing(int on);

/// Page-aligned, zeroed, private memory, excluded from core dumps. With wipe_on_fork, asks the kernel
/// to zero it in a child after fork() (MADV_WIPEONFORK) and sets *wipes to whether it agreed.
void *idt_map_private(size_t len, int wipe_on_fork, int *wipes);
/// Erases then unmaps memory from idt_map_private.
void idt_unmap(void *addr, size_t len);
/// Zeroes memory in a way the compiler cannot drop (explicit_bzero).
void idt_erase(void *addr, size_t len);

/// How many fork()s this process descends through since idt_watch_forks was first called: a
/// pthread_atfork child handler adds one. State stamped with an older value was inherited from a parent.
extern unsigned long idt_fork_epoch_counter;
static inline unsigned long idt_fork_epoch(void) { return __atomic_load_n(&idt_fork_epoch_counter, __ATOMIC_RELAXED); }
void idt_watch_forks(void);

/// Writes `blocks` ChaCha20 blocks (RFC 8439) for the 8-word little-endian key, the 3-word nonce and
/// the starting block counter into out, in standard byte order. Any block count; AVX2 when the CPU has
/// it, SSE2 otherwise.
void idt_chacha20_blocks(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, size_t blocks,
                         uint8_t *out);

/// Whether idt_sample6 and idt_sample4 can run here (SSSE3, SSE4.1, POPCNT).
int idt_sample6_available(void);

/// Rejection-samples symbols from 6-bit chunks, 16 at a time: every 3 random bytes give four 6-bit
/// values c (big-endian bit order, as base64 reads them); c < limit is accepted as symbols[c], the
/// rest are dropped. Reads groups * 12 bytes from random (plus 4 bytes of slack that are not used),
/// writes the accepted symbols to out (which needs groups * 16 + 16 bytes of room), returns how many.
/// Uses AVX-512 VBMI/VBMI2 for whole blocks of four groups where the CPU has them (the output is the
/// same), and needs 64 bytes of room past the last accepted symbol then.
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
/// The two kernels on their own, for the tests (each only where its availability check says so).
int idt_sample6_avx512_available(void);
size_t idt_sample6_ssse3(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);
size_t idt_sample6_avx512(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);

/// For exactly 16-symbol alphabets (4-bit chunks, nothing rejected): every random byte gives two
/// symbols, symbols[low nibble] then symbols[high nibble]. Reads groups * 16 bytes, writes groups * 32.
void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out);

/// Zeroes the vector registers (xmm/ymm/zmm), where copies of handed-out tokens may linger.
void idt_clear_registers(void);
/// Zeroes 4 KiB of stack below the caller (the frames of calls that just returned), then the registers.
void idt_scrub_stack(void);

/// The calling process's id.
long idt_process_id(void);
#endif
