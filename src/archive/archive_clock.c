/* archive_clock.c -- verify's check of a record's clocks: each ply's
 * clock= (written by the service, server/game_record.c) held against
 * the clocks run again from the record alone (server/clock.h): started
 * at the accepting mail, charged at each ply's at=, the seats' clocks
 * exchanged by the swap, the operator's and the vacation bank's time
 * added where the comments say; and a loss on time against them.  It
 * trusts nothing the service wrote but the times it signed for. */
#include "archive/archive_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/notation.h"
#include "core/variant.h"
#include "server/clock.h"

/* The time control ("fischer:72h+12h weekends=off vacation=no"): the
 * first word, and weekends=; vacation= does not change a clock. */
static int clock_text_parse(const char *text, struct clock_control *c_r)
{
	char buf[128], *save = NULL, *word;
	bool first = true;

	snprintf(buf, sizeof(buf), "%s", text);
	for (word = strtok_r(buf, " ", &save); word != NULL;
	     word = strtok_r(NULL, " ", &save), first = false) {
		if (first) {
			if (clock_control_parse(word, c_r, NULL) < 0)
				return -1;
		} else if (strncasecmp(word, "weekends=", 9) == 0 &&
			   clock_weekends_parse(word + 9, &c_r->weekends_off,
						NULL) < 0) {
			return -1;
		}
	}
	return first ? -1 : 0;
}

/* ---- the clocks of a record, checked (verify) ---------------------- */

/* The at= word of an other-kind comment's text; 0 when none reads. */
static int64_t clock_comment_at(const char *text)
{
	const char *p = strstr(text, " at=");
	int64_t t;

	if (p == NULL || record2_time_parse(p + 4, strcspn(p + 4, " "),
					    &t) < 0)
		return 0;
	return t;
}

/* Does the comment's text start with word (followed by a blank)? */
static bool clock_comment_is(const struct record2_comment *c,
			     const char *word)
{
	size_t n = strlen(word);

	return c->kind == RECORD2_COMMENT_OTHER && c->text != NULL &&
	       strncmp(c->text, word, n) == 0 &&
	       (c->text[n] == ' ' || c->text[n] == '\0');
}

/* When the first turn began, as the service takes it: the
 * receipt of the mail that accepted the game (a "mail" comment before
 * ply 1 whose command is accept), else the record's Date. */
static int64_t clock_record_start(const struct record2 *rec)
{
	const char *date = record2_tag_get(rec, "Date");
	int64_t at = 0, t;

	for (size_t i = 0; i < rec->ncomments; i++) {
		const struct record2_comment *c = &rec->comments[i];
		if (c->after == 0 && clock_comment_is(c, "mail") &&
		    strstr(c->text, " accept") != NULL &&
		    (t = clock_comment_at(c->text)) != 0)
			at = t;
	}
	if (at == 0 && date != NULL &&
	    record2_time_parse(date, strlen(date), &t) == 0)
		at = t;
	return at;
}

/* The time the operator and the vacation bank added before ply i + 1,
 * onto the clocks; *flag_r when a flag fell unclaimed since ply i. */
static void clock_record_adds(const struct record2 *rec, size_t i,
			      size_t *next, struct clock_state *s,
			      bool *flag_r)
{
	for (; *next < rec->ncomments &&
	       rec->comments[*next].after <= i; (*next)++) {
		const struct record2_comment *c = &rec->comments[*next];
		const struct record2_annot *a = &c->annot;

		if (c->kind == RECORD2_COMMENT_CLOCK &&
		    (a->fields & RECORD2_F_SECONDS) &&
		    (a->fields & RECORD2_F_SIDE))
			(void)clock_add_time(s, a->side, a->seconds, NULL);
		else if (c->kind == RECORD2_COMMENT_VACATION &&
			 (a->fields & RECORD2_F_DAYS) &&
			 (a->fields & RECORD2_F_SIDE))
			(void)clock_add_time(s, a->side,
					     a->days * CLOCK_DAY, NULL);
		else if (c->after == i && clock_comment_is(c, "clock-flag"))
			*flag_r = true;
	}
}

/* Why the record's clocks can only be bounded, or NULL: what it does
 * not carry (the players' zones, their vacations' dates). */
static const char *clock_record_unsure(const struct record2 *rec,
				       const struct clock_control *c)
{
	if (c->weekends_off)
		return "weekends=off, and the record does not carry the "
		       "players' time zones";
	for (size_t i = 0; i < rec->ncomments; i++) {
		const struct record2_comment *k = &rec->comments[i];
		if (k->kind == RECORD2_COMMENT_OTHER && k->text != NULL &&
		    strncmp(k->text, "clock-vacation", 14) == 0)
			return "a vacation was taken, and the record does "
			       "not carry its dates";
	}
	return NULL;
}

/* One ply that is no forced pass: the adds, the deadline, the charge,
 * and clock= against what the times give.  0, or 1 with *f_r. */
