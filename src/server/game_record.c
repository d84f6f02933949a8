/* game_record.c -- a game's record, version 2 (core/record2.h), from the
 * store alone, for `history GAME`: the tags, each ply with the signer's
 * key, its receipt and the sha256 of its signed part, and the comments
 * the store holds (the players' notes, the clock history).  The archive's
 * fuller record (src/archive) reads the mails again with the keyring; the
 * service cannot, so it writes what it recorded when it read them. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/record2.h"
#include "core/variant.h"
#include "util/xalloc.h"
#include "util/xstr.h"

/* A vacation day, in seconds (clock.h's CLOCK_DAY). */
#define GREC_DAY ((int64_t)86400)

/* What the store knows of the mail behind a ply or a note. */
struct grec_mail {
	char fpr[72];     /* the verified signer, or "" */
	char sha256[RECORD2_SHA256_HEX + 1]; /* of the signed part, or "" */
	int64_t received; /* 0: no such mail */
};

struct grec_comment {
	size_t after;
	size_t seq;
	struct record2_comment c;
};

struct grec {
	struct handle *h;
	const struct game *g;
	struct store_move *moves;
	size_t nmoves;
	struct grec_comment *cs;
	size_t ncs, cap;
	/* The players' keys: the signer of their first signed ply, else
	 * their first bound key; "" when their plies name two (a key
	 * replaced mid-game: the tag would make the replay refuse). */
	char white_key[72], black_key[72];
};

/* The mail inbound_id's signer, receipt and sha256 into *m (zeroed for
 * none).  0 or -1. */
static int grec_mail(struct grec *b, int64_t inbound_id, struct grec_mail *m)
{
	struct store_inbound *in = NULL;
	const char *error;
	int r;

	memset(m, 0, sizeof(*m));
	if (inbound_id == 0)
		return 0;
	r = store_inbound_load(b->h->srv->store, inbound_id, &in, &error);
	if (r < 0)
		return server_store_fail(b->h, error);
	if (r == 0)
		return 0;
	m->received = in->received;
	if (in->sender_fingerprint != NULL)
		snprintf(m->fpr, sizeof(m->fpr), "%s", in->sender_fingerprint);
	store_inbound_free(&in);
	if (store_signature_by_inbound(b->h->srv->store, inbound_id, m->sha256,
				       &error) < 0)
		return server_store_fail(b->h, error);
	return 0;
}

/* The signer's short key, the receipt and the sha256 of m into a. */
static void grec_annot_mail(struct record2_annot *a, const struct grec_mail *m)
{
	size_t n = strlen(m->fpr);

	if (m->received != 0) {
		a->fields |= RECORD2_F_AT;
		a->at = m->received;
	}
	if (n >= RECORD2_KEY_SHORT) {
		a->fields |= RECORD2_F_KEY;
		snprintf(a->key, sizeof(a->key), "%s",
			 m->fpr + n - RECORD2_KEY_SHORT);
	}
	if (m->sha256[0] != '\0') {
		a->fields |= RECORD2_F_SHA256;
		snprintf(a->sha256, sizeof(a->sha256), "%s", m->sha256);
	}
}

static void grec_push(struct grec *b, size_t after,
		      const struct record2_comment *c)
{
	if (b->ncs == b->cap) {
		b->cap = b->cap == 0 ? 8 : b->cap * 2;
		b->cs = xrealloc(b->cs, b->cap * sizeof(*b->cs));
	}
	b->cs[b->ncs].after = after < b->nmoves ? after : b->nmoves;
	b->cs[b->ncs].seq = b->ncs;
	b->cs[b->ncs].c = *c;
	b->ncs++;
}

