/* daemon_test.h -- helpers shared by the tests/daemon Check programs: a
 * temp directory per test (Check's fixture), whole-file read/write, and a
 * small ashesd.conf in it. */
#ifndef ASHES_TESTS_DAEMON_TEST_H
#define ASHES_TESTS_DAEMON_TEST_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"

/* The current test's temp directory, made by daemon_test_setup(). */
static char tmpdir[256];

static inline void daemon_test_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/ashesd-test-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static inline void daemon_test_teardown(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static inline void daemon_test_write(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	ck_assert_msg(fd >= 0, "cannot create %s", path);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Whole file as a malloc'd string; "" if it is missing. */
static inline char *daemon_test_read(const char *path)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		while ((n = read(fd, chunk, sizeof(chunk))) > 0)
			buf_append(&b, chunk, (size_t)n);
		close(fd);
	}
	buf_puts(&b, "");
	return buf_steal(&b);
}

/* A small valid ashesd.conf at path: a maildir source and the database and
 * keyring in tmpdir, at log level. */
static inline void daemon_config_file(const char *path, const char *level)
{
	char text[1200];

	snprintf(text, sizeof(text),
		 "[source]\ntype = maildir\nmaildir = %s\n[smtp]\nfrom = ashes@example.org\n"
		 "[database]\npath = %s/ashes.db\n[gpg]\nhome = %s/gnupg\n"
		 "[log]\nlevel = %s\n", tmpdir, tmpdir, tmpdir, level);
	daemon_test_write(path, text, 0644);
}

#endif
