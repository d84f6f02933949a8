/* archive_gather.c -- one game's facts for its archive (archive_private.h):
 * the row, the players, the plies, every mail its history refers to with
 * what its signature covers (read again from the raw bytes, and verified
 * with the daemon's keyring as the daemon did), the notes and the clock
 * history, and the moves replayed to the end the row records. */
#include "archive/archive_private.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/variant.h"
#include "mail/inbound.h"
#include "server/command.h"
#include "server/retention.h"
#include "util/escape.h"
#include "util/xalloc.h"
#include "util/xstr.h"

static __thread char gather_error[512];

static int gather_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int gather_fail(const char **error_r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(gather_error, sizeof(gather_error), fmt, ap);
	va_end(ap);
	*error_r = gather_error;
	return -1;
}

/* Free what one mail owns. */
static void archive_mail_clear(struct archive_mail *m)
{
	store_inbound_free(&m->in);
	buf_free(&m->signed_part);
	buf_free(&m->sig);
	buf_free(&m->form);
	free(m->text);
	free(m->thread_headers);
}

void archive_game_free(struct archive_game *g)
{
	for (size_t i = 0; i < g->nmails; i++)
		archive_mail_clear(&g->mails[i]);
	free(g->mails);
	store_rows_free(&g->moves, g->nmoves, sizeof(*g->moves),
			store_move_clear);
	free(g->conds);
	store_rows_free(&g->notes, g->nnotes, sizeof(*g->notes),
			store_game_message_clear);
	store_rows_free(&g->events, g->nevents, sizeof(*g->events),
			store_clock_event_clear);
	store_game_club_clear(&g->club);
	if (g->core_ok)
		record_free(&g->core);
	store_game_free(&g->row);
	memset(g, 0, sizeof(*g));
}

struct archive_mail *archive_game_mail(const struct archive_game *g,
				       int64_t inbound_id)
{
	for (size_t i = 0; i < g->nmails; i++)
		if (g->mails[i].in->id == inbound_id)
			return &g->mails[i];
	return NULL;
}

/* What a mail we sent says the mail it answers did. */
static unsigned sent_kind(const char *kind)
{
	switch (store_outbox_kind_of(kind)) {
	case STORE_OUTBOX_KIND_NONE:
	case STORE_OUTBOX_KIND_REPLY:
	case STORE_OUTBOX_KIND_OBSERVER:
	case STORE_OUTBOX_KIND_NOTICE:
	/* An archive mailed (`archive GAME`) changed nothing either. */
	case STORE_OUTBOX_KIND_ARCHIVE:
		return 0;
	case STORE_OUTBOX_KIND_YOUR_MOVE:
		return ARCHIVE_SENT_YOUR_MOVE;
	case STORE_OUTBOX_KIND_RESULT:
		return ARCHIVE_SENT_RESULT;
	case STORE_OUTBOX_KIND_UNDONE:
		return ARCHIVE_SENT_UNDONE;
	case STORE_OUTBOX_KIND_OTHER:
	default:
		return ARCHIVE_SENT_OTHER;
	}
}

/* A player's name into buf ("" for none). */
static int gather_name(const struct archive_source *src, int64_t id,
		       char *buf, size_t len, const char **error_r)
{
	struct store_player *p = NULL;
	int r;

	buf[0] = '\0';
	if (id == 0)
		return 0;
	r = store_player_load(src->store, id, &p, error_r);
	if (r < 0)
		return -1;
	if (r == 1)
		snprintf(buf, len, "%s", p->name);
	store_player_free(&p);
	return 0;
}

/* The first key bound to player id, into key ("" for none). */
static int gather_bound_key(const struct archive_source *src, int64_t id,
			    char *key, const char **error_r)
{
	struct store_player *p = NULL;
	int r;

	if (key[0] != '\0' || id == 0)
		return 0;
	r = store_player_load(src->store, id, &p, error_r);
	if (r < 0)
		return -1;
	if (r == 1 && p->n_fingerprints > 0)
		snprintf(key, PGP_FPR_MAX + 1, "%s", p->fingerprints[0]);
	store_player_free(&p);
	return 0;
}

/* The headers of a public copy of msg: a line saying so, and the thread
 * (retention_thread_headers). */
static char *gather_thread_headers(const struct inbound_msg *msg)
{
	struct buf h = BUF_INIT;
	char *thread = retention_thread_headers(msg->subject, msg->in_reply_to,
					      msg->references.items,
					      msg->references.count);

	buf_puts(&h, "Comments: a public copy: only what the sender's "
		 "signature covers, and\r\n the thread; the other headers "
		 "are withheld\r\n");
	buf_puts(&h, thread);
	free(thread);
	return buf_steal(&h);
}

/* The most an encrypted mail of the history may decrypt to: a mail the
 * daemon read was within [limits] max_message_size. */
#define GATHER_MAX_DECRYPTED (64u << 20)

/* Read one mail: its bytes, what is signed, the signature as the
 * daemon's keyring sees it, the text. */
