/* test_outbox.c -- the outbox with fixed inputs: the backoff function,
 * the mail composed from each kind of outbox row (byte for byte what the
 * outbox sent before its rows were typed, in tests/daemon/outbox-golden,
 * and the same with a PNG picture;
 * the exact header set, the html alternative with the board picture, the
 * text part decoding to the body, checked by Python's MIME parser),
 * PGP/MIME signing verified by gpg, and what happens to a row when
 * signing fails or the SMTP port is closed (retry with growing delays,
 * give-up rules).  test_outbox_stack.c covers a real Postfix. */
#include "config.h"


#include "outbox_test.h"
#include "server/command.h"
#include "core/core.h"
#include "render/render.h"
#include "../check_run.h"

/* Headers of every mail, and of a mail with one text part. */
#define H_COMMON "From,To,Reply-To,Subject,Date,Message-ID,Auto-Submitted," \
	"X-Loop,MIME-Version,Content-Type"
#define H_THREAD ",In-Reply-To,References"
#define H_TEXT ",Content-Transfer-Encoding"

START_TEST(test_backoff)
{
	struct config_smtp c = { .retry_initial_ms = 30000, .retry_max_ms = 3600000 };
	uint64_t prev = 0;
	int i;

	/* no jitter: initial * 2^(n-1), capped */
	ck_assert_uint_eq(outbox_backoff_ms(&c, 1, 0), 30000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 2, 0), 60000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 3, 0), 120000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 7, 0), 1920000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 8, 0), 3600000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 1000, 0), 3600000);
	/* jitter takes up to 20% off */
	ck_assert_uint_eq(outbox_backoff_ms(&c, 1, 0.5), 27000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 2, 0.25), 57000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 9, 0.5), 3240000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 1, 0.999), 24006);
	/* out-of-range jitter counts as none */
	ck_assert_uint_eq(outbox_backoff_ms(&c, 2, 1.0), 60000);
	ck_assert_uint_eq(outbox_backoff_ms(&c, 2, -0.1), 60000);
	/* with the worst jitter each delay still grows until the cap */
	for (i = 1; i < 8; i++) {
		uint64_t d = outbox_backoff_ms(&c, i, 0.999);
		ck_assert_uint_gt(d, prev);
		prev = d;
	}
	/* unset initial: one second */
	c.retry_initial_ms = 0;
	ck_assert_uint_eq(outbox_backoff_ms(&c, 1, 0), 1000);
}
END_TEST

/* Compose the row (to, kind, game, ply) and check it with the script. */
static void compose_and_check(const char *kind, int64_t game, const char *args)
{
	struct ot_row r;
	struct buf out = BUF_INIT;
	const char *error = NULL, *path;
	enum outbox_compose_error ce;

	ot_row(&r, "alice@mailstack.test", kind, game, 3, 0);
	ce = outbox_compose(&ot.cfg, NULL, &r.m, OT_NOW, &out, &error);
	ck_assert_msg(ce == OUTBOX_COMPOSE_OK, "%s", error);
	path = ot_write("mail.eml", out.data, out.len);
	ck_assert_msg(ot_check_mail(path, args) == 0, "%s mail:\n%s", kind,
		      buf_str(&out));
	ot_row_free(&r);
	buf_free(&out);
}

START_TEST(test_compose_reply)
{
	char args[16384];

	snprintf(args, sizeof(args),
		 "--crlf --no-html --date %" PRId64 " --headers " H_COMMON H_THREAD H_TEXT
		 " --header 'From=Ashes Club <" OT_FROM ">' --header 'Reply-To=" OT_FROM "'"
		 " --header 'X-Loop=" OT_FROM "' --header Auto-Submitted=auto-replied"
		 " --header 'To=alice@mailstack.test' --header 'Subject=Re: register alice'"
		 " --header 'Message-ID=<ashes.0.3.7.0@" OT_DOMAIN ">'"
		 " --header 'In-Reply-To=<m1@alice.example>'"
		 " --header 'References=<m1@alice.example>'", OT_NOW);
	compose_and_check("reply", 0, args);
}
END_TEST

