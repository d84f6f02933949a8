/* test_archive_clock.c -- verify's check of a record's clocks
 * (archive_clock_check): each ply's clock= against what its time control
 * and the mails' times give, a move after the flag fell, the operator's
 * added time, what is not checked (no time control, no clock=, weekends
 * off as bounds only), and a loss on time against the clocks and the
 * daemon's clock-flag comment.  No mail stack, no gpg. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive_private.h"
#include "core/notation.h"
#include "core/variant.h"
#include "../check_run.h"

#define T0 ((int64_t)1780000000) /* a Thursday, 20:26 UTC */
#define H ((int64_t)3600)

/* A record of size 4 under tc, started at T0 (its Date), the plies
 * received at at[i] with clock= clock[i] (-1: none); an operator's
 * comment adding add_s seconds to Black after ply 1 when not 0. */
static void clock_record(struct record2 *r, const char *tc,
			 const int64_t *at, const int64_t *clock, size_t n,
			 int64_t add_s)
{
	struct core_variant v;
	struct core_record core;
	enum core_error err;
	enum record2_error e;
	char text[CORE_VARIANT_TEXT_MAX], when[RECORD2_TIME_LEN + 1];

	core_variant_default(&v);
	v.size = 4;
	core_variant_format(&v, CORE_VARIANT_ALL, text, sizeof(text));
	record2_init(r);
	ck_assert_int_eq(record2_tag_set(r, "Variant", text, &e), 0);
	ck_assert_int_eq(record2_tag_set(r, "Date",
					 record2_time_format(T0, when), &e), 0);
	ck_assert_int_eq(record2_tag_set(r, "TimeControl", tc, &e), 0);
	ck_assert_int_eq(record_init(&core, &v, &err), 0);
	for (size_t i = 0; i < n; i++) {
		struct core_move moves[256];
		struct record2_annot a;
		size_t k = 0, count = core_legal_moves(&core.pos, moves, 256);
		char move[CORE_MOVE_TEXT_MAX];

		/* Not the swap: the seats stay as they are. */
		while (k + 1 < count && notation_format_move(core.pos.geom,
				&moves[k], move) != NULL &&
		       strcmp(move, "swap") == 0)
			k++;
		ck_assert_uint_gt(count, k);
		notation_format_move(core.pos.geom, &moves[k], move);
		memset(&a, 0, sizeof(a));
		a.fields = RECORD2_F_AT;
		a.at = at[i];
		if (clock[i] >= 0) {
			a.fields |= RECORD2_F_CLOCK;
			a.clock = clock[i];
		}
		ck_assert_int_eq(record2_ply_add(r, move, &a, &e), 0);
		ck_assert_int_eq(record_play(&core, &moves[k], &err), 0);
		if (i == 0 && add_s != 0) {
			struct record2_comment c;
			memset(&c, 0, sizeof(c));
			c.kind = RECORD2_COMMENT_CLOCK;
			c.annot.fields = RECORD2_F_AT | RECORD2_F_SIDE |
					 RECORD2_F_SECONDS;
			c.annot.at = at[0] + 1;
			c.annot.side = CORE_BLACK;
			c.annot.seconds = add_s;
			ck_assert_int_eq(record2_comment_add(r, &c, &e), 0);
		}
	}
	record_free(&core);
}

/* The fault and the output of the last check. */
static struct archive_clock_fault f;
static char out[2048];

/* archive_clock_check of r, its output into out. */
static int clock_check(const struct record2 *r)
{
	FILE *fp = fmemopen(out, sizeof(out), "w");
	int ret;

	ck_assert_ptr_nonnull(fp);
	ret = archive_clock_check(r, fp, &f);
	fclose(fp);
	return ret;
}

/* The check of clock_record(tc, at, clock, n, add_s). */
static int clock_of(const char *tc, const int64_t *at, const int64_t *clock,
		    size_t n, int64_t add_s)
{
	struct record2 r;
	int ret;

	clock_record(&r, tc, at, clock, n, add_s);
	ret = clock_check(&r);
	record2_free(&r);
	return ret;
}

