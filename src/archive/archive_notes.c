/* archive_notes.c -- notes.txt: in a player's own copy of a game's
 * archive, once the game is over, the notes that player kept on it for
 * themselves (`note GAME TEXT`, src/server/note.c).  No other copy holds
 * them: not the opponent's, not the public one, not the operator's
 * `ashes archive export` (archive_source.notes_of is 0 there).
 *
 * The mails the notes came in changed no game, so they are not among the
 * archive's mails: notes.txt is the club's word, listed in MANIFEST like
 * every file (so `ashes archive verify` checks its sum and the club's
 * signature over it), and signed by no player.  README.txt says so. */
#include "archive/archive_private.h"

#include <inttypes.h>
#include <stdio.h>

#include "render/template.h"
#include "store/store_note.h"

int archive_notes_text(const struct archive_source *src,
		       const struct archive_game *g, struct buf *out,
		       char *author, size_t author_len, const char **error_r)
{
	struct store_game_message *notes = NULL;
	struct template_ctx *ctx;
	const char *name;
	size_t n = 0;
	int ret = -1;

	author[0] = '\0';
	if (src->notes_of == 0 ||
	    (src->notes_of != g->row->white_id &&
	     src->notes_of != g->row->black_id) ||
	    (g->row->status != STORE_GAME_FINISHED &&
	     g->row->status != STORE_GAME_CANCELLED))
		return 0;
	if (store_game_notes(src->store, g->row->id, src->notes_of, &notes,
			     &n, error_r) < 0)
		return -1;
	if (n == 0)
		return 0;
	name = src->notes_of == g->row->white_id ? g->white : g->black;
	snprintf(author, author_len, "%s", name);
	ctx = template_ctx_new();
	template_ctx_setf(ctx, "game", "%" PRId64, g->row->id);
	template_ctx_set(ctx, "author", name);
	template_ctx_list(ctx, "notes");
	for (size_t i = 0; i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "notes");
		char when[RECORD2_TIME_LEN + 1];

		template_ctx_set_int(it, "ply", notes[i].ply);
		template_ctx_set_bool(it, "at_start", notes[i].ply == 0);
		template_ctx_set(it, "at", record2_time_format(notes[i].created,
							       when));
		template_ctx_set(it, "text", notes[i].text);
	}
	ret = template_render(src->templates, "archive/notes.txt", ctx, out,
			      error_r);
	template_ctx_free(&ctx);
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return ret < 0 ? -1 : 0;
}
