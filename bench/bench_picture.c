/* bench_picture.c -- the board picture: its size and the time to draw it,
 * SVG and PNG, at sizes 5, 7, 9 and 13 in mid-game; and the whole "your
 * move" mail at size 7 as a player gets it, with each picture, against
 * the target of 40 KB a mail.
 *
 * usage: bench_picture [RUNS]   (default 20: the median of that many)
 *
 * The mail is the service's own: two players, a game at size 7 with
 * plies played, one more move through server_handle(), and the "your
 * move" mail it queued for the opponent, composed by compose_message()
 * as the outbox sends it (unsigned: a signature adds about 1 KB).  The
 * picture it carries is the one queued; the other type is drawn here
 * for the same position, so both figures are printed whatever the
 * service queues.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "mail/compose.h"
#include "render/render.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

/* The target for a whole "your move" mail at size 7, picture included. */
#define MAIL_TARGET 40000
/* Plies played before the move measured, per size: a board in mid-game. */
#define MIDGAME_PLIES(n) (4 * (n))

static int64_t now = 1767434400;

static void die(const char *what, const char *error)
{
	fprintf(stderr, "bench_picture: %s: %s\n", what, error ? error : "?");
	exit(1);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Play up to `plies` random legal plies in rec; with a store, append
 * them to game `id` too (forced passes by nobody, as the service stores
 * them). */
static void play_random(struct core_record *rec, int plies, struct store *st,
			int64_t id, int64_t white_id, int64_t black_id)
{
	static struct core_move moves[8192];
	char text[CORE_MOVE_TEXT_MAX];
	enum core_error err;
	const char *error;

	for (int p = 0; p < plies && rec->pos.result == CORE_ONGOING; p++) {
		size_t n = core_legal_moves(&rec->pos, moves, 8192);
		size_t before = rec->nplies;
		int64_t who = rec->pos.to_move == CORE_WHITE ? white_id :
							       black_id;

		if (n == 0)
			break;
		if (n > 8192)
			n = 8192;
		if (record_play(rec, &moves[next_random() % n], &err) < 0)
			die("playing", core_error_name(err));
		for (size_t k = before; st != NULL && k < rec->nplies; k++)
			if (store_move_append(st, id, (int)k + 1,
					      notation_format_move(
						      rec->pos.geom,
						      &rec->plies[k], text),
					      k == before ? who : 0, now, 0,
					      &error) != 0)
				die("appending a move", error);
	}
}

/* The last move of rec that has cells (not a pass), or NULL. */
static const struct core_move *last_move(const struct core_record *rec)
{
	for (size_t i = rec->nplies; i > 0; i--)
		if (rec->plies[i - 1].kind != CORE_MOVE_PASS)
			return &rec->plies[i - 1];
	return NULL;
}

/* Median milliseconds of `runs` pictures of rec, and the picture's size. */
static double time_picture(const struct core_record *rec, bool png,
			   struct render_picture *pic, int runs, size_t *len_r)
{
	double t[runs];
	const char *error;

	for (int i = 0; i < runs; i++) {
		struct buf out = BUF_INIT;
		double t0 = seconds();
		int ret = png ? render_board_png(&rec->pos, last_move(rec), pic,
						 &out, &error) :
			render_picture_svg(&rec->pos, last_move(rec), pic,
					   &out, &error);

		t[i] = (seconds() - t0) * 1e3;
		if (ret < 0)
			die(png ? "PNG" : "SVG", error);
		*len_r = out.len;
		buf_free(&out);
	}
	qsort(t, (size_t)runs, sizeof(t[0]), by_value);
	return t[runs / 2];
}

static void pictures(struct template_set *ts, int runs)
{
	static const int sizes[] = { 5, 7, 9, 13 };
	struct render_picture pic = { .templates = ts };
	const char *error;
	struct buf warm = BUF_INIT;

	printf("the picture in mid-game (%d N plies played at size N; "
	       "median of %d):\n", MIDGAME_PLIES(1), runs);
	/* fontconfig reads its cache on the first picture of a process */
	{
		struct core_record rec;
		struct core_variant v;
		enum core_error err;
		double t0 = seconds();

		core_variant_default(&v);
		record_init(&rec, &v, &err);
		if (render_board_png(&rec.pos, NULL, &pic, &warm, &error) < 0)
			die("PNG", error);
		printf("  the first PNG of a process (fontconfig starts): "
		       "%.0f ms\n",
		       (seconds() - t0) * 1e3);
		record_free(&rec);
		buf_free(&warm);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct core_record rec;
		struct core_variant v;
		enum core_error err;
		size_t svg_len = 0, png_len = 0;
		double svg_ms, png_ms;

		core_variant_default(&v);
		v.size = sizes[i];
		record_init(&rec, &v, &err);
		play_random(&rec, MIDGAME_PLIES(sizes[i]), NULL, 0, 0, 0);
		svg_ms = time_picture(&rec, false, &pic, runs, &svg_len);
		png_ms = time_picture(&rec, true, &pic, runs, &png_len);
		printf("  size %2d: SVG %6.1f KB %6.2f ms   PNG %6.1f KB %6.1f ms\n",
		       sizes[i], svg_len / 1000.0, svg_ms, png_len / 1000.0,
		       png_ms);
		record_free(&rec);
	}
}

/* A stand-in for sha256 (the mail layer computes the real one): 64 hex
 * digits that differ when the text differs. */
static void digest(const char *text, char out[65])
{
	for (int part = 0; part < 4; part++) {
		uint64_t h = 1469598103934665603ULL ^ (uint64_t)(part * 7919);

		for (const char *p = text; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 1099511628211ULL;
		}
		snprintf(out + part * 16, 17, "%016" PRIx64, h);
	}
}

/* The mail of outbox row m as the outbox composes it, with the picture
 * (type, bytes) given; its size. */
static size_t mail_size(const struct store_outbox_msg *m, const char *type,
			const struct buf *picture)
{
	struct compose_msg c = { 0 };
	struct buf out = BUF_INIT, cid = BUF_INIT;
	const char *error;
	size_t n;

	buf_printf(&cid, STORE_OUTBOX_IMAGE_CID_PREFIX "%s", m->message_id);
	c.from_address = "ashes@bench.example";
	c.from_name = "Ashes Club";
	c.reply_to = c.from_address;
	c.x_loop = c.from_address;
	c.to = m->recipient;
	c.subject = m->subject;
	c.message_id = m->message_id;
	c.in_reply_to = m->in_reply_to;
	c.references = m->references;
	c.auto_reply = m->auto_reply;
	c.date = now;
	c.text = m->body;
	c.html = m->html;
	if (picture != NULL) {
		c.image = picture->data;
		c.image_len = picture->len;
		c.image_type = type;
		c.image_cid = buf_str(&cid);
	}
	if (compose_message(&c, NULL, NULL, &out, &error) < 0)
		die("composing", error);
	n = out.len;
	buf_free(&out);
	buf_free(&cid);
	return n;
}

static int your_move_mail(struct template_set *ts, const char *dir)
{
	char path[PATH_MAX], body[128], sha[65], ssha[65], move[CORE_MOVE_TEXT_MAX];
	static const char *const fps[2] = {
		"00000000000000000000000000000000000000A1",
		"00000000000000000000000000000000000000B2",
	};
	struct render_picture pic = { .templates = ts };
	struct store_outbox_msg *rows = NULL, *m = NULL;
	struct core_move moves[1024];
	struct server_config cfg;
	struct server_inbound in;
	struct server_outcome out;
	struct server *srv = NULL;
	struct store *st = NULL;
	struct store_game row;
	struct core_record rec;
	struct core_variant v;
	struct buf svg = BUF_INIT, png = BUF_INIT;
	enum core_error err;
	const char *error;
	int64_t ids[2], game;
	size_t nrows = 0, n, with_svg, with_png, text_only;
	char vtext[64];
	int mover;

	snprintf(path, sizeof(path), "%s/mail.db", dir);
	if (store_open(path, NULL, &st, &error) < 0)
		die("opening the database", error);
	for (int i = 0; i < 2; i++) {
		char name[16], addr[64];

		snprintf(name, sizeof(name), i ? "bob" : "alice");
		snprintf(addr, sizeof(addr), "%s@bench.example", name);
		if (store_player_add(st, name, addr, fps[i], now, &ids[i],
				     &error) != 0)
			die("adding a player", error);
	}
	core_variant_default(&v);
	v.size = 7;
	notation_format_variant(&v, vtext, sizeof(vtext));
	memset(&row, 0, sizeof(row));
	row.variant = vtext;
	row.challenger_id = ids[0];
	row.white_id = ids[0];
	row.black_id = ids[1];
	row.status = STORE_GAME_ACTIVE;
	if (store_game_create(st, &row, now, &game, &error) < 0)
		die("creating a game", error);
	record_init(&rec, &v, &err);
	play_random(&rec, MIDGAME_PLIES(7), st, game, ids[0], ids[1]);
	if (rec.pos.result != CORE_ONGOING)
		die("the game", "over before the measured move");

	/* the measured move, through the service */
	n = core_legal_moves(&rec.pos, moves, 1024);
	if (n == 0)
		die("the game", "no legal move");
	mover = rec.pos.to_move == CORE_WHITE ? 0 : 1;
	notation_format_move(rec.pos.geom, &moves[next_random() % (n > 1024 ? 1024 : n)],
			     move);
	snprintf(body, sizeof(body), "move %" PRId64 " %d %s\n", game,
		 rec.pos.ply + 1, move);
	if (record_play_text(&rec, move, strlen(move), NULL, &err) < 0)
		die("playing", core_error_name(err));
	server_config_default(&cfg);
	cfg.domain = "bench.example";
	cfg.templates = ts;
	if (server_new(st, &cfg, &srv, &error) < 0)
		die("server", error);
	digest(body, sha);
	digest(move, ssha);
	memset(&in, 0, sizeof(in));
	in.fingerprint = fps[mover];
	in.from_address = mover ? "bob@bench.example" : "alice@bench.example";
	in.message_id = "m1@client.example";
	in.raw = body;
	in.raw_len = strlen(body);
	in.raw_sha256 = sha;
	in.signed_sha256 = ssha;
	in.signature_time = now - 2;
	in.subject = "Re: move";
	in.body = body;
	in.body_len = strlen(body);
	if (server_handle(srv, &in, ++now, &out, &error) < 0 ||
	    out.status != SERVER_OK)
		die(body, error);
	if (store_outbox_list(st, STORE_OUTBOX_ALL, 0, 0, &rows, &nrows,
			      &error) < 0)
		die("reading the outbox", error);
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].kind == STORE_OUTBOX_KIND_YOUR_MOVE)
			m = &rows[i];
	if (m == NULL || m->html == NULL)
		die("the outbox", "no your-move mail with html");

	/* both pictures of the position the mail is about */
	if (render_picture_svg(&rec.pos, last_move(&rec), &pic, &svg, &error) < 0 ||
	    render_board_png(&rec.pos, last_move(&rec), &pic, &png, &error) < 0)
		die("the picture", error);
	if (m->image != NULL && m->image_type != NULL &&
	    strcmp(m->image_type, STORE_OUTBOX_PNG) == 0) {
		/* queued as its drawing; the outbox rasterises it when it
		 * sends, as here */
		buf_reset(&png);
		if (m->image[0] != '<')
			buf_append(&png, m->image, m->image_len);
		else if (render_png_from_svg(m->image, m->image_len, 0, &png,
					     &error) < 0)
			die("the PNG of the queued drawing", error);
		buf_reset(&svg);
		if (m->image[0] == '<')
			buf_append(&svg, m->image, m->image_len);
	} else if (m->image != NULL) {
		buf_reset(&svg);
		buf_append(&svg, m->image, m->image_len);
	}
	text_only = mail_size(m, NULL, NULL);
	with_svg = mail_size(m, STORE_OUTBOX_SVG, &svg);
	with_png = mail_size(m, STORE_OUTBOX_PNG, &png);
	printf("\nthe \"your move\" mail at size 7, ply %d (as queued: %s):\n",
	       rec.pos.ply, m->image_type ? m->image_type : "no picture");
	printf("  text %.1f KB, html %.1f KB; the mail without a picture "
	       "%.1f KB\n", strlen(m->body) / 1000.0, strlen(m->html) / 1000.0,
	       text_only / 1000.0);
	printf("  with the SVG (%5.1f KB): %5.1f KB\n", svg.len / 1000.0,
	       with_svg / 1000.0);
	printf("  with the PNG (%5.1f KB): %5.1f KB   target < %d KB: %s\n",
	       png.len / 1000.0, with_png / 1000.0, MAIL_TARGET / 1000,
	       with_png < MAIL_TARGET ? "met" : "NOT met");
	store_outbox_msgs_free(&rows, nrows);
	server_free(&srv);
	store_close(&st);
	record_free(&rec);
	buf_free(&svg);
	buf_free(&png);
	return with_png < MAIL_TARGET ? 0 : 1;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 20;
	const char *src = getenv("ASHES_SRCDIR");
	char dir[] = "/tmp/ashes-bench-picture-XXXXXX", tdir[PATH_MAX],
	     cmd[PATH_MAX + 16];
	struct template_set *ts;
	int ret;

	if (runs < 1)
		runs = 1;
	if (src == NULL)
		src = ASHES_SRCDIR_DEFAULT;
	snprintf(tdir, sizeof(tdir), "%s/templates", src);
	ts = template_set_new(NULL, tdir);
	if (mkdtemp(dir) == NULL)
		die("mkdtemp", "failed");
	pictures(ts, runs);
	ret = your_move_mail(ts, dir);
	template_set_free(&ts);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return ret;
}
