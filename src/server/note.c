/* note.c -- `note GAME TEXT` and `notes GAME`: notes a player keeps on a
 * game for themselves alone ("plan: keep the left edge"), and the list
 * of them that the author's own mails about the game carry (the "your
 * move" and result notices, `board` and `history`, the replies here).
 *
 * Nobody else ever reads a note: not the opponent, not an observer, not
 * the digest, the club's pages, the record or the opponent's copy of the
 * archive; the author's own archive holds them once the game is over
 * (the daemon's outbox_archive.c asks for them, README says so).  So a
 * note must come in a mail that changes no game: such a mail is kept in
 * no archive, while a mail that moves, accepts, sends a message ... is
 * kept byte for byte in that game's archive, for the opponent and, once
 * the game is over, for anyone.  A mail that mixes the two runs nothing
 * (note_mail_check(), before its first command), so that it changes no
 * game and is archived nowhere.
 *
 * Bounded like `message`: one line of at most COMMAND_TEXT_MAX - 1
 * bytes (the command reader refuses a longer one), no control, bidi or
 * invisible character, and NOTE_MAX_PER_GAME notes an author a game.  A
 * note sends no mail but the reply, so the mails an hour (limits.c)
 * bound the rate. */
#include "server/server_private.h"

#include <stdio.h>

#include "store/store_note.h"

/* The most notes one player keeps on one game: a game's worth of plans
 * (a long game runs to about a hundred plies), small enough that every
 * mail could list them all. */
#define NOTE_MAX_PER_GAME 50

/* May a line of this kind stand in a mail with a note?  Only those that
 * change no game and send nobody but the sender a mail: the archive
 * keeps no such mail (archive_gather.c keeps the mails that changed a
 * game). */
static bool note_quiet_kind(enum command_kind kind)
{
	switch (kind) {
	case COMMAND_INVALID: /* refused: it runs nothing, and stops the mail */
	case COMMAND_HELP:
	case COMMAND_NOTE:
	case COMMAND_NOTES:
	case COMMAND_PREVIEW:
	case COMMAND_BOARD:
	case COMMAND_MOVES:
	case COMMAND_HISTORY:
	case COMMAND_GAMES:
	case COMMAND_OBSERVE:
	case COMMAND_UNOBSERVE:
	case COMMAND_SET:
	case COMMAND_SETTINGS:
	case COMMAND_RATINGS:
		return true;
	default:
		return false;
	}
}

int note_mail_check(struct handle *h)
{
	const struct command_list *list = h->commands;
	const struct command *note = NULL, *loud = NULL;
	int ret;

	for (size_t i = 0; list != NULL && i < list->count; i++) {
		const struct command *c = &list->items[i];

		if (c->kind == COMMAND_NOTE && note == NULL)
			note = c;
		else if (!note_quiet_kind(c->kind) && loud == NULL)
			loud = c;
	}
	if (note == NULL || loud == NULL)
		return 0;
	ret = server_refuse(h, "note_not_alone");
	template_ctx_set_int(h->refusal, "note_line", note->line);
	template_ctx_set_int(h->refusal, "other_line", loud->line);
	template_ctx_set(h->refusal, "other", loud->text);
	return ret;
}

void note_ctx_clear(struct template_ctx *ctx)
{
	static const char *const keys[] = {
		"my_notes", "my_notes_any", "my_notes_more", "my_notes_count",
		"my_notes_shown",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		template_ctx_set_bool(ctx, keys[i], false);
}

int note_ctx(struct handle *h, const struct game *g, int64_t pid,
	     size_t shown, struct template_ctx *ctx)
{
	struct store_game_message *notes = NULL;
	size_t n = 0, first;
	const char *error;

	note_ctx_clear(ctx);
	template_ctx_list(ctx, "my_notes");
	if (pid == 0 ||
	    (pid != g->row->white_id && pid != g->row->black_id))
		return 0;
	if (store_game_notes(h->srv->store, g->row->id, pid, &notes, &n,
			     &error) < 0)
		return server_store_fail(h, error);
	first = shown != 0 && n > shown ? n - shown : 0;
	template_ctx_set_bool(ctx, "my_notes_any", n > 0);
	template_ctx_set_bool(ctx, "my_notes_more", first > 0);
	template_ctx_set_int(ctx, "my_notes_count", (long)n);
	template_ctx_set_int(ctx, "my_notes_shown", (long)(n - first));
	for (size_t i = first; i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "my_notes");

		template_ctx_set_int(it, "ply", notes[i].ply);
		template_ctx_set_bool(it, "at_start", notes[i].ply == 0);
		template_ctx_set(it, "text", notes[i].text);
		server_set_utc(it, "at", notes[i].created, false);
	}
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return 0;
}

int note_run(struct handle *h, const struct command *c, struct game *g,
	     struct template_ctx *out)
{
	const char *error;
	char bad[64];
	size_t n;
	int ret;

	if (g->row->status != STORE_GAME_ACTIVE &&
	    g->row->status != STORE_GAME_FINISHED)
		return game_refuse_status(h, g);
	if (game_my_color(h, g) < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	/* The command language hands over a trimmed, non-empty text. */
	if (c->note[0] == '\0') {
		server_refuse(h, "e_missing_arg");
		template_ctx_set(h->refusal, "detail", "TEXT");
		return REFUSED;
	}
	if (server_text_bad_char(c->note, bad, sizeof(bad))) {
		ret = game_refuse(h, "note_bad_text", g->row->id);
		template_ctx_set(h->refusal, "char", bad);
		return ret;
	}
	if (store_game_note_count(h->srv->store, g->row->id, h->me->id, &n,
				  &error) < 0)
		return server_store_fail(h, error);
	if (n >= NOTE_MAX_PER_GAME) {
		ret = game_refuse(h, "note_limit", g->row->id);
		template_ctx_set_int(h->refusal, "max", NOTE_MAX_PER_GAME);
		return ret;
	}
	if (store_game_note_add(h->srv->store, g->row->id, g->row->ply,
				h->me->id, c->note, h->inbound_id, h->now,
				NULL, &error) < 0)
		return server_store_fail(h, error);
	game_names_ctx(g, out);
	template_ctx_set(out, "note", c->note);
	template_ctx_set_int(out, "ply", g->row->ply);
	template_ctx_set_bool(out, "at_start", g->row->ply == 0);
	template_ctx_set_int(out, "count", (long)n + 1);
	template_ctx_set_int(out, "max", NOTE_MAX_PER_GAME);
	return 0;
}

int note_list_run(struct handle *h, const struct command *c, struct game *g,
		  struct template_ctx *out)
{
	(void)c;
	if (game_my_color(h, g) < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	game_names_ctx(g, out);
	template_ctx_set_int(out, "max", NOTE_MAX_PER_GAME);
	return note_ctx(h, g, h->me->id, 0, out);
}
