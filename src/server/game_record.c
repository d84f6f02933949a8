/* game_record.c -- a game's record, version 2 (core/record2.h), as the
 * service writes it.  Each ply's line -- the signer's key, the receipt,
 * the clock left and the sha256 of the signed part -- is written once,
 * in the transaction that stores the ply (game_record_plies, from
 * play.c), and read back by `history GAME` (here) and by `archive
 * export` (src/archive), which add the rest around it.  A ply stored
 * before there were such lines (sql/012) gets its line the first time
 * it is read, by the same code: the clocks are run again from the start
 * the way the service runs them (server/clock.h), since the store keeps
 * them only as they stand.  A reply played from conditional moves
 * (conditional.c) says cond=, the ply its tree began after; its signed
 * part is the tree's mail and its time the receipt of the opponent's
 * move it answers.  `history` adds the tags and the comments
 * the store holds (the players' notes, the clock history); archive
 * verify replays the mails itself and trusts none of this. */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/record2.h"
#include "core/variant.h"
#include "server/clock.h"
#include "store/store_conditional.h"
#include "store/store_prune.h"
#include "util/xalloc.h"
#include "util/xstr.h"

/* What the store knows of the mail behind a ply or a note. */
struct grec_mail {
	char fpr[72];     /* the verified signer, or "" */
	char sha256[RECORD2_SHA256_HEX + 1]; /* of the signed part, or "" */
	int64_t received; /* 0: no such mail */
};

/* A ply played from conditional moves: its tree's base ply, and when it
 * was played (the receipt of the opponent's move before it). */
struct grec_cond {
	int base;
	int64_t at;
};

struct grec {
	struct handle *h;
	const struct game *g;
	struct store_move *moves;
	size_t nmoves;
	struct game_record_notes cs;
	/* The players' keys: the signer of their first signed ply, else
	 * their first bound key; "" when their plies name two (a key
	 * replaced mid-game: the tag would make the replay refuse). */
	char white_key[72], black_key[72];
};

/* The mail inbound_id's signer, receipt and sha256 into *m (zeroed for
 * none).  0 or -1. */
static int grec_mail(struct store *st, int64_t inbound_id,
		     struct grec_mail *m, const char **error_r)
{
	struct store_inbound *in = NULL;
	int r;

	memset(m, 0, sizeof(*m));
	if (inbound_id == 0)
		return 0;
	r = store_inbound_load(st, inbound_id, &in, error_r);
	if (r <= 0)
		return r;
	m->received = in->received;
	if (in->sender_fingerprint != NULL)
		snprintf(m->fpr, sizeof(m->fpr), "%s", in->sender_fingerprint);
	store_inbound_free(&in);
	return store_signature_by_inbound(st, inbound_id, m->sha256,
					  error_r) < 0 ? -1 : 0;
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

void game_record_note(struct game_record_notes *ns, size_t after,
		      int64_t at, int64_t mail, const struct record2_comment *c)
{
	if (ns->n == ns->cap) {
		ns->cap = ns->cap == 0 ? 16 : ns->cap * 2;
		ns->v = xrealloc(ns->v, ns->cap * sizeof(*ns->v));
	}
	ns->v[ns->n].after = after < ns->plies ? after : ns->plies;
	ns->v[ns->n].at = at;
	ns->v[ns->n].mail = mail;
	ns->v[ns->n].seq = ns->n;
	ns->v[ns->n].c = *c;
	ns->n++;
}

static int grec_note_cmp(const void *a, const void *b)
{
	const struct game_record_note *x = a, *y = b;

	if (x->after != y->after)
		return x->after < y->after ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	/* Mails of one second: in the order read. */
	if (x->mail != 0 && y->mail != 0 && x->mail != y->mail)
		return x->mail < y->mail ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void game_record_notes_sort(struct game_record_notes *ns)
{
	if (ns->n > 1) /* ns->v is NULL without any */
		qsort(ns->v, ns->n, sizeof(*ns->v), grec_note_cmp);
}

void game_record_notes_free(struct game_record_notes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i].c.text);
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
}

