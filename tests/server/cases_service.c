/* cases_service.c -- the service's side of a case run: a fresh store
 * and server, the stand-in mail layer that hands a case's mails over,
 * the outbox read back, and the <setup> steps (see cases_run.h). */
#include <check.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cases_run.h"
#include "digest_test.h"

/* ---- the stand-in mail layer ------------------------------------------- */

/* Hand one mail to the service the way the mail layer would. */
int deliver(struct run *r, const struct inmail *m,
	    struct server_outcome *out, const char **error_r)
{
	struct server_inbound in;
	struct buf raw = BUF_INIT, signed_text = BUF_INIT, body = BUF_INIT;
	char msgid[64], sha[65], ssha[65];
	int ret;

	r->counter++;
	r->now += CASES_MAIL_STEP + m->delay;
	if (m->crlf) {
		for (const char *p = m->body; *p != '\0'; p++) {
			if (*p == '\n')
				buf_putc(&body, '\r');
			buf_putc(&body, *p);
		}
	} else {
		buf_puts(&body, m->body);
	}
	memset(&in, 0, sizeof(in));
	in.fingerprint = m->fingerprint;
	in.from_address = m->from;
	in.weak_identity = (m->fingerprint == NULL || m->weak) && !m->strong;
	in.key_offered = m->key_offered;
	snprintf(msgid, sizeof(msgid), "%s%d@client.test",
		 m->setup ? "setup" : "mail", m->setup ? r->counter : r->nmail);
	in.message_id = m->no_message_id ? NULL :
			m->message_id != NULL ? m->message_id : msgid;
	if (m->raw != NULL)
		buf_puts(&raw, m->raw);
	else
		buf_printf(&raw, "Message-ID: <%s>\nSubject: %s\n\n%s",
			   in.message_id ? in.message_id : "",
			   m->subject ? m->subject : "", buf_str(&body));
	in.raw = buf_str(&raw);
	in.raw_len = raw.len;
	in.raw_truncated = m->raw_truncated;
	digest(raw.data ? raw.data : "", raw.len, sha);
	in.raw_sha256 = sha;
	if (m->fingerprint != NULL) {
		if (m->signed_text != NULL)
			buf_puts(&signed_text, m->signed_text);
		else
			buf_printf(&signed_text, "%d\n%s", r->counter,
				   buf_str(&body));
		digest(buf_str(&signed_text), signed_text.len, ssha);
		in.signed_sha256 = ssha;
	}
	if (m->fingerprint != NULL || m->signature_time_set)
		in.signature_time = r->now + (m->signature_time_set ?
					      m->signature_offset : -5);
	/* the mailbox's receipt; unset: unknown (the time of handling) */
	if (m->received_set)
		in.received = r->now + m->received_offset;
	in.subject = m->subject;
	in.references = m->references;
	in.body = buf_str(&body);
	in.body_len = body.len;
	in.unsigned_text_ignored = m->unsigned_text_ignored;
	in.mail_refusal = m->refusal;
	in.signer = m->signer;
	in.problem = m->problem;
	in.size = m->size;
	in.size_limit = m->size_limit;
	in.silent_outcome = m->silent;
	in.bounce_ids = m->bounce;
	in.bounce_id_count = m->nbounce;
	in.revoked_fprs = m->revoked;
	in.revoked_count = m->nrevoked;
	in.offered_fprs = m->offered;
	in.offered_count = m->noffered;
	in.own_offered_fprs = m->own_offered;
	in.own_offered_count = m->nown_offered;
	in.offered_outside = m->offered_outside;
	in.own_signer = m->own_key;
	/* the bot's move mails are the bot thread's, handed over in process,
	 * unless the case says one came through the mailbox */
	in.in_process = m->from != NULL &&
			strcmp(m->from, "bot@ashes.test.invalid") == 0 &&
			!m->from_mailbox;
	if (m->refusal != NULL) {
		/* the mail layer drops the signer of a refused mail */
		in.fingerprint = NULL;
		in.signed_sha256 = NULL;
	}
	if (!m->setup) {
		char bare[512];
		const char *id = in.message_id != NULL ? in.message_id : "";
		snprintf(bare, sizeof(bare), "%s", id[0] == '<' ? id + 1 : id);
		if (bare[0] != '\0' && bare[strlen(bare) - 1] == '>')
			bare[strlen(bare) - 1] = '\0';
		r->mail_ids = realloc(r->mail_ids, (r->nmail_ids + 1) *
				      sizeof(*r->mail_ids));
		if (r->mail_ids == NULL)
			abort();
		r->mail_ids[r->nmail_ids++] = cases_strdup(bare);
	}
	ret = server_handle(r->srv, &in, r->now, out, error_r);
	buf_free(&raw);
	buf_free(&signed_text);
	buf_free(&body);
	return ret;
}

