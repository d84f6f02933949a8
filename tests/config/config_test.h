/* config_test.h -- what the config tests (test_config.c,
 * test_config_errors.c) share: a config loaded from text, with its errors
 * joined.  The temp directory is daemon_test.h's. */
#ifndef ASHES_TESTS_CONFIG_TEST_H
#define ASHES_TESTS_CONFIG_TEST_H

#include <stddef.h>

#include "config/club_config.h"
#include "util/buf.h"

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

#endif
