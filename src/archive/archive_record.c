/* archive_record.c -- a game's record, version 2, for its archive: the
 * tags, each ply's line as the service wrote it when it stored the ply
 * (server/game_record.c: the signer's key, the receipt, the clock left,
 * the sha256 of the signed part), and the comments where they happened,
 * from the gathered facts (archive_private.h) -- the players' notes, the
 * moves taken back and the agreements that did it, the clocks' history,
 * the resignation or agreement that ended the game, and every other mail
 * of the archive (challenge, accept, offers), so that the record names
 * each signed mail the archive holds by its sha256. */
#include "archive/archive_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/notation.h"
#include "core/variant.h"
#include "server/clock.h"
#include "server/command.h"
#include "server/server.h"
#include "util/xalloc.h"
#include "util/xstr.h"

struct rec_build {
	const struct archive_source *src;
	const struct archive_game *g;
	struct game_record_notes notes;
};

/* The signer's key (short form), the receipt and the sha256 of mail m
 * into a. */
static void rec_annot_mail(struct record2_annot *a,
			   const struct archive_mail *m)
{
	const char *fpr = m->pgp.fpr[0] != '\0' ? m->pgp.fpr :
			  m->in->sender_fingerprint;

	a->fields |= RECORD2_F_AT;
	a->at = m->in->received;
	if (m->kind == PGP_SIGNED_NONE)
		return;
	if (fpr != NULL && strlen(fpr) >= RECORD2_KEY_SHORT) {
		a->fields |= RECORD2_F_KEY;
		snprintf(a->key, sizeof(a->key), "%s",
			 fpr + strlen(fpr) - RECORD2_KEY_SHORT);
	}
	a->fields |= RECORD2_F_SHA256;
	snprintf(a->sha256, sizeof(a->sha256), "%s", m->sha256);
}

/* The plies stored before the mail m was read: those of earlier mails
 * (inbound ids count the mails in the order read; a second of the clock
 * holds many). */
static size_t rec_plies_before_mail(const struct archive_game *g,
				    const struct archive_mail *m)
{
	size_t n = 0;

	while (n < g->nmoves && g->moves[n].inbound_id != 0 &&
	       g->moves[n].inbound_id < m->in->id)
		n++;
	return n;
}

/* A comment of another kind: "KIND key=K at=T sha256=S WORDS". */
static void rec_other(struct rec_build *b, const char *kind,
		      const struct archive_mail *m, size_t after,
		      const char *words)
{
	struct record2_comment c;
	struct record2_annot a;
	char when[RECORD2_TIME_LEN + 1];
	struct buf t = BUF_INIT;
	char *clean = game_record_clean(words);

	memset(&a, 0, sizeof(a));
	rec_annot_mail(&a, m);
	buf_printf(&t, "%s", kind);
	if (a.fields & RECORD2_F_KEY)
		buf_printf(&t, " key=%s", a.key);
	buf_printf(&t, " at=%s", record2_time_format(a.at, when));
	if (a.fields & RECORD2_F_SHA256)
		buf_printf(&t, " sha256=%s", a.sha256);
	if (clean != NULL)
		buf_printf(&t, " %s", clean);
	free(clean);
	memset(&c, 0, sizeof(c));
	c.kind = RECORD2_COMMENT_OTHER;
	c.text = buf_steal(&t);
	game_record_note(&b->notes, after, m->in->received, m->in->id, &c);
}

static void rec_notes(struct rec_build *b)
{
	const struct archive_game *g = b->g;

	for (size_t i = 0; i < g->nnotes; i++) {
		const struct store_game_message *n = &g->notes[i];
		const struct archive_mail *m = archive_game_mail(g,
								 n->inbound_id);
		struct record2_comment c;

		memset(&c, 0, sizeof(c));
		c.kind = RECORD2_COMMENT_MESSAGE;
		if (m != NULL)
			rec_annot_mail(&c.annot, m);
		c.annot.fields |= RECORD2_F_AT;
		c.annot.at = n->created;
		if ((c.text = game_record_clean(n->text)) == NULL)
			c.text = xstrdup("(a note of blanks)");
		game_record_note(&b->notes, (size_t)(n->ply < 0 ? 0 : n->ply),
				 n->created, n->inbound_id, &c);
	}
}