/* A copy of text fit for a record (controls made blanks, no blanks at the
 * ends), or NULL when nothing is left. */
char *game_record_clean(const char *text)
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
size_t game_record_plies_at(const struct store_move *moves, size_t n,
			    int64_t at)
{
	size_t k = 0;

	while (k < n && moves[k].played_at <= at)
		k++;
	return k;
}

/* The seat of player pid after `plies` plies (the swap exchanged the
 * seats at ply 2), or -1. */
int game_record_seat(const struct store_game *row, int64_t pid, size_t plies)
{
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

		if (grec_mail(b->h->srv->store, notes[i].inbound_id, &m,
			      &error) < 0) {
			ret = server_store_fail(b->h, error);
			break;
		}
		memset(&c, 0, sizeof(c));
		c.kind = RECORD2_COMMENT_MESSAGE;
		grec_annot_mail(&c.annot, &m);
		c.annot.fields |= RECORD2_F_AT;
		c.annot.at = notes[i].created;
		if ((c.text = game_record_clean(notes[i].text)) == NULL)
			c.text = xstrdup("(a note of blanks)");
		game_record_note(&b->cs, (size_t)(notes[i].ply < 0 ? 0 :
					 notes[i].ply), c.annot.at, 0, &c);
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
		size_t after = game_record_plies_at(b->moves, b->nmoves, e->at);
		int side = game_record_seat(b->g->row, e->player_id, after);
		struct record2_comment c;

		memset(&c, 0, sizeof(c));
		c.annot.fields = RECORD2_F_AT | RECORD2_F_SIDE;
		c.annot.at = e->at;
		c.annot.side = (enum core_color)side;
		if (side < 0)
			continue;
		if (e->kind == STORE_CLOCK_ADJUST && e->seconds != 0) {
			c.kind = RECORD2_COMMENT_CLOCK;
			c.annot.fields |= RECORD2_F_SECONDS;
			c.annot.seconds = e->seconds;
			c.text = game_record_clean(e->note);
		} else if (e->kind == STORE_CLOCK_VACATION_DAY &&
			   e->seconds >= CLOCK_DAY) {
			c.kind = RECORD2_COMMENT_VACATION;
			c.annot.fields |= RECORD2_F_DAYS;
			c.annot.days = (int)(e->seconds / CLOCK_DAY);
		} else {
			continue;
		}
		game_record_note(&b->cs, after, e->at, 0, &c);
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

static enum record2_termination grec_termination(const struct game *g)
{
	enum record2_termination t = record2_termination_of(
		(enum core_end_reason)g->rec.pos.end_reason);

	if (t != RECORD2_TERM_ONGOING)
		return t;
	return g->row->status == STORE_GAME_CANCELLED ||
	       g->row->status == STORE_GAME_DECLINED ||
	       g->row->status == STORE_GAME_WITHDRAWN ?
	       RECORD2_TERM_CANCELLED : RECORD2_TERM_ONGOING;
}

/* A tag the format may refuse (a name it cannot hold): left out then. */
void game_record_tag(struct record2 *rec, const char *key,
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

int game_record_tags(struct record2 *rec, const struct store_game *row,
		     const struct game_record_head *hd,
		     enum record2_error *e_r)
{
	char when[RECORD2_TIME_LEN + 1], text[32];
	char variant[CORE_VARIANT_TEXT_MAX];

	game_record_tag(rec, "Event", hd->event);
	snprintf(text, sizeof(text), "%" PRId64, row->id);
	game_record_tag(rec, "Game", text);
	game_record_tag(rec, "Site", hd->site);
	game_record_tag(rec, "Date", record2_time_format(row->created, when));
	if (row->status != STORE_GAME_ACTIVE &&
	    row->status != STORE_GAME_CHALLENGE &&
	    row->status != STORE_GAME_OPEN)
		game_record_tag(rec, "EndDate",
				record2_time_format(row->updated, when));
	game_record_tag(rec, "White", hd->white);
	game_record_tag(rec, "WhiteKey", hd->white_key);
	game_record_tag(rec, "Black", hd->black);
	game_record_tag(rec, "BlackKey", hd->black_key);
	core_variant_format(&hd->core->variant, CORE_VARIANT_ALL, variant,
			    sizeof(variant));
	if (record2_tag_set(rec, "Variant", variant, e_r) < 0 ||
	    record2_tag_set(rec, "TimeControl", row->clock_settings != NULL ?
			    row->clock_settings : "none", e_r) < 0 ||
	    record2_tag_set(rec, "Result", record2_result_name(
				    record2_result_of(hd->core->pos.result)),
			    e_r) < 0 ||
	    record2_tag_set(rec, "Termination",
			    record2_termination_name(hd->term), e_r) < 0)
		return -1;
	return 0;
}

static int grec_tags(struct grec *b, struct record2 *rec)
{
	char text[200];
	struct game_record_head hd = {
		text, b->h->srv->domain, b->g->white, b->white_key,
		b->g->black, b->black_key, &b->g->rec, grec_termination(b->g),
	};
	enum record2_error e;

	if (grec_event(b, text, sizeof(text)) < 0)
		return -1;
	if (game_record_tags(rec, b->g->row, &hd, &e) < 0) {
		snprintf(b->h->srv->errbuf, sizeof(b->h->srv->errbuf),
			 "game %" PRId64 ": record tags: %s", b->g->row->id,
			 record2_error_name(e));
		return server_store_fail(b->h, b->h->srv->errbuf);
	}
	return 0;
}

/* The players' keys from the signers of their plies' lines.  0 or -1. */
static int grec_keys(struct grec *b, const struct store_ply_record *lines)
{
	const struct store_game *row = b->g->row;
	bool wmixed = false, bmixed = false;

	for (size_t i = 0; i < b->g->rec.nplies && i < b->nmoves; i++) {
		const struct store_move *mv = &b->moves[i];

		/* The tags name the seats at the end (the row's). */
		if (mv->player_id != 0 && mv->player_id == row->white_id)
			grec_key_seen(b->white_key, &wmixed, lines[i].signer);
		else if (mv->player_id != 0 && mv->player_id == row->black_id)
			grec_key_seen(b->black_key, &bmixed, lines[i].signer);
	}
	if ((!wmixed && grec_bound_key(b, row->white_id, b->white_key) < 0) ||
	    (!bmixed && grec_bound_key(b, row->black_id, b->black_key) < 0))
		return -1;
	return 0;
}

/* ---- the ply lines ---------------------------------------------------- */

/* When the first turn began: the receipt of the players' mail we
 * answered with the first your-move (the accept), else the game's
 * start.  0 or -1. */
static int grec_clock_started(struct store *st, const struct store_game *row,
			      int64_t *at_r, const char **error_r)
{
	struct store_game_mail *rows = NULL;
	struct store_inbound *in = NULL;
	size_t n = 0;
	int r = 0;

	*at_r = row->created;
	if (store_game_mails(st, row->id, &rows, &n, error_r) < 0)
		return -1;
	for (size_t i = 0; i < n && r >= 0; i++) {
		if (rows[i].ref != STORE_REF_OUTBOX || rows[i].ply != 0 ||
		    store_outbox_kind_of(rows[i].kind) !=
		    STORE_OUTBOX_KIND_YOUR_MOVE ||
		    (r = store_inbound_load(st, rows[i].inbound_id, &in,
					    error_r)) != 1)
			continue;
		if (in->received != 0 && (in->player_id == row->white_id ||
					  in->player_id == row->black_id))
			*at_r = in->received;
		store_inbound_free(&in);
	}
	store_rows_free(&rows, n, sizeof(*rows), store_game_mail_clear);
	return r < 0 ? -1 : 0;
}

/* A player's zone and vacations onto side's clock.  0 or -1. */
static int grec_clock_player(struct store *st, struct clock_state *s,
			     enum core_color side, int64_t pid,
			     const char **error_r)
{
	struct store_settings set;
	struct store_vacation *v = NULL;
	size_t n = 0;

	if (pid == 0)
		return 0;
	if (store_settings_get(st, pid, &set, error_r) < 0 ||
	    store_vacations_for_player(st, pid, 0, &v, &n, error_r) < 0)
		return -1;
	(void)clock_set_zone(s, side, set.timezone, NULL);
	for (size_t i = 0; i < n; i++)
		(void)clock_pause_add(s, side, v[i].from, v[i].to, NULL);
	free(v);
	return 0;
}

/* The clock history up to `until` (from *next on), onto the clocks. */
static void grec_clock_adds(const struct store_game *row,
			    const struct store_clock_event *ev, size_t nev,
			    size_t *next, struct clock_state *s, int64_t until,
			    size_t plies)
{
	for (; *next < nev && ev[*next].at <= until; (*next)++) {
		const struct store_clock_event *e = &ev[*next];
		int side = game_record_seat(row, e->player_id, plies);

		if (e->seconds != 0 && side >= 0 &&
		    (e->kind == STORE_CLOCK_ADJUST ||
		     e->kind == STORE_CLOCK_OUTAGE ||
		     e->kind == STORE_CLOCK_VACATION_DAY))
			(void)clock_add_time(s, (enum core_color)side,
					     e->seconds, NULL);
	}
}

/* The mover's clock after each of the n plies into clock_r, run the way
 * the service runs it: started at the accept, charged at each ply's
 * storing, the seats' clocks exchanged by the swap, the operator's and
 * the vacation bank's time added when it was.  *clocked_r false for a
 * game without clock.  0 or -1. */
static int grec_clocks(struct store *st, const struct store_game *row,
		       const struct core_variant *v,
		       const struct store_move *moves, size_t n,
		       int64_t *clock_r, bool *clocked_r, const char **error_r)
{
	struct clock_control c;
	struct clock_state s;
	struct core_record rec;
	struct store_clock_event *ev = NULL;
	enum core_error err;
	size_t nev = 0, next = 0;
	int64_t started;
	bool vacation_ok;
	int ret = -1;

	*clocked_r = false;
	if (row->clock_settings == NULL ||
	    game_clock_text_parse(row->clock_settings, &c, &vacation_ok,
				  NULL) < 0 ||
	    c.kind == CLOCK_KIND_NONE || clock_init(&s, &c, NULL) < 0)
		return 0;
	*clocked_r = true;
	/* The seats as the game began. */
	if (grec_clock_player(st, &s, CORE_WHITE, row->swapped ?
			      row->black_id : row->white_id, error_r) < 0 ||
	    grec_clock_player(st, &s, CORE_BLACK, row->swapped ?
			      row->white_id : row->black_id, error_r) < 0 ||
	    grec_clock_started(st, row, &started, error_r) < 0 ||
	    store_clock_events(st, row->id, &ev, &nev, error_r) < 0)
		return -1;
	if (record_init(&rec, v, &err) < 0) {
		*error_r = "the game's variant";
		goto out;
	}
	(void)clock_start(&s, CORE_WHITE, started, NULL);
	for (size_t i = 0; i < n; i++) {
		enum core_color mover = s.to_move;

		if (i < rec.nplies) {
			/* A forced pass: the passer's clock stands. */
			clock_r[i] = s.player[!s.to_move].remaining;
			continue;
		}
		grec_clock_adds(row, ev, nev, &next, &s, moves[i].played_at, i);
		if (clock_charge(&s, moves[i].played_at, NULL) < 0) {
			/* A flag that fell and was not claimed: the move
			 * counted with nothing left (game_clock.c). */
			s.player[mover].remaining =
				clock_elapsed(&s, moves[i].played_at) + 1;
			(void)clock_charge(&s, moves[i].played_at, NULL);
		}
		clock_r[i] = s.player[mover].remaining;
		if (record_play_text(&rec, moves[i].text,
				     strlen(moves[i].text), NULL, &err) < 0)
			break;
		if (strcmp(moves[i].text, "swap") == 0) {
			struct clock_player t = s.player[CORE_WHITE];
			s.player[CORE_WHITE] = s.player[CORE_BLACK];
			s.player[CORE_BLACK] = t;
		}
		s.to_move = rec.pos.to_move;
	}
	record_free(&rec);
	ret = 0;
out:
	store_rows_free(&ev, nev, sizeof(*ev), store_clock_event_clear);
	return ret;
}

/* The line of ply mv: its mail's signer, receipt and sha256 (a forced
 * pass came in no mail of its own: the time only), and the clock left.
 * The one place a ply's line is made.  0 or -1. */
static int grec_ply_line(struct store *st, const struct store_move *mv,
			 bool clocked, int64_t clock,
			 const struct grec_cond *cond,
			 struct store_ply_record *r, const char **error_r)
{
	struct grec_mail m;
	struct record2_annot a;

	if (grec_mail(st, mv->inbound_id, &m, error_r) < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	if (mv->player_id != 0)
		grec_annot_mail(&a, &m);
	a.fields |= RECORD2_F_AT;
	a.at = m.received != 0 ? m.received : mv->played_at;
	/* A reply from conditional moves: its mail (the tree's) signed
	 * it, and it was played when the opponent's move came. */
	if (cond != NULL) {
		/* Cited by its signed part's sha256 (an unsigned one cites
		 * nothing: its club takes unsigned mail). */
		if (a.fields & RECORD2_F_SHA256)
			a.fields |= RECORD2_F_COND;
		a.cond = (size_t)cond->base;
		a.at = cond->at;
	}
	if (clocked) {
		a.fields |= RECORD2_F_CLOCK;
		a.clock = clock < 0 ? 0 : clock;
	}
	memset(r, 0, sizeof(*r));
	r->ply = mv->ply;
	r->fields = a.fields;
	if (a.fields & RECORD2_F_KEY)
		snprintf(r->signer, sizeof(r->signer), "%.64s", m.fpr);
	r->at = a.at;
	r->clock = a.clock;
	snprintf(r->sha256, sizeof(r->sha256), "%s", a.sha256);
	r->cond = (int)a.cond;
	return 0;
}

void game_record_annot(const struct store_ply_record *r,
		       struct record2_annot *a)
{
	size_t n = strlen(r->signer);

	memset(a, 0, sizeof(*a));
	a->fields = r->fields;
	if (n >= RECORD2_KEY_SHORT)
		snprintf(a->key, sizeof(a->key), "%s",
			 r->signer + n - RECORD2_KEY_SHORT);
	a->at = r->at;
	a->clock = r->clock;
	snprintf(a->sha256, sizeof(a->sha256), "%s", r->sha256);
	a->cond = r->cond < 0 ? 0 : (size_t)r->cond;
}

int game_record_plies(struct store *st, const struct store_game *row,
		      const struct core_variant *v,
		      const struct store_move *moves, size_t n,
		      struct store_ply_record **lines_r, const char **error_r)
{
	struct store_move *own = NULL;
	struct store_ply_record *have = NULL, *lines;
	struct store_cond_ply *conds = NULL;
	int64_t *clocks = NULL;
	size_t nhave = 0, j = 0, nconds = 0;
	bool clocked = false, missing = false;
	int ret = -1;

	if (lines_r != NULL)
		*lines_r = NULL;
	if (moves == NULL) {
		if (store_game_move_records(st, row->id, &own, &n,
					    error_r) < 0)
			return -1;
		moves = own;
	}
	lines = xzalloc((n + 1) * sizeof(*lines));
	if (store_ply_records(st, row->id, &have, &nhave, error_r) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		while (j < nhave && have[j].ply < moves[i].ply)
			j++;
		if (j < nhave && have[j].ply == moves[i].ply)
			lines[i] = have[j];
		else
			missing = true;
	}
	if (missing) {
		clocks = xzalloc((n + 1) * sizeof(*clocks));
		if (grec_clocks(st, row, v, moves, n, clocks, &clocked,
				error_r) < 0)
			goto out;
	}
	if (missing && store_cond_plies(st, row->id, &conds, &nconds,
					error_r) < 0)
		goto out;
	for (size_t i = 0, c = 0; i < n; i++) {
		struct grec_cond gc, *cp = NULL;

		while (c < nconds && conds[c].ply < moves[i].ply)
			c++;
		if (c < nconds && conds[c].ply == moves[i].ply && i > 0) {
			gc.base = conds[c].base_ply;
			gc.at = lines[i - 1].at;
			cp = &gc;
		}
		if (lines[i].ply == 0 &&
		    (grec_ply_line(st, &moves[i], clocked, clocks[i], cp,
				   &lines[i], error_r) < 0 ||
		     store_ply_record_put(st, row->id, &lines[i],
					  error_r) < 0))
			goto out;
	}
	if (lines_r != NULL) {
		*lines_r = lines;
		lines = NULL;
	}
	ret = 0;
out:
	free(conds);
	free(clocks);
	free(have);
	free(lines);
	store_rows_free(&own, n, sizeof(*own), store_move_clear);
	return ret;
}

int game_record_lines(struct handle *h, const struct game *g)
{
	const char *error;

	if (game_record_plies(h->srv->store, g->row, &g->rec.variant, NULL, 0,
			      NULL, &error) < 0)
		return server_store_fail(h, error);
	return 0;
}

/* ---- history GAME ------------------------------------------------------ */

int game_record_text(struct handle *h, const struct game *g, bool notes,
		     char **text_r)
{
	struct grec b;
	struct record2 rec;
	struct store_ply_record *lines = NULL;
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
				    &b.nmoves, &error) < 0 ||
	    game_record_plies(h->srv->store, g->row, &g->rec.variant, b.moves,
			      b.nmoves, &lines, &error) < 0) {
		server_store_fail(h, error);
		goto out;
	}
	/* Comments at most after the plies the record holds. */
	b.cs.plies = b.nmoves < n ? b.nmoves : n;
	if (grec_keys(&b, lines) < 0 || grec_tags(&b, &rec) < 0 ||
	    (notes && grec_notes(&b) < 0) || grec_clock_events(&b) < 0)
		goto out;
	game_record_notes_sort(&b.cs);
	for (size_t i = 0; i <= n; i++) {
		char move[CORE_MOVE_TEXT_MAX];
		struct record2_annot a;

		/* A comment the format cannot hold (a note it refuses) is
		 * left out: the rest of the record still stands. */
		for (; c < b.cs.n && b.cs.v[c].after <= i; c++)
			(void)record2_comment_add(&rec, &b.cs.v[c].c, &e);
		if (i == n)
			break;
		notation_format_move(g->rec.pos.geom, &g->rec.plies[i], move);
		memset(&a, 0, sizeof(a));
		/* The line as written, less what `history` never said: the
		 * clock, and a time for a move that came in no mail. */
		if (i < b.nmoves) {
			game_record_annot(&lines[i], &a);
			a.fields &= ~(unsigned)RECORD2_F_CLOCK;
			if (b.moves[i].player_id != 0 &&
			    b.moves[i].inbound_id == 0)
				a.fields &= ~(unsigned)RECORD2_F_AT;
			else if (b.moves[i].player_id == 0)
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
	game_record_notes_free(&b.cs);
	free(lines);
	store_rows_free(&b.moves, b.nmoves, sizeof(*b.moves),
			store_move_clear);
	record2_free(&rec);
	return ret;
}