/* Three plies, at T0 + 10, 30 and 40 h, under 72 h +12 h. */
static const int64_t at3[] = { T0 + 10 * H, T0 + 30 * H, T0 + 40 * H };
/* Two plies, the second when Black's flag has fallen an hour ago. */
static const int64_t at_late[] = { T0 + 10 * H, T0 + 83 * H };

START_TEST(test_clock_right)
{
	/* 72 h, +12 h a move: White 72-10+12, Black 72-20+12,
	 * White 74-10+12. */
	const int64_t clock[] = { 74 * H, 64 * H, 76 * H };

	ck_assert_int_eq(clock_of("fischer:72h+12h", at3, clock, 3, 0), 0);
	ck_assert_ptr_nonnull(strstr(out, "clock ply 2: 230400s left, as "
				     "the times give\n"));
	ck_assert_ptr_nonnull(strstr(out, "clocks: 3 clock= checked "
				     "against fischer:72h+12h, exactly\n"));
}
END_TEST

START_TEST(test_clock_mismatch)
{
	const int64_t clock[] = { 74 * H, 64 * H + 1, 76 * H };

	ck_assert_int_eq(clock_of("fischer:72h+12h", at3, clock, 3, 0), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_CLOCK_MISMATCH);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_int_eq(f.recorded, 64 * H + 1);
	ck_assert_int_eq(f.lo, 64 * H);
	ck_assert_int_eq(f.hi, 64 * H);
	ck_assert_str_eq(archive_reason_name(f.reason), "clock mismatch");
}
END_TEST

START_TEST(test_clock_late)
{
	/* Black's flag falls 72 h after ply 1: a move an hour later. */
	const int64_t clock[] = { 74 * H, 12 * H };

	ck_assert_int_eq(clock_of("fischer:72h+12h", at_late, clock, 2, 0), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_LATE_MOVE);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_int_eq(f.deadline, T0 + 82 * H);
	ck_assert_str_eq(archive_reason_name(f.reason), "late move");
}
END_TEST

START_TEST(test_clock_late_adjusted)
{
	/* The same move, after the operator gave Black 2 h: in time,
	 * 72+2-73+12 left. */
	const int64_t clock[] = { 74 * H, 13 * H };

	ck_assert_int_eq(clock_of("fischer:72h+12h", at_late, clock, 2,
				  2 * H), 0);
}
END_TEST

START_TEST(test_clock_unchecked)
{
	const int64_t at[] = { T0 + 10 * H, T0 + 30 * H };
	const int64_t clock[] = { 74 * H, 64 * H + 5 };
	const int64_t none[] = { -1, -1 };
	const int64_t big[] = { 74 * H, 84 * H + 1 };

	ck_assert_int_eq(clock_of("none", at, none, 2, 0), 0);
	ck_assert_str_eq(out, "clocks: not checked, the record has no time "
			 "control\n");
	ck_assert_int_eq(clock_of("fischer:72h+12h", at, none, 2, 0), 0);
	ck_assert_str_eq(out, "clocks: not checked, no ply has a clock=\n");
	/* Weekends off, the zones unknown: bounds only (Black's turn ends
	 * on a Saturday): a few seconds more than charging every second
	 * gives allowed, more than charging nothing refused. */
	ck_assert_int_eq(clock_of("fischer:72h+12h weekends=off", at, clock,
				  2, 0), 0);
	ck_assert_ptr_nonnull(strstr(out, "as bounds only: weekends=off"));
	ck_assert_int_eq(clock_of("fischer:72h+12h weekends=off", at, big,
				  2, 0), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_CLOCK_MISMATCH);
	ck_assert_int_eq(f.hi, 84 * H);
}
END_TEST

/* The check of the record of test_clock_right's first two plies (White
 * to move, 74 h left from T0 + 30 h: the flag falls at T0 + 104 h) under
 * tc, ended on time with result at end (EndDate; 0: none), with a
 * "clock-flag" comment of flag_at and side after the plies when side is
 * not NULL. */