/* The word of another kind of comment for a clock event: "clock-" and
 * its kind, '_' made '-' ("clock-vacation-day"), so that it is never one
 * of the kinds the format knows ("vacation"). */
static const char *rec_event_kind(enum store_clock_kind kind, char buf[40])
{
	size_t n = (size_t)snprintf(buf, 40, "clock-%s",
				    store_clock_kind_name(kind));

	for (size_t i = 0; i < n && i < 40; i++)
		if (!((buf[i] >= 'a' && buf[i] <= 'z') ||
		      (buf[i] >= '0' && buf[i] <= '9')))
			buf[i] = '-';
	return buf;
}

static void rec_clock_events(struct rec_build *b)
{
	const struct archive_game *g = b->g;

	for (size_t i = 0; i < g->nevents; i++) {
		const struct store_clock_event *e = &g->events[i];
		const struct archive_mail *m = archive_game_mail(g,
								 e->inbound_id);
		size_t after = m != NULL ? rec_plies_before_mail(g, m) :
			       game_record_plies_at(g->moves, g->nmoves,
						    e->at);
		int side = game_record_seat(g->row, e->player_id, after);
		struct record2_comment c;
		char when[RECORD2_TIME_LEN + 1], kind[40];
		struct buf t = BUF_INIT;

		memset(&c, 0, sizeof(c));
		c.annot.fields = RECORD2_F_AT;
		c.annot.at = e->at;
		if (side >= 0 && e->seconds != 0 &&
		    (e->kind == STORE_CLOCK_ADJUST ||
		     e->kind == STORE_CLOCK_OUTAGE)) {
			c.kind = RECORD2_COMMENT_CLOCK;
			c.annot.fields |= RECORD2_F_SIDE | RECORD2_F_SECONDS;
			c.annot.side = (enum core_color)side;
			c.annot.seconds = e->seconds;
			c.text = game_record_clean(e->note != NULL ? e->note :
					store_clock_kind_name(e->kind));
		} else if (side >= 0 && e->seconds >= CLOCK_DAY &&
			   e->kind == STORE_CLOCK_VACATION_DAY) {
			c.kind = RECORD2_COMMENT_VACATION;
			c.annot.fields |= RECORD2_F_SIDE | RECORD2_F_DAYS;
			c.annot.side = (enum core_color)side;
			c.annot.days = (int)(e->seconds / CLOCK_DAY);
		} else if (m != NULL) {
			/* A claim on time, by mail. */
			rec_other(b, rec_event_kind(e->kind, kind), m, after,
				  side >= 0 ? core_color_name(
					  (enum core_color)side) : NULL);
			continue;
		} else {
			c.kind = RECORD2_COMMENT_OTHER;
			buf_printf(&t, "%s at=%s", rec_event_kind(e->kind, kind),
				   record2_time_format(e->at, when));
			if (side >= 0)
				buf_printf(&t, " side=%s",
					   core_color_name(
						   (enum core_color)side));
			c.text = buf_steal(&t);
		}
		game_record_note(&b->notes, after, e->at, e->inbound_id, &c);
	}
}

/* The position after the first `plies` stored plies, into *rec (freed
 * by the caller): -1 if they do not replay. */
static int rec_position(const struct archive_game *g, size_t plies,
			struct core_record *rec)
{
	enum core_error err;

	if (record_init(rec, &g->core.variant, &err) < 0)
		return -1;
	for (size_t i = 0; i < plies && i < g->nmoves; i++)
		if (i >= rec->nplies &&
		    record_play_text(rec, g->moves[i].text,
				     strlen(g->moves[i].text), NULL,
				     &err) < 0) {
			record_free(rec);
			return -1;
		}
	return 0;
}

/* The move a mail played, as the rules write it on the board after
 * `plies` plies, into move; -1 if it holds none that reads there. */
