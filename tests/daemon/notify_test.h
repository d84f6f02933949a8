/* notify_test.h -- a stand-in for systemd's NOTIFY_SOCKET, for the daemon
 * tests (test_daemon.c: sd_notify itself; test_ashesd.c: the real
 * ashesd's READY, RELOADING and STOPPING). */
#ifndef ASHES_TESTS_NOTIFY_TEST_H
#define ASHES_TESTS_NOTIFY_TEST_H

#include <stdbool.h>

/* A datagram socket bound to name (with abstract, in the abstract
 * namespace: the name's first byte stands for the NUL); returns its fd,
 * and fails the test if it cannot. */
int notify_listen(const char *name, bool abstract);
/* Next datagram within ms, or "" (caller frees). */
char *notify_recv(int fd, int ms);

#endif
