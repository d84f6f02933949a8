/* help.c -- the `help` command: the general help (the game in plain words
 * and the commands, one line each), `help rules` (the rules in full) and
 * `help COMMAND` (one command's lines).  The words are all templates:
 * mail/help.txt picks the part, help-topics.txt holds a section per
 * topic, and rules.md is the rules text docs/rules.md points to, so the
 * rules a player is mailed and the ones the project documents are one
 * text. */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>

/* help is for anyone and names no game.  Sets in out: "rules" (flag),
 * or "topic" and the flag topic_TOPIC, or nothing for the general help;
 * with it "unknown", the words that named no topic ("help me please"),
 * and "suggestion", the topic they are a slip of ("help mvoe": move). */
int help_run(struct handle *h, const struct command *c, struct game *g,
	     struct template_ctx *out)
{
	char flag[sizeof(c->topic) + 8];

	if (c->topic[0] == '\0') {
		template_ctx_set(out, "unknown", c->detail);
		template_ctx_set(out, "suggestion", c->suggestion);
		return 0;
	}
	snprintf(flag, sizeof(flag), "topic_%s", c->topic);
	if (strcmp(c->topic, "rules") == 0)
		template_ctx_set_bool(out, "rules", true);
	else
		template_ctx_set(out, "topic", c->topic);
	template_ctx_set_bool(out, flag, true);
	/* One command, two spellings, one text. */
	if (strcmp(c->topic, "analyze") == 0)
		template_ctx_set_bool(out, "topic_analyse", true);
	return 0;
}