static int rec_move_of(const struct archive_game *g,
		       const struct archive_mail *m, size_t plies,
		       char move[CORE_MOVE_TEXT_MAX])
{
	struct command_list list;
	struct core_record rec;
	int ret = -1;

	if (rec_position(g, plies, &rec) < 0)
		return -1;
	command_parse_mail(NULL, m->text, strlen(m->text), g->row->id, &list);
	for (size_t i = 0; i < list.count && ret < 0; i++) {
		const struct command *c = &list.items[i];
		struct core_move mv;
		enum core_error err;

		if (c->kind == COMMAND_MOVE && c->game == g->row->id &&
		    notation_parse_move(&rec.pos, c->move, strlen(c->move),
					&mv, &err) == 0) {
			notation_format_move(rec.pos.geom, &mv, move);
			ret = 0;
		}
	}
	command_list_free(&list);
	record_free(&rec);
	return ret;
}

/* A move taken back: the agreement (the mail we answered with
 * "undone"), and the move itself (the latest mail before it that played
 * that ply and stands in no ply now). */
static void rec_undo(struct rec_build *b, size_t k, bool *used)
{
	const struct archive_game *g = b->g;
	const struct archive_mail *u = &g->mails[k];
	size_t kept = (size_t)u->sent_ply;
	struct record2_comment c;
	ssize_t moved = -1;
	char move[CORE_MOVE_TEXT_MAX];

	for (size_t i = 0; i < k; i++)
		if (g->mails[i].ply == 0 && !used[i] &&
		    (g->mails[i].sent & ARCHIVE_SENT_YOUR_MOVE) &&
		    (size_t)g->mails[i].sent_ply > kept)
			moved = (ssize_t)i;
	if (moved >= 0 &&
	    rec_move_of(g, &g->mails[moved], kept, move) == 0) {
		memset(&c, 0, sizeof(c));
		c.kind = RECORD2_COMMENT_UNDONE;
		c.number = kept + 1;
		snprintf(c.undone.move, sizeof(c.undone.move), "%s", move);
		rec_annot_mail(&c.undone.annot, &g->mails[moved]);
		game_record_note(&b->notes, kept,
				 g->mails[moved].in->received,
				 g->mails[moved].in->id, &c);
		used[moved] = true;
	}
	memset(&c, 0, sizeof(c));
	c.kind = RECORD2_COMMENT_UNDO;
	rec_annot_mail(&c.annot, u);
	c.annot.fields |= RECORD2_F_PLY;
	c.annot.ply = kept + 1;
	game_record_note(&b->notes, kept, u->in->received, u->in->id, &c);
	used[k] = true;
}

/* Every mail of the archive that no ply names: the undos, the end, the
 * notes' (named by their comments), and the rest as "mail" comments. */
static void rec_mails(struct rec_build *b, enum record2_termination term)
{
	const struct archive_game *g = b->g;
	bool *used = xzalloc((g->nmails + 1) * sizeof(*used));

	for (size_t i = 0; i < g->nmails; i++) {
		const struct archive_mail *m = &g->mails[i];
		if (m->ply > 0 ||
		    (m->refs & ((1u << STORE_REF_NOTE) |
				(1u << STORE_REF_CLOCK))))
			used[i] = true;
	}
	for (size_t i = 0; i < g->nmails; i++)
		if (!used[i] && (g->mails[i].sent & ARCHIVE_SENT_UNDONE))
			rec_undo(b, i, used);
	for (size_t i = 0; i < g->nmails; i++) {
		const struct archive_mail *m = &g->mails[i];
		size_t after = rec_plies_before_mail(g, m);
		const char *kind = "mail";

		if (used[i])
			continue;
		if (m->sent & ARCHIVE_SENT_RESULT)
			kind = term == RECORD2_TERM_RESIGNATION ? "resign" :
			       term == RECORD2_TERM_AGREEMENT ? "agree" :
			       "end";
		/* The mail of conditional moves a ply was played from:
		 * where it came, and when (verify holds it to that). */
		else if (m->conditional)
			kind = "conditional";
		rec_other(b, kind, m, after, m->what);
	}
	free(used);
}

static enum record2_termination rec_termination(const struct archive_game *g)
{
	enum record2_termination t = record2_termination_of(
		(enum core_end_reason)g->core.pos.end_reason);

