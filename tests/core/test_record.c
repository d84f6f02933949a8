/* test_record.c -- the move notation, variant options, the text game
 * record (format, parse, replay, errors with their line) and the position
 * key.
 */
#include "core-test.h"
#include "core/record.h"
#include "../check_run.h"

/* ---- Notation ---- */

static struct core_move parse_ok(const struct core_position *p,
				 const char *text)
{
	struct core_move m;
	enum core_error err = CORE_OK;

	ck_assert_msg(notation_parse_move(p, text, strlen(text), &m, &err) == 0,
		      "%s: %s", text, core_error_name(err));
	return m;
}

static void parse_fails(const struct core_position *p, const char *text,
			enum core_error want)
{
	struct core_move m;
	enum core_error err = CORE_OK;

	ck_assert_msg(notation_parse_move(p, text, strlen(text), &m, &err) == -1,
		      "%s parsed", text);
	ck_assert_msg(err == want, "%s: %s", text, core_error_name(err));
}

static void canonical(const struct core_position *p, const char *text,
		      const char *want)
{
	struct core_move m = parse_ok(p, text);
	char buf[CORE_MOVE_TEXT_MAX];

	ck_assert_str_eq(notation_format_move(p->geom, &m, buf), want);
}

START_TEST(t_notation_forms)
{
	struct core_position p;

	setup_pos(&p, 5, "d4=W5 b2=B2 c3=W1", 0, 0, CORE_WHITE);
	canonical(&p, "e5-a1", "e5-a1");
	canonical(&p, "E5A1", "e5-a1");
	canonical(&p, "e5xa1", "e5-a1"); /* x only when T holds a stack */
	canonical(&p, "d4-b2", "d4xb2");
	canonical(&p, "D4B2", "d4xb2");
	canonical(&p, "d4Xb2/3", "d4xb2/3");
	canonical(&p, "d4-e5/2", "d4-e5/2");
	canonical(&p, "d4e5/02", "d4-e5/2");
	canonical(&p, "swap", "swap");
	canonical(&p, "Pass", "pass");
	ck_assert_int_eq(parse_ok(&p, "e5-a1").kind, CORE_MOVE_GROWTH);
	ck_assert_int_eq(parse_ok(&p, "d4-a1").kind, CORE_MOVE_WHOLE);
	ck_assert_int_eq(parse_ok(&p, "d4-a1/2").kind, CORE_MOVE_SPLIT);
	ck_assert_int_eq(parse_ok(&p, "d4-a1/2").part, 2);
	ck_assert_int_eq(parse_ok(&p, "SWAP").kind, CORE_MOVE_SWAP);
	ck_assert_int_eq(parse_ok(&p, "pass").kind, CORE_MOVE_PASS);
	ck_assert(parse_ok(&p, "c3xb2").capture);
	ck_assert(!parse_ok(&p, "c3-a1").capture);
	/* Large boards: two-digit rows. */
	setup_pos(&p, 13, "", 0, 0, CORE_WHITE);
	canonical(&p, "M13-M25", "m13-m25");
	canonical(&p, "a1a13", "a1-a13");
}
END_TEST

START_TEST(t_notation_errors)
{
	struct core_position p;
	const char *syntax[] = {
		"", "e5", "e5-", "-e5", "e5--a1", "e5-a1/", "e5-a1/x",
		"e5-a1/-2", "e5-a1/2/3", " e5-a1", "e5-a1 ", "e5 a1", "5e-a1",
		"swapx", "passe", "e5+a1", "e5-a1x", "ee5-a1", "e5_a1",
	};

	setup_pos(&p, 5, "d4=W5", 0, 0, CORE_WHITE);
	for (size_t i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++)
		parse_fails(&p, syntax[i], CORE_ERR_SYNTAX);
	parse_fails(&p, "z1-e5", CORE_ERR_UNKNOWN_CELL);
	parse_fails(&p, "e5-a9", CORE_ERR_UNKNOWN_CELL);
	parse_fails(&p, "e5-e10", CORE_ERR_UNKNOWN_CELL);
	parse_fails(&p, "e0-e5", CORE_ERR_UNKNOWN_CELL);
	parse_fails(&p, "e5-a1/2", CORE_ERR_PART_OF_EMPTY);
	/* A NUL inside the length is not part of a move. */
	struct core_move m;
	enum core_error err;
	ck_assert_int_eq(notation_parse_move(&p, "e5-a1\0", 6, &m, &err), -1);
}
END_TEST

