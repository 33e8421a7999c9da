#include "urandom.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

int idt_urandom(unsigned char *p, size_t len) {
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