/* Every kind of mail about a game carries the board. */
START_TEST(test_compose_game_kinds)
{
	static const char *const kinds[] = { "your-move", "challenge", "result" };
	char args[16384], svg[PATH_MAX + 64];

	snprintf(svg, sizeof(svg), "%s", ot_write("board.svg", OT_SVG, strlen(OT_SVG)));
	snprintf(args, sizeof(args),
		 "--crlf --html '%s' --date %" PRId64 " --headers " H_COMMON
		 " --header Auto-Submitted=auto-generated"
		 " --header 'Subject=[ashes #12] alice vs bob'", svg, OT_NOW);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		compose_and_check(kinds[i], 12, args);
	/* A reply in a game's thread is about the game too. */
	snprintf(args, sizeof(args),
		 "--crlf --html '%s' --headers " H_COMMON H_THREAD
		 " --header Auto-Submitted=auto-replied", svg);
	compose_and_check("reply", 12, args);
}
END_TEST

START_TEST(test_compose_observer)
{
	char args[16384], svg[PATH_MAX + 64];

	snprintf(svg, sizeof(svg), "%s", ot_write("board.svg", OT_SVG, strlen(OT_SVG)));
	snprintf(args, sizeof(args),
		 "--crlf --html '%s' --headers " H_COMMON ",List-Unsubscribe"
		 " --header Auto-Submitted=auto-generated"
		 " --header 'List-Unsubscribe=<mailto:" OT_FROM "?subject=unobserve%%2012&body=unobserve%%2012>'",
		 svg);
	compose_and_check("observer", 12, args);
}
END_TEST

/* The List-Unsubscribe mail's body is a command the server runs; its
 * Subject is not (nobody signs a Subject). */
START_TEST(test_unobserve_subject)
{
	struct command_list l;

	/* what a client sends for mailto:...?subject=unobserve%2012&body=... */
	command_parse_mail("unobserve 12", "unobserve 12", 12, 0, &l);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_int_eq(l.items[0].kind, COMMAND_UNOBSERVE);
	ck_assert_int_eq(l.items[0].game, 12);
	ck_assert_int_eq(l.items[0].line, 1);
	ck_assert(!l.subject_ignored);
	command_list_free(&l);
}
END_TEST

/* The mail composed of r's row into out (emptied first), which must
 * compose. */
static const char *compose_ok(struct ot_row *r, struct buf *out)
{
	const char *error = NULL;

	buf_reset(out);
	ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, &r->m, OT_NOW, out,
					&error), OUTBOX_COMPOSE_OK);
	return buf_str(out);
}

/* The head of the picture's part, a file of that type and name. */
#define IMAGE_PART(type, file) \
	"Content-Type: " type "; name=\"" file "\"\r\n" \
	"Content-Transfer-Encoding: base64\r\n" \
	"Content-ID: <" STORE_OUTBOX_IMAGE_CID_PREFIX \
	"ashes.12.3.7.0@" OT_DOMAIN ">\r\n" \
	"Content-Disposition: inline; filename=\"" file "\"\r\n\r\n"

/* The html and the picture go out as the row has them: sending renders
 * nothing.  A row without html is text only; html without a picture is a
 * plain text/html alternative. */