static int gather_mail(const struct archive_source *src,
		       struct archive_mail *m, int64_t game_id,
		       const char **error_r)
{
	struct inbound_options opts;
	struct inbound_msg *msg = NULL;
	struct command_list list;
	const char *error;

	if (m->in->raw_truncated)
		return gather_fail(error_r, "inbound mail %" PRId64 " was "
				   "too big to keep: the archive cannot hold "
				   "it", m->in->id);
	const char *raw = m->in->raw;
	size_t raw_len = m->in->raw_len;

	/* an encrypted mail: kept decrypted, signature and all, so that
	 * anybody can check it without the club's key */
	if (inbound_archive_form(src->pgp, raw, raw_len, GATHER_MAX_DECRYPTED,
				 &m->form, &error) < 0)
		return gather_fail(error_r, "inbound mail %" PRId64 ": %s",
				   m->in->id, error);
	if (m->form.len > 0) {
		raw = m->form.data;
		raw_len = m->form.len;
	}
	if (pgp_export_signed(raw, raw_len, &m->kind,
			      &m->signed_part, &m->sig, &error) < 0)
		return gather_fail(error_r, "inbound mail %" PRId64 ": %s",
				   m->in->id, error);
	if (m->kind != PGP_SIGNED_NONE)
		inbound_sha256_hex(m->signed_part.data, m->signed_part.len,
				   m->sha256);
	memset(&opts, 0, sizeof(opts));
	opts.max_size = raw_len + 1;
	opts.now = (time_t)m->in->received;
	opts.pgp = src->pgp;
	if (inbound_parse(raw, raw_len, &opts, &msg,
			  &error) < 0)
		return gather_fail(error_r, "inbound mail %" PRId64 ": %s",
				   m->in->id, error);
	m->pgp = msg->sig;
	m->text = msg->text != NULL ? xstrdup(msg->text) : xstrdup("");
	m->thread_headers = gather_thread_headers(msg);
	inbound_msg_free(&msg);
	command_parse_mail(NULL, m->text, strlen(m->text), game_id, &list);
	if (list.count > 0) {
		/* For README.txt, which people read on a terminal. */
		struct buf what = BUF_INIT;
		escape_append(&what, list.items[0].text,
			      strlen(list.items[0].text), 0);
		snprintf(m->what, sizeof(m->what), "%.*s",
			 (int)sizeof(m->what) - 1, buf_str(&what));
		buf_free(&what);
	}
	command_list_free(&list);
	return 0;
}

/* The mails of the history, one each, with what referred to them. */
static int gather_mails(const struct archive_source *src,
			struct archive_game *g, const char **error_r)
{
	struct store_game_mail *rows = NULL;
	size_t n = 0, cap = 0;
	int ret = -1;

	if (store_game_mails(src->store, g->row->id, &rows, &n, error_r) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct archive_mail *m = archive_game_mail(g,
							   rows[i].inbound_id);
		int r;

		if (m == NULL) {
			if (g->nmails == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				g->mails = xrealloc(g->mails,
						    cap * sizeof(*g->mails));
			}
			m = &g->mails[g->nmails];
			memset(m, 0, sizeof(*m));
			r = store_inbound_load(src->store, rows[i].inbound_id,
					       &m->in, error_r);
			if (r < 0)
				goto out;
			if (r == 0) {
				gather_fail(error_r, "inbound mail %" PRId64
					    " is gone", rows[i].inbound_id);
				goto out;
			}
			g->nmails++;
		}
		m->refs |= 1u << rows[i].ref;
		if (rows[i].ref == STORE_REF_OUTBOX) {
			m->sent |= sent_kind(rows[i].kind);
			if (rows[i].ply > m->sent_ply)
				m->sent_ply = rows[i].ply;
		}
	}
	ret = 0;
out:
	store_rows_free(&rows, n, sizeof(*rows), store_game_mail_clear);
	return ret;
}

/* Keep the mails that changed the game: those the moves, notes, clock
 * and ladder history name, and those we answered with more than a reply
 * to the sender (a challenge, a your-move, a result, an undo), from its
 * two players.  A mail that only asked to see the board stays out. */
static void gather_keep_changes(struct archive_game *g)
{
	size_t k = 0;

	for (size_t i = 0; i < g->nmails; i++) {
		struct archive_mail *m = &g->mails[i];
		bool keep = (m->refs & ~(1u << STORE_REF_OUTBOX)) != 0 ||
			(m->sent != 0 &&
			 (m->in->player_id == g->row->white_id ||
			  m->in->player_id == g->row->black_id));
		if (keep)
			g->mails[k++] = *m;
		else
			archive_mail_clear(m);
	}
	g->nmails = k;
}

/* The moves replayed, and the end the row records applied. */
static int gather_replay(const struct archive_source *src,
			 struct archive_game *g, const char **error_r)
{
	struct core_variant v;
	enum core_error err;
	const char *why = NULL;

