/* fuzz_command.c -- libFuzzer target for the command reader on its own:
 * the first line of the input is the Subject, the rest the body (given
 * without a terminating NUL, so a read past its end shows), and the
 * first byte picks the thread's game (none, unconfirmed, 12, or what the
 * subject says).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/command.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *nl;
	char *subject, *body, clean[COMMAND_TEXT_MAX];
	struct command_list list;
	struct command cmd;
	size_t slen, blen;
	int64_t game = 0;

	nl = size > 0 ? memchr(in, '\n', size) : NULL;
	slen = nl != NULL ? (size_t)(nl - in) : size;
	subject = malloc(slen + 1);
	if (subject == NULL)
		abort();
	memcpy(subject, in, slen);
	subject[slen] = '\0';
	blen = nl != NULL ? size - slen - 1 : 0;
	body = malloc(blen > 0 ? blen : 1);
	if (body == NULL)
		abort();
	if (blen > 0)
		memcpy(body, nl + 1, blen);

	switch (size > 0 ? data[0] % 4 : 0) {
	case 1: game = -1; break;
	case 2: game = 12; break;
	case 3: game = command_thread_game(subject, subject, NULL); break;
	}
	command_parse_mail(subject, body, blen, game, &list);
	for (size_t i = 0; i < list.count; i++) {
		const struct command *c = &list.items[i];

		if ((c->kind == COMMAND_INVALID && i + 1 != list.count) ||
		    strnlen(c->text, sizeof(c->text)) == sizeof(c->text) ||
		    strnlen(c->detail, sizeof(c->detail)) == sizeof(c->detail) ||
		    strnlen(c->note, sizeof(c->note)) == sizeof(c->note) ||
		    strnlen(c->topic, sizeof(c->topic)) == sizeof(c->topic) ||
		    strnlen(c->suggestion, sizeof(c->suggestion)) ==
			    sizeof(c->suggestion) ||
		    (c->kind == COMMAND_MESSAGE && c->note[0] == '\0') ||
		    c->noptions > COMMAND_MAX_OPTIONS)
			abort();
	}
	if (list.count > COMMAND_MAX + 1)
		abort();
	command_list_free(&list);

	command_subject_clean(subject, clean, sizeof(clean));
	if (strnlen(clean, sizeof(clean)) == sizeof(clean))
		abort();
	(void)command_thread_confirmed(body, blen, 12);
	(void)command_line_ends_text(body, blen);
	(void)command_line_is_prose(body, blen);
	(void)command_line_is_closing(body, blen);
	(void)command_near_keyword(body, blen, true);
	if (command_parse_line(body, blen, game, &cmd) == 0 &&
	    cmd.kind == COMMAND_INVALID)
		abort();
	free(subject);
	free(body);
	return 0;
}