START_TEST(test_compose_html_from_row)
{
	struct ot_row r;
	struct buf out = BUF_INIT;
	const char *mail;

	ot_row(&r, "alice@mailstack.test", "your-move", 12, 3, 0);
	r.m.html = NULL;
	r.m.image = NULL;
	r.m.image_len = 0;
	mail = compose_ok(&r, &out);
	ck_assert_ptr_null(strstr(mail, "text/html"));
	ck_assert_ptr_null(strstr(mail, "multipart"));

	r.m.html = "<!DOCTYPE html><p>only this</p>";
	mail = compose_ok(&r, &out);
	ck_assert_ptr_nonnull(strstr(mail, "<p>only this</p>"));
	ck_assert_ptr_null(strstr(mail, "multipart/related"));
	ck_assert_ptr_null(strstr(mail, "Content-ID"));

	/* the picture: the row's bytes, as cid:board.<message_id> */
	r.m.image = "<svg xmlns=\"http://www.w3.org/2000/svg\"/>";
	r.m.image_len = strlen(r.m.image);
	mail = compose_ok(&r, &out);
	ck_assert_ptr_nonnull(strstr(mail,
		IMAGE_PART("image/svg+xml", "board.svg")
		"PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=\r\n"));

	/* a PNG is named by its type */
	ot_row_png(&r);
	mail = compose_ok(&r, &out);
	ck_assert_ptr_nonnull(strstr(mail,
		IMAGE_PART("image/png", "board.png") "iVBORw0KGgo"));
	ck_assert_ptr_null(strstr(mail, "svg"));
	ot_row_free(&r);
	buf_free(&out);
}
END_TEST


/* A PNG row as the store keeps it: queued, read back and composed, the
 * mail carries the same bytes as image/png, offered as board.png (and an
 * SVG row still as image/svg+xml). */
START_TEST(test_compose_png_from_store)
{
	static const char *const types[] = { STORE_OUTBOX_PNG, STORE_OUTBOX_SVG };
	char args[16384], pic[PATH_MAX + 64], mail[PATH_MAX + 64];
	const char *error = NULL;
	struct store_outbox_msg *m;
	struct buf out = BUF_INIT;
	struct ot_row r;
	int64_t id = 0;

	for (size_t i = 0; i < 2; i++) {
		bool png = i == 0;

		ot_row(&r, "alice@mailstack.test", "your-move", ot_store_game(),
		       3, (int)i);
		if (png)
			ot_row_png(&r);
		ck_assert_msg(store_outbox_enqueue(ot.store, &r.m, OT_NOW, &id,
						   &error) == 0, "%s", error);
		ot_row_free(&r);
		m = ot_msg(id);
		ck_assert_str_eq(m->image_type, types[i]);
		buf_reset(&out);
		ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, m, OT_NOW, &out,
						&error), OUTBOX_COMPOSE_OK);
		/* (ot_write's path is valid until its next call) */
		snprintf(mail, sizeof(mail), "%s",
			 ot_write("mail.eml", out.data, out.len));
		snprintf(pic, sizeof(pic), "%s", png ?
			 ot_write("board.png", OT_PNG, OT_PNG_LEN) :
			 ot_write("board.svg", OT_SVG, strlen(OT_SVG)));
		snprintf(args, sizeof(args), "--crlf --html '%s' --image-type %s",
			 pic, types[i]);
		ck_assert_msg(ot_check_mail(mail, args) == 0, "%s", buf_str(&out));
	}
	buf_free(&out);
}
END_TEST

/* A your-move mail queued with the drawing `svg` for its PNG picture:
 * its row. */
static struct store_outbox_msg *your_move_drawn(const struct buf *svg)
{
	struct ot_row r;
	const char *error = NULL;
	int64_t id = 0;

	ot_row(&r, "alice@mailstack.test", "your-move", ot_store_game(), 0, 9);
	r.m.image = svg->data;
	r.m.image_len = svg->len;
	r.m.image_type = STORE_OUTBOX_PNG;
	ck_assert_msg(store_outbox_enqueue(ot.store, &r.m, OT_NOW, &id,
					   &error) == 0, "%s", error);
	ot_row_free(&r);
	return ot_msg(id);
}

/* The service queues a PNG as its SVG drawing (drawing the PNG takes tens
 * of milliseconds, too long for its transaction): the outbox draws the
 * PNG when it sends, the same bytes render_png_from_svg() gives. */
