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

/// The calling process's id (to detect fork where wipe-on-fork is unavailable).
long idt_process_id(void);
#endif
