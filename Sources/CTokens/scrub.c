// Register and stack scrubbing after tokens were handed out: CPU-specific (x86-64 and arm64 vector
// registers), the same on both system-layer paths.
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
#elif defined(__aarch64__)
    // AAPCS64: v0-v7 and v16-v31 are caller-saved, so zeroing them costs nothing; the low halves of
    // v8-v15 are callee-saved (clearing them would make the compiler spill them first) and are left.
    __asm__ volatile(
        "movi v0.2d, #0\n\tmovi v1.2d, #0\n\tmovi v2.2d, #0\n\tmovi v3.2d, #0\n\t"
        "movi v4.2d, #0\n\tmovi v5.2d, #0\n\tmovi v6.2d, #0\n\tmovi v7.2d, #0\n\t"
        "movi v16.2d, #0\n\tmovi v17.2d, #0\n\tmovi v18.2d, #0\n\tmovi v19.2d, #0\n\t"
        "movi v20.2d, #0\n\tmovi v21.2d, #0\n\tmovi v22.2d, #0\n\tmovi v23.2d, #0\n\t"
        "movi v24.2d, #0\n\tmovi v25.2d, #0\n\tmovi v26.2d, #0\n\tmovi v27.2d, #0\n\t"
        "movi v28.2d, #0\n\tmovi v29.2d, #0\n\tmovi v30.2d, #0\n\tmovi v31.2d, #0\n\t"
        ::: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "memory");
#endif
}

__attribute__((noinline)) void idt_scrub_stack(void) {
    // The frames of the generator's calls that just returned lie below the caller's stack pointer:
    // this frame covers them, and erasing it erases them.
    volatile unsigned char frame[4096];
    idt_erase((void *)frame, sizeof frame);
    idt_clear_registers();
}

__attribute__((noinline)) void idt_scrub_stack_deep(void) {
    // The same over 16 KiB, for callers of deeper kernels (the KSUID encoder's block frames, which
    // unoptimised builds make several times larger).
    volatile unsigned char frame[16384];
    idt_erase((void *)frame, sizeof frame);
    idt_clear_registers();
}