START_TEST(test_compose_png_drawn_at_send)
{
	char args[16384], pic[PATH_MAX + 64], mail[PATH_MAX + 64];
	struct buf svg = BUF_INIT, png = BUF_INIT, out = BUF_INIT;
	struct core_position pos;
	struct core_variant v;
	enum core_error err;
	const char *error = NULL;
	struct store_outbox_msg *m;

	core_variant_default(&v);
	ck_assert_int_eq(core_position_init(&pos, &v, &err), 0);
	render_board_svg(&pos, NULL, &svg);
	ck_assert_int_eq(render_png_from_svg(svg.data, svg.len, 0, &png,
					     &error), 0);
	m = your_move_drawn(&svg);
	ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, m, OT_NOW, &out,
					&error), OUTBOX_COMPOSE_OK);
	snprintf(mail, sizeof(mail), "%s", ot_write("mail.eml", out.data,
						   out.len));
	snprintf(pic, sizeof(pic), "%s", ot_write("board.png", png.data,
						 png.len));
	snprintf(args, sizeof(args), "--crlf --html '%s' --image-type %s", pic,
		 STORE_OUTBOX_PNG);
	ck_assert_msg(ot_check_mail(mail, args) == 0, "%s", buf_str(&out));
	buf_free(&svg);
	buf_free(&png);
	buf_free(&out);
}
END_TEST

/* Drawn once, shown to each its own: the outbox keeps the last PNGs it
 * drew by their SVG (both players of a move get the same board), and a
 * mail must still carry the PNG of its own row's drawing, whatever was
 * drawn before it. */
START_TEST(test_compose_png_each_its_own)
{
	static const int order[] = { 0, 1, 0, 1, 1, 0 };
	struct buf svg[2] = { BUF_INIT, BUF_INIT }, png[2] = { BUF_INIT, BUF_INIT };
	struct core_position pos;
	struct core_variant v;
	struct core_move mv;
	enum core_error err;
	const char *error = NULL;
	int i;

	core_variant_default(&v);
	ck_assert_int_eq(core_position_init(&pos, &v, &err), 0);
	for (i = 0; i < 2; i++) {
		render_board_svg(&pos, NULL, &svg[i]);
		ck_assert_int_eq(render_png_from_svg(svg[i].data, svg[i].len, 0,
						     &png[i], &error), 0);
		ck_assert_uint_ge(core_legal_moves(&pos, &mv, 1), 1);
		core_play_unchecked(&pos, &mv, NULL);
	}
	ck_assert(png[0].len != png[1].len ||
		  memcmp(png[0].data, png[1].data, png[0].len) != 0);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		char args[16384], pic[PATH_MAX + 64], mail[PATH_MAX + 64];
		struct buf out = BUF_INIT;
		struct store_outbox_msg *m;

		i = order[k];
		m = your_move_drawn(&svg[i]);
		ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, m, OT_NOW, &out,
						&error), OUTBOX_COMPOSE_OK);
		snprintf(mail, sizeof(mail), "%s",
			 ot_write("mail.eml", out.data, out.len));
		snprintf(pic, sizeof(pic), "%s",
			 ot_write("board.png", png[i].data, png[i].len));
		snprintf(args, sizeof(args), "--crlf --html '%s' --image-type %s",
			 pic, STORE_OUTBOX_PNG);
		ck_assert_msg(ot_check_mail(mail, args) == 0, "mail %zu: %s", k,
			      buf_str(&out));
		buf_free(&out);
	}
	outbox_forget_pictures();
	for (i = 0; i < 2; i++) {
		buf_free(&svg[i]);
		buf_free(&png[i]);
	}
}
END_TEST