START_TEST(t_variant_options)
{
	struct core_variant v;
	enum core_error err = CORE_OK;
	char buf[64];

	core_variant_default(&v);
	ck_assert_str_eq(notation_format_variant(&v, buf, sizeof(buf)),
			 "size=5 tax=removed");
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=7", &err), 0);
	ck_assert_int_eq(notation_parse_variant_option(&v, "swap", &err), 0);
	ck_assert_int_eq(notation_parse_variant_option(&v, "tax=lost", &err), 0);
	ck_assert_str_eq(notation_format_variant(&v, buf, sizeof(buf)),
			 "size=7 tax=lost swap");
	ck_assert_int_eq(notation_parse_variant_option(&v, "tax=removed", &err), 0);
	ck_assert_int_eq(v.tax_rule, CORE_TAX_REMOVED);
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=14", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=2", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=", &err), -1);
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=5x", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(notation_parse_variant_option(&v, "tax=gone", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(notation_parse_variant_option(&v, "colour", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(v.size, 7); /* unchanged by the failures */
}
END_TEST

/* ---- Records ---- */

static char *format_alloc(const struct core_record *rec)
{
	size_t n = record_format(rec, NULL, 0);
	char *buf = ck_alloc(n + 1);

	ck_wrote(buf, record_format(rec, buf, n + 1), n);
	return buf;
}

static void roundtrip(const struct core_record *rec)
{
	struct core_record back;
	struct record_fault_info fault;
	char *text = format_alloc(rec), *again;

	ck_assert_msg(record_parse_detail(&back, text, strlen(text),
					  &fault) == 0,
		      "line %d: %s (%s)\n%s", fault.line,
		      record_fault_name(fault.fault), core_error_name(fault.err),
		      text);
	again = format_alloc(&back);
	ck_assert_str_eq(again, text);
	ck_assert_uint_eq(back.nplies, rec->nplies);
	for (size_t i = 0; i < rec->nplies; i++) {
		const struct core_move *a = &back.plies[i], *b = &rec->plies[i];
		ck_assert(a->kind == b->kind && a->capture == b->capture &&
			  a->from == b->from && a->to == b->to &&
			  a->part == b->part);
	}
	ck_assert_uint_eq(back.pos.key, rec->pos.key);
	ck_assert_int_eq(back.pos.result, rec->pos.result);
	ck_assert_int_eq(back.pos.end_reason, rec->pos.end_reason);
	free(text);
	free(again);
	record_free(&back);
}

static void rec_play(struct core_record *rec, const char *text)
{
	enum core_error err = CORE_OK;

	ck_assert_msg(record_play_text(rec, text, strlen(text), NULL, &err) == 0,
		      "%s: %s", text, core_error_name(err));
}

START_TEST(t_record_format)
{
	struct core_variant v;
	struct core_record rec;
	enum core_error err;
	char *text;

	core_variant_default(&v);
	v.swap = true;
	ck_assert_int_eq(record_init(&rec, &v, &err), 0);
	rec_play(&rec, "E5-A1");
	rec_play(&rec, "swap");
	rec_play(&rec, "e5-i9");
	rec_play(&rec, "a1xi9");
	text = format_alloc(&rec);
	ck_assert_str_eq(text,
		V1_SWAP_GAME "result: ongoing\n");
	free(text);
	roundtrip(&rec);
	ck_assert_int_eq(record_end(&rec, CORE_END_RESIGNATION, CORE_BLACK, &err), 0);
	text = format_alloc(&rec);
	ck_assert_ptr_nonnull(strstr(text, "4. a1xi9\nresult: white (resignation)\n"));
	free(text);
	roundtrip(&rec);
	/* snprintf-like: a short buffer gets a NUL-terminated prefix. */
	char small[10];
	ck_assert_uint_gt(record_format(&rec, small, sizeof(small)), 10);
	ck_assert_str_eq(small, "ashes-rec");
	record_free(&rec);
	ck_assert_ptr_null(rec.plies);
}
END_TEST