static int clock_record_ply(const struct record2 *rec, size_t i,
			    struct clock_state *s, size_t *next,
			    const char *unsure, FILE *out,
			    struct archive_clock_fault *f_r)
{
	const struct record2_annot *a = &rec->plies[i].annot;
	enum core_color mover = s->to_move;
	struct clock_state most;
	bool flag = false;
	int64_t deadline, lo, hi;

	clock_record_adds(rec, i, next, s, &flag);
	deadline = clock_deadline(s);
	if (!unsure && !flag && (a->fields & RECORD2_F_AT) &&
	    a->at >= deadline) {
		f_r->reason = ARCHIVE_LATE_MOVE;
		f_r->ply = i + 1;
		f_r->deadline = deadline;
		return 1;
	}
	/* The most it can have: nothing charged (weekends, vacations). */
	most = *s;
	(void)clock_charge(&most, most.turn_started, NULL);
	if (clock_charge(s, a->at, NULL) < 0) {
		/* A flag that fell and was not claimed: the move counted
		 * with nothing left (game_clock.c). */
		s->player[mover].remaining = clock_elapsed(s, a->at) + 1;
		(void)clock_charge(s, a->at, NULL);
	}
	lo = s->player[mover].remaining;
	hi = unsure ? most.player[mover].remaining : lo;
	if (!(a->fields & RECORD2_F_CLOCK))
		return 0;
	if (a->clock < lo || a->clock > hi) {
		f_r->reason = ARCHIVE_CLOCK_MISMATCH;
		f_r->ply = i + 1;
		f_r->recorded = a->clock;
		f_r->lo = lo;
		f_r->hi = hi;
		return 1;
	}
	if (unsure)
		fprintf(out, "clock ply %zu: %" PRId64 "s left, within %"
			PRId64 "..%" PRId64 "s the times allow\n", i + 1,
			a->clock, lo, hi);
	else
		fprintf(out, "clock ply %zu: %" PRId64 "s left, as the times "
			"give%s\n", i + 1, a->clock,
			flag ? " (the flag had fallen, unclaimed)" : "");
	/* What the record says from here, within what the times allow. */
	s->player[mover].remaining = a->clock;
	return 0;
}

/* When the record says the flag fell: the earlier of the last
 * "clock-flag" comment's at= after the last ply and EndDate (the game
 * cannot have ended before it); 0 when neither reads.  *side_r: the
 * side= that comment names, or -1. */
static int64_t clock_record_fell(const struct record2 *rec, int *side_r)
{
	const char *end = record2_tag_get(rec, "EndDate");
	int64_t at = 0, t;

	*side_r = -1;
	for (size_t i = 0; i < rec->ncomments; i++) {
		const struct record2_comment *c = &rec->comments[i];
		const char *p;

		if (c->after != rec->nplies ||
		    !clock_comment_is(c, "clock-flag") ||
		    (t = clock_comment_at(c->text)) == 0)
			continue;
		at = t;
		p = strstr(c->text, " side=");
		*side_r = p == NULL ? -1 :
			  strncmp(p + 6, "white", 5) == 0 ? CORE_WHITE :
			  strncmp(p + 6, "black", 5) == 0 ? CORE_BLACK : -1;
	}
	if (end != NULL && record2_time_parse(end, strlen(end), &t) == 0 &&
	    (at == 0 || t < at))
		at = t;
	return at;
}

static const char *clock_color(int side)
{
	return side == CORE_WHITE ? "White" : "Black";
}

/* Termination: time, held against the clocks after the last ply (s, the
 * comments from *next on still to add): the loser is the player to
 * move, and their flag was due by when the record says it fell.  0, or
 * 1 with *f_r. */
static int clock_record_timeout(const struct record2 *rec,
				struct clock_state *s, size_t *next,
				const char *unsure, FILE *out,
				struct archive_clock_fault *f_r)
{
	enum record2_result result;
	enum record2_termination term;
	enum record2_error e;
	char t1[RECORD2_TIME_LEN + 1], t2[RECORD2_TIME_LEN + 1];
	int loser, named;
	bool flag = false;
	int64_t fell, deadline;

