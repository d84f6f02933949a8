/* test_template_width.c -- the text board and the legal-move list as a
 * Korean (and a German) player reads them stay aligned: rendered from the
 * shipped templates for positions of sizes 3 to 13 with stacks of both
 * sides, every row of the board and every line of the move list has the
 * same display width (src/util/width.c: a Hangul syllable two columns)
 * as in the English rendering, at the same place, and no line of the
 * translated mail part is wider than the English one's widest (72 columns
 * at least).  scripts/template-vars checks the templates' own lines; this
 * checks what the player gets. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "render/render.h"
#include "render/template.h"
#include "util/buf.h"
#include "util/width.h"
#include "../check_run.h"

static struct template_set *templates;

static void setup(void)
{
	const char *src = getenv("ASHES_SRCDIR");
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/templates", src != NULL ? src : ".");
	templates = template_set_new(NULL, dir);
	ck_assert_ptr_nonnull(templates);
}

static void teardown(void)
{
	template_set_free(&templates);
}

/* A position of `size` after `plies` moves picked by a fixed rule (the
 * (7k+3)-th legal move, modulo their count), so the board has stacks of
 * both sides and the list both stack moves and growth. */
static void position(struct core_position *pos, int size, int plies)
{
	static struct core_move moves[20000];
	struct core_variant v;
	enum core_error err;

	core_variant_default(&v);
	v.size = size;
	ck_assert_int_eq(core_position_init(pos, &v, &err), 0);
	for (int k = 0; k < plies; k++) {
		size_t n = core_legal_moves(pos, moves, 20000);

		if (n == 0 || n > 20000)
			break;
		core_play_unchecked(pos, &moves[(7 * (size_t)k + 3) % n], NULL);
	}
}

/* The lines of text (each without its line end), at most cap. */
static size_t lines_of(const char *text, const char **line, size_t *len,
		       size_t cap)
{
	size_t n = 0;

	while (*text != '\0' && n < cap) {
		const char *nl = strchr(text, '\n');
		size_t l = nl != NULL ? (size_t)(nl - text) : strlen(text);

		line[n] = text;
		len[n++] = l;
		text += l + (nl != NULL);
	}
	return n;
}

/* Where the lines of block begin in text: the line index of its first
 * line, the block's lines following one by one; -1 if it is not there. */
static long find_block(const char **line, const size_t *len, size_t n,
		       const char *block)
{
	const char *bl[64];
	size_t blen[64], m = lines_of(block, bl, blen, 64);

	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;

		while (j < m && len[i + j] == blen[j] &&
		       memcmp(line[i + j], bl[j], blen[j]) == 0)
			j++;
		if (j == m)
			return (long)i;
	}
	return -1;
}

/* Render template name in lang with ctx into out (reset first). */
static void render_in(const char *lang, const char *name,
		      const struct template_ctx *ctx, struct buf *out)
{
	struct template_set *ls = template_set_language(templates, lang);
	const char *error = NULL;

	ck_assert_msg(ls != NULL, "no language %s", lang);
	buf_reset(out);
	if (template_render(ls, name, ctx, out, &error) < 0)
		ck_abort_msg("render %s/%s: %s", lang, name, error);
}

/* Each line of block (a board, a move list) keeps its columns in the
 * translation: found whole, in order and on lines of its own in both
 * renderings (so no heading or indent in front of a row shifts it, and
 * row k is as wide as English row k); and every line of tr no wider, in
 * display columns, than the widest of en (or 72). */
static void same_columns(const char *what, const char *lang, const char *en,
			 const char *tr, const char *block)
{
	static const char *le[512], *lt[512], *lb[64];
	static size_t ne_len[512], nt_len[512], nb_len[64];
	size_t ne = lines_of(en, le, ne_len, 512);
	size_t nt = lines_of(tr, lt, nt_len, 512);
	size_t nb = lines_of(block, lb, nb_len, 64);
	long ie = find_block(le, ne_len, ne, block);
	long it = find_block(lt, nt_len, nt, block);
	size_t widest = 72;

	ck_assert_msg(nb > 0, "%s: nothing to compare", what);
	ck_assert_msg(ie >= 0, "%s: not whole in the English rendering", what);
	ck_assert_msg(it >= 0, "%s (%s): not whole in the translation:\n%s",
		      what, lang, tr);
	for (size_t i = 0; i < ne; i++)
		if (width_textn(le[i], ne_len[i]) > widest)
			widest = width_textn(le[i], ne_len[i]);
	for (size_t i = 0; i < nt; i++)
		ck_assert_msg(width_textn(lt[i], nt_len[i]) <= widest,
			      "%s (%s): line %zu is %zu columns, wider than %zu: %.*s",
			      what, lang, i + 1, width_textn(lt[i], nt_len[i]),
			      widest, (int)nt_len[i], lt[i]);
}

