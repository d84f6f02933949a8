/* outbox_test.h -- fixtures shared by the outbox tests (test_outbox.c,
 * unit tests with fixed inputs; test_outbox_stack.c, against a real
 * Postfix): a temp folder with a store, a config filled in code, outbox
 * rows of each kind as the service queues them (typed envelopes, with the
 * html of templates/mail/board.html and a fixed board picture, SVG or
 * PNG, for a mail about a game), the daemon's own gpg key, and the Python checker of a
 * composed mail (tests/daemon/outbox_check.py). */
#ifndef ASHES_TEST_OUTBOX_H
#define ASHES_TEST_OUTBOX_H

#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config/club_config.h"
#include "daemon/outbox.h"
#include "mail/smtp.h"
#include "mail/pgp.h"
#include "render/template.h"
#include "store/store.h"
#include "util/buf.h"

#define OT_FROM "ashes@mailstack.test"
#define OT_DOMAIN "mailstack.test"
/* Fixed, so that tests are exact. */
#define OT_NOW ((int64_t)1795000000)
/* A fixed picture standing in for the service's board: only its bytes
 * matter to the outbox. */
#define OT_SVG "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" " \
	"height=\"10\"><rect width=\"10\" height=\"10\" fill=\"#963\"/></svg>\n"
/* The same as a PNG (10 x 10, indexed, one colour), for the players who
 * get PNG pictures; see ot_row_png. */
#define OT_PNG "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x0a\0\0\0\x0a\x08\x03" \
	"\0\0\0\xba\xec\x3f\x8f\0\0\0\x03PLTE\x99\x66\x33\xd9\xcf\x13\x92" \
	"\0\0\0\x0cIDAT\x78\xda\x63\x60\xa0\x27\0\0\0\x6e\0\x01\x76\xa0" \
	"\xa9\xcf\0\0\0\0IEND\xae\x42\x60\x82"
#define OT_PNG_LEN (sizeof(OT_PNG) - 1)

struct ot_fixture {
	char dir[PATH_MAX];
	char db[PATH_MAX + 16];
	char gnupghome[PATH_MAX + 16];
	struct store *store;
	struct template_set *templates;
	struct config cfg;
	int64_t game; /* a game in the store (0: none yet), see ot_enqueue */
};

static struct ot_fixture ot;

