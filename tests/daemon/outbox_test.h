/* outbox_test.h -- fixtures shared by the outbox tests (test_outbox.c,
 * unit tests with fixed inputs; test_outbox_stack.c, against a real
 * Postfix): a temp folder with a store, a config filled in code, outbox
 * rows of each kind as the server writes them, a fixed board picture, the
 * daemon's own gpg key, and the Python checker of a composed mail
 * (tests/daemon/outbox_check.py). */
#ifndef ASHES_TEST_OUTBOX_H
#define ASHES_TEST_OUTBOX_H

#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"
#include "daemon/outbox.h"
#include "mail/pgp.h"
#include "render/template.h"
#include "store/store.h"
#include "util/buf.h"

#define OT_FROM "ashes@mailstack.test"
#define OT_DOMAIN "mailstack.test"
/* Fixed, so that tests are exact. */
#define OT_NOW ((int64_t)1795000000)
/* A fixed picture standing in for server_board_svg(): only its bytes
 * matter to the outbox. */
#define OT_SVG "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" " \
	"height=\"10\"><rect width=\"10\" height=\"10\" fill=\"#963\"/></svg>\n"

struct ot_fixture {
	char dir[PATH_MAX];
	char db[PATH_MAX + 16];
	char gnupghome[PATH_MAX + 16];
	struct store *store;
	struct template_set *templates;
	struct config cfg;
	struct outbox_html html;
	int board_calls;
};

static struct ot_fixture ot;

static int ot_board(void *ctx, int64_t game, int ply, struct buf *out,
		    const char **error_r)
{
	struct ot_fixture *f = ctx;

	f->board_calls++;
	if (game == 404) {
		*error_r = "no game 404";
		return -1;
	}
	(void)ply;
	buf_puts(out, OT_SVG);
	return 0;
}

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
	ot.html.templates = ot.templates;
	ot.html.board = ot_board;
	ot.html.board_ctx = &ot;
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

/* The header block of an outbox row as server.c writes it.  game 0: a
 * mail about no game (no X-Ashes-Game / X-Ashes-Ply). */
static void ot_headers(struct buf *out, const char *to, const char *kind,
		       int64_t game, int ply, int seq)
{
	bool reply = strcmp(kind, "reply") == 0;

	buf_printf(out, "To: %s\n", to);
	if (game)
		buf_printf(out, "Subject: [ashes #%" PRId64 "] alice vs bob\n", game);
	else
		buf_puts(out, "Subject: Re: register alice\n");
	buf_printf(out, "Message-ID: <ashes.%" PRId64 ".%d.7.%d@" OT_DOMAIN ">\n",
		   game, ply, seq);
	if (reply) {
		buf_puts(out, "In-Reply-To: <m1@alice.example>\n");
		buf_puts(out, "References: <m1@alice.example>\n");
	}
	buf_printf(out, "Auto-Submitted: %s\n", reply ? "auto-replied" : "auto-generated");
	if (game) {
		buf_printf(out, "X-Ashes-Game: %" PRId64 "\n", game);
		buf_printf(out, "X-Ashes-Ply: %d\n", ply);
	}
	buf_printf(out, "X-Ashes-Kind: %s\n", kind);
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

/* Queue one row; returns its id. */
static int64_t ot_enqueue(const char *to, const char *kind, int64_t game,
			  int ply, int seq, int64_t now)
{
	struct buf h = BUF_INIT, id = BUF_INIT;
	struct store_outbox_msg m;
	const char *error = NULL;
	int64_t rid = 0;

	ot_headers(&h, to, kind, game, ply, seq);
	buf_printf(&id, "ashes.%" PRId64 ".%d.7.%d@" OT_DOMAIN, game, ply, seq);
	memset(&m, 0, sizeof(m));
	m.recipient = (char *)to;
	m.message_id = (char *)buf_str(&id);
	m.headers = (char *)buf_str(&h);
	m.body = (char *)ot_body;
	/* The headers name the game; the row's game_id (a foreign key to a
	 * game these tests do not create) is not what the outbox reads. */
	m.game_id = 0;
	ck_assert_msg(store_outbox_enqueue(ot.store, &m, now, &rid, &error) == 0,
		      "%s", error);
	buf_free(&h);
	buf_free(&id);
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

#endif
