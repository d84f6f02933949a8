/* cases_expect.c -- what a case shows of the service: each queued mail
 * as a <sent> section (random text bound to variables, Message-IDs named
 * by what they answer), the outcome, and the comparison with what the
 * case expects, or the sections the writer puts in its place (see
 * cases_run.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cases_run.h"

/* ---- a queued mail as a <sent> section --------------------------------- */

/* A Message-ID as a case names it: "game N" (the root of game N's
 * thread), "mail N" (the case's N-th mail), "sent N" (the N-th mail the
 * case shows), "setup" (a mail of the setup), else "unknown". */
static void id_name(struct run *r, const char *id, struct buf *out)
{
	struct store_game *games = NULL;
	struct store_outbox_msg *row = NULL;
	const char *error;
	size_t n = 0;
	char bare[512];

	snprintf(bare, sizeof(bare), "%s", id[0] == '<' ? id + 1 : id);
	if (bare[0] != '\0' && bare[strlen(bare) - 1] == '>')
		bare[strlen(bare) - 1] = '\0';
	if (store_games_list(r->st, 0, 0, 0, &games, &n, &error) == 0) {
		for (size_t i = 0; i < n; i++)
			if (games[i].thread_message_id != NULL &&
			    strcmp(games[i].thread_message_id, bare) == 0) {
				buf_printf(out, "game %" PRId64, games[i].id);
				store_rows_free(&games, n, sizeof(*games),
						store_game_clear);
				return;
			}
		store_rows_free(&games, n, sizeof(*games), store_game_clear);
	}
	/* the latest of the case's mails with that Message-ID */
	for (size_t i = r->nmail_ids; i-- > 0;)
		if (strcmp(r->mail_ids[i], bare) == 0) {
			buf_printf(out, "mail %zu", i + 1);
			return;
		}
	if (strncmp(bare, "setup", 5) == 0) {
		buf_puts(out, "setup");
		return;
	}
	for (size_t i = 0; i < r->nsent; i++)
		if (strcmp(r->sent_ids[i], bare) == 0) {
			buf_printf(out, "sent %zu", i + 1);
			return;
		}
	if (store_outbox_by_message_id(r->st, bare, &row, &error) == 1) {
		bool setup = row->id <= r->setup_outbox;
		store_outbox_msgs_free(&row, 1);
		if (setup) {
			buf_puts(out, "setup");
			return;
		}
	}
	buf_puts(out, "unknown");
}

/* "<a> <b>" as "mail 1, game 1". */
static void ids_name(struct run *r, const char *ids, struct buf *out)
{
	const char *p = ids;
	bool first = true;

	while (*p != '\0') {
		size_t len;
		char one[512];

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (len == 0)
			break;
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		if (!first)
			buf_puts(out, ", ");
		id_name(r, one, out);
		first = false;
		p += len;
	}
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) != 0;
}

/* The captures: every rule's group in text binds its variable. */
void capture(struct run *r, const char *text)
{
	regmatch_t mt[2];

	for (size_t k = 0; k < r->nrules; k++) {
		const char *p = text;
		while (regexec(&r->rules[k].re, p, 2, mt, p == text ? 0 :
			       REG_NOTBOL) == 0 && mt[1].rm_so >= 0) {
			char value[128];
			int len = (int)(mt[1].rm_eo - mt[1].rm_so);
			snprintf(value, sizeof(value), "%.*s", len,
				 p + mt[1].rm_so);
			if (value[0] != '\0')
				var_capture(r, r->rules[k].name, value);
			if (mt[0].rm_eo == 0)
				break;
			p += mt[0].rm_eo;
		}
	}
}

/* text with its captures bound and every bound value (a whole word, in
 * any case) written as {{NAME}}. */
static void normalise(struct run *r, const char *text, struct buf *out)
{
	capture(r, text);
	for (const char *p = text; *p != '\0';) {
		bool done = false;
		if (p == text || !word_char(p[-1])) {
			for (size_t i = 0; i < r->nvars && !done; i++) {
				size_t len = strlen(r->vars[i].value);
				if (len >= 4 &&
				    strncasecmp(p, r->vars[i].value, len) == 0 &&
				    !word_char(p[len])) {
					buf_printf(out, "{{%s}}", r->vars[i].name);
					p += len;
					done = true;
				}
			}
		}
		if (!done)
			buf_putc(out, *p++);
	}
}

