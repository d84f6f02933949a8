/* message.c -- `message GAME TEXT`: a note from one player of a game to
 * the other, relayed by mail and archived with the game (the game's
 * `history` shows the notes to its players, `ashes game show` to the
 * operator).  The table in commands.c has loaded the game; this file
 * checks who may write, archives the note and mails it on.
 *
 * The note is relayed as the sender signed it, one line, quoted ("> "
 * after a "NAME wrote:" line) so that even a relay we sign holds no line
 * the command reader would run, and the mail that carries it says whose
 * key signed it: the opponent cannot check a signature on a relayed
 * text, so the service vouches for it.  A note holding a control, bidi
 * or invisible character is refused, naming it. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Characters a note may not hold: controls would let it rewrite the
 * lines around it (in a mail, or on the operator's terminal in `ashes
 * game show`); bidi overrides and isolates reorder what the reader sees
 * ("resign" shown as "ngiser"), and invisible ones hide text or make two
 * notes look the same.  The name is for the refusal. */
static const char *message_char_name(uint32_t c)
{
	static const struct {
		uint32_t c;
		const char *name;
	} names[] = {
		{ 0x061C, "ARABIC LETTER MARK" },
		{ 0x200B, "ZERO WIDTH SPACE" },
		{ 0x200C, "ZERO WIDTH NON-JOINER" },
		{ 0x200D, "ZERO WIDTH JOINER" },
		{ 0x200E, "LEFT-TO-RIGHT MARK" },
		{ 0x200F, "RIGHT-TO-LEFT MARK" },
		{ 0x2028, "LINE SEPARATOR" },
		{ 0x2029, "PARAGRAPH SEPARATOR" },
		{ 0x202A, "LEFT-TO-RIGHT EMBEDDING" },
		{ 0x202B, "RIGHT-TO-LEFT EMBEDDING" },
		{ 0x202C, "POP DIRECTIONAL FORMATTING" },
		{ 0x202D, "LEFT-TO-RIGHT OVERRIDE" },
		{ 0x202E, "RIGHT-TO-LEFT OVERRIDE" },
		{ 0x2060, "WORD JOINER" },
		{ 0x2066, "LEFT-TO-RIGHT ISOLATE" },
		{ 0x2067, "RIGHT-TO-LEFT ISOLATE" },
		{ 0x2068, "FIRST STRONG ISOLATE" },
		{ 0x2069, "POP DIRECTIONAL ISOLATE" },
		{ 0xFEFF, "ZERO WIDTH NO-BREAK SPACE" },
	};

	if ((c < 0x20 && c != '\t') || c == 0x7f)
		return "a control character";
	if (c >= 0x80 && c <= 0x9f)
		return "a C1 control character";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].c == c)
			return names[i].name;
	return NULL;
}

/* The first character of text a note may not hold: true, with "U+202E
 * (RIGHT-TO-LEFT OVERRIDE)" in what; false when the text is plain.
 * Bytes that are not UTF-8 are refused too (the mail layer hands over
 * UTF-8; anything else is not text). */
static bool message_bad_char(const char *text, char *what, size_t whatlen)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0') {
		uint32_t c;
		size_t n, k;
		const char *name;

		if (*p < 0x80) {
			c = *p;
			n = 1;
		} else if ((*p & 0xe0) == 0xc0) {
			c = *p & 0x1f;
			n = 2;
		} else if ((*p & 0xf0) == 0xe0) {
			c = *p & 0x0f;
			n = 3;
		} else if ((*p & 0xf8) == 0xf0) {
			c = *p & 0x07;
			n = 4;
		} else {
			snprintf(what, whatlen, "0x%02X (not UTF-8)", *p);
			return true;
		}
		for (k = 1; k < n; k++) {
			if ((p[k] & 0xc0) != 0x80) {
				snprintf(what, whatlen, "0x%02X (not UTF-8)", *p);
				return true;
			}
			c = (c << 6) | (p[k] & 0x3f);
		}
		name = message_char_name(c);
		if (name != NULL) {
			snprintf(what, whatlen, "U+%04X (%s)", (unsigned)c, name);
			return true;
		}
		p += n;
	}
	return false;
}