/* The variables a mail sets beside the position's. */
static struct template_ctx *mail_ctx(const struct core_position *pos)
{
	struct template_ctx *ctx = template_ctx_new();

	render_position_ctx(pos, ctx);
	template_ctx_set(ctx, "game", "12");
	template_ctx_set(ctx, "white_name", "alice");
	template_ctx_set(ctx, "black_name", "bob");
	template_ctx_set(ctx, "to_move_name",
			 pos->to_move == CORE_WHITE ? "alice" : "bob");
	template_ctx_set_bool(ctx, "moves_full", true);
	return ctx;
}

static const char *const langs[] = { "ko", "de" };

START_TEST(test_board_aligned)
{
	struct core_position pos;
	struct buf en = BUF_INIT, tr = BUF_INIT;

	for (int size = 3; size <= 13; size += 2) {
		position(&pos, size, 2 * size);
		struct template_ctx *ctx = mail_ctx(&pos);
		const char *board = template_ctx_get(ctx, "board");

		ck_assert_ptr_nonnull(board);
		for (size_t l = 0; l < 2; l++) {
			const char *files[] = { "mail/game-state.txt", "show.txt" };

			for (size_t f = 0; f < 2; f++) {
				char what[64];

				snprintf(what, sizeof(what), "the board of size %d, %s",
					 size, files[f]);
				render_in("en", files[f], ctx, &en);
				render_in(langs[l], files[f], ctx, &tr);
				same_columns(what, langs[l], buf_str(&en),
					     buf_str(&tr), board);
			}
		}
		template_ctx_free(&ctx);
	}
	buf_free(&en);
	buf_free(&tr);
}
END_TEST

START_TEST(test_move_list_aligned)
{
	struct core_position pos;
	struct buf en = BUF_INIT, tr = BUF_INIT;
	bool stacks_seen = false;

	for (int size = 3; size <= 9; size += 2) {
		position(&pos, size, 2 * size);
		struct template_ctx *ctx = mail_ctx(&pos);
		const char *parts[] = { "moves_stacks", "moves_growth" };

		for (size_t p = 0; p < 2; p++) {
			const char *block = template_ctx_get(ctx, parts[p]);
			char what[64];

			if (block == NULL || *block == '\0')
				continue;
			stacks_seen |= p == 0;
			for (size_t l = 0; l < 2; l++) {
				snprintf(what, sizeof(what), "%s of size %d",
					 parts[p], size);
				render_in("en", "mail/legal-moves.txt", ctx, &en);
				render_in(langs[l], "mail/legal-moves.txt", ctx,
					  &tr);
				same_columns(what, langs[l], buf_str(&en),
					     buf_str(&tr), block);
				snprintf(what, sizeof(what), "moves.txt %s of size %d",
					 parts[p], size);
				render_in("en", "moves.txt", ctx, &en);
				render_in(langs[l], "moves.txt", ctx, &tr);
				same_columns(what, langs[l], buf_str(&en),
					     buf_str(&tr), block);
			}
		}
		template_ctx_free(&ctx);
	}
	ck_assert_msg(stacks_seen, "no position had stack moves");
	buf_free(&en);
	buf_free(&tr);
}
END_TEST

/* The check itself fails on a misaligned rendering: a board row with a
 * Hangul word in front is two columns a syllable wider. */
START_TEST(test_misaligned_found)
{
	const char *board = "a1  .   .\n  b1  W2\n";
	const char *en = "Board:\na1  .   .\n  b1  W2\n";
	const char *le[8], *lt[8];
	size_t ne_len[8], nt_len[8];
	size_t ne = lines_of(en, le, ne_len, 8);
	size_t nt = lines_of("판:\na1  .   .\n  b1  W2\n", lt, nt_len, 8);

	ck_assert_int_eq(find_block(le, ne_len, ne, board), 1);
	ck_assert_int_eq(find_block(lt, nt_len, nt, board), 1);
	nt = lines_of("판:\na1  .   .\n판  b1  W2\n", lt, nt_len, 8);
	ck_assert_int_eq(find_block(lt, nt_len, nt, board), -1);
	ck_assert_uint_eq(width_text("판  b1  W2"), width_text("  b1  W2") + 2);
}
END_TEST

TEST_MAIN("template_width", "template_width", setup, teardown, 0,
	  test_board_aligned, test_move_list_aligned, test_misaligned_found)
