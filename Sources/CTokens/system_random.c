#define _GNU_SOURCE
#include "CTokens.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

static int force_urandom = 0;

void idt_force_urandom_for_testing(int on) { force_urandom = on; }

// Where getrandom is missing (ENOSYS: old kernels, some sandboxes) or filtered (EPERM: seccomp),
// read /dev/urandom, after waiting until the kernel pool is initialised (/dev/random readable),
// as libsodium does, so an early-boot caller never gets unseeded bytes.
static int urandom(unsigned char *p, size_t len) {
    int ready = open("/dev/random", O_RDONLY | O_CLOEXEC);
    if (ready >= 0) {
        struct pollfd pfd = {.fd = ready, .events = POLLIN};
        while (poll(&pfd, 1, -1) < 0 && errno == EINTR) {}
        close(ready);
    }
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    while (len > 0) {
        ssize_t got = read(fd, p, len);
        if (got < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return -1;
        }
        if (got == 0) { close(fd); return -1; }
        p += got;
        len -= (size_t)got;
    }
    close(fd);
    return 0;
}

int idt_kernel_random(void *buf, size_t len) {
    unsigned char *p = buf;
    if (force_urandom) return urandom(p, len);
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == ENOSYS || errno == EPERM) return urandom(p, len);
            return -1;
        }
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

void *idt_map_private(size_t len, int wipe_on_fork, int *wipes) {
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *wipes = 0;
#ifdef MADV_WIPEONFORK
    if (wipe_on_fork) *wipes = madvise(p, len, MADV_WIPEONFORK) == 0;
#else
    (void)wipe_on_fork;
#endif
    // Keep the state out of core dumps as well.
#ifdef MADV_DONTDUMP
    madvise(p, len, MADV_DONTDUMP);
#endif
    return p;
}

void idt_unmap(void *addr, size_t len) {
    // Erase key material and buffered output before giving the pages back.
    explicit_bzero(addr, len);
    munmap(addr, len);
}

void idt_erase(void *addr, size_t len) { explicit_bzero(addr, len); }

void *idt_map_shared(size_t len) {
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void idt_unmap_shared(void *addr, size_t len) { munmap(addr, len); }

long idt_raw_fork_for_testing(void) {
#ifdef SYS_fork
    return syscall(SYS_fork);
#else
    return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
}

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
    explicit_bzero((void *)frame, sizeof frame);
    idt_clear_registers();
}