/* A queued mail as a <sent> section. */
static void sent_render(struct run *r, const struct sent_mail *s,
			struct buf *out)
{
	buf_puts(out, "<sent>\n");
	buf_printf(out, "To: %s\n", s->to);
	buf_printf(out, "Kind: %s\n", s->kind ? s->kind : "(none)");
	buf_puts(out, "Subject: ");
	normalise(r, s->subject ? s->subject : "", out);
	buf_putc(out, '\n');
	if (s->in_reply_to != NULL) {
		buf_puts(out, "In-Reply-To: ");
		ids_name(r, s->in_reply_to, out);
		buf_putc(out, '\n');
	}
	if (s->references != NULL) {
		buf_puts(out, "References: ");
		ids_name(r, s->references, out);
		buf_putc(out, '\n');
	}
	buf_putc(out, '\n');
	normalise(r, s->body, out);
	if (out->len > 0 && out->data[out->len - 1] != '\n')
		buf_putc(out, '\n');
	buf_puts(out, "</sent>\n");
}

static const char *status_name(enum server_status s)
{
	switch (s) {
	case SERVER_OK: return "ok";
	case SERVER_REFUSED: return "refused";
	case SERVER_DUPLICATE: return "duplicate";
	case SERVER_REPLAY: return "replay";
	case SERVER_NO_COMMANDS: return "no-commands";
	case SERVER_MAIL_REFUSED: return "mail-refused";
	case SERVER_IGNORED: return "ignored";
	case SERVER_FAILED: return "failed";
	}
	return "?";
}

/* ---- comparing --------------------------------------------------------- */

/* The expected text of the <sent> sections from index *i on (advanced
 * past them), framed as sent_render() frames the actual ones; the
 * <outcome> section among them into *outcome (NULL: none). */
static void expected_after(const struct cases_file *f, size_t *i,
			   struct buf *sent, const char **outcome,
			   int *line_r)
{
	*outcome = NULL;
	*line_r = 0;
	while (*i < f->count && cases_section_generated(f->sections[*i].name)) {
		const struct cases_section *s = &f->sections[*i];
		if (*line_r == 0)
			*line_r = s->line;
		if (strcmp(s->name, "sent") == 0) {
			buf_puts(sent, "<sent>\n");
			buf_puts(sent, s->content);
			buf_puts(sent, "</sent>\n");
		} else {
			*outcome = s->content;
		}
		(*i)++;
	}
}

/* What a step (a mail, the digests) expects: the <sent> sections after
 * it framed as sent_render() frames the actual ones, the <outcome> (NULL:
 * none) and the line of the first. */
struct expected {
	struct buf sent;
	const char *outcome;
	int line;
};

/* One step's expectation, what it queued and its outcome text. */
struct step_io {
	struct expected e;
	struct sent_mail *mails;
	size_t n;
	struct buf oc;
	char what[32];	/* the step in messages: "mail 3" */
};

/* Start step `number` of kind (counted by the caller): its name, and what
 * the case expects after it. */
static void step_begin(struct run *r, size_t *next, struct step_io *io,
		       const char *kind, int number)
{
	static const struct step_io empty = { .e = { .sent = BUF_INIT },
					      .oc = BUF_INIT };

	*io = empty;
	snprintf(io->what, sizeof(io->what), "%s %d", kind, number);
	expected_after(&r->file, next, &io->e.sent, &io->e.outcome,
		       &io->e.line);
}

static void step_free(struct step_io *io)
{
	sent_mails_free(&io->mails, io->n);
	buf_free(&io->e.sent);
	buf_free(&io->oc);
}

/* Show what a step queued (and its outcome, text in oc) as <sent> and
 * <outcome> sections, append them to generated, and compare them with
 * what the case expects.  `what` names the step in messages ("mail 3"). */
