// The system layer's portable path: macOS, the BSDs, any POSIX system, and Linux when built with
// -DIDTOKENS_PORTABLE (which is how CI runs it). No getrandom call and no wipe-on-fork pages:
// - randomness: arc4random_buf on Apple and the BSDs (kernel-seeded, fork-safe, cannot fail);
//   getentropy in chunks of at most 256 bytes elsewhere; /dev/urandom where getentropy is missing;
// - fork safety: the generator's claim on a MAP_SHARED word before every draw (CTokens.h,
//   idt_claim), which no fork can bypass, plus a pthread_atfork child handler that advances
//   idt_fork_generation_count, so after an ordinary fork() the child always reseeds;
// - erasure: memset_s where the C library has it (Apple, C11 Annex K), explicit_bzero on the BSDs,
//   else memset followed by a compiler barrier that makes the zeroes observable.
// Compiles unless platform_linux.c does (see CTokens.h).
#define _GNU_SOURCE
#define _DEFAULT_SOURCE
#define __STDC_WANT_LIB_EXT1__ 1
#include "CTokens.h"
#include "urandom.h"

#if !IDT_PLATFORM_LINUX
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__DragonFly__)
#include <strings.h>
#endif
#if defined(__linux__)
#include <signal.h>
#include <sys/syscall.h>
#endif

#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__) || defined(__DragonFly__)
#define IDT_HAVE_ARC4RANDOM 1
#else
#define IDT_HAVE_ARC4RANDOM 0
#endif

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

uint64_t idt_fork_generation_count = 0;

const char *idt_platform_name(void) { return "portable"; }

static int force_urandom = 0;

void idt_force_urandom_for_testing(int on) { force_urandom = on; }

#if !IDT_HAVE_ARC4RANDOM
// getentropy is POSIX (2024), glibc 2.25+, musl 1.1.20+, macOS 10.12+; it takes at most 256 bytes.
extern int getentropy(void *buf, size_t len);
#endif

int idt_kernel_random(void *buf, size_t len) {
    unsigned char *p = buf;
    if (force_urandom) return idt_urandom(p, len);
#if IDT_HAVE_ARC4RANDOM
    arc4random_buf(p, len);
    return 0;
#else
    while (len > 0) {
        size_t n = len < 256 ? len : 256;
        if (getentropy(p, n) != 0) {
            if (errno == EINTR) continue;
            if (errno == ENOSYS || errno == EPERM) return idt_urandom(p, len);
            return -1;
        }
        p += n;
        len -= n;
    }
    return 0;
#endif
}

void idt_erase(void *addr, size_t len) {
    if (len == 0) return;
#if defined(__STDC_LIB_EXT1__) || defined(__APPLE__)
    // Darwin's <string.h> declares memset_s when __STDC_WANT_LIB_EXT1__ is set (macOS 10.9+).
    memset_s(addr, len, 0, len);
#elif defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__DragonFly__)
    explicit_bzero(addr, len);
#else
    memset(addr, 0, len);
    // The barrier takes the address and clobbers memory, so the compiler must assume the zeroes are
    // read: the memset cannot be dropped as a dead store (glibc's explicit_bzero does the same).
    __asm__ __volatile__("" : : "r"(addr) : "memory");
#endif
}

static void forked_child(void) { __atomic_add_fetch(&idt_fork_generation_count, 1, __ATOMIC_RELAXED); }

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void) { (void)pthread_atfork(NULL, NULL, forked_child); }

void *idt_map_private(size_t len, int wipe_on_fork, int *wipes) {
    (void)wipe_on_fork;  // no wipe-on-fork here: the caller claims the state before each use instead
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *wipes = 0;
    // Keep the state out of core dumps where the system can.
#if defined(MADV_DONTDUMP)
    madvise(p, len, MADV_DONTDUMP);
#elif defined(MADV_NOCORE)
    madvise(p, len, MADV_NOCORE);
#endif
    return p;
}

void idt_unmap(void *addr, size_t len) {
    // Erase key material and buffered output before giving the pages back.
    idt_erase(addr, len);
    munmap(addr, len);
}

void *idt_map_shared(size_t len) {
    // Only generators that claim their state map a shared word: the first one registers the handler
    // that tells an ordinary fork()'s child to reseed at once.
    pthread_once(&atfork_once, register_atfork);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void idt_unmap_shared(void *addr, size_t len) { munmap(addr, len); }

long idt_raw_fork_for_testing(void) {
#if defined(__linux__)
#ifdef SYS_fork
    return syscall(SYS_fork);
#else
    return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
#else
    errno = ENOSYS;
    return -1;
#endif
}
#endif  // !IDT_PLATFORM_LINUX