START_TEST(test_compose_bad_row)
{
	static const size_t fields[] = {
		offsetof(struct store_outbox_msg, recipient),
		offsetof(struct store_outbox_msg, subject),
		offsetof(struct store_outbox_msg, message_id),
		offsetof(struct store_outbox_msg, body),
	};
	struct ot_row r;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	/* a version-1 row without a Subject, say */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char **f;

		ot_row(&r, "a@b", "reply", 0, 0, 0);
		f = (char **)((char *)&r.m + fields[i]);
		*f = NULL;
		error = NULL;
		ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, &r.m, OT_NOW, &out,
						&error), OUTBOX_COMPOSE_BAD_ROW);
		ck_assert_ptr_nonnull(strstr(error, "Message-ID"));
		ot_row_free(&r);
		buf_reset(&out);
	}
	ot_row(&r, "a@b", "reply", 0, 0, 0);
	r.m.message_id = "";
	ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, &r.m, OT_NOW, &out, &error),
			 OUTBOX_COMPOSE_BAD_ROW);
	ot_row_free(&r);
	buf_free(&out);
}
END_TEST

/* The golden mails: the bytes the outbox sent before its rows were typed
 * (made by that outbox from the header blocks of the time, saved in
 * tests/daemon/outbox-golden), composed now from the typed rows the
 * service writes for the same mails.  Unsigned, so that they are fixed.
 * When a template they show changes on purpose (mail/board.html),
 * OT_GOLDEN_WRITE=1 rewrites them: then the diff must show that change
 * and nothing else. */
static const struct golden {
	const char *name, *from_name, *to, *kind, *subject, *message_id;
	const char *in_reply_to, *references;
	bool auto_reply;
	int64_t game;
	int ply;
	bool png; /* the picture is OT_PNG (else OT_SVG) */
} goldens[] = {
	{ "reply", "Ashes Club", "alice@mailstack.test", "reply",
	  "Re: register alice", "ashes.0.0.7.1@" OT_DOMAIN, "m1@alice.example",
	  "<m1@alice.example>", true, 0, 0, false },
	{ "your-move", "Ashes Club", "alice@mailstack.test", "your-move",
	  "[ashes #12] alice vs bob", "ashes.12.3.7.2@" OT_DOMAIN,
	  "ashes.12.0.5.0@" OT_DOMAIN, "<ashes.12.0.5.0@" OT_DOMAIN ">",
	  false, 12, 3, false },
	{ "observer", "Ashes Club", "carol@mailstack.test", "observer",
	  "[ashes #12] alice vs bob, which you observe",
	  "ashes.12.4.7.3@" OT_DOMAIN, "ashes.12.0.5.0@" OT_DOMAIN,
	  "<ashes.12.0.5.0@" OT_DOMAIN ">", false, 12, 4, false },
	{ "reply-in-game", "Ashes Club", "bob@mailstack.test", "reply",
	  "Re: [ashes #12] Zug von J\xc3\xbcrgen \xe2\x80\x94 Wei\xc3\x9f gewinnt & mehr <b>",
	  "ashes.12.5.9.0@" OT_DOMAIN,
	  "CAF+x7q.long-client-id.0123456789@mail.bob.example",
	  "<ashes.12.0.5.0@" OT_DOMAIN "> <ashes.12.3.7.2@" OT_DOMAIN "> "
	  "<ashes.12.4.7.3@" OT_DOMAIN "> <ashes.12.0.5.0@" OT_DOMAIN "> "
	  "<CAF+x7q.long-client-id.0123456789@mail.bob.example>",
	  true, 12, 5, false },
	{ "result-utf8-from", "\xc3\x89" "checs Club Z\xc3\xbcrich",
	  "alice@mailstack.test", "result", "[ashes #12] alice vs bob: 1-0",
	  "ashes.12.9.7.4@" OT_DOMAIN, "ashes.12.0.5.0@" OT_DOMAIN,
	  "<ashes.12.0.5.0@" OT_DOMAIN ">", false, 12, 9, false },
	{ "notice-no-from-name", NULL, "dave@mailstack.test", "notice",
	  "Your address is confirmed", "ashes.0.0.8.0@" OT_DOMAIN, NULL, NULL,
	  false, 0, 0, false },
	/* New with PNG pictures (sql/007), made by this outbox and read by
	 * hand: the your-move mail with board.png in place of board.svg. */
	{ "your-move-png", "Ashes Club", "alice@mailstack.test", "your-move",
	  "[ashes #12] alice vs bob", "ashes.12.3.7.2@" OT_DOMAIN,
	  "ashes.12.0.5.0@" OT_DOMAIN, "<ashes.12.0.5.0@" OT_DOMAIN ">",
	  false, 12, 3, true },
};