static int timeout_of(const char *tc, const char *result, int64_t end,
		      int64_t flag_at, const char *side)
{
	const int64_t at[] = { T0 + 10 * H, T0 + 30 * H };
	const int64_t clock[] = { 74 * H, 64 * H }, none[] = { -1, -1 };
	char when[RECORD2_TIME_LEN + 1], text[128];
	struct record2_comment c;
	enum record2_error e;
	struct record2 r;
	int ret;

	/* No time control, no clock= (the format refuses them). */
	clock_record(&r, tc, at, strcmp(tc, "none") == 0 ? none : clock, 2, 0);
	ck_assert_int_eq(record2_tag_set(&r, "Result", result, &e), 0);
	ck_assert_int_eq(record2_tag_set(&r, "Termination", "time", &e), 0);
	if (end != 0)
		ck_assert_int_eq(record2_tag_set(&r, "EndDate",
				 record2_time_format(end, when), &e), 0);
	if (side != NULL) {
		snprintf(text, sizeof(text), "clock-flag at=%s side=%s",
			 record2_time_format(flag_at, when), side);
		memset(&c, 0, sizeof(c));
		c.kind = RECORD2_COMMENT_OTHER;
		c.text = text;
		ck_assert_int_eq(record2_comment_add(&r, &c, &e), 0);
	}
	ret = clock_check(&r);
	record2_free(&r);
	return ret;
}

#define FISCHER "fischer:72h+12h"

START_TEST(test_clock_timeout)
{
	char when[RECORD2_TIME_LEN + 1];
	char line[256];

	/* The game ended an hour after White's flag fell: it follows. */
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", T0 + 105 * H, 0, NULL), 0);
	snprintf(line, sizeof(line), "loss on time: White, to move after ply "
		 "2, ran out at %s; ", record2_time_format(T0 + 104 * H,
							   when));
	ck_assert_ptr_nonnull(strstr(out, line));
	ck_assert_ptr_nonnull(strstr(out, ": it follows from the clocks\n"));
	/* ... and the daemon's own word of when the flag fell agrees. */
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", T0 + 105 * H,
				    T0 + 104 * H, "white"), 0);

	/* Black said to lose on time, White to move. */
	ck_assert_int_eq(timeout_of(FISCHER, "1-0", T0 + 105 * H, 0, NULL), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_RESULT_MISMATCH);
	ck_assert_str_eq(f.detail, "the record says Black lost on time, and "
			 "White was to move after ply 2");

	/* Ended a second before the flag fell. */
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", T0 + 104 * H - 1, 0, NULL),
			 1);
	ck_assert_int_eq(f.reason, ARCHIVE_RESULT_MISMATCH);
	ck_assert_int_eq(f.deadline, T0 + 104 * H);
	ck_assert_ptr_nonnull(strstr(f.detail, "and the clocks let the flag "
				     "fall only at "));

	/* EndDate late enough, the flag comment an hour early; or naming
	 * Black. */
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", T0 + 105 * H,
				    T0 + 103 * H, "white"), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_RESULT_MISMATCH);
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", T0 + 105 * H,
				    T0 + 104 * H, "black"), 1);
	ck_assert_str_eq(f.detail, "the record says White lost on time, and "
			 "its clock-flag comment names Black");

	/* Not saying when, and no clock at all. */
	ck_assert_int_eq(timeout_of(FISCHER, "0-1", 0, 0, NULL), 1);
	ck_assert_int_eq(f.reason, ARCHIVE_RESULT_MISMATCH);
	ck_assert_int_eq(timeout_of("none", "0-1", T0 + 105 * H, 0, NULL), 1);
	ck_assert_str_eq(f.detail, "the record says a loss on time, and has "
			 "no time control");
	ck_assert_str_eq(archive_reason_name(f.reason), "result mismatch");
}
END_TEST

TEST_MAIN("archive_clock", "clock", NULL, NULL, 0,
	  test_clock_right, test_clock_mismatch, test_clock_late,
	  test_clock_late_adjusted, test_clock_unchecked, test_clock_timeout)
