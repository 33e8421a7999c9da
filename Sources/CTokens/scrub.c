// Register and stack scrubbing after tokens were handed out: CPU-specific (x86-64 vector registers;
// nothing to clear elsewhere yet), the same on both system-layer paths.
#include "CTokens.h"

// After tokens were handed out, copies may linger in vector registers (memmove, the SIMD samplers)
// and in the stack frames of calls that have returned; a later call that saves registers (the dynamic
// linker's lazy binding does, with xsave) would write them onto the stack. Zero both.
#if defined(__x86_64__)
__attribute__((target("avx512f"))) static void clear_zmm_high(void) {
    __asm__ volatile(
        "vpxord %%zmm16, %%zmm16, %%zmm16\n\tvpxord %%zmm17, %%zmm17, %%zmm17\n\t"
        "vpxord %%zmm18, %%zmm18, %%zmm18\n\tvpxord %%zmm19, %%zmm19, %%zmm19\n\t"
        "vpxord %%zmm20, %%zmm20, %%zmm20\n\tvpxord %%zmm21, %%zmm21, %%zmm21\n\t"
        "vpxord %%zmm22, %%zmm22, %%zmm22\n\tvpxord %%zmm23, %%zmm23, %%zmm23\n\t"
        "vpxord %%zmm24, %%zmm24, %%zmm24\n\tvpxord %%zmm25, %%zmm25, %%zmm25\n\t"
        "vpxord %%zmm26, %%zmm26, %%zmm26\n\tvpxord %%zmm27, %%zmm27, %%zmm27\n\t"
        "vpxord %%zmm28, %%zmm28, %%zmm28\n\tvpxord %%zmm29, %%zmm29, %%zmm29\n\t"
        "vpxord %%zmm30, %%zmm30, %%zmm30\n\tvpxord %%zmm31, %%zmm31, %%zmm31\n\t" ::: "memory");
}
__attribute__((target("avx"))) static void clear_ymm(void) { __asm__ volatile("vzeroall" ::: "memory"); }
#endif

void idt_clear_registers(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) clear_zmm_high();
    if (__builtin_cpu_supports("avx")) {
        clear_ymm();
    } else {
        __asm__ volatile(
            "pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\tpxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
            "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\tpxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
            "pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\tpxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
            "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\tpxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15\n\t" ::: "memory");
    }
#endif
}

__attribute__((noinline)) void idt_scrub_stack(void) {
    // The frames of the generator's calls that just returned lie below the caller's stack pointer:
    // this frame covers them, and erasing it erases them.
    volatile unsigned char frame[4096];
    idt_erase((void *)frame, sizeof frame);
    idt_clear_registers();
}