START_TEST(test_compose_golden)
{
	const char *src = getenv("ASHES_SRCDIR");

	for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		const struct golden *g = &goldens[i];
		struct buf want = BUF_INIT, out = BUF_INIT;
		const char *error = NULL;
		char path[PATH_MAX + 64], chunk[4096];
		struct ot_row r;
		size_t n;
		FILE *f;

		snprintf(path, sizeof(path), "%s/tests/daemon/outbox-golden/%s.eml",
			 src ? src : "..", g->name);
		f = fopen(path, "rb");
		ck_assert_msg(f != NULL, "%s", path);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_append(&want, chunk, n);
		fclose(f);

		/* the row as the service fills it, html and picture included */
		ot_row(&r, g->to, g->kind, g->game, g->ply, 0);
		r.m.subject = (char *)g->subject;
		r.m.message_id = (char *)g->message_id;
		r.m.in_reply_to = (char *)g->in_reply_to;
		r.m.references = (char *)g->references;
		r.m.auto_reply = g->auto_reply;
		if (g->png)
			ot_row_png(&r);
		if (g->game) { /* again, with this subject and Message-ID */
			struct template_ctx *ctx = template_ctx_new();

			buf_reset(&r.html);
			template_ctx_set(ctx, "subject", g->subject);
			template_ctx_setf(ctx, "game", "%" PRId64, g->game);
			template_ctx_setf(ctx, "ply", "%d", g->ply);
			template_ctx_setf(ctx, "image_cid",
					  STORE_OUTBOX_IMAGE_CID_PREFIX "%s",
					  g->message_id);
			template_ctx_set(ctx, "text", r.m.body);
			ck_assert_int_eq(template_render(ot.templates,
							 "mail/board.html", ctx,
							 &r.html, &error), 0);
			template_ctx_free(&ctx);
			r.m.html = (char *)buf_str(&r.html);
		}
		free(ot.cfg.smtp.from_name);
		ot.cfg.smtp.from_name = g->from_name ? strdup(g->from_name) : NULL;
		ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, &r.m, OT_NOW, &out,
						&error), OUTBOX_COMPOSE_OK);
		if (getenv("OT_GOLDEN_WRITE") != NULL) {
			/* a template changed on purpose: write, then read
			 * `git diff tests/daemon/outbox-golden` */
			f = fopen(path, "wb");
			ck_assert_ptr_nonnull(f);
			ck_assert_uint_eq(fwrite(out.data, 1, out.len, f), out.len);
			fclose(f);
			buf_reset(&want);
			buf_append(&want, out.data, out.len);
		}
		ck_assert_msg(out.len == want.len &&
			      memcmp(out.data, want.data, want.len) == 0,
			      "%s differs; got:\n%s", g->name, buf_str(&out));
		ot_row_free(&r);
		buf_free(&want);
		buf_free(&out);
	}
}
END_TEST