/* ---- the outbox read back ---------------------------------------------- */

static void sent_mail_clear(struct sent_mail *s)
{
	free(s->kind);
	free(s->to);
	free(s->subject);
	free(s->in_reply_to);
	free(s->references);
	free(s->message_id);
	free(s->body);
	memset(s, 0, sizeof(*s));
}

static char *copy_or_null(const char *s)
{
	return s != NULL ? cases_strdup(s) : NULL;
}

/* The one place that knows an outbox row's layout: kind, recipient,
 * subject, threading and body of a queued mail. */
static void sent_mail_read(const struct store_outbox_msg *m,
			   struct sent_mail *s)
{
	memset(s, 0, sizeof(*s));
	s->id = m->id;
	s->game_id = m->game_id;
	s->kind = copy_or_null(store_outbox_kind_name(m->kind));
	s->to = copy_or_null(m->recipient);
	s->subject = copy_or_null(m->subject);
	s->in_reply_to = copy_or_null(m->in_reply_to);
	s->references = copy_or_null(m->references);
	s->message_id = copy_or_null(m->message_id);
	s->body = copy_or_null(m->body);
}

/* The mails queued since the last call, oldest first. */
int outbox_take(struct run *r, struct sent_mail **mails_r, size_t *count_r)
{
	struct store_outbox_msg *rows = NULL;
	size_t n = 0;
	const char *error = NULL;

	*mails_r = NULL;
	*count_r = 0;
	if (store_outbox_list(r->st, STORE_OUTBOX_ALL, r->last_outbox, 0,
			      &rows, &n, &error) < 0) {
		run_fail(r, 0, "outbox: %s", error);
		return -1;
	}
	if (n == 0)
		return 0;
	*mails_r = calloc(n, sizeof(**mails_r));
	if (*mails_r == NULL)
		abort();
	for (size_t i = 0; i < n; i++)
		sent_mail_read(&rows[i], &(*mails_r)[i]);
	*count_r = n;
	r->last_outbox = rows[n - 1].id;
	store_outbox_msgs_free(&rows, n);
	return 0;
}

void sent_mails_free(struct sent_mail **mails, size_t n)
{
	for (size_t i = 0; i < n && *mails != NULL; i++)
		sent_mail_clear(&(*mails)[i]);
	free(*mails);
	*mails = NULL;
}

/* ---- the setup --------------------------------------------------------- */

/* Who is to move in game g, by the last "your move" mail of the setup. */
static const char *setup_to_move(struct run *r, int64_t g)
{
	for (size_t i = r->nto_move; i-- > 0;)
		if (r->to_move[i].game == g)
			return r->to_move[i].address;
	return NULL;
}

/* A mail queued in the setup: its captures, and whose move it says. */
static void setup_note(struct run *r, const struct sent_mail *m)
{
	capture(r, m->body);
	if (m->kind != NULL && strcmp(m->kind, "your-move") == 0 &&
	    r->nto_move < sizeof(r->to_move) / sizeof(r->to_move[0])) {
		r->to_move[r->nto_move].game = m->game_id;
		r->to_move[r->nto_move].address = cases_strdup(m->to);
		r->nto_move++;
	}
}

/* One setup mail from persona p: must be handled without refusal.  The
 * game of its reply into *game_r (may be NULL). */
static int setup_mail(struct run *r, const struct persona *p,
		      const char *text, int line, int64_t *game_r)
{
	struct inmail m;
	struct server_outcome out;
	struct buf body = BUF_INIT;
	struct sent_mail *mails = NULL;
	size_t n = 0;
	const char *error = NULL;
	int ret = -1;

	memset(&m, 0, sizeof(m));
	m.setup = true;
	m.fingerprint = p->fingerprint;
	m.from = p->address;
	if (expand(r, text, &body, line) < 0)
		goto out;
	buf_putc(&body, '\n');
	m.body = buf_str(&body);
	if (deliver(r, &m, &out, &error) < 0) {
		run_fail(r, line, "setup: %s: %s", text, error);
		goto out;
	}
	if (out.status != SERVER_OK) {
		run_fail(r, line, "setup: %s says \"%s\": %s", p->name, text,
			 out.outcome);
		goto out;
	}
	if (outbox_take(r, &mails, &n) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (game_r != NULL && mails[i].game_id != 0 &&
		    strcmp(mails[i].to, p->address) == 0)
			*game_r = mails[i].game_id;
		setup_note(r, &mails[i]);
	}
	ret = 0;
out:
	sent_mails_free(&mails, n);
	buf_free(&body);
	return ret;
}