static int grec_cmp(const void *x, const void *y)
{
	const struct grec_comment *a = x, *b = y;

	if (a->after != b->after)
		return a->after < b->after ? -1 : 1;
	if (a->c.annot.at != b->c.annot.at)
		return a->c.annot.at < b->c.annot.at ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A copy of text fit for a record (controls made blanks, no blanks at the
 * ends), or NULL when nothing is left. */
static char *grec_text(const char *text)
{
	char *s = xstrdup(text != NULL ? text : ""), *p = s, *e;

	for (char *q = s; *q != '\0'; q++) {
		unsigned char c = (unsigned char)*q;
		if (c < 0x20 || c == 0x7f)
			*q = ' ';
		else if (c == 0xc2 && (unsigned char)q[1] >= 0x80 &&
			 (unsigned char)q[1] <= 0x9f)
			q[0] = q[1] = ' ';
	}
	while (*p == ' ')
		p++;
	e = p + strlen(p);
	while (e > p && e[-1] == ' ')
		*--e = '\0';
	if (*p == '\0') {
		free(s);
		return NULL;
	}
	memmove(s, p, strlen(p) + 1);
	return s;
}

/* The plies stored at time at (a clock event names no ply). */
static size_t grec_plies_at(const struct grec *b, int64_t at)
{
	size_t n = 0;

	while (n < b->nmoves && b->moves[n].played_at <= at)
		n++;
	return n;
}

/* The seat of player pid after `plies` plies (the swap exchanged the
 * seats at ply 2), or -1. */
static int grec_side(const struct grec *b, int64_t pid, size_t plies)
{
	const struct store_game *row = b->g->row;
	int side = pid == row->white_id ? CORE_WHITE :
		   pid == row->black_id ? CORE_BLACK : -1;

	if (side >= 0 && row->swapped && plies < 2)
		side = !side;
	return side;
}

/* The players' notes, as "message" comments.  0 or -1. */
static int grec_notes(struct grec *b)
{
	struct store_game_message *notes = NULL;
	size_t n = 0;
	const char *error;
	int ret = 0;

	if (store_game_messages(b->h->srv->store, b->g->row->id, &notes, &n,
				&error) < 0)
		return server_store_fail(b->h, error);
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct record2_comment c;
		struct grec_mail m;

		if ((ret = grec_mail(b, notes[i].inbound_id, &m)) < 0)
			break;
		memset(&c, 0, sizeof(c));
		c.kind = RECORD2_COMMENT_MESSAGE;
		grec_annot_mail(&c.annot, &m);
		c.annot.fields |= RECORD2_F_AT;
		c.annot.at = notes[i].created;
		if ((c.text = grec_text(notes[i].text)) == NULL)
			c.text = xstrdup("(a note of blanks)");
		grec_push(b, (size_t)(notes[i].ply < 0 ? 0 : notes[i].ply), &c);
	}
	store_rows_free(&notes, n, sizeof(*notes), store_game_message_clear);
	return ret;
}

/* The clock history: the operator's adjustments and the vacation days
 * spent; the other events (a flag, a claim) show in the result.  0 or
 * -1. */
static int grec_clock_events(struct grec *b)
{
	struct store_clock_event *ev = NULL;
	size_t n = 0;
	const char *error;

	if (store_clock_events(b->h->srv->store, b->g->row->id, &ev, &n,
			       &error) < 0)
		return server_store_fail(b->h, error);
	for (size_t i = 0; i < n; i++) {
		const struct store_clock_event *e = &ev[i];
		size_t after = grec_plies_at(b, e->at);
		int side = grec_side(b, e->player_id, after);
		struct record2_comment c;

		memset(&c, 0, sizeof(c));
		c.annot.fields = RECORD2_F_AT | RECORD2_F_SIDE;
		c.annot.at = e->at;
		c.annot.side = (enum core_color)side;
		if (side < 0)
			continue;
		if (strcmp(e->kind, "adjust") == 0 && e->seconds != 0) {
			c.kind = RECORD2_COMMENT_CLOCK;
			c.annot.fields |= RECORD2_F_SECONDS;
			c.annot.seconds = e->seconds;
			c.text = grec_text(e->note);
		} else if (strcmp(e->kind, "vacation_day") == 0 &&
			   e->seconds >= GREC_DAY) {
			c.kind = RECORD2_COMMENT_VACATION;
			c.annot.fields |= RECORD2_F_DAYS;
			c.annot.days = (int)(e->seconds / GREC_DAY);
		} else {
			continue;
		}
		grec_push(b, after, &c);
	}
	store_rows_free(&ev, n, sizeof(*ev), store_clock_event_clear);
	return 0;
}

/* A player's key from a ply's signer (see struct grec). */
static void grec_key_seen(char key[72], bool *mixed, const char *fpr)
{
	if (fpr[0] == '\0' || *mixed)
		return;
	if (key[0] == '\0')
		snprintf(key, 72, "%s", fpr);
	else if (strcmp(key, fpr) != 0) {
		key[0] = '\0';
		*mixed = true;
	}
}

/* A player who signed no ply: their first bound key.  0 or -1. */
static int grec_bound_key(struct grec *b, int64_t id, char key[72])
{
	struct store_player *p = NULL;
	const char *error;
	int r;

	if (key[0] != '\0' || id == 0)
		return 0;
	r = store_player_load(b->h->srv->store, id, &p, &error);
	if (r < 0)
		return server_store_fail(b->h, error);
	if (r == 1 && p->n_fingerprints > 0)
		snprintf(key, 72, "%s", p->fingerprints[0]);
	store_player_free(&p);
	return 0;
}

