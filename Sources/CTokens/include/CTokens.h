#ifndef IDBUDGET_CSYSTEMRANDOM_H
#define IDBUDGET_CSYSTEMRANDOM_H
#include <stddef.h>

/// Fills buf with len bytes from the kernel CSPRNG (getrandom, retrying short reads); 0 on success.
int idt_kernel_random(void *buf, size_t len);

/// Marks [addr, addr+len) to be zero-filled in a child after fork(); 0 on success, -1 where unsupported.
int idt_wipe_on_fork(void *addr, size_t len);

/// Page-aligned, zeroed memory that a forked child sees zeroed (when the kernel supports it).
void *idt_map_private(size_t len, int *wipes_on_fork);
void idt_unmap(void *addr, size_t len);

#include <stdint.h>

/// Writes `blocks` (a multiple of 8) ChaCha20 blocks (RFC 8439) for the 8-word little-endian key,
/// the 3-word nonce and the starting block counter into out, in standard byte order. Uses AVX2 when
/// the CPU has it, SSE2 otherwise.
void idt_chacha20_blocks(const uint32_t key[8], const uint32_t nonce[3], uint32_t counter, size_t blocks,
                         uint8_t *out);

/// Whether idt_sample6 can run here (SSSE3 and SSE4.1).
int idt_sample6_available(void);

/// Rejection-samples symbols from 6-bit chunks, 16 at a time: every 3 random bytes give four 6-bit
/// values c (big-endian bit order, as base64 reads them); c < limit is accepted as symbols[c], the
/// rest are dropped. Reads groups * 12 bytes from random (plus 4 bytes of slack that are not used),
/// writes the accepted symbols to out (which needs groups * 16 + 16 bytes of room), returns how many.
size_t idt_sample6(const uint8_t *random, size_t groups, const uint8_t symbols[64], uint8_t limit, uint8_t *out);

/// For 16-symbol alphabets (4-bit chunks, nothing rejected): every random byte gives two symbols,
/// symbols[low nibble] then symbols[high nibble]. Reads groups * 16 bytes, writes groups * 32 symbols.
void idt_sample4(const uint8_t *random, size_t groups, const uint8_t symbols[16], uint8_t *out);

/// The calling process's id (to detect fork where wipe-on-fork is unavailable).
long idt_process_id(void);
#endif
