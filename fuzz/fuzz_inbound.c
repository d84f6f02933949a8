/* fuzz_inbound.c -- libFuzzer target for the whole path of a received
 * mail, without OpenPGP: inbound_parse over any bytes (once as they are,
 * once with a tiny size limit so the headers-only path of an oversized
 * mail runs too), then the command reader over the text and subject it
 * gives.  Aborts on a broken invariant; the sanitizers catch the rest.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/inbound.h"
#include "server/command.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const ours[] = { "ashes@club.example", NULL };

/* Strict UTF-8 without NUL (the contract of the text and subject). */
static bool utf8_ok(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;

		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
		if (n == 0 || c > 0xf4 || len - i <= n)
			return false;
		for (k = 1; k <= n; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		i += n + 1;
	}
	return true;
}

static void check_msg(const struct inbound_msg *m, size_t size)
{
	if (m->raw_size != size || strlen(m->raw_sha256) != 64)
		abort();
	if (inbound_msg_signature_ok(m))	/* no keyring: nothing verifies */
		abort();
	if ((m->problem != INBOUND_OK) != (m->problem_detail != NULL))
		abort();
	if (m->subject != NULL) {
		const unsigned char *p;

		for (p = (const unsigned char *)m->subject; *p != '\0'; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();
		if (!utf8_ok((const unsigned char *)m->subject, strlen(m->subject)))
			abort();
	}
	if (m->text != NULL) {
		size_t n = strlen(m->text);

		if (m->verdict != CLASSIFY_NORMAL || m->problem != INBOUND_OK)
			abort();
		if (memchr(m->text, '\r', n) != NULL ||
		    (n > 0 && m->text[n - 1] != '\n') ||
		    !utf8_ok((const unsigned char *)m->text, n))
			abort();
	}
	for (size_t i = 0; i < m->key_count; i++)
		if (m->keys[i].data == NULL || m->keys[i].len == 0)
			abort();
}

static void check_commands(const struct command_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct command *c = &list->items[i];

		if (c->kind == COMMAND_INVALID && i + 1 != list->count)
			abort();
		if (strnlen(c->text, sizeof(c->text)) == sizeof(c->text) ||
		    strnlen(c->detail, sizeof(c->detail)) == sizeof(c->detail) ||
		    strnlen(c->move, sizeof(c->move)) == sizeof(c->move) ||
		    strnlen(c->name, sizeof(c->name)) == sizeof(c->name) ||
		    c->noptions > COMMAND_MAX_OPTIONS)
			abort();
	}
	if (list->count > COMMAND_MAX + 1)
		abort();
}

/* What the daemon does with a readable mail: the thread's game from the
 * headers, confirmed by the text, then the commands. */
static void read_commands(const struct inbound_msg *m)
{
	struct command_list list;
	size_t n = strlen(m->text);
	int64_t game = command_thread_game(m->subject, m->in_reply_to, NULL);

	if (game > 0 && !command_thread_confirmed(m->text, n, game))
		game = -1;
	command_parse_mail(m->subject, m->text, n, game, &list);
	check_commands(&list);
	command_list_free(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inbound_options o = { .our_addrs = ours, .now = 1800000000 };
	struct inbound_msg *m = NULL;
	const char *err = NULL;

	/* without GPGME nothing can fail for want of machinery */
	if (inbound_parse((const char *)data, size, &o, &m, &err) < 0)
		abort();
	check_msg(m, size);
	if (m->text != NULL)
		read_commands(m);
	inbound_msg_free(&m);

	o.max_size = 1;
	if (inbound_parse((const char *)data, size, &o, &m, &err) < 0)
		abort();
	check_msg(m, size);
	if (size > 1 && (m->text != NULL || m->verdict == CLASSIFY_NORMAL ||
			 m->verdict == CLASSIFY_BOUNCE))
		abort();
	inbound_msg_free(&m);
	return 0;
}