START_TEST(t_record_forced_pass)
{
	struct core_record rec;
	struct core_variant v;
	enum core_error err;
	int pending = 0;

	core_variant_default(&v);
	v.size = 3;
	ck_assert_int_eq(record_init(&rec, &v, &err), 0);
	/* The walled-in black stack of test_rules' t_forced_pass. */
	setup_pos(&rec.pos, 3, "a1=B1 b1=W2 a2=W2 b2=W1 c3=W1", 0, 5, CORE_WHITE);
	rec.pos.ply = 0;
	core_position_refresh(&rec.pos);
	ck_assert_int_eq(record_play_text(&rec, "c3-d3", 5, &pending, &err), 0);
	ck_assert_int_eq(pending, 1);
	ck_assert_uint_eq(rec.nplies, 2);
	ck_assert_int_eq(rec.plies[1].kind, CORE_MOVE_PASS);
	/* The player may mention the forced pass, once. */
	ck_assert_int_eq(record_play_text(&rec, "pass", 4, &pending, &err), 0);
	ck_assert_int_eq(pending, 0);
	ck_assert_int_eq(record_play_text(&rec, "pass", 4, &pending, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_PASS_NOT_FORCED);
	ck_assert_uint_eq(rec.nplies, 2);
	record_free(&rec);
}
END_TEST

/* `text` is refused on want_line with err `want` and `fault`; returns
 * what record_parse_detail() says, for the facts behind the fault.  The
 * words for people are pinned in tests/cli/test_cli.sh. */
static struct record_fault_info parse_error(const char *text,
					    enum core_error want,
					    int want_line,
					    enum record_fault fault)
{
	struct core_record rec;
	struct record_fault_info f;
	enum core_error err = CORE_OK;
	int line = 0;

	ck_assert_msg(record_parse_detail(&rec, text, strlen(text), &f) == -1,
		      "accepted:\n%s", text);
	ck_assert_msg(f.err == want, "%s: got %s", text, core_error_name(f.err));
	ck_assert_msg(f.fault == fault, "%s: got %s", text,
		      record_fault_name(f.fault));
	ck_assert_int_eq(f.line, want_line);
	ck_assert_ptr_null(rec.plies);
	/* The plain form agrees. */
	ck_assert_int_eq(record_parse(&rec, text, strlen(text), &line, &err), -1);
	ck_assert_int_eq(line, want_line);
	ck_assert_int_eq(err, want);
	return f;
}

/* The words at fault, as a string. */
static const char *fault_text(const struct record_fault_info *f)
{
	static char buf[256];

	ck_assert_ptr_nonnull(f->text);
	ck_assert_uint_lt(f->text_len, sizeof(buf));
	memcpy(buf, f->text, f->text_len);
	buf[f->text_len] = '\0';
	return buf;
}

/* The lines every refused body below follows. */
#define V1_HEAD "ashes-record 1\nvariant: size=5 tax=removed\n"

START_TEST(t_record_errors)
{
	struct record_fault_info f;

	f = parse_error("", CORE_ERR_RECORD, 0, RECORD_FAULT_EMPTY);
	ck_assert_ptr_null(f.text);
	ck_assert_ptr_null(f.geom);
	parse_error("# nothing\n\n", CORE_ERR_RECORD, 2, RECORD_FAULT_EMPTY);
	parse_error("ashes-record 2\n", CORE_ERR_RECORD, 1, RECORD_FAULT_MAGIC);
	parse_error("ashes-record 1\n1. e5-a1\n", CORE_ERR_RECORD, 2,
		    RECORD_FAULT_VARIANT_LINE);
	f = parse_error("ashes-record 1\nvariant: size=14\n", CORE_ERR_BAD_SIZE,
			2, RECORD_FAULT_OPTION);
	ck_assert_str_eq(fault_text(&f), "size=14");
	f = parse_error("ashes-record 1\nvariant: swap colour=red\n",
			CORE_ERR_BAD_VARIANT, 2, RECORD_FAULT_OPTION);
	ck_assert_str_eq(fault_text(&f), "colour=red");
	f = parse_error("ashes-record 1\nvariant: abcdefghijklmnopqrstuvwxyz0123456789 x\n",
			CORE_ERR_BAD_VARIANT, 2, RECORD_FAULT_OPTION_TOO_LONG);
	ck_assert_str_eq(fault_text(&f), "abcdefghijklmnopqrstuvwxyz0123456789");
	parse_error("ashes-record 1\n", CORE_ERR_RECORD, 1,
		    RECORD_FAULT_NO_VARIANT);
	/* A NUL inside the length (parse_error() would stop at it). */
	static const char nul[] = "ashes-record 1\nvariant: size=5\n1. e5\0-a1\n";
	struct core_record rec;
	ck_assert_int_eq(record_parse_detail(&rec, nul, sizeof(nul) - 1, &f), -1);
	ck_assert_int_eq(f.fault, RECORD_FAULT_NUL);
	ck_assert_int_eq(f.err, CORE_ERR_RECORD);
	ck_assert_int_eq(f.line, 3);
	f = parse_error(V1_HEAD "1. e5-a1\n3. e5-i9\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_PLY_MISNUMBERED);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_uint_eq(f.numbered, 3);
	f = parse_error(V1_HEAD "1. e5-a1\n2. e5-a1\n",
		CORE_ERR_TARGET_BIGGER, 4, RECORD_FAULT_PLY_ILLEGAL);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_str_eq(f.move_text, "e5xa1"); /* as the replay read it */
	ck_assert_ptr_nonnull(f.geom);
	ck_assert_int_eq(f.geom->size, 5);
	ck_assert_int_eq(f.check.err, CORE_ERR_TARGET_BIGGER);
	ck_assert_int_eq(f.check.reason, CORE_REASON_GROWTH_ONTO_STACK);
	ck_assert_int_eq(f.check.to_size, 4);
	f = parse_error(V1_HEAD "1. e5-a1\n2. e5-i9\n3. a1-e5/4\n",
		CORE_ERR_PART_WHOLE_STACK, 5, RECORD_FAULT_PLY_ILLEGAL);
	ck_assert_uint_eq(f.ply, 3);
	ck_assert_str_eq(f.move_text, "a1-e5/4");
	ck_assert_int_eq(f.check.reason, CORE_REASON_PART_WHOLE_STACK);
	ck_assert_int_eq(f.check.mover, CORE_WHITE);
	f = parse_error(V1_HEAD "1. e5-a1\n2. z9-a1\n",
		CORE_ERR_UNKNOWN_CELL, 4, RECORD_FAULT_PLY_UNREADABLE);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_str_eq(fault_text(&f), "z9-a1");
	ck_assert_ptr_null(f.geom);
	f = parse_error(V1_HEAD "1. e5-a1\n2. pass\n",
		CORE_ERR_PASS_NOT_FORCED, 4, RECORD_FAULT_PASS_NOT_FORCED);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_str_eq(f.move_text, "pass");
	ck_assert_int_eq(f.check.mover, CORE_BLACK);
	f = parse_error(V1_HEAD "1. e5-a1\n2. swap\n",
		CORE_ERR_SWAP_NOT_ALLOWED, 4, RECORD_FAULT_PLY_ILLEGAL);
	ck_assert_str_eq(f.move_text, "swap");
	ck_assert_int_eq(f.check.reason, CORE_REASON_SWAP_NOT_IN_VARIANT);
	f = parse_error(V1_HEAD "1. e5-a1 (forced)\n",
		CORE_ERR_RECORD, 3, RECORD_FAULT_PLY_FORCED);
	ck_assert_uint_eq(f.ply, 1);
	f = parse_error(V1_HEAD "1. e5-a1\nresult: white (elimination)\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_RESULT_GAME_ON);
	ck_assert_int_eq(f.result, CORE_RESULT_WHITE);
	ck_assert_int_eq(f.end_reason, CORE_END_ELIMINATION);
	ck_assert_uint_eq(f.ply, 0); /* not about a ply */
	parse_error(V1_HEAD "1. e5-a1\nresult: white\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_RESULT_NO_REASON);
	f = parse_error(V1_HEAD "1. e5-a1\nresult: draw (resignation)\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_RESULT_REASON);
	ck_assert_int_eq(f.result, CORE_RESULT_DRAW);
	ck_assert_int_eq(f.end_reason, CORE_END_RESIGNATION);
	f = parse_error(V1_HEAD "1. e5-a1\nresult: maybe\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_RESULT_UNKNOWN);
	ck_assert_str_eq(fault_text(&f), "maybe");
	parse_error(V1_HEAD "1. e5-a1\nresult: ongoing now\n",
		CORE_ERR_RECORD, 4, RECORD_FAULT_RESULT_TRAILING);
	parse_error(V1_HEAD "1. e5-a1\nresult: ongoing\n2. e5-i9\n",
		CORE_ERR_RECORD, 5, RECORD_FAULT_AFTER_RESULT);
	parse_error(V1_HEAD "1. e5-a1\nresult: black (resignation)\n2. e5-i9\n",
		CORE_ERR_RECORD, 5, RECORD_FAULT_AFTER_RESULT);
	f = parse_error(V1_HEAD "e5-a1\n",
		CORE_ERR_RECORD, 3, RECORD_FAULT_PLY_UNNUMBERED);
	ck_assert_uint_eq(f.ply, 1);
	/* The code words name every fault, each its own. */
	for (int k = 0; k < RECORD_FAULT_COUNT; k++) {
		const char *name = record_fault_name((enum record_fault)k);

		ck_assert_str_ne(name, "unknown");
		for (int j = 0; j < k; j++)
			ck_assert_str_ne(name,
					 record_fault_name((enum record_fault)j));
	}
	ck_assert_str_eq(record_fault_name(RECORD_FAULT_PLY_ILLEGAL),
			 "ply_illegal");
	ck_assert_str_eq(record_fault_name(RECORD_FAULT_COUNT), "unknown");
}
END_TEST

START_TEST(t_record_lenient_input)
{
	/* Comments, blank lines, CRLF, any case in moves; canonical out. */
	const char *text =
		"# a game\r\n"
		"ashes-record 1\r\n"
		"\r\n"
		"variant: swap size=4\r\n"
		"1. D4-A1   \r\n"
		"  # black thinks\n"
		"2. SWAP\n"
		"3. d4c3\n";
	struct core_record rec;
	enum core_error err;
	int line;
	char *out;

	ck_assert_int_eq(record_parse(&rec, text, strlen(text), &line, &err), 0);
	out = format_alloc(&rec);
	ck_assert_str_eq(out,
		"ashes-record 1\n"
		"variant: size=4 tax=removed swap\n"
		"1. d4-a1\n"
		"2. swap\n"
		"3. d4-c3\n"
		"result: ongoing\n");
	free(out);
	record_free(&rec);
}
END_TEST

/* A real game with forced passes (from the fuzz seed corpus): it parses,
 * its passes are plies, and leaving one out, moving instead or claiming
 * another result is an error on that line. */
START_TEST(t_record_with_passes)
{
	char text[8192], edited[8192], *p, *out;
	struct core_record rec;
	struct record_fault_info fault;
	enum core_error err;
	size_t len, passes = 0;
	int line;

	len = read_source("fuzz/corpus/record/game-n4-pass", text,
			  sizeof(text));
	ck_assert_int_eq(record_parse(&rec, text, len, &line, &err), 0);
	for (size_t i = 0; i < rec.nplies; i++)
		passes += rec.plies[i].kind == CORE_MOVE_PASS;
	ck_assert_uint_gt(passes, 0);
	out = format_alloc(&rec);
	ck_assert_str_eq(out, text);
	free(out);
	record_free(&rec);
	/* The result line must say how the plies ended the game. */
	p = strstr(text, "result: black (elimination)\n");
	ck_assert_ptr_nonnull(p);
	snprintf(edited, sizeof(edited), "%.*sresult: white (resignation)\n",
		 (int)(p - text), text);
	ck_assert_int_eq(record_parse_detail(&rec, edited, strlen(edited),
					     &fault), -1);
	ck_assert_int_eq(fault.fault, RECORD_FAULT_RESULT_MISMATCH);
	ck_assert_int_eq(fault.result, CORE_RESULT_WHITE);
	ck_assert_int_eq(fault.end_reason, CORE_END_RESIGNATION);
	ck_assert_int_eq(fault.played_result, CORE_RESULT_BLACK);
	ck_assert_int_eq(fault.played_end_reason, CORE_END_ELIMINATION);
	/* Drop the first pass line: the next ply is then misnumbered. */
	p = strstr(text, " pass (forced)\n");
	ck_assert_ptr_nonnull(p);
	while (p > text && p[-1] != '\n')
		p--;
	int want_line = 1;
	for (char *q = text; q < p; q++)
		want_line += *q == '\n';
	char *eol = strchr(p, '\n');
	memmove(p, eol + 1, strlen(eol + 1) + 1);
	ck_assert_int_eq(record_parse(&rec, text, strlen(text), &line, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_RECORD);
	ck_assert_int_eq(line, want_line);
	ck_assert_int_eq(record_parse_detail(&rec, text, strlen(text), &fault),
			 -1);
	ck_assert_int_eq(fault.fault, RECORD_FAULT_PLY_MISNUMBERED);
	ck_assert_uint_eq(fault.numbered, fault.ply + 1);
	size_t pass_ply = fault.ply;
	/* A move where the replay forces the pass. */
	snprintf(edited, sizeof(edited), "%.*s%zu. e5-a1\n%s",
		 (int)(p - text), text, pass_ply, p);
	ck_assert_int_eq(record_parse_detail(&rec, edited, strlen(edited),
					     &fault), -1);
	ck_assert_int_eq(fault.fault, RECORD_FAULT_PLY_NOT_PASS);
	ck_assert_int_eq(fault.line, want_line);
	ck_assert_uint_eq(fault.ply, pass_ply);
	/* A record that stops right before a forced pass lacks it. */
	*p = '\0';
	ck_assert_int_eq(record_parse(&rec, text, strlen(text), &line, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_RECORD);
	ck_assert_int_eq(record_parse_detail(&rec, text, strlen(text), &fault),
			 -1);
	ck_assert_int_eq(fault.fault, RECORD_FAULT_PASS_MISSING);
	ck_assert_uint_eq(fault.ply, pass_ply);
}
END_TEST

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 33;
}

/* Seeded random games in every variant: format, parse back, same text,
 * same plies, same final position; every tenth ends by resignation, agreed
 * draw or time. */
START_TEST(t_record_random_games)
{
	static struct core_move moves[8192];

	rng_state = 42 + (uint64_t)_i;
	for (int game = 0; game < 40; game++) {
		struct core_variant v;
		struct core_record rec;
		enum core_error err;

		core_variant_default(&v);
		v.size = 3 + (int)(rng_next() % 5);
		v.swap = rng_next() % 2;
		v.tax_rule = rng_next() % 3 == 0 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ck_assert_int_eq(record_init(&rec, &v, &err), 0);
		int stop = (int)(rng_next() % 400);
		while (rec.pos.result == CORE_ONGOING && rec.pos.ply < stop) {
			size_t n = core_legal_moves(&rec.pos, moves, 8192);
			ck_assert_uint_gt(n, 0);
			struct core_move m;
			size_t r = rng_next() % n;
			if (r < 8192)
				m = moves[r];
			else
				ck_assert_uint_eq(core_legal_moves_from(&rec.pos, r, &m, 1), n);
			ck_assert_int_eq(record_play(&rec, &m, &err), 0);
		}
		if (rec.pos.result == CORE_ONGOING && game % 10 == 3)
			ck_assert_int_eq(record_end(&rec, CORE_END_RESIGNATION + game % 3,
						    (enum core_color)(game & 1), &err), 0);
		roundtrip(&rec);
		record_free(&rec);
	}
}
END_TEST

/* ---- Position key ---- */

START_TEST(t_key)
{
	struct core_variant v;
	struct core_position a, b, c;
	enum core_error err;

	core_variant_default(&v);
	ck_assert_int_eq(core_position_init(&a, &v, &err), 0);
	b = a;
	ck_assert_uint_eq(a.key, core_position_key(&a));
	/* Two orders, one position: equal keys. */
	play_ok(&a, "e5-a1");
	play_ok(&a, "e5-i9");
	play_ok(&a, "d4-d1");
	play_ok(&b, "d4-d1");
	play_ok(&b, "e5-i9");
	play_ok(&b, "e5-a1");
	ck_assert_int_eq(memcmp(a.stack, b.stack, sizeof(a.stack)), 0);
	ck_assert_uint_eq(a.key, b.key);
	ck_assert_uint_eq(a.key, core_position_key(&a));
	/* Different side to move, tax, owner or size: different keys. */
	c = a;
	c.to_move ^= 1;
	ck_assert_uint_ne(core_position_key(&c), a.key);
	c = a;
	c.tax[CORE_BLACK] = 1;
	ck_assert_uint_ne(core_position_key(&c), a.key);
	c = a;
	c.stack[core_cell_parse(c.geom, "a1", 2)] *= -1;
	ck_assert_uint_ne(core_position_key(&c), a.key);
	c = a;
	c.stack[core_cell_parse(c.geom, "a1", 2)] += 1;
	ck_assert_uint_ne(core_position_key(&c), a.key);
	/* Incremental keys stay right through long random games, and huge
	 * stacks hash like any other size. */
	rng_state = 7;
	for (int game = 0; game < 20; game++) {
		struct core_move moves[4096];
		v.size = 3 + game % 4;
		v.tax_rule = game % 2 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
		ck_assert_int_eq(core_position_init(&a, &v, &err), 0);
		while (a.result == CORE_ONGOING) {
			size_t n = core_legal_moves(&a, moves, 4096);
			size_t r = rng_next() % n;
			struct core_move m;
			if (r < 4096)
				m = moves[r];
			else
				core_legal_moves_from(&a, r, &m, 1);
			core_play_unchecked(&a, &m, NULL);
			if (a.key != core_position_key(&a))
				ck_abort_msg("key drifted at ply %d", a.ply);
		}
	}
	c = a;
	c.stack[0] = 2000000000;
	ck_assert_uint_ne(core_position_key(&c), core_position_key(&a));
}
END_TEST

int main(void)
{
	Suite *s = test_suite("core record", "record", NULL, NULL, 0,
		TESTS(t_notation_forms, t_notation_errors, t_variant_options,
		t_record_format, t_record_forced_pass, t_record_errors,
		t_record_lenient_input, t_record_with_passes, t_key));
	TCase *games = tcase_create("random games");

	tcase_add_loop_test(games, t_record_random_games, 0, 3);
	suite_add_tcase(s, games);
	return test_run(s);
}