static enum record2_result grec_result(enum core_result r)
{
	switch (r) {
	case CORE_RESULT_WHITE: return RECORD2_RESULT_WHITE;
	case CORE_RESULT_BLACK: return RECORD2_RESULT_BLACK;
	case CORE_RESULT_DRAW: return RECORD2_RESULT_DRAW;
	case CORE_ONGOING: break;
	}
	return RECORD2_RESULT_NONE;
}

static enum record2_termination grec_termination(const struct game *g)
{
	switch ((enum core_end_reason)g->rec.pos.end_reason) {
	case CORE_END_ELIMINATION: return RECORD2_TERM_ELIMINATION;
	case CORE_END_DOUBLE_PASS: return RECORD2_TERM_DOUBLE_PASS;
	case CORE_END_RESIGNATION: return RECORD2_TERM_RESIGNATION;
	case CORE_END_AGREED_DRAW: return RECORD2_TERM_AGREEMENT;
	case CORE_END_TIME: return RECORD2_TERM_TIME;
	case CORE_END_NONE: break;
	}
	return g->row->status == STORE_GAME_CANCELLED ||
	       g->row->status == STORE_GAME_DECLINED ||
	       g->row->status == STORE_GAME_WITHDRAWN ?
	       RECORD2_TERM_CANCELLED : RECORD2_TERM_ONGOING;
}

/* A tag the format may refuse (a name it cannot hold): left out then. */
static void grec_tag_maybe(struct record2 *rec, const char *key,
			   const char *value)
{
	enum record2_error e;

	if (value != NULL && value[0] != '\0')
		(void)record2_tag_set(rec, key, value, &e);
}

/* The Event tag: "casual", "ladder NAME", "league NAME season N group
 * G" (the league found among the configured ones).  0 or -1. */
static int grec_event(struct grec *b, char *text, size_t len)
{
	struct store_game_club gc;
	const char *error;
	int r;

	snprintf(text, len, "casual");
	r = store_game_club_get(b->h->srv->store, b->g->row->id, &gc, &error);
	if (r < 0)
		return server_store_fail(b->h, error);
	if (r == 0)
		return 0;
	if (gc.ladder != NULL)
		snprintf(text, len, "ladder %s", gc.ladder);
	else
		snprintf(text, len, "league season-id %" PRId64 " group %d",
			 gc.season_id, gc.group_no);
	for (size_t l = 0; gc.ladder == NULL &&
			   l < b->h->srv->cfg.nleagues; l++) {
		const char *name = b->h->srv->cfg.leagues[l].club.name;
		struct store_league_season *s = NULL;
		size_t ns = 0;

		if (store_league_seasons(b->h->srv->store, name, &s, &ns,
					 &error) < 0) {
			store_game_club_clear(&gc);
			return server_store_fail(b->h, error);
		}
		for (size_t i = 0; i < ns; i++)
			if (s[i].id == gc.season_id)
				snprintf(text, len, "league %s season %d "
					 "group %d", name, s[i].number,
					 gc.group_no);
		store_rows_free(&s, ns, sizeof(*s), store_league_season_clear);
	}
	store_game_club_clear(&gc);
	return 0;
}

static int grec_tags(struct grec *b, struct record2 *rec)
{
	const struct store_game *row = b->g->row;
	char when[RECORD2_TIME_LEN + 1], text[200];
	char variant[CORE_VARIANT_TEXT_MAX];
	enum record2_error e;

	if (grec_event(b, text, sizeof(text)) < 0)
		return -1;
	grec_tag_maybe(rec, "Event", text);
	snprintf(text, sizeof(text), "%" PRId64, row->id);
	grec_tag_maybe(rec, "Game", text);
	grec_tag_maybe(rec, "Site", b->h->srv->domain);
	grec_tag_maybe(rec, "Date", record2_time_format(row->created, when));
	if (row->status != STORE_GAME_ACTIVE &&
	    row->status != STORE_GAME_CHALLENGE &&
	    row->status != STORE_GAME_OPEN)
		grec_tag_maybe(rec, "EndDate",
			       record2_time_format(row->updated, when));
	grec_tag_maybe(rec, "White", b->g->white);
	grec_tag_maybe(rec, "WhiteKey", b->white_key);
	grec_tag_maybe(rec, "Black", b->g->black);
	grec_tag_maybe(rec, "BlackKey", b->black_key);
	core_variant_format(&b->g->rec.variant, CORE_VARIANT_ALL, variant,
			    sizeof(variant));
	if (record2_tag_set(rec, "Variant", variant, &e) < 0 ||
	    record2_tag_set(rec, "TimeControl", row->clock_settings != NULL ?
			    row->clock_settings : "none", &e) < 0 ||
	    record2_tag_set(rec, "Result", record2_result_name(grec_result(
				    b->g->rec.pos.result)), &e) < 0 ||
	    record2_tag_set(rec, "Termination", record2_termination_name(
				    grec_termination(b->g)), &e) < 0) {
		snprintf(b->h->srv->errbuf, sizeof(b->h->srv->errbuf),
			 "game %" PRId64 ": record tags: %s", row->id,
			 record2_error_name(e));
		return server_store_fail(b->h, b->h->srv->errbuf);
	}
	return 0;
}