START_TEST(test_compose_signed)
{
	char fpr[64], args[16384], svg[PATH_MAX + 64];
	struct pgp_ctx *pgp = NULL;
	const char *error = NULL, *path;
	struct buf out = BUF_INIT;
	struct ot_row r;

	ot_gpg_key(fpr, sizeof(fpr));
	ck_assert_msg(pgp_ctx_new(ot.gnupghome, &pgp, &error) == 0, "%s", error);
	ot.cfg.gpg.sign_replies = true;
	ot.cfg.gpg.signing_key = strdup(fpr);
	snprintf(svg, sizeof(svg), "%s", ot_write("board.svg", OT_SVG, strlen(OT_SVG)));

	/* with the html alternative */
	ot_row(&r, "alice@mailstack.test", "your-move", 12, 3, 0);
	ck_assert_msg(outbox_compose(&ot.cfg, pgp, &r.m, OT_NOW, &out, &error) ==
		      OUTBOX_COMPOSE_OK, "%s", error);
	ot_row_free(&r);
	path = ot_write("signed.eml", out.data, out.len);
	snprintf(args, sizeof(args), "--crlf --signed %s '%s' --html '%s' --headers "
		 H_COMMON, fpr, ot.gnupghome, svg);
	ck_assert_msg(ot_check_mail(path, args) == 0, "%s", buf_str(&out));

	/* text only */
	buf_reset(&out);
	ot_row(&r, "alice@mailstack.test", "reply", 0, 0, 1);
	ck_assert_int_eq(outbox_compose(&ot.cfg, pgp, &r.m, OT_NOW, &out, &error),
			 OUTBOX_COMPOSE_OK);
	path = ot_write("signed.eml", out.data, out.len);
	snprintf(args, sizeof(args), "--crlf --signed %s '%s' --no-html --headers "
		 H_COMMON H_THREAD, fpr, ot.gnupghome);
	ck_assert_msg(ot_check_mail(path, args) == 0, "%s", buf_str(&out));

	/* a tampered copy does not verify (the check can fail) */
	{
		char *p = strstr(out.data, "alice, it is");
		ck_assert_ptr_nonnull(p);
		p[0] = 'A';
		path = ot_write("tampered.eml", out.data, out.len);
		ck_assert_int_ne(ot_check_mail(path, args), 0);
	}

	/* no pgp context: never signed, whatever the config says */
	buf_reset(&out);
	ck_assert_int_eq(outbox_compose(&ot.cfg, NULL, &r.m, OT_NOW, &out, &error),
			 OUTBOX_COMPOSE_OK);
	ck_assert_ptr_null(strstr(buf_str(&out), "multipart/signed"));
	ot_row_free(&r);
	pgp_ctx_free(&pgp);
	buf_free(&out);
}
END_TEST

/* Signing fails (no such key): the row waits, it is not lost or failed. */
START_TEST(test_sign_failure_retries)
{
	char fpr[64];
	struct pgp_ctx *pgp = NULL;
	struct smtp_sender *s = ot_sender(ot_closed_port(), 5000);
	struct outbox_stats st;
	const char *error = NULL;
	int64_t a, b;

	ot_gpg_key(fpr, sizeof(fpr));
	ck_assert_int_eq(pgp_ctx_new(ot.gnupghome, &pgp, &error), 0);
	ot.cfg.gpg.sign_replies = true;
	ot.cfg.gpg.signing_key = strdup("0000000000000000000000000000000000000000");
	a = ot_enqueue("alice@mailstack.test", "reply", 0, 0, 1, OT_NOW);
	b = ot_enqueue("bob@mailstack.test", "reply", 0, 0, 2, OT_NOW);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, pgp, ot.templates, OT_NOW,
				      &st, &error), 0);
	ck_assert_uint_eq(st.sent + st.failed, 0);
	ck_assert_uint_eq(st.retried, 1); /* the batch stops at gpg trouble */
	ck_assert(!ot_msg(a)->failed);
	ck_assert_int_eq(ot_msg(a)->attempts, 1);
	ck_assert_int_gt(ot_msg(a)->next_attempt_at, OT_NOW);
	ck_assert_ptr_nonnull(strstr(ot_msg(a)->last_error, "signing"));
	ck_assert_int_eq(ot_msg(b)->attempts, 0);
	pgp_ctx_free(&pgp);
	smtp_sender_free(&s);
}
END_TEST

