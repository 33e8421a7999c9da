#ifndef IDBUDGET_CTOKENS_URANDOM_H
#define IDBUDGET_CTOKENS_URANDOM_H
#include <stddef.h>

/// Fills p with len bytes of /dev/urandom, once /dev/random is readable (on Linux, once the kernel
/// pool is initialised, as libsodium waits; elsewhere both are the same device and ready at once).
/// The fallback of both system layers where their own call is missing or filtered. 0 or -1.
int idt_urandom(unsigned char *p, size_t len);
#endif