/* Has this mail already sent a note in game g?  1 yes, 0 no, -1.  One
 * note per game and mail: a mail of 64 `message` lines must not become
 * 64 mails to the opponent (the rate limit counts mails, not lines). */
static int message_sent_already(struct handle *h, const struct game *g)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int found = 0;

	if (h->inbound_id == 0)
		return 0;
	if (store_game_messages(h->srv->store, g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(h, error);
	for (size_t i = 0; i < n; i++)
		if (notes[i].inbound_id == h->inbound_id)
			found = 1;
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return found;
}

int message_send(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	const struct server_inbound *msg = h->msg;
	struct template_ctx *ctx;
	const char *error;
	char bad[64];
	int64_t opp;
	int color, ret;

	if (g->row->status != STORE_GAME_ACTIVE &&
	    g->row->status != STORE_GAME_FINISHED)
		return game_refuse_status(h, g);
	color = game_my_color(h, g);
	if (color < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	/* The command language hands over a trimmed, non-empty text; an
	 * empty one is refused here too, should that ever change. */
	if (c->note[0] == '\0') {
		server_refuse(h, "e_missing_arg");
		template_ctx_set(h->refusal, "detail", "TEXT");
		return REFUSED;
	}
	if (message_bad_char(c->note, bad, sizeof(bad))) {
		ret = game_refuse(h, "message_bad_text", g->row->id);
		template_ctx_set(h->refusal, "char", bad);
		return ret;
	}
	if ((ret = message_sent_already(h, g)) != 0)
		return ret < 0 ? -1 : game_refuse(h, "message_once", g->row->id);
	opp = game_player_of(g, color == CORE_WHITE ? CORE_BLACK : CORE_WHITE);
	if (store_game_message_add(h->srv->store, g->row->id, g->row->ply,
				   h->me->id, c->note, h->inbound_id, h->now,
				   NULL, &error) < 0)
		return server_store_fail(h, error);

	game_names_ctx(g, out);
	template_ctx_set(out, "note", c->note);
	template_ctx_set_int(out, "sent_ply", g->row->ply);
	template_ctx_set_bool(out, "sent_at_start", g->row->ply == 0);
	template_ctx_set(out, "to_name", color == CORE_WHITE ? g->black :
			 g->white);

	ctx = template_ctx_new();
	game_names_ctx(g, ctx);
	template_ctx_set(ctx, "me", h->me->name);
	template_ctx_set(ctx, "note", c->note);
	template_ctx_set_int(ctx, "sent_ply", g->row->ply);
	template_ctx_set_bool(ctx, "sent_at_start", g->row->ply == 0);
	template_ctx_set_bool(ctx, "over",
			      g->row->status == STORE_GAME_FINISHED);
	/* What the service vouches for: the key gpg verified, or that
	 * there was none (a club that takes unsigned mail). */
	if (msg->fingerprint != NULL && !h->weak)
		template_ctx_set(ctx, "fingerprint", msg->fingerprint);
	else
		template_ctx_set_bool(ctx, "unsigned", true);
	ret = notice_send(h, g, opp, NOTICE_MESSAGE, ctx);
	template_ctx_free(&ctx);
	return ret;
}

int message_list_ctx(struct handle *h, const struct game *g,
		     struct template_ctx *ctx)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	template_ctx_list(ctx, "notes");
	if (game_my_color(h, g) < 0)
		return 0;
	if (store_game_messages(h->srv->store, g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(h, error);
	template_ctx_set_bool(ctx, "has_notes", n > 0);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "notes");
		char from[COMMAND_NAME_MAX + 1];
		ret = game_player_name(h, notes[i].player_id, from);
		template_ctx_set_int(it, "sent_ply", notes[i].ply);
		template_ctx_set_bool(it, "sent_at_start", notes[i].ply == 0);
		template_ctx_set(it, "note", notes[i].text);
		template_ctx_set(it, "from", from);
		template_ctx_set_bool(it, "mine",
				      notes[i].player_id == h->me->id);
		server_set_utc(it, "sent_at", notes[i].created, false);
	}
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return ret;
}