	if (record2_outcome(rec, &result, &term, &e) < 0 ||
	    term != RECORD2_TERM_TIME)
		return 0;
	loser = result == RECORD2_RESULT_WHITE ? CORE_BLACK : CORE_WHITE;
	clock_record_adds(rec, rec->nplies, next, s, &flag);
	deadline = clock_deadline(s);
	fell = clock_record_fell(rec, &named);
	f_r->reason = ARCHIVE_RESULT_MISMATCH;
	f_r->deadline = deadline;
	if (loser != (int)s->to_move) {
		snprintf(f_r->detail, sizeof(f_r->detail), "the record says "
			 "%s lost on time, and %s was to move after ply %zu",
			 clock_color(loser), clock_color(s->to_move),
			 rec->nplies);
		return 1;
	}
	if (named >= 0 && named != loser) {
		snprintf(f_r->detail, sizeof(f_r->detail), "the record says "
			 "%s lost on time, and its clock-flag comment names "
			 "%s", clock_color(loser), clock_color(named));
		return 1;
	}
	if (fell == 0) {
		snprintf(f_r->detail, sizeof(f_r->detail), "the record says "
			 "%s lost on time, and not when: no clock-flag "
			 "comment, no EndDate", clock_color(loser));
		return 1;
	}
	if (fell < deadline) {
		snprintf(f_r->detail, sizeof(f_r->detail), "the record says "
			 "%s lost on time by %s, and the clocks let the flag "
			 "fall only at %s", clock_color(loser),
			 record2_time_format(fell, t1),
			 record2_time_format(deadline, t2));
		return 1;
	}
	f_r->reason = ARCHIVE_OK;
	fprintf(out, "loss on time: %s, to move after ply %zu, ran out %s%s; "
		"the record says the flag fell by %s: %s\n",
		clock_color(loser), rec->nplies, unsure ? "at the earliest " :
		"at ", record2_time_format(deadline, t1),
		record2_time_format(fell, t2), unsure ?
		"the clocks allow it, as bounds only" :
		"it follows from the clocks");
	return 0;
}

int archive_clock_check(const struct record2 *rec, FILE *out,
			struct archive_clock_fault *f_r)
{
	const char *tc = record2_tag_get(rec, "TimeControl");
	const char *vt = record2_tag_get(rec, "Variant");
	const char *unsure;
	struct clock_control c;
	struct clock_state s;
	struct core_variant var;
	struct core_record core;
	enum core_error err;
	enum record2_result result;
	enum record2_termination term;
	enum record2_error e;
	size_t next = 0, n = 0;
	bool timed;
	int ret = 0;

	memset(f_r, 0, sizeof(*f_r));
	timed = record2_outcome(rec, &result, &term, &e) == 0 &&
		term == RECORD2_TERM_TIME;
	for (size_t i = 0; i < rec->nplies; i++)
		if (rec->plies[i].annot.fields & RECORD2_F_CLOCK)
			n++;
	if (tc == NULL || clock_text_parse(tc, &c) < 0 ||
	    c.kind == CLOCK_KIND_NONE || clock_init(&s, &c, NULL) < 0) {
		if (timed) {
			f_r->reason = ARCHIVE_RESULT_MISMATCH;
			snprintf(f_r->detail, sizeof(f_r->detail), "the "
				 "record says a loss on time, and has no "
				 "time control");
			return 1;
		}
		fprintf(out, "clocks: not checked, the record has no time "
			"control%s\n", n > 0 ? " (and clock= annotations)" :
			"");
		return 0;
	}
	if (n == 0 && !timed) {
		fprintf(out, "clocks: not checked, no ply has a clock=\n");
		return 0;
	}
	core_variant_default(&var);
	if (vt == NULL || core_variant_parse(&var, vt, &err) < 0 ||
	    record_init(&core, &var, &err) < 0)
		return 0; /* the replay before said so */
	unsure = clock_record_unsure(rec, &c);
	/* Unsure, the clocks are charged every second: what was not
	 * (weekends in a zone, a vacation) only leaves more. */
	s.control.weekends_off = false;
	(void)clock_start(&s, CORE_WHITE, clock_record_start(rec), NULL);
	for (size_t i = 0; i < rec->nplies && ret == 0; i++) {
		const char *move = rec->plies[i].move;
		struct core_move mv;

		if (i < core.nplies) {
			/* A forced pass: the passer's clock stands. */
			const struct record2_annot *a = &rec->plies[i].annot;
			int64_t left = s.player[!s.to_move].remaining;
			if ((a->fields & RECORD2_F_CLOCK) && !unsure &&
			    a->clock != left) {
				f_r->reason = ARCHIVE_CLOCK_MISMATCH;
				f_r->ply = i + 1;
				f_r->recorded = a->clock;
				f_r->lo = f_r->hi = left;
				ret = 1;
			}
			continue;
		}
		if ((ret = clock_record_ply(rec, i, &s, &next, unsure, out,
					    f_r)) != 0)
			break;
		if (notation_parse_move(&core.pos, move, strlen(move), &mv,
					&err) < 0 ||
		    record_play(&core, &mv, &err) < 0)
			break; /* the replay before said so */
		if (strcmp(move, "swap") == 0) {
			struct clock_player t = s.player[CORE_WHITE];
			s.player[CORE_WHITE] = s.player[CORE_BLACK];
			s.player[CORE_BLACK] = t;
		}
		s.to_move = core.pos.to_move;
	}
	record_free(&core);
	if (ret == 0 && n == 0)
		fprintf(out, "clocks: not checked, no ply has a clock=\n");
	else if (ret == 0)
		fprintf(out, "clocks: %zu clock= checked against %s%s%s\n", n,
			tc, unsure ? ", as bounds only: " : ", exactly",
			unsure ? unsure : "");
	if (ret == 0 && timed)
		ret = clock_record_timeout(rec, &s, &next, unsure, out, f_r);
	return ret;
}