static void step_compare(struct run *r, const struct cases_section *s,
			 const struct step_io *io, struct buf *generated)
{
	const struct expected *e = &io->e;
	const struct sent_mail *mails = io->mails;
	const char *oc = buf_str(&io->oc), *what = io->what;
	size_t n = io->n;
	struct buf actual = BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		r->sent_ids = realloc(r->sent_ids,
				      (r->nsent + 1) * sizeof(*r->sent_ids));
		if (r->sent_ids == NULL)
			abort();
		r->sent_ids[r->nsent++] = cases_strdup(mails[i].message_id);
	}
	for (size_t i = 0; i < n; i++)
		sent_render(r, &mails[i], &actual);
	if (r->dump)
		printf("==== %s %s\n%s%s", r->path, what, buf_str(&actual), oc);
	buf_puts(generated, buf_str(&actual));
	buf_puts(generated, "<outcome>\n");
	buf_puts(generated, oc);
	buf_puts(generated, "</outcome>\n");
	if (!r->write && strcmp(buf_str(&e->sent), buf_str(&actual)) != 0) {
		char label[PATH_MAX + 64];
		run_mismatch(r, e->line ? e->line : s->line,
			     "the mails queued for %s differ:", what);
		snprintf(label, sizeof(label), "%s (expected after %s)",
			 r->path, what);
		cases_diff(stderr, label, buf_str(&e->sent), "actual",
			   buf_str(&actual));
	}
	if (!r->write && e->outcome != NULL && strcmp(e->outcome, oc) != 0) {
		run_mismatch(r, s->line, "the outcome of %s differs:", what);
		cases_diff(stderr, "expected outcome", e->outcome,
			   "actual outcome", oc);
	}
	buf_free(&actual);
}

/* Deliver one <mail> section and compare what it queued. */
static void run_mail(struct run *r, const struct cases_section *s,
		     size_t *next, struct buf *generated)
{
	struct inmail m;
	struct strings k = { .n = 0 };
	struct server_outcome out;
	struct step_io io;
	const char *error = NULL;

	step_begin(r, next, &io, "mail", ++r->nmail);
	if (mail_read(r, s, &m, &k) < 0)
		goto out;
	if (deliver(r, &m, &out, &error) < 0) {
		run_fail(r, s->line, "mail %d: server_handle failed: %s",
			 r->nmail, error);
		goto out;
	}
	if (outbox_take(r, &io.mails, &io.n) < 0)
		goto out;
	buf_printf(&io.oc, "status: %s\noutcome: ", status_name(out.status));
	normalise(r, out.outcome, &io.oc);
	buf_putc(&io.oc, '\n');
	step_compare(r, s, &io, generated);
out:
	step_free(&io);
	strings_free(&k);
}

/* The clock moves on for a step that is no mail (<digests>, <tick>): as
 * for a mail, plus its optional "Time: +1d", the only header it takes.
 * -1 after run_fail() for anything else in the section. */
static int step_time(struct run *r, const struct cases_section *s)
{
	struct cases_header *headers = NULL;
	char *body = NULL, err[256];
	size_t nh = 0;
	int64_t delay = 0, at = 0;
	int ret = -1;

	if (cases_mail_parse(s->content, &headers, &nh, &body, err,
			     sizeof(err)) < 0) {
		run_fail(r, s->line, "%s", err);
		goto out;
	}
	for (size_t i = 0; i < nh; i++) {
		/* An instant (Time: 2026-03-29T06:00Z) is the step's time
		 * itself, never earlier than the clock. */
		if (strcasecmp(headers[i].name, "Time") == 0 &&
		    parse_instant(headers[i].value, &at) == 0) {
			if (at < r->now) {
				run_fail(r, s->line, "<%s>: %s is in the past",
					 s->name, headers[i].value);
				goto out;
			}
			continue;
		}
		if (strcasecmp(headers[i].name, "Time") != 0 ||
		    parse_offset(headers[i].value, &delay) < 0) {
			run_fail(r, s->line, "<%s>: \"%s: %s\" is not "
				 "expected", s->name, headers[i].name,
				 headers[i].value);
			goto out;
		}
	}
	if (body[strspn(body, " \t\n")] != '\0') {
		run_fail(r, s->line, "<%s> takes no body", s->name);
		goto out;
	}
	r->now = at != 0 ? at : r->now + CASES_MAIL_STEP + delay;
	ret = 0;
out:
	cases_headers_free(&headers, nh);
	free(body);
	return ret;
}

