// The millisecond clock of the time-ordered formats: the real-time clock, read once a millisecond, and
// the CPU's counter in between (see CTokens.h, idt_clock_ms).
#define _GNU_SOURCE
#include "CTokens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
static inline uint64_t counter(void) { return __rdtsc(); }
#elif defined(__aarch64__)
static inline uint64_t counter(void) {
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}
#else
static inline uint64_t counter(void) { return 0; }
#endif

// Counter ticks per nanosecond, times 2^32, lowered by 2 % (so that a window never runs past the
// millisecond it was measured in: the measurement below errs by at most 0.4 %, an NTP slew by
// 0.05 %). 0: not known yet; UINT64_MAX: the counter is not to be used (see usable()).
static uint64_t ticks_per_ns_q32 = 0;
static const uint64_t NS_PER_MS = 1000000;
static const double MARGIN = 0.98;
#if !defined(__aarch64__)  // AArch64 reads the counter's rate from CNTFRQ_EL0
// The first calibration point, taken on the first real-time read: counter and CLOCK_MONOTONIC_RAW.
static uint64_t calibration_ticks = 0, calibration_ns = 0;
// The counter's rate is measured over at least this long before it is trusted; each end of the
// measurement is bracketed by two counter reads at most BRACKET ticks apart (10 µs at 2 GHz), so the
// rate errs by at most 2 × 10 µs / 5 ms = 0.4 % (a thread preempted mid-read tries again later).
static const uint64_t CALIBRATION_NS = 5000000;
static const uint64_t BRACKET = 20000;

// CLOCK_MONOTONIC_RAW (the oscillator, not slewed) and the counter at the same instant; 0 when the
// two counter reads around the clock read are too far apart to say which instant that was.
static uint64_t raw_ns(uint64_t *ticks) {
    struct timespec t;
    uint64_t before = counter();
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    uint64_t after = counter();
    if (after - before > BRACKET) return 0;
    *ticks = before + (after - before) / 2;
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#endif

// Whether the counter may stand in for the clock between reads: a counter that runs at one rate on
// every core and through sleep states (x86-64: invariant TSC, and Linux timekeeping on the TSC itself,
// so the kernel trusts it across cores; AArch64: the generic timer, whose rate CNTFRQ_EL0 gives) and
// no IDTOKENS_CLOCK=realtime in the environment.
static int usable(void) {
    const char *want = getenv("IDTOKENS_CLOCK");
    if (want && strcmp(want, "realtime") == 0) return 0;
#if defined(__x86_64__) && defined(__linux__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) return 0;
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f) return 0;
    char name[32] = {0};
    int ok = fgets(name, sizeof name, f) != NULL && strncmp(name, "tsc", 3) == 0 && (name[3] == '\n' || name[3] == 0);
    fclose(f);
    return ok;
#elif defined(__aarch64__) && defined(__linux__)
    return 1;
#else
    return 0;
#endif
}

// The rate, once known: ticks per ns × 2^32 × MARGIN, or 0 while the calibration runs (and for good
// when the counter is not usable or its measured rate is not plausible).
static uint64_t rate(void) {
    uint64_t q = __atomic_load_n(&ticks_per_ns_q32, __ATOMIC_RELAXED);
    if (q == UINT64_MAX) return 0;
    if (q != 0) return q;
#if defined(__aarch64__)
    if (!usable()) {
        __atomic_store_n(&ticks_per_ns_q32, UINT64_MAX, __ATOMIC_RELAXED);
        return 0;
    }
    uint64_t hz;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    q = hz == 0 ? UINT64_MAX : (uint64_t)((double)hz / 1e9 * 4294967296.0 * MARGIN);
    __atomic_store_n(&ticks_per_ns_q32, q, __ATOMIC_RELAXED);
    return q == UINT64_MAX ? 0 : q;
#else
    uint64_t ticks_now = 0;
    uint64_t ns = raw_ns(&ticks_now);
    if (ns == 0) return 0;
    uint64_t t0 = __atomic_load_n(&calibration_ticks, __ATOMIC_ACQUIRE);
    if (t0 == 0) {
        if (!usable()) {
            __atomic_store_n(&ticks_per_ns_q32, UINT64_MAX, __ATOMIC_RELAXED);
            return 0;
        }
        // One thread wins the start point (its ticks, then its ns, which mark the pair complete).
        uint64_t expected = 0;
        if (__atomic_compare_exchange_n(&calibration_ticks, &expected, ticks_now | 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            __atomic_store_n(&calibration_ns, ns, __ATOMIC_RELEASE);
        return 0;
    }
    uint64_t n0 = __atomic_load_n(&calibration_ns, __ATOMIC_ACQUIRE);
    if (n0 == 0 || ns < n0 + CALIBRATION_NS || ticks_now <= t0) return 0;
    double per_ns = (double)(ticks_now - t0) / (double)(ns - n0);
    // 50 MHz to 20 GHz; anything else is a counter to distrust.
    q = per_ns < 0.05 || per_ns > 20 ? UINT64_MAX : (uint64_t)(per_ns * 4294967296.0 * MARGIN);
    __atomic_store_n(&ticks_per_ns_q32, q, __ATOMIC_RELAXED);
    return q == UINT64_MAX ? 0 : q;
#endif
}

uint64_t idt_clock_ms_read(idt_clock *c) {
    // The counter first: the real time at that instant is at most what the clock then says, so the
    // window below ends no later than the millisecond does.
    uint64_t ticks = counter();
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t ns = t.tv_sec < 0 ? 0 : (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
    uint64_t ms = ns / NS_PER_MS;
    uint64_t q = rate();
    c->ms = ms;
    c->start = ticks;
    // Until the rate is known, an empty window: every call reads the clock.
    c->end = q == 0 ? ticks : ticks + (((NS_PER_MS - ns % NS_PER_MS) * q) >> 32);
    return ms;
}

const char *idt_clock_counter_name(void) {
    if (!usable()) return "realtime";
#if defined(__aarch64__)
    return "cntvct";
#else
    return "tsc";
#endif
}
