/* notify_test.c -- the notify socket's stand-in (notify_test.h), in a file
 * of its own: inlined from a header, gcc warns that a caller's 300-byte
 * path may not fit in sun_path. */
#include <check.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "notify_test.h"

/* A datagram socket standing in for systemd's NOTIFY_SOCKET. */
int notify_listen(const char *name, bool abstract)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", name);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name));
	if (abstract)
		sa.sun_path[0] = '\0';
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, len), 0);
	return fd;
}

/* Next datagram within ms, or "" (caller frees). */
char *notify_recv(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char data[512];
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return strdup("");
	n = recv(fd, data, sizeof(data) - 1, 0);
	ck_assert_int_ge(n, 0);
	data[n] = '\0';
	return strdup(data);
}