	core_variant_default(&v);
	v.draw_offers = src->draw_offers;
	if (core_variant_parse(&v, g->row->variant, &err) < 0 ||
	    record_init(&g->core, &v, &err) < 0)
		return gather_fail(error_r, "game %" PRId64 ": a bad variant "
				   "\"%s\"", g->row->id, g->row->variant);
	g->core_ok = true;
	for (size_t i = 0; i < g->nmoves; i++) {
		/* Forced passes came with the move before them. */
		if (i < g->core.nplies)
			continue;
		if (record_play_text(&g->core, g->moves[i].text,
				     strlen(g->moves[i].text), NULL,
				     &err) < 0)
			return gather_fail(error_r, "game %" PRId64 ": stored "
					   "ply %zu (%s) does not replay",
					   g->row->id, i + 1,
					   g->moves[i].text);
	}
	if (g->core.pos.result == CORE_ONGOING && g->row->end_reason != NULL &&
	    g->row->result != NULL) {
		enum core_end_reason reason = CORE_END_NONE;

		for (int r = CORE_END_ELIMINATION; r <= CORE_END_TIME; r++)
			if (strcmp(g->row->end_reason, core_end_reason_name(
					   (enum core_end_reason)r)) == 0)
				reason = (enum core_end_reason)r;
		if (reason == CORE_END_NONE)
			why = "an unknown end";
		else if (record_end(&g->core, reason,
				    strcmp(g->row->result, "1-0") == 0 ?
				    CORE_BLACK : CORE_WHITE, &err) < 0)
			why = "an end the rules refuse";
	}
	if (why != NULL)
		return gather_fail(error_r, "game %" PRId64 ": %s (%s %s)",
				   g->row->id, why, g->row->result,
				   g->row->end_reason);
	return 0;
}

/* Was ply `ply` played from conditional moves? */
static bool gather_conditional(const struct archive_game *g, int ply)
{
	for (size_t i = 0; i < g->nconds; i++)
		if (g->conds[i].ply == ply)
			return true;
	return false;
}

/* Which mail played which ply, and the players' keys.  A mail of
 * conditional moves may have given several plies: it is named by none
 * (the record's cond= plies cite it by its sha256). */
static void gather_plies(struct archive_game *g)
{
	for (size_t i = 0; i < g->nmoves; i++) {
		const struct store_move *mv = &g->moves[i];
		struct archive_mail *m;
		char *key;

		if (mv->player_id == 0 || mv->inbound_id == 0 ||
		    (m = archive_game_mail(g, mv->inbound_id)) == NULL)
			continue;
		if (gather_conditional(g, mv->ply))
			m->conditional = true;
		else
			m->ply = mv->ply;
		key = mv->player_id == g->row->white_id ? g->white_key :
		      mv->player_id == g->row->black_id ? g->black_key : NULL;
		if (key != NULL && key[0] == '\0' && m->pgp.fpr[0] != '\0')
			snprintf(key, PGP_FPR_MAX + 1, "%s", m->pgp.fpr);
	}
}

/* Name the files: a ply's mail by its ply, the others in order. */
static void gather_stems(struct archive_game *g)
{
	unsigned other = 0, cond = 0;

	for (size_t i = 0; i < g->nmails; i++) {
		struct archive_mail *m = &g->mails[i];
		if (m->ply > 0)
			snprintf(m->stem, sizeof(m->stem), "%04d", m->ply);
		else if (m->conditional)
			snprintf(m->stem, sizeof(m->stem), "cond-%02u",
				 ++cond);
		else
			snprintf(m->stem, sizeof(m->stem), "mail-%02u",
				 ++other);
	}
}

int archive_game_load(const struct archive_source *src, int64_t game_id,
		      struct archive_game *g, const char **error_r)
{
	struct store *st = src->store;
	int r;

	memset(g, 0, sizeof(*g));
	r = store_game_load(st, game_id, &g->row, error_r);
	if (r <= 0)
		return r;
	if (gather_name(src, g->row->white_id, g->white, sizeof(g->white),
			error_r) < 0 ||
	    gather_name(src, g->row->black_id, g->black, sizeof(g->black),
			error_r) < 0 ||
	    store_game_move_records(st, game_id, &g->moves, &g->nmoves,
				    error_r) < 0 ||
	    store_cond_plies(st, game_id, &g->conds, &g->nconds,
			     error_r) < 0 ||
	    store_game_messages(st, game_id, &g->notes, &g->nnotes,
				error_r) < 0 ||
	    store_clock_events(st, game_id, &g->events, &g->nevents,
			       error_r) < 0 ||
	    (r = store_game_club_get(st, game_id, &g->club, error_r)) < 0 ||
	    gather_mails(src, g, error_r) < 0)
		return -1;
	g->in_club = r == 1;
	gather_keep_changes(g);
	for (size_t i = 0; i < g->nmails; i++)
		if (gather_mail(src, &g->mails[i], game_id, error_r) < 0)
			return -1;
	if (gather_replay(src, g, error_r) < 0)
		return -1;
	gather_plies(g);
	gather_stems(g);
	if (gather_bound_key(src, g->row->white_id, g->white_key,
			     error_r) < 0 ||
	    gather_bound_key(src, g->row->black_id, g->black_key,
			     error_r) < 0)
		return -1;
	return 1;
}