/* The plies with their mails, the players' keys on the way.  The mails
 * into ms[] (one per replayed ply).  0 or -1. */
static int grec_ply_mails(struct grec *b, struct grec_mail *ms)
{
	const struct store_game *row = b->g->row;
	bool wmixed = false, bmixed = false;

	for (size_t i = 0; i < b->g->rec.nplies && i < b->nmoves; i++) {
		const struct store_move *mv = &b->moves[i];

		if (mv->player_id == 0)
			continue;
		if (grec_mail(b, mv->inbound_id, &ms[i]) < 0)
			return -1;
		/* The tags name the seats at the end (the row's). */
		if (mv->player_id == row->white_id)
			grec_key_seen(b->white_key, &wmixed, ms[i].fpr);
		else if (mv->player_id == row->black_id)
			grec_key_seen(b->black_key, &bmixed, ms[i].fpr);
	}
	if ((!wmixed && grec_bound_key(b, row->white_id, b->white_key) < 0) ||
	    (!bmixed && grec_bound_key(b, row->black_id, b->black_key) < 0))
		return -1;
	return 0;
}

int game_record_text(struct handle *h, const struct game *g, bool notes,
		     char **text_r)
{
	struct grec b;
	struct record2 rec;
	struct grec_mail *ms = NULL;
	const char *error;
	enum record2_error e = RECORD2_OK;
	size_t c = 0, n = g->rec.nplies, need;
	int ret = -1;

	*text_r = NULL;
	if (!g->rec_ok)
		return server_store_fail(h, "a game's record without its "
					 "replay");
	memset(&b, 0, sizeof(b));
	b.h = h;
	b.g = g;
	record2_init(&rec);
	if (store_game_move_records(h->srv->store, g->row->id, &b.moves,
				    &b.nmoves, &error) < 0) {
		server_store_fail(h, error);
		goto out;
	}
	ms = xzalloc((n + 1) * sizeof(*ms));
	if (grec_ply_mails(&b, ms) < 0 || grec_tags(&b, &rec) < 0 ||
	    (notes && grec_notes(&b) < 0) || grec_clock_events(&b) < 0)
		goto out;
	/* Comments at most after the plies the record holds. */
	for (size_t i = 0; i < b.ncs; i++)
		if (b.cs[i].after > n)
			b.cs[i].after = n;
	/* qsort wants an array, even of none (b.cs is NULL then). */
	if (b.ncs > 1)
		qsort(b.cs, b.ncs, sizeof(*b.cs), grec_cmp);
	for (size_t i = 0; i <= n; i++) {
		char move[CORE_MOVE_TEXT_MAX];
		struct record2_annot a;

		/* A comment the format cannot hold (a note it refuses) is
		 * left out: the rest of the record still stands. */
		for (; c < b.ncs && b.cs[c].after <= i; c++)
			(void)record2_comment_add(&rec, &b.cs[c].c, &e);
		if (i == n)
			break;
		notation_format_move(g->rec.pos.geom, &g->rec.plies[i], move);
		memset(&a, 0, sizeof(a));
		/* A forced pass came in no mail: its time is the move's
		 * that forced it. */
		if (i < b.nmoves && b.moves[i].player_id != 0)
			grec_annot_mail(&a, &ms[i]);
		else if (i < b.nmoves && b.moves[i].played_at != 0) {
			a.fields = RECORD2_F_AT;
			a.at = b.moves[i].played_at;
		}
		if (record2_ply_add(&rec, move, &a, &e) < 0)
			goto bad;
	}
	need = record2_format(&rec, NULL, 0);
	*text_r = xzalloc(need + 1);
	record2_format(&rec, *text_r, need + 1);
	ret = 0;
	goto out;
bad:
	snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "game %" PRId64
		 ": record: %s", g->row->id, record2_error_name(e));
	server_store_fail(h, h->srv->errbuf);
out:
	for (size_t i = 0; i < b.ncs; i++)
		free(b.cs[i].c.text);
	free(b.cs);
	free(ms);
	store_rows_free(&b.moves, b.nmoves, sizeof(*b.moves),
			store_move_clear);
	record2_free(&rec);
	return ret;
}