	if (t != RECORD2_TERM_ONGOING)
		return t;
	return g->row->status == STORE_GAME_ACTIVE ? RECORD2_TERM_ONGOING :
	       g->row->status == STORE_GAME_FINISHED ? RECORD2_TERM_ONGOING :
	       RECORD2_TERM_CANCELLED;
}

static int rec_tags(const struct rec_build *b, struct record2 *rec,
		    enum record2_termination term, const char **error_r)
{
	const struct archive_game *g = b->g;
	char when[RECORD2_TIME_LEN + 1], text[160];
	struct game_record_head hd = {
		text, b->src->site, g->white, g->white_key, g->black,
		g->black_key, &g->core, term,
	};
	enum record2_error e;

	if (g->in_club && g->club.ladder != NULL)
		snprintf(text, sizeof(text), "ladder %s", g->club.ladder);
	else if (g->in_club)
		snprintf(text, sizeof(text), "league season-id %" PRId64
			 " group %d", g->club.season_id, g->club.group_no);
	else
		snprintf(text, sizeof(text), "casual");
	if (game_record_tags(rec, g->row, &hd, &e) < 0) {
		*error_r = record2_error_name(e);
		return -1;
	}
	snprintf(text, sizeof(text), "ashes archive export %s",
		 record2_time_format(b->src->now, when));
	game_record_tag(rec, "Annotator", text);
	/* The window the daemon took signatures in, for verify. */
	snprintf(text, sizeof(text), "max-age=%" PRId64 " max-future=%" PRId64,
		 b->src->max_age, b->src->max_future);
	game_record_tag(rec, "SignatureWindow", text);
	return 0;
}

int archive_record_build(const struct archive_source *src,
			 const struct archive_game *g, struct record2 *rec,
			 const char **error_r)
{
	static __thread char error[256];
	struct rec_build b = { src, g, { NULL, 0, 0, g->nmoves } };
	enum record2_termination term = rec_termination(g);
	struct store_ply_record *lines = NULL;
	size_t c = 0;
	enum record2_error e = RECORD2_OK;
	int ret = -1;

	record2_init(rec);
	if (game_record_plies(src->store, g->row, &g->core.variant, g->moves,
			      g->nmoves, &lines, error_r) < 0 ||
	    rec_tags(&b, rec, term, error_r) < 0)
		goto out;
	rec_notes(&b);
	rec_clock_events(&b);
	rec_mails(&b, term);
	game_record_notes_sort(&b.notes);
	for (size_t i = 0; i <= g->nmoves; i++) {
		for (; c < b.notes.n && b.notes.v[c].after <= i; c++)
			if (record2_comment_add(rec, &b.notes.v[c].c, &e) < 0) {
				snprintf(error, sizeof(error), "a comment "
					 "after ply %zu: %s", i,
					 record2_error_name(e));
				*error_r = error;
				goto out;
			}
		if (i == g->nmoves)
			break;
		const struct store_move *mv = &g->moves[i];
		const struct archive_mail *m = archive_game_mail(g,
								 mv->inbound_id);
		struct record2_annot a;

		/* The service's line, with the sha256 of the signed part
		 * the archive holds (the service knew its own digest). */
		game_record_annot(&lines[i], &a);
		a.fields &= ~(unsigned)RECORD2_F_SHA256;
		if (m != NULL && mv->player_id != 0 &&
		    m->kind != PGP_SIGNED_NONE) {
			a.fields |= RECORD2_F_SHA256;
			snprintf(a.sha256, sizeof(a.sha256), "%s", m->sha256);
		}
		/* cond= cites the mail by its sha256. */
		if (!(a.fields & RECORD2_F_SHA256))
			a.fields &= ~(unsigned)RECORD2_F_COND;
		if (record2_ply_add(rec, g->moves[i].text, &a, &e) < 0) {
			snprintf(error, sizeof(error), "ply %zu (%s): %s",
				 i + 1, g->moves[i].text,
				 record2_error_name(e));
			*error_r = error;
			goto out;
		}
	}
	ret = 0;
out:
	game_record_notes_free(&b.notes);
	free(lines);
	if (ret < 0)
		record2_free(rec);
	return ret;
}
