#define _GNU_SOURCE
#include "CTokens.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

int idt_kernel_random(void *buf, size_t len) {
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t got = getrandom(p, len, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

int idt_wipe_on_fork(void *addr, size_t len) {
#ifdef MADV_WIPEONFORK
    return madvise(addr, len, MADV_WIPEONFORK);
#else
    (void)addr; (void)len;
    return -1;
#endif
}

void *idt_map_private(size_t len, int *wipes_on_fork) {
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    *wipes_on_fork = idt_wipe_on_fork(p, len) == 0;
    return p;
}

void idt_unmap(void *addr, size_t len) {
    // Erase key material before giving the pages back.
    explicit_bzero(addr, len);
    munmap(addr, len);
}

long idt_process_id(void) { return (long)getpid(); }