static int ot_shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int ot_shell(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void ot_setup(void)
{
	const char *src = getenv("ASHES_SRCDIR");
	char tdir[PATH_MAX + 16];
	const char *error = NULL;

	memset(&ot, 0, sizeof(ot));
	snprintf(ot.dir, sizeof(ot.dir), "/tmp/ashes-outbox-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(ot.dir));
	snprintf(ot.db, sizeof(ot.db), "%s/ashes.db", ot.dir);
	ck_assert_msg(store_open(ot.db, NULL, &ot.store, &error) == 0, "%s", error);
	snprintf(tdir, sizeof(tdir), "%s/templates", src ? src : "..");
	ot.templates = template_set_new(NULL, tdir);
	ot.cfg.smtp.from = strdup(OT_FROM);
	ot.cfg.smtp.from_name = strdup("Ashes Club");
	ot.cfg.smtp.batch_size = 50;
	ot.cfg.smtp.retry_initial_ms = 30000;
	ot.cfg.smtp.retry_max_ms = 3600000;
	ot.cfg.smtp.give_up_after_ms = 5ULL * 86400 * 1000;
}

static void ot_teardown(void)
{
	store_close(&ot.store);
	template_set_free(&ot.templates);
	if (ot.gnupghome[0])
		ot_shell("gpgconf --homedir '%s' --kill all >/dev/null 2>&1",
			 ot.gnupghome);
	config_free(&ot.cfg);
	if (getenv("OT_KEEP") == NULL) /* to look at the mails */
		ot_shell("rm -rf '%s'", ot.dir);
}

/* The body of every test row: non-ASCII, an HTML-special line, a line
 * starting with "From " and one with ".", and a long line, so that
 * quoted-printable and escaping are exercised. */
static const char ot_body[] =
	"alice, it is your move in game 12.\n"
	"\n"
	"Black split 2 from c3 to e5 & captured a White 1-stack <x> \"q\".\n"
	"From here: tax \xe2\x80\x94 2 \xc3\xa9\xc3\xa9.\n"
	".\n"
	"move 12 8 c3-e5/2   \n"
	"0123456789012345678901234567890123456789012345678901234567890123456789"
	"0123456789012345678901234567890123456789\n";


/* An outbox row and the text it owns. */
struct ot_row {
	struct store_outbox_msg m;
	struct buf subject, message_id, html;
};

/* Fill r as the service queues a mail (server_queue_mail): to, kind, the
 * game it is about (0: none) after ply plies; the Message-ID is
 * ashes.ID_GAME.PLY.7.SEQ@mailstack.test.  A reply answers
 * <m1@alice.example>; a mail about a game has the html of
 * templates/mail/board.html (subject, game, ply, image_cid, text)
 * showing OT_SVG (ot_row_png: OT_PNG) as cid:board.<message_id>.  Free
 * with ot_row_free. */
static void ot_row_named(struct ot_row *r, const char *to, const char *kind,
			 int64_t game, int ply, int64_t id_game, int seq)
{
	bool reply = strcmp(kind, "reply") == 0;

	memset(r, 0, sizeof(*r));
	if (game)
		buf_printf(&r->subject, "[ashes #%" PRId64 "] alice vs bob", game);
	else
		buf_puts(&r->subject, "Re: register alice");
	buf_printf(&r->message_id, "ashes.%" PRId64 ".%d.7.%d@" OT_DOMAIN,
		   id_game, ply, seq);
	r->m.kind = store_outbox_kind_of(kind);
	r->m.recipient = (char *)to;
	r->m.message_id = (char *)buf_str(&r->message_id);
	r->m.subject = (char *)buf_str(&r->subject);
	if (reply) {
		r->m.in_reply_to = "m1@alice.example";
		r->m.references = "<m1@alice.example>";
	}
	r->m.auto_reply = reply;
	r->m.game_id = game;
	r->m.ply = game ? ply : 0;
	r->m.body = (char *)ot_body;
	if (game) {
		struct template_ctx *ctx = template_ctx_new();
		const char *error = NULL;

		template_ctx_set(ctx, "subject", r->m.subject);
		template_ctx_setf(ctx, "game", "%" PRId64, game);
		template_ctx_setf(ctx, "ply", "%d", ply);
		template_ctx_setf(ctx, "image_cid", STORE_OUTBOX_IMAGE_CID_PREFIX "%s",
				  r->m.message_id);
		template_ctx_set(ctx, "text", r->m.body);
		ck_assert_msg(template_render(ot.templates, "mail/board.html", ctx,
					      &r->html, &error) == 0, "%s", error);
		template_ctx_free(&ctx);
		r->m.html = (char *)buf_str(&r->html);
		r->m.image = (char *)OT_SVG;
		r->m.image_len = strlen(OT_SVG);
		r->m.image_type = STORE_OUTBOX_SVG;
	}
}

/* Make r's picture OT_PNG, as queued for a player who gets PNG. */
static inline void ot_row_png(struct ot_row *r)
{
	r->m.image = (char *)OT_PNG;
	r->m.image_len = OT_PNG_LEN;
	r->m.image_type = STORE_OUTBOX_PNG;
}

/* The same, the Message-ID naming the game itself. */
static inline void ot_row(struct ot_row *r, const char *to,
			  const char *kind, int64_t game, int ply, int seq)
{
	ot_row_named(r, to, kind, game, ply, game, seq);
}

static void ot_row_free(struct ot_row *r)
{
	buf_free(&r->subject);
	buf_free(&r->message_id);
	buf_free(&r->html);
}

/* The game that rows in the store are about (outbox.game_id is a foreign
 * key): made on first use, the same for every row of a test. */
static int64_t ot_store_game(void)
{
	struct store_game g = { 0 };
	int64_t a = 0, b = 0;
	const char *error = NULL;

	if (ot.game != 0)
		return ot.game;
	ck_assert_msg(store_player_add(ot.store, "alice", NULL, NULL, 1, &a,
				       &error) == 0, "%s", error);
	ck_assert_msg(store_player_add(ot.store, "bob", NULL, NULL, 1, &b,
				       &error) == 0, "%s", error);
	g.variant = "size=5";
	g.challenger_id = a;
	g.white_id = a;
	g.black_id = b;
	g.status = STORE_GAME_ACTIVE;
	ck_assert_msg(store_game_create(ot.store, &g, 1, &ot.game, &error) == 0,
		      "%s", error);
	return ot.game;
}

/* Queue one row as ot_row makes it, but about ot_store_game(): `game`
 * only names it in the Message-ID, where tests look for it.  Returns the
 * row's id. */
static int64_t ot_enqueue(const char *to, const char *kind, int64_t game,
			  int ply, int seq, int64_t now)
{
	struct ot_row r;
	const char *error = NULL;
	int64_t rid = 0;

	ot_row_named(&r, to, kind, game ? ot_store_game() : 0, ply, game, seq);
	ck_assert_msg(store_outbox_enqueue(ot.store, &r.m, now, &rid, &error) == 0,
		      "%s", error);
	ot_row_free(&r);
	return rid;
}

/* Write len bytes to DIR/name; returns the path (static). */
static const char *ot_write(const char *name, const void *data, size_t len)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ot.dir, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* Run tests/daemon/outbox_check.py on a mail file with the given
 * expectations (see the script); 0 when it agrees. */
static int ot_check_mail(const char *path, const char *args)
{
	const char *src = getenv("ASHES_SRCDIR");
	char mail[PATH_MAX + 400];
	const char *body;

	snprintf(mail, sizeof(mail), "%s", path); /* ot_write reuses its buffer */
	body = ot_write("body.txt", ot_body, strlen(ot_body));
	return ot_shell("python3 '%s/tests/daemon/outbox_check.py' '%s' --body '%s' %s",
			src ? src : "..", mail, body, args);
}

/* A GNUPGHOME under the fixture with a fresh ed25519 signing key for
 * OT_FROM (no passphrase); its fingerprint into fpr (41 bytes). */
static void ot_gpg_key(char *fpr, size_t len)
{
	char cmd[PATH_MAX * 2];
	FILE *p;

	snprintf(ot.gnupghome, sizeof(ot.gnupghome), "%s/gnupg", ot.dir);
	ck_assert_int_eq(ot_shell("mkdir -m 700 '%s' && gpg --homedir '%s' --batch "
				  "--passphrase '' --quick-gen-key 'Ashes <" OT_FROM ">' "
				  "ed25519 sign never >/dev/null 2>&1",
				  ot.gnupghome, ot.gnupghome), 0);
	snprintf(cmd, sizeof(cmd), "gpg --homedir '%s' --batch --with-colons "
		 "--list-secret-keys | awk -F: '/^fpr/ { print $10; exit }'",
		 ot.gnupghome);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(fpr, (int)len, p));
	pclose(p);
	fpr[strcspn(fpr, "\n")] = '\0';
	ck_assert_uint_eq(strlen(fpr), 40);
}

/* A plain SMTP sender to `port` on the loopback, waiting at most
 * timeout_ms. */
static inline struct smtp_sender *ot_sender(unsigned int port,
					    unsigned int timeout_ms)
{
	struct smtp_settings set = {
		.host = "127.0.0.1",
		.port = port,
		.security = SMTP_PLAIN,
		.timeout_ms = timeout_ms,
	};
	struct smtp_sender *s = NULL;
	const char *error = NULL;

	ck_assert_msg(smtp_sender_new(&set, &s, &error) == 0, "%s", error);
	return s;
}

/* A port on the loopback nothing listens on: connection refused. */
static inline unsigned int ot_closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

/* The outbox row `id` as the store lists it now (good until the next
 * call). */
static inline struct store_outbox_msg *ot_msg(int64_t id)
{
	static struct store_outbox_msg *msgs;
	static size_t n;
	const char *error = NULL;
	size_t i;

	store_outbox_msgs_free(&msgs, n);
	ck_assert_int_eq(store_outbox_list(ot.store, STORE_OUTBOX_ALL, 0, 0, &msgs,
					   &n, &error), 0);
	for (i = 0; i < n; i++)
		if (msgs[i].id == id)
			return &msgs[i];
	ck_abort_msg("no outbox row %" PRId64, id);
	return NULL;
}

#endif
