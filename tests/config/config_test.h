/* config_test.h -- what the config tests (test_config*.c) share: a
 * config loaded from text, with its errors joined.  The temp directory
 * is daemon_test.h's. */
#ifndef ASHES_TESTS_CONFIG_TEST_H
#define ASHES_TESTS_CONFIG_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "config/club_config.h"
#include "util/buf.h"

#include "../daemon/daemon_test.h"

/* Load text; on failure the errors are joined into *joined (caller frees). */
static inline int load(const char *text, struct config *cfg, char **joined)
{
	struct config_errors errors = { NULL, 0 };
	struct buf b = BUF_INIT;
	int ret = config_load_string("t.conf", text, NULL, cfg, &errors);

	config_errors_format(&errors, &b);
	if (joined != NULL)
		*joined = buf_steal(&b);
	buf_free(&b);
	config_errors_free(&errors);
	return ret;
}

/* A valid maildir config with text after it (its first line is 6). */
static inline int load_with(const char *text, struct config *cfg,
			    char **errors)
{
	struct buf all = BUF_INIT;
	int r;

	buf_printf(&all, "[source]\ntype = maildir\nmaildir = %s\n"
		   "[smtp]\nfrom = ashes@example.org\n%s", tmpdir, text);
	r = load(buf_str(&all), cfg, errors);
	buf_free(&all);
	return r;
}

/* ashesd.conf(5) and the example configuration of the source tree, read
 * whole (the caller frees both). */
static inline void read_config_docs(char **man_r, char **example_r)
{
	const char *src = getenv("ASHES_SRCDIR");
	char path[1024];

	ck_assert_ptr_nonnull(src);
	snprintf(path, sizeof(path), "%s/man/ashesd.conf.5", src);
	*man_r = daemon_test_read(path);
	snprintf(path, sizeof(path), "%s/contrib/ashesd.conf", src);
	*example_r = daemon_test_read(path);
}

#endif
