/* tests/mail/inbound_test.h: a mail read as the daemon reads it, for the
 * tests of the inbound side (test_mime, test_mime_html,
 * test_inbound_keys): inbound_parse with our address and a fixed clock,
 * failing the test when it cannot read the mail at all. */
#ifndef ASHES_TESTS_MAIL_INBOUND_TEST_H
#define ASHES_TESTS_MAIL_INBOUND_TEST_H

#include <check.h>
#include <string.h>

#include "mail/inbound.h"

static const char *const ours[] = { "ashes@club.example", NULL };

/* raw[0..len) read with the options o; never NULL. */
static inline struct inbound_msg *parse_opts(const char *raw, size_t len,
					     const struct inbound_options *o)
{
	struct inbound_msg *msg = NULL;
	const char *err = NULL;

	ck_assert_msg(inbound_parse(raw, len, o, &msg, &err) == 0, "%s", err);
	ck_assert_ptr_nonnull(msg);
	return msg;
}

/* The string raw read as sent to ours at a fixed time. */
static inline struct inbound_msg *parse(const char *raw)
{
	struct inbound_options o = { .our_addrs = ours, .now = 1800000000 };

	return parse_opts(raw, strlen(raw), &o);
}

#endif