static const struct persona *setup_persona(struct run *r, const char *name,
					   int line)
{
	const struct persona *p = persona_find(name);
	if (p == NULL)
		run_fail(r, line, "setup: no persona %s", name);
	return p;
}

/* The clock moves on by secs, then (tick) the clocks' timer runs; its
 * mails are taken from the outbox unshown. */
static int setup_tick(struct run *r, int64_t secs, int line)
{
	struct sent_mail *mails = NULL;
	const char *error = NULL;
	size_t n = 0;

	r->now += secs;
	if (server_clock_tick(r->srv, r->now, NULL, &error) < 0) {
		run_fail(r, line, "setup: server_clock_tick failed: %s", error);
		return -1;
	}
	if (outbox_take(r, &mails, &n) < 0)
		return -1;
	/* A league's season begun: its games' "your move" mails. */
	for (size_t i = 0; i < n; i++)
		setup_note(r, &mails[i]);
	sent_mails_free(&mails, n);
	return 0;
}

/* rating NAME R: player NAME's rating is R (RD 50, one rated game), as
 * if earned: what seeds a league's first season. */
static int setup_rating(struct run *r, const char *name, const char *value,
			int line)
{
	struct store_player *p = NULL;
	struct store_rating rating;
	const char *error = NULL;
	char *end;

	memset(&rating, 0, sizeof(rating));
	rating.r = strtod(value, &end);
	if (end == value || *end != '\0' ||
	    store_player_by_name(r->st, name, &p, &error) != 1) {
		run_fail(r, line, "setup: rating %s %s: no such player or no "
			 "number", name, value);
		return -1;
	}
	rating.player_id = p->id;
	rating.rd = 50;
	rating.vol = 0.06;
	rating.games = 1;
	store_player_free(&p);
	if (store_rating_set(r->st, &rating, &error) < 0) {
		run_fail(r, line, "setup: rating %s: %s", name, error);
		return -1;
	}
	return 0;
}

/* players NAME... | game WHITE BLACK [OPTIONS] | play GAME MOVE... |
 * mail NAME: TEXT | time +N | tick +N | rating NAME R */