/* Run a <digests> section: the clock moves on, then the service sends
 * the daily digests; compare what they queued.  The outcome is
 * "digests: N", the number queued. */
static void run_digests(struct run *r, const struct cases_section *s,
			size_t *next, struct buf *generated)
{
	struct step_io io;
	const char *error = NULL;
	int sent;

	step_begin(r, next, &io, "digests", ++r->ndigests);
	if (step_time(r, s) < 0)
		goto out;
	sent = server_send_digests(r->srv, r->now, &error);
	if (sent < 0) {
		run_fail(r, s->line, "server_send_digests failed: %s", error);
		goto out;
	}
	if (outbox_take(r, &io.mails, &io.n) < 0)
		goto out;
	buf_printf(&io.oc, "digests: %d\n", sent);
	step_compare(r, s, &io, generated);
out:
	step_free(&io);
}

/* Run a <tick> section: the clock moves on, then the clocks' timer runs
 * (server_clock_tick); compare what it queued.  The outcome is one line
 * of its report. */
static void run_tick(struct run *r, const struct cases_section *s,
		     size_t *next, struct buf *generated)
{
	struct step_io io;
	struct server_tick_report rep;
	const char *error = NULL;

	step_begin(r, next, &io, "tick", ++r->nticks);
	if (step_time(r, s) < 0)
		goto out;
	memset(&rep, 0, sizeof(rep));
	if (server_clock_tick(r->srv, r->now, &rep, &error) < 0) {
		run_fail(r, s->line, "server_clock_tick failed: %s", error);
		goto out;
	}
	if (outbox_take(r, &io.mails, &io.n) < 0)
		goto out;
	buf_printf(&io.oc, "tick: flags %zu, cancelled %zu, claimable %zu, "
		   "vacation_days %zu, extended %zu, reminders %zu\n",
		   rep.flags, rep.cancelled, rep.claimable, rep.vacation_days,
		   rep.extended, rep.reminders);
	/* The club's work, in a second line when it did any (so a case
	 * without ladders or leagues reads as before). */
	if (rep.club_joined + rep.club_withdrawn + rep.club_results +
	    rep.club_walkovers + rep.club_seasons + rep.club_standings > 0)
		buf_printf(&io.oc, "club: joined %zu, withdrawn %zu, results %zu, "
			   "rated %zu, walkovers %zu, seasons %zu, "
			   "standings %zu\n", rep.club_joined,
			   rep.club_withdrawn, rep.club_results,
			   rep.club_rated, rep.club_walkovers,
			   rep.club_seasons, rep.club_standings);
	/* The events' work, likewise. */
	if (rep.event_results + rep.event_rounds + rep.event_decided +
	    rep.event_ended > 0)
		buf_printf(&io.oc, "events: results %zu, rounds %zu, decided "
			   "%zu, ended %zu\n", rep.event_results,
			   rep.event_rounds, rep.event_decided,
			   rep.event_ended);
	/* The daily summaries, in a line of their own when any went. */
	if (rep.summaries > 0)
		buf_printf(&io.oc, "summaries: %zu\n", rep.summaries);
	step_compare(r, s, &io, generated);
out:
	step_free(&io);
}

/* The steps by section name (cases_section_step() names the same). */
static const struct step {
	const char *name;
	void (*run)(struct run *r, const struct cases_section *s,
		    size_t *next, struct buf *generated);
} steps[] = {
	{ "mail", run_mail },
	{ "digests", run_digests },
	{ "tick", run_tick },
};

void run_step(struct run *r, const struct cases_section *s, size_t *next,
	      struct buf *generated)
{
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (strcmp(steps[i].name, s->name) == 0) {
			steps[i].run(r, s, next, generated);
			return;
		}
	run_fail(r, s->line, "<%s> is no step", s->name);
}