/* Connection refused: temporary; each retry waits longer; the batch
 * stops at the first (the server is away); give-up rules apply. */
START_TEST(test_closed_port_backoff)
{
	struct smtp_sender *s = ot_sender(ot_closed_port(), 5000);
	struct outbox_stats st;
	const char *error = NULL;
	int64_t a, b, c, d, now = OT_NOW, prev_delay = 0;
	int i;

	a = ot_enqueue("alice@mailstack.test", "reply", 0, 0, 1, now);
	for (i = 1; i <= 5; i++) {
		int64_t delay;

		ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
					      now, &st, &error), 0);
		ck_assert(st.server_down);
		ck_assert_uint_eq(st.retried, 1);
		ck_assert_int_eq(ot_msg(a)->attempts, i);
		ck_assert(!ot_msg(a)->failed);
		ck_assert_ptr_nonnull(ot_msg(a)->last_error);
		delay = ot_msg(a)->next_attempt_at - now;
		/* initial * 2^(i-1) less at most 20% */
		ck_assert_int_le(delay, 30 << (i - 1));
		ck_assert_int_ge(delay, (30 << (i - 1)) * 8 / 10);
		ck_assert_int_gt(delay, prev_delay);
		prev_delay = delay;
		/* not due before its time */
		ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
					      now + delay - 1, &st, &error), 0);
		ck_assert_int_eq(st.retried, 0);
		ck_assert_int_eq(ot_msg(a)->attempts, i);
		now += delay;
	}

	/* max_attempts: the 7th attempt is the last */
	ot.cfg.smtp.max_attempts = 7;
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, now,
				      &st, &error), 0);
	ck_assert(!ot_msg(a)->failed);
	now = ot_msg(a)->next_attempt_at;
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, now,
				      &st, &error), 0);
	ck_assert(ot_msg(a)->failed);
	ck_assert_int_eq(ot_msg(a)->attempts, 7);
	ck_assert_ptr_nonnull(strstr(ot_msg(a)->last_error, "gave up after 7 attempts"));
	/* failed for good: never tried again */
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      now + 86400 * 30, &st, &error), 0);
	ck_assert_int_eq(ot_msg(a)->attempts, 7);

	/* give_up_after: a row older than that fails at its next failure */
	ot.cfg.smtp.max_attempts = 0;
	ot.cfg.smtp.give_up_after_ms = 3600 * 1000;
	b = ot_enqueue("bob@mailstack.test", "reply", 0, 0, 2, OT_NOW);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      OT_NOW + 3599, &st, &error), 0);
	ck_assert(!ot_msg(b)->failed);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates,
				      OT_NOW + 3600 + 300, &st, &error), 0);
	ck_assert(ot_msg(b)->failed);
	ck_assert_uint_eq(st.failed, 1);

	/* the server away: the rest of the batch is not tried */
	c = ot_enqueue("carol@mailstack.test", "reply", 0, 0, 3, now);
	d = ot_enqueue("dave@mailstack.test", "reply", 0, 0, 4, now);
	ck_assert_int_eq(outbox_flush(&ot.cfg, ot.store, s, NULL, ot.templates, now,
				      &st, &error), 0);
	ck_assert_uint_eq(st.retried, 1);
	ck_assert_int_eq(ot_msg(c)->attempts + ot_msg(d)->attempts, 1);
	smtp_sender_free(&s);
}
END_TEST

TEST_MAIN("outbox", "outbox", ot_setup, ot_teardown, 60, test_backoff,
	  test_compose_reply, test_compose_game_kinds, test_compose_observer,
	  test_unobserve_subject, test_compose_html_from_row,
	  test_compose_png_from_store, test_compose_png_drawn_at_send,
	  test_compose_png_each_its_own, test_compose_bad_row,
	  test_compose_golden, test_compose_signed, test_sign_failure_retries,
	  test_closed_port_backoff)
