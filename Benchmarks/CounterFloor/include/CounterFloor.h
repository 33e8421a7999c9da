#ifndef COUNTER_FLOOR_H
#define COUNTER_FLOOR_H
#include <stdint.h>

// The CPU's cycle counter, read as a time-ordered id's clock must be on each call (x86-64: RDTSC;
// AArch64: CNTVCT_EL0; elsewhere 0): the benchmark's floor under `next()` for those formats, measured
// here on its own, apart from idbudget's clock.
static inline uint64_t counter_floor_read(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t t;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(t));
    return t;
#else
    return 0;
#endif
}
#endif