static int setup_line(struct run *r, char *text, int line)
{
	char *words[32], *save = NULL, *w;
	size_t n = 0;

	if (strncmp(text, "mail ", 5) == 0) {
		char *colon = strchr(text, ':');
		const struct persona *p;
		if (colon == NULL) {
			run_fail(r, line, "setup: mail NAME: TEXT");
			return -1;
		}
		*colon = '\0';
		p = setup_persona(r, text + 5, line);
		return p == NULL ? -1 :
		       setup_mail(r, p, colon + 1 + (colon[1] == ' '), line, NULL);
	}
	for (w = strtok_r(text, " \t", &save); w != NULL && n < 32;
	     w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	if (n == 0)
		return 0;
	if (strcmp(words[0], "players") == 0) {
		for (size_t i = 1; i < n; i++) {
			const struct persona *p = setup_persona(r, words[i], line);
			char cmd[64];
			if (p == NULL)
				return -1;
			snprintf(cmd, sizeof(cmd), "register %s", p->name);
			if (setup_mail(r, p, cmd, line, NULL) < 0)
				return -1;
			if (var_get(r, "code") == NULL) {
				run_fail(r, line, "setup: no code mailed");
				return -1;
			}
			snprintf(cmd, sizeof(cmd), "confirm %s", var_get(r, "code"));
			if (setup_mail(r, p, cmd, line, NULL) < 0)
				return -1;
		}
		return 0;
	}
	if (strcmp(words[0], "game") == 0 && n >= 3) {
		const struct persona *white = setup_persona(r, words[1], line);
		const struct persona *black = setup_persona(r, words[2], line);
		struct buf cmd = BUF_INIT;
		int64_t g = 0;
		int ret;

		if (white == NULL || black == NULL)
			return -1;
		buf_printf(&cmd, "challenge %s", black->name);
		for (size_t i = 3; i < n; i++)
			buf_printf(&cmd, " %s", words[i]);
		ret = setup_mail(r, white, buf_str(&cmd), line, &g);
		buf_free(&cmd);
		if (ret < 0)
			return -1;
		if (g == 0) {
			run_fail(r, line, "setup: the challenge made no game");
			return -1;
		}
		{
			char acc[64];
			snprintf(acc, sizeof(acc), "accept %" PRId64, g);
			return setup_mail(r, black, acc, line, NULL);
		}
	}
	if (strcmp(words[0], "play") == 0 && n >= 3) {
		int64_t g = strtoll(words[1], NULL, 10);
		for (size_t i = 2; i < n; i++) {
			const char *addr = setup_to_move(r, g);
			const struct persona *p = addr ? persona_by_address(addr) :
						  NULL;
			struct store_game *row = NULL;
			const char *error;
			char cmd[128];

			if (p == NULL || store_game_load(r->st, g, &row, &error) != 1) {
				run_fail(r, line, "setup: game %" PRId64
					 " has nobody to move", g);
				store_game_free(&row);
				return -1;
			}
			snprintf(cmd, sizeof(cmd), "move %" PRId64 " %d %s", g,
				 row->ply + 1, words[i]);
			store_game_free(&row);
			if (setup_mail(r, p, cmd, line, NULL) < 0)
				return -1;
		}
		return 0;
	}
	if ((strcmp(words[0], "time") == 0 || strcmp(words[0], "tick") == 0) &&
	    n == 2) {
		int64_t secs, at;
		/* time 2026-03-27T12:00Z: the clock set to that instant */
		if (parse_instant(words[1], &at) == 0 && at >= r->now) {
			secs = at - r->now;
		} else if (parse_offset(words[1], &secs) < 0) {
			run_fail(r, line, "setup: %s %s", words[0], words[1]);
			return -1;
		}
		if (strcmp(words[0], "tick") == 0)
			return setup_tick(r, secs, line);
		r->now += secs;
		return 0;
	}
	if (strcmp(words[0], "rating") == 0 && n == 3)
		return setup_rating(r, words[1], words[2], line);
	run_fail(r, line, "setup: unknown line \"%s\"", words[0]);
	return -1;
}

int setup_read(struct run *r, const struct cases_section *s)
{
	const char *p = s->content;
	int line = s->line;
	char text[512];

	while (cases_next_line(&p, &line, text, sizeof(text)))
		if (setup_line(r, text, line) < 0)
			return -1;
	return 0;
}

/* ---- a run's store and server ------------------------------------------ */

void run_open(struct run *r)
{
	const char *src = getenv("ASHES_SRCDIR");
	char tdir[PATH_MAX], dbpath[PATH_MAX + 16];
	const char *error = NULL;

	snprintf(r->tmpdir, sizeof(r->tmpdir), "/tmp/ashes-cases-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(r->tmpdir));
	snprintf(dbpath, sizeof(dbpath), "%s/ashes.db", r->tmpdir);
	ck_assert_msg(store_open(dbpath, NULL, &r->st, &error) == 0, "%s",
		      error);
	snprintf(tdir, sizeof(tdir), "%s/templates", src ? src : "..");
	r->ts = template_set_new(NULL, tdir);
	ck_assert_ptr_nonnull(r->ts);
	server_config_default(&r->cfg);
	r->cfg.domain = CASES_DOMAIN;
	r->cfg.templates = r->ts;
	r->now = CASES_START_TIME;
	/* the code a welcome mail brings: the line to send back */
	rule_add(r, "code", "^    confirm ([A-Za-z0-9]+)$", 0);
}

void run_server_new(struct run *r)
{
	const struct persona *bot = persona_find("bot");
	const char *error = NULL;

	ck_assert_msg(server_new(r->st, &r->cfg, &r->srv, &error) == 0, "%s",
		      error);
	if (r->cfg.bot.enabled)
		ck_assert_msg(server_bot_enlist(r->srv, bot->fingerprint, r->now,
						&error) == 0, "%s", error);
}

void run_close(struct run *r)
{
	char cmd[PATH_MAX + 16];

	server_free(&r->srv);
	template_set_free(&r->ts);
	store_close(&r->st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", r->tmpdir);
	for (size_t i = 0; i < r->nmail_ids; i++)
		free(r->mail_ids[i]);
	free(r->mail_ids);
	for (size_t i = 0; i < r->nsent; i++)
		free(r->sent_ids[i]);
	free(r->sent_ids);
	for (size_t i = 0; i < r->nvars; i++)
		free(r->vars[i].value);
	for (size_t i = 0; i < r->nrules; i++)
		regfree(&r->rules[i].re);
	for (size_t i = 0; i < r->nto_move; i++)
		free(r->to_move[i].address);
	for (size_t i = 0; i < CASES_MAX_LEAGUES; i++) {
		free(r->league_text[i]);
		free(r->tournament_text[i]);
	}
	cases_file_free(&r->file);
}
