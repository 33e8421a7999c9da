// The system layer's Linux fast path: getrandom (with a /dev/urandom fallback), MADV_WIPEONFORK and
// MADV_DONTDUMP pages, explicit_bzero. Compiles on Linux unless IDTOKENS_PORTABLE is defined;
// platform_portable.c compiles otherwise (see CTokens.h).
#define _GNU_SOURCE
#include "CTokens.h"
#include "urandom.h"

#if IDT_PLATFORM_LINUX
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

// Never bumped here: wipe-on-fork pages need no atfork handler, nor does the claim where they are missing.
uint64_t idt_fork_generation_count = 0;

const char *idt_platform_name(void) { return "linux"; }

void idt_force_urandom_for_testing(int on) { force_urandom = on; }

int idt_kernel_random(void *buf, size_t len) {
    unsigned char *p = buf;
    if (force_urandom) return idt_urandom(p, len);
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno == ENOSYS || errno == EPERM) return idt_urandom(p, len);
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
#endif  // IDT_PLATFORM_LINUX
