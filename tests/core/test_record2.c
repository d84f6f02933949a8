/* test_record2.c -- the game record, version 2: a full record round
 * trips and replays; version 1 still reads; the replay takes a legal game
 * and refuses an illegal move, a wrong signer and a result the moves do
 * not give; forced passes; the builders; times.  Malformed lines:
 * test_record2_errors.c.
 */
#include "record2-test.h"
#include "../check_run.h"

/* Every tag, every annotation, every kind of comment, forced passes: a
 * real game (fuzz/corpus/record/game-n4-pass) as the service would
 * archive it.  Black wins by elimination at ply 23. */
static const char full_text[] =
	"ashes-record 2\n"
	"Event: ladder main\n"
	"Game: 42\n"
	"Site: ashes.example.org\n"
	"Date: 2026-12-01T09:00:00Z\n"
	"EndDate: 2026-12-12T07:35:56Z\n"
	"White: alice\n"
	"WhiteKey: A1B2C3D4E5F60718293A4B5C6D7E8F9012345678\n"
	"Black: Zoë\n"
	"BlackKey: "
		"9F8E7D6C5B4A39281706F5E4D3C2B1A0"
		"9F8E7D6C5B4A39281706F5E4D3C2B1A0\n"
	"Variant: size=4 tax=removed\n"
	"TimeControl: fischer:72h+12h/96h weekends=off\n"
	"Result: 0-1\n"
	"Termination: elimination\n"
	"Annotator: ashesd 0.9\n"
	"\n"
	"1. f5-g5 {key=6D7E8F9012345678 at=2026-12-01T17:07:01Z "
		"clock=345600 "
		"sha256=fef5395b96091144da70b9ef94315abd5"
		"5612e6c4186c60e627382cb037e84f0}\n"
	"2. d2-d1 {key=1706F5E4D3C2B1A0 at=2026-12-02T04:21:03Z "
		"clock=345600 "
		"sha256=9d8fe67f29ca1eca40b789ebc89f00756"
		"9e0a927fe28288cfd1540f93e8b7542}\n"
	"; message {key=6D7E8F9012345678 at=2026-12-02T04:26:03Z "
		"sha256=289e5175e02c788c2d442cfe81d6be053"
		"3d8c13e253ef763fda45d37accfe4d4} "
		"Good luck, and have fun!\n"
	"; message {key=1706F5E4D3C2B1A0 at=2026-12-02T04:30:03Z "
		"sha256=a78521e49048b6e0d368d3fba417fc20c"
		"7546272dafa78a8a173fcca6c81233b} "
		"Viel Glück — you too.\n"
	"3. d4-e5 {key=6D7E8F9012345678 at=2026-12-02T18:42:06Z "
		"clock=337137 "
		"sha256=6bc2e2fe95a7c004df89e1d9165aec2d0"
		"a2c76b6c7715cb8ff17baa0482420a9}\n"
	"4. c3-c2 {key=1706F5E4D3C2B1A0 at=2026-12-03T00:10:10Z "
		"clock=345600 "
		"sha256=9466703d1fda692d891229c47cb4542ba"
		"f586ce0ddde5364c766820c903e8f41}\n"
	"5. d3-d7 {key=6D7E8F9012345678 at=2026-12-03T08:45:15Z "
		"clock=345600 "
		"sha256=c2dee287355150fcb47eacd788f72fcea"
		"ffbe4971b4c7f658c4c7e5bd09e92e2}\n"
	"6. d4-e4 {key=1706F5E4D3C2B1A0 at=2026-12-03T20:27:21Z "
		"clock=345600 "
		"sha256=7f4924b77d4a08f493180305604f87f40"
		"e99798ea67283c1cfd4037e9c7d1a4b}\n"
	"; undone 7. f6-b3 {key=6D7E8F9012345678 at=2026-12-03T21:27:21Z "
		"clock=300000 "
		"sha256=b00f1f7fbe4a9a984ae4e32b727884cdc"
		"0baf0c8ba9cb422e42f67d359eccd6d}\n"
	"; undo {ply=7 key=1706F5E4D3C2B1A0 at=2026-12-03T23:27:21Z "
		"sha256=7d15c7693179b538009af0d3b32abcc38"
		"600758c8af698996f53ef202726d494} "
		"misclick, granted\n"
	"7. f6-c6 {key=6D7E8F9012345678 at=2026-12-04T14:16:28Z "
		"clock=335453 "
		"sha256=20cc23e1ff5f45589308b18605aba2dfc"
		"b6487e92d19f758b5e2654e56793145}\n"
	"8. f4-f3 {key=1706F5E4D3C2B1A0 at=2026-12-04T20:12:36Z "
		"clock=345600 "
		"sha256=d2459d7c93a89ca78f896371f21c71448"
		"2196f109729974d3997e40f20989563}\n"
	"9. b4-e7 {key=6D7E8F9012345678 at=2026-12-05T04:15:45Z "
		"clock=345600 "
		"sha256=5c95d7eb2e34b8d17c1f8343e485ae692"
		"d3f8ed112049f8744b39ce55a0e8dd3}\n"
	"10. c4-a4 {key=1706F5E4D3C2B1A0 at=2026-12-05T15:25:55Z "
		"clock=345600 "
		"sha256=d5e0d7ae755e17d1e7ad68e7352be29b1"
		"6aca576fc664faae4db93d5e4df0e11}\n"
	"; clock {side=black seconds=+86400 at=2026-12-05T16:25:55Z} mail "
		"server outage\n"
	"11. e5xe4 {key=6D7E8F9012345678 at=2026-12-06T05:43:06Z "
		"clock=337369 "
		"sha256=675232e154f58efedbb5a8d5bef29ef4c"
		"8e749cd60ca9f5cb5f5492d31d643d8}\n"
	"12. d5-f7 {key=1706F5E4D3C2B1A0 at=2026-12-06T11:07:18Z "
		"clock=345600 "
		"sha256=a71f8b6fc10b0714370fb102630554a0d"
		"4214c09a455a7f126fe4318be28bb44}\n"
	"13. d7-d6 {key=6D7E8F9012345678 at=2026-12-06T19:38:31Z "
		"clock=345600 "
		"sha256=87aa9705930dab0729ae02222f359f236"
		"d673f3fe8ab501d872dfb3881cd7455}\n"
	"14. c4-c5 {key=1706F5E4D3C2B1A0 at=2026-12-07T07:16:45Z "
		"clock=345600 "
		"sha256=07fad5426b0ff56babcbba05ee3ccbc23"
		"c16d9047302f4b8ef3fe45f3b8e6f61}\n"
	"; vacation {side=white days=2 at=2026-12-09T07:16:45Z}\n"
	"15. g5-g7 {key=6D7E8F9012345678 at=2026-12-09T22:02:00Z "
		"clock=162885 "
		"sha256=25b3997cfdd0793f037bf3eb7353cc13c"
		"66e217c6efcc8909027f9626b7d1c85}\n"
	"16. d4-d7 {key=1706F5E4D3C2B1A0 at=2026-12-10T03:54:16Z "
		"clock=345600 "
		"sha256=f7c8a9651cc93c281cd5225ca2c3df1f6"
		"4b50567ab0d3f996201bb82d10f7d32}\n"
	"; draw-offer by=black at=2026-12-10T03:54:16Z\n"
	"17. c6-g6 {key=6D7E8F9012345678 at=2026-12-10T12:53:33Z "
		"clock=173728 "
		"sha256=c26fdc6047389d54d26c5c2211145ed5a"
		"3721e303a4d0c11170300ad2a71a039}\n"
	"18. e5-e2 {key=1706F5E4D3C2B1A0 at=2026-12-10T23:59:51Z "
		"clock=345600 "
		"sha256=29c1a0bfdb34f04facdb74c6bf56aaa65"
		"d90542635a7241e60f69a2d47d52fe4}\n"
	"19. pass (forced) {at=2026-12-10T23:59:51Z clock=173728}\n"
	"20. d2-g5 {key=1706F5E4D3C2B1A0 at=2026-12-11T05:20:11Z "
		"clock=345600 "
		"sha256=bd457c4e6d881142eec879c381f54ae04"
		"010efd715a428681300a2e3ffbcb832}\n"
	"21. pass (forced) {at=2026-12-11T05:20:11Z clock=173728}\n"
	"22. f7-e6/1 {key=1706F5E4D3C2B1A0 at=2026-12-11T16:54:33Z "
		"clock=345600 "
		"sha256=cf4d4da7afe50ede27ca94d9b91d22129"
		"d302ad6cf813c8414ad65d5776d5064}\n"
	"23. e7xf7 {key=6D7E8F9012345678 at=2026-12-12T07:35:56Z "
		"clock=164045 "
		"sha256=21e9f03f22fd31f01facf03dabb495881"
		"7285fabfd09e2c839e49e6af5907732}\n"
	"result: 0-1 (elimination)\n";


START_TEST(t_full_roundtrip)
{
	struct record2 rec;
	struct core_record out;
	const struct record2_comment *c;

	roundtrip(full_text, &rec, &out);
	ck_assert_int_eq(rec.version, 2);
	ck_assert_uint_eq(rec.ntags, 14);
	ck_assert_str_eq(rec.tags[0].key, "Event");
	ck_assert_str_eq(rec.tags[13].key, "Annotator"); /* kept, unknown */
	ck_assert_str_eq(record2_tag_get(&rec, "Black"), "Zo\xc3\xab");
	ck_assert_str_eq(record2_tag_get(&rec, "TimeControl"),
			 "fischer:72h+12h/96h weekends=off");
	ck_assert_ptr_null(record2_tag_get(&rec, "Round"));
	ck_assert_int_eq(rec.tags[1].line, 3);
	/* The plies and their annotations. */
	ck_assert_uint_eq(rec.nplies, 23);
	ck_assert_str_eq(rec.plies[0].move, "f5-g5");
	ck_assert_uint_eq(rec.plies[0].annot.fields,
			  RECORD2_F_KEY | RECORD2_F_AT | RECORD2_F_CLOCK |
			  RECORD2_F_SHA256);
	ck_assert_str_eq(rec.plies[0].annot.key, KEY_W);
	ck_assert_int_eq(rec.plies[0].annot.at, 1796144821); /* 17:07:01 */
	ck_assert_int_eq(rec.plies[0].annot.clock, 345600);
	ck_assert_str_eq(rec.plies[21].move, "f7-e6/1");
	ck_assert_str_eq(rec.plies[18].move, "pass");
	ck_assert_uint_eq(rec.plies[18].annot.fields,
			  RECORD2_F_AT | RECORD2_F_CLOCK);
	ck_assert_int_eq(rec.plies[18].line, line_of(full_text, "19. pass"));
	/* The comments, where they stand. */
	ck_assert_uint_eq(rec.ncomments, 7);
	c = rec.comments;
	ck_assert_int_eq(c[0].kind, RECORD2_COMMENT_MESSAGE);
	ck_assert_uint_eq(c[0].after, 2);
	ck_assert_str_eq(c[0].text, "Good luck, and have fun!");
	ck_assert_str_eq(c[1].text,
			 "Viel Gl\xc3\xbc" "ck \xe2\x80\x94 you too.");
	ck_assert_int_eq(c[2].kind, RECORD2_COMMENT_UNDONE);
	ck_assert_uint_eq(c[2].after, 6);
	ck_assert_uint_eq(c[2].number, 7);
	ck_assert_str_eq(c[2].undone.move, "f6-b3");
	ck_assert_int_eq(c[2].undone.annot.clock, 300000);
	ck_assert_int_eq(c[3].kind, RECORD2_COMMENT_UNDO);
	ck_assert_uint_eq(c[3].annot.ply, 7);
	ck_assert_str_eq(c[3].annot.key, KEY_B);
	ck_assert_str_eq(c[3].text, "misclick, granted");
	ck_assert_int_eq(c[4].kind, RECORD2_COMMENT_CLOCK);
	ck_assert_uint_eq(c[4].after, 10);
	ck_assert_int_eq(c[4].annot.side, CORE_BLACK);
	ck_assert_int_eq(c[4].annot.seconds, 86400);
	ck_assert_int_eq(c[5].kind, RECORD2_COMMENT_VACATION);
	ck_assert_int_eq(c[5].annot.side, CORE_WHITE);
	ck_assert_int_eq(c[5].annot.days, 2);
	ck_assert_ptr_null(c[5].text);
	ck_assert_int_eq(c[6].kind, RECORD2_COMMENT_OTHER);
	ck_assert_uint_eq(c[6].after, 16);
	ck_assert_str_eq(c[6].text,
			 "draw-offer by=black at=2026-12-10T03:54:16Z");
	ck_assert_int_eq(rec.result_line, line_of(full_text, "result: "));
	/* The replay: comments change nothing, passes are the rules'. */
	ck_assert_uint_eq(out.nplies, 23);
	ck_assert_int_eq(out.plies[18].kind, CORE_MOVE_PASS);
	ck_assert_int_eq(out.pos.result, CORE_RESULT_BLACK);
	ck_assert_int_eq(out.pos.end_reason, CORE_END_ELIMINATION);
	record_free(&out);
	record2_free(&rec);
	ck_assert_ptr_null(rec.tags);
	ck_assert_uint_eq(rec.nplies, 0);
}
END_TEST

/* The example of docs/record-format.md is a record that reads, writes
 * back identical and replays. */
START_TEST(t_docs_example)
{
	char doc[65536], *start, *end;
	struct record2 rec;
	struct core_record out;

	read_source("docs/record-format.md", doc, sizeof(doc));
	start = strstr(doc, "```\nashes-record 2\n");
	ck_assert_ptr_nonnull(start);
	start += 4;
	end = strstr(start, "```");
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	roundtrip(start, &rec, &out);
	ck_assert_uint_gt(rec.ncomments, 4);
	record_free(&out);
	record2_free(&rec);
}
END_TEST

START_TEST(t_crlf_and_small_buffer)
{
	const char *lf = HEAD "1. e5-a1 {at=" AT "}\n" ONGOING;
	char crlf[512], small[10];
	struct record2 rec;
	char *out;
	size_t n = 0;

	for (const char *p = lf; *p; p++) {
		if (*p == '\n')
			crlf[n++] = '\r';
		crlf[n++] = *p;
	}
	crlf[n] = '\0';
	parse_ok(crlf, n, &rec);
	out = format_alloc(&rec);
	ck_assert_str_eq(out, lf);
	free(out);
	/* snprintf-like: a short buffer gets a NUL-terminated prefix. */
	ck_assert_uint_eq(record2_format(&rec, small, sizeof(small)),
			  strlen(lf));
	ck_assert_str_eq(small, "ashes-rec");
	record2_free(&rec);
}
END_TEST

/* ---- Version 1 ---- */

START_TEST(t_version1_reads)
{
	const char *v1 =
		V1_SWAP_GAME "result: white (resignation)\n";
	struct record2 rec, back;
	struct core_record out;
	struct record2_fault f;
	char *text;

	parse_ok(v1, strlen(v1), &rec);
	ck_assert_int_eq(rec.version, 1);
	ck_assert_uint_eq(rec.nplies, 4);
	ck_assert_uint_eq(rec.ncomments, 0);
	for (size_t i = 0; i < rec.nplies; i++)
		ck_assert_uint_eq(rec.plies[i].annot.fields, 0);
	ck_assert_str_eq(rec.plies[1].move, "swap");
	ck_assert_str_eq(rec.plies[3].move, "a1xi9");
	ck_assert_int_eq(record2_replay(&rec, &out, &f), 0);
	ck_assert_int_eq(out.pos.result, CORE_RESULT_WHITE);
	ck_assert_int_eq(out.pos.end_reason, CORE_END_RESIGNATION);
	record_free(&out);
	/* Written as version 2, it reads as one. */
	text = format_alloc(&rec);
	ck_assert_str_eq(text,
		"ashes-record 2\n"
		"Variant: size=5 tax=removed swap\n"
		"Result: 1-0\n"
		"Termination: resignation\n"
		"\n"
		"1. e5-a1\n"
		"2. swap\n"
		"3. e5-i9\n"
		"4. a1xi9\n"
		"result: 1-0 (resignation)\n");
	parse_ok(text, strlen(text), &back);
	ck_assert_int_eq(back.version, 2);
	free(text);
	record2_free(&back);
	record2_free(&rec);
	/* A version 1 text keeps the version 1 reader's words for what is
	 * wrong, and its line. */
	f = parse_fails("ashes-record 1\nvariant: size=5 tax=removed\n"
			"1. e5-a1\n2. e5-a1\n", RECORD2_ERR_VERSION1, 4);
	ck_assert_int_eq(f.v1, RECORD_FAULT_PLY_ILLEGAL);
	ck_assert_int_eq(f.core_err, CORE_ERR_TARGET_BIGGER);
	ck_assert_uint_eq(f.ply, 2);
	parse_fails("# notes\nashes-record 3\n", RECORD2_ERR_MAGIC, 2);
}
END_TEST

/* The v1 record with forced passes: the passes come over as plies
 * without a signer, and the result as a tag. */
START_TEST(t_version1_passes)
{
	char text[8192];
	struct record2 rec;
	struct core_record out;
	struct record2_fault f;
	size_t len;

	len = read_source("fuzz/corpus/record/game-n4-pass", text,
			  sizeof(text));
	parse_ok(text, len, &rec);
	ck_assert_str_eq(record2_tag_get(&rec, "Variant"),
			 "size=4 tax=removed");
	ck_assert_str_eq(record2_tag_get(&rec, "Result"), "0-1");
	ck_assert_str_eq(record2_tag_get(&rec, "Termination"), "elimination");
	ck_assert_str_eq(rec.plies[18].move, "pass");
	ck_assert_str_eq(rec.plies[20].move, "pass");
	ck_assert_int_eq(record2_replay(&rec, &out, &f), 0);
	ck_assert_int_eq(out.pos.result, CORE_RESULT_BLACK);
	record_free(&out);
	record2_free(&rec);
}
END_TEST

/* ---- Replay ---- */

START_TEST(t_replay_legal_and_illegal)
{
	struct record2_fault f;
	struct record2 rec;
	struct core_record out, v1;
	enum core_error err;
	int line;
	char *text;

	/* The full game replays to what the version 1 reader makes of
	 * the same moves. */
	parse_ok(full_text, strlen(full_text), &rec);
	ck_assert_int_eq(record2_replay(&rec, &out, &f), 0);
	{
		char buf[8192];
		size_t len;

		len = read_source("fuzz/corpus/record/game-n4-pass", buf,
				  sizeof(buf));

		ck_assert_int_eq(record_parse(&v1, buf, len, &line, &err), 0);
	}
	ck_assert_uint_eq(out.nplies, v1.nplies);
	ck_assert_uint_eq(out.pos.key, v1.pos.key);
	record_free(&v1);
	record_free(&out);
	record2_free(&rec);
	/* An illegal move is refused, naming its ply and line. */
	text = edit(full_text, "9. b4-e7", "9. b4-e6");
	f = replay_fails(text, RECORD2_ERR_PLY_ILLEGAL,
			 line_of(full_text, "9. b4-e7"));
	ck_assert_uint_eq(f.ply, 9);
	ck_assert_int_ne(f.core_err, CORE_OK);
	free(text);
	f = replay_fails(HEAD "1. e5-a1\n2. e5-a1\n" ONGOING,
			 RECORD2_ERR_PLY_ILLEGAL, 7);
	ck_assert_uint_eq(f.ply, 2);
	ck_assert_int_eq(f.core_err, CORE_ERR_TARGET_BIGGER);
	f = replay_fails(HEAD "1. e5-a1\n2. swap\n" ONGOING,
			 RECORD2_ERR_PLY_ILLEGAL, 7);
	ck_assert_int_eq(f.core_err, CORE_ERR_SWAP_NOT_ALLOWED);
	f = replay_fails(HEAD "1. e5-a1/2\n" ONGOING,
			 RECORD2_ERR_PLY_ILLEGAL, 6);
	ck_assert_int_eq(f.core_err, CORE_ERR_PART_OF_EMPTY);
	/* The canonical text: x exactly onto a stack. */
	f = replay_fails(HEAD "1. e5xa1\n" ONGOING,
			 RECORD2_ERR_NOT_CANONICAL, 6);
	ck_assert_uint_eq(f.ply, 1);
	replay_fails(HEAD "1. e5-a1\n2. e5-i9\n3. a1-i9\n" ONGOING,
		     RECORD2_ERR_NOT_CANONICAL, 8);
	/* A pass where a move is legal. */
	f = replay_fails(HEAD "1. e5-a1\n2. pass (forced)\n" ONGOING,
			 RECORD2_ERR_PASS_NOT_FORCED, 7);
	ck_assert_uint_eq(f.ply, 2);
}
END_TEST

/* full_text with two edits claims a result its moves do not give: refused
 * at the header `tag`. */
static void ck_mismatch(const char *from1, const char *to1, const char *from2,
			const char *to2, const char *tag)
{
	char *a = edit(full_text, from1, to1), *b = edit(a, from2, to2);
	char header[32];
	struct record2_fault f;

	snprintf(header, sizeof(header), "%s: ", tag);
	f = replay_fails(b, RECORD2_ERR_RESULT_MISMATCH,
			 line_of(full_text, header));
	ck_assert_str_eq(f.tag, tag);
	free(a);
	free(b);
}

/* The Result and Termination tags must follow from the moves. */
START_TEST(t_replay_result)
{
	struct record2_fault f;
	struct record2 rec;
	struct core_record out;
	char *a, *b;

	/* Another winner than the moves made. */
	ck_mismatch("Result: 0-1", "Result: 1-0", "result: 0-1", "result: 1-0",
		    "Result");
	/* Another way. */
	ck_mismatch("Termination: elimination", "Termination: resignation",
		    "(elimination)", "(resignation)", "Termination");
	/* Still running, says the game; not so, say the moves. */
	a = edit(full_text, "Result: 0-1", "Result: *");
	b = edit(a, "Termination: elimination", "Termination: ongoing");
	free(a);
	a = edit(b, "result: 0-1 (elimination)", "result: * (ongoing)");
	f = replay_fails(a, RECORD2_ERR_RESULT_MISMATCH,
			 line_of(full_text, "Termination: "));
	ck_assert_str_eq(f.tag, "Termination");
	free(a);
	free(b);
	/* Ended by the moves, says the record of a running game. */
	f = replay_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
			 "Result: 1-0\nTermination: elimination\n\n"
			 "1. e5-a1\nresult: 1-0 (elimination)\n",
			 RECORD2_ERR_GAME_ON, 4);
	ck_assert_str_eq(f.tag, "Termination");
	replay_fails("ashes-record 2\nVariant: size=5 tax=removed\n"
		     "Result: 1/2-1/2\nTermination: double-pass\n\n"
		     "1. e5-a1\nresult: 1/2-1/2 (double-pass)\n",
		     RECORD2_ERR_GAME_ON, 4);
	/* No agreed draw where draws are off. */
	f = replay_fails("ashes-record 2\n"
			 "Variant: size=5 tax=removed draw=no\n"
			 "Result: 1/2-1/2\nTermination: agreement\n\n"
			 "1. e5-a1\nresult: 1/2-1/2 (agreement)\n",
			 RECORD2_ERR_NO_DRAWS, 4);
	/* Resignation, agreement and time end the game in the replay;
	 * a cancelled game stands where it stopped. */
	static const struct {
		const char *tags;
		enum core_result result;
		enum core_end_reason reason;
	} ends[] = {
		{ "Result: 0-1\nTermination: resignation\n",
		  CORE_RESULT_BLACK, CORE_END_RESIGNATION },
		{ "Result: 1-0\nTermination: time\n",
		  CORE_RESULT_WHITE, CORE_END_TIME },
		{ "Result: 1/2-1/2\nTermination: agreement\n",
		  CORE_RESULT_DRAW, CORE_END_AGREED_DRAW },
		{ "Result: *\nTermination: cancelled\n",
		  CORE_ONGOING, CORE_END_NONE },
	};
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		char text[512];
		const char *r = strchr(ends[i].tags, ' ') + 1;
		const char *t = strrchr(ends[i].tags, ' ') + 1;
		snprintf(text, sizeof(text),
			 "ashes-record 2\nVariant: size=5 tax=removed\n%s\n"
			 "1. e5-a1\nresult: %.*s (%.*s)\n", ends[i].tags,
			 (int)(strchr(r, '\n') - r), r,
			 (int)(strchr(t, '\n') - t), t);
		roundtrip(text, &rec, &out);
		ck_assert_int_eq(out.pos.result, ends[i].result);
		ck_assert_int_eq(out.pos.end_reason, ends[i].reason);
		record_free(&out);
		record2_free(&rec);
	}
}
END_TEST

/* With both keys known, each ply is signed by the player who made it;
 * the swap exchanges the players' colours. */
START_TEST(t_replay_signers)
{
	const char *keys =
		"ashes-record 2\n"
		"WhiteKey: A1B2C3D4E5F60718293A4B5C6D7E8F9012345678\n"
		"BlackKey: 9F8E7D6C5B4A39281706F5E4D3C2B1A0"
		"9F8E7D6C5B4A39281706F5E4D3C2B1A0\n"
		"Variant: size=5 tax=removed swap\n"
		"Result: *\nTermination: ongoing\n\n";
	char text[1024], *bad;
	struct record2 rec;
	struct core_record out;
	struct record2_fault f;

	/* The first player (Black after the swap) plays plies 1 and 3. */
	snprintf(text, sizeof(text), "%s"
		 "1. e5-a1 {key=" KEY_B "}\n"
		 "2. swap {key=" KEY_W "}\n"
		 "3. e5-i9 {key=" KEY_B "}\n"
		 "4. a1xi9 {key=" KEY_W "}\n" ONGOING, keys);
	roundtrip(text, &rec, &out);
	record_free(&out);
	record2_free(&rec);
	bad = edit(text, "3. e5-i9 {key=" KEY_B, "3. e5-i9 {key=" KEY_W);
	f = replay_fails(bad, RECORD2_ERR_SIGNER, 10);
	ck_assert_uint_eq(f.ply, 3);
	free(bad);
	bad = edit(text, "1. e5-a1 {key=" KEY_B, "1. e5-a1 {key=" KEY_W);
	f = replay_fails(bad, RECORD2_ERR_SIGNER, 8);
	ck_assert_uint_eq(f.ply, 1);
	free(bad);
	/* A foreign key. */
	bad = edit(text, "4. a1xi9 {key=" KEY_W,
		   "4. a1xi9 {key=0000000000000000");
	replay_fails(bad, RECORD2_ERR_SIGNER, 11);
	free(bad);
	/* The full game, signed alternately without swap. */
	bad = edit(full_text, "5. d3-d7 {key=" KEY_W, "5. d3-d7 {key=" KEY_B);
	f = replay_fails(bad, RECORD2_ERR_SIGNER,
			 line_of(full_text, "5. d3-d7"));
	ck_assert_uint_eq(f.ply, 5);
	free(bad);
}
END_TEST

/* cond=N: a reply from conditional moves, after sha256=, on a ply. */
START_TEST(t_conditional)
{
	char text[1024];
	struct record2 rec;
	struct core_record out;

	snprintf(text, sizeof(text), HEAD
		 "1. e5-a1 {key=" KEY_W " at=" AT " sha256=" SHA "}\n"
		 "2. e5-i9 {key=" KEY_B " at=" AT " sha256=" SHA "}\n"
		 "3. a1-a2 {key=" KEY_W " at=" AT " sha256=" SHA " cond=1}\n"
		 ONGOING);
	roundtrip(text, &rec, &out);
	ck_assert(rec.plies[2].annot.fields & RECORD2_F_COND);
	ck_assert_uint_eq(rec.plies[2].annot.cond, 1);
	ck_assert(!(rec.plies[1].annot.fields & RECORD2_F_COND));
	record_free(&out);
	record2_free(&rec);
	/* It cites the mail: no cond= without sha256=; in field order. */
	parse_fails(HEAD "1. e5-a1 {key=" KEY_W " cond=0}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "1. e5-a1 {cond=0 sha256=" SHA "}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	parse_fails(HEAD "1. e5-a1 {sha256=" SHA " cond=01}\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
	/* Not on a comment. */
	parse_fails(HEAD "; message {at=" AT " cond=1} hi\n" ONGOING,
		    RECORD2_ERR_ANNOTATION, 6);
}
END_TEST

START_TEST(t_forced_passes)
{
	struct record2_fault f;
	char *text, *p;
	int pass_line = line_of(full_text, "19. pass");

	/* A move where the rules force a pass. */
	text = edit(full_text, "19. pass (forced)", "19. e5-a1");
	f = replay_fails(text, RECORD2_ERR_PASS_MISSING, pass_line);
	ck_assert_uint_eq(f.ply, 19);
	free(text);
	/* A forced pass with a signer, put there by hand: the reader
	 * refuses it, and so does the replay of a record built so. */
	text = edit(full_text, "19. pass (forced) {at=",
		    "19. pass (forced) {key=" KEY_W " at=");
	parse_fails(text, RECORD2_ERR_PASS_SIGNED, pass_line);
	free(text);
	{
		struct record2 rec;
		struct core_record out;
		parse_ok(full_text, strlen(full_text), &rec);
		rec.plies[18].annot.fields |= RECORD2_F_KEY;
		strcpy(rec.plies[18].annot.key, KEY_W);
		ck_assert_int_eq(record2_replay(&rec, &out, &f), -1);
		ck_assert_int_eq(f.error, RECORD2_ERR_PASS_SIGNED);
		ck_assert_uint_eq(f.ply, 19);
		ck_assert_ptr_null(out.plies);
		record2_free(&rec);
	}
	/* The record stops right before a forced pass: it lacks it. */
	text = edit(full_text, "Result: 0-1", "Result: *");
	p = edit(text, "Termination: elimination", "Termination: ongoing");
	free(text);
	text = p;
	p = strstr(text, "19. pass");
	strcpy(p, "result: * (ongoing)\n");
	f = replay_fails(text, RECORD2_ERR_PASS_MISSING, pass_line);
	ck_assert_uint_eq(f.ply, 19);
	free(text);
}
END_TEST

/* ---- Builders ---- */

START_TEST(t_build)
{
	struct record2 rec, back;
	struct record2_comment c;
	struct record2_annot a;
	struct core_record out;
	struct record2_fault f;
	enum record2_error e;
	char *text;

	record2_init(&rec);
	ck_assert_int_eq(record2_tag_set(&rec, "Event", "casual", &e), 0);
	ck_assert_int_eq(record2_tag_set(&rec, "Variant",
					 "size=5 tax=removed", &e), 0);
	ck_assert_int_eq(record2_tag_set(&rec, "TimeControl", "days:3", &e),
			 0);
	ck_assert_int_eq(record2_tag_set(&rec, "Result", "*", &e), 0);
	ck_assert_int_eq(record2_tag_set(&rec, "Termination", "ongoing", &e),
			 0);
	memset(&a, 0, sizeof(a));
	a.fields = RECORD2_F_KEY | RECORD2_F_AT | RECORD2_F_CLOCK;
	strcpy(a.key, KEY_W);
	a.at = 1796119200; /* 2026-12-01T10:00:00Z */
	a.clock = 259200;
	ck_assert_int_eq(record2_ply_add(&rec, "e5-a1", &a, &e), 0);
	memset(&c, 0, sizeof(c));
	c.kind = RECORD2_COMMENT_CLOCK;
	c.annot.fields = RECORD2_F_SIDE | RECORD2_F_SECONDS | RECORD2_F_AT;
	c.annot.side = CORE_BLACK;
	c.annot.seconds = -3600;
	c.annot.at = 1796119200;
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), 0);
	ck_assert_int_eq(record2_ply_add(&rec, "e5-i9", NULL, &e), 0);
	/* Setting a tag again keeps its place. */
	ck_assert_int_eq(record2_tag_set(&rec, "Event", "ladder main", &e), 0);
	text = format_alloc(&rec);
	ck_assert_str_eq(text,
		"ashes-record 2\n"
		"Event: ladder main\n"
		"Variant: size=5 tax=removed\n"
		"TimeControl: days:3\n"
		"Result: *\n"
		"Termination: ongoing\n"
		"\n"
		"1. e5-a1 {key=" KEY_W " at=2026-12-01T10:00:00Z "
		"clock=259200}\n"
		"; clock {side=black seconds=-3600 at=2026-12-01T10:00:00Z}\n"
		"2. e5-i9\n"
		"result: * (ongoing)\n");
	roundtrip(text, &back, &out);
	ck_assert_int_eq(back.comments[0].after, 1);
	record_free(&out);
	record2_free(&back);
	free(text);
	/* Refused, and rec unchanged. */
	ck_assert_int_eq(record2_tag_set(&rec, "white", "x", &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_TAG);
	ck_assert_int_eq(record2_tag_set(&rec, "White", "a\nResult: 1-0", &e),
			 -1);
	ck_assert_int_eq(e, RECORD2_ERR_ENCODING);
	ck_assert_int_eq(record2_tag_set(&rec, "WhiteKey", "ABC", &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_FINGERPRINT);
	ck_assert_int_eq(record2_tag_set(&rec, "Date", "yesterday", &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_TIME);
	ck_assert_int_eq(record2_tag_set(&rec, "Result", "1:0", &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_RESULT);
	ck_assert_int_eq(record2_tag_set(&rec, "Variant", "size=99 tax=lost",
					 &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_VARIANT);
	ck_assert_int_eq(record2_ply_add(&rec, "E5-A1", NULL, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_MOVE);
	ck_assert_int_eq(record2_ply_add(&rec, "e5-q1", NULL, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_MOVE);
	ck_assert_int_eq(record2_ply_add(&rec, "pass", &a, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_PASS_SIGNED);
	a.fields = RECORD2_F_SHA256;
	strcpy(a.sha256, "abc");
	ck_assert_int_eq(record2_ply_add(&rec, "d4-d1", &a, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_SHA256);
	a.fields = RECORD2_F_DAYS;
	ck_assert_int_eq(record2_ply_add(&rec, "d4-d1", &a, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_ANNOTATION);
	c.annot.fields = RECORD2_F_SIDE | RECORD2_F_AT;
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_ANNOTATION);
	c.kind = RECORD2_COMMENT_MESSAGE;
	c.annot.fields = RECORD2_F_AT;
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_TEXT); /* a message says something */
	c.text = "hi\n; undo {ply=1 at=2026-12-01T10:00:00Z}";
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_TEXT);
	c.kind = RECORD2_COMMENT_OTHER;
	c.text = "message from another reader";
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_COMMENT); /* a known kind */
	c.kind = RECORD2_COMMENT_UNDONE;
	c.text = NULL;
	c.number = 2; /* ply 2 stands */
	strcpy(c.undone.move, "d4-d1");
	ck_assert_int_eq(record2_comment_add(&rec, &c, &e), -1);
	ck_assert_int_eq(e, RECORD2_ERR_COMMENT);
	ck_assert_uint_eq(rec.nplies, 2);
	ck_assert_uint_eq(rec.ncomments, 1);
	ck_assert_str_eq(record2_tag_get(&rec, "Result"), "*");
	ck_assert_ptr_null(record2_tag_get(&rec, "White"));
	/* Without Result, the replay says which tag is missing. */
	record2_free(&rec);
	ck_assert_int_eq(record2_tag_set(&rec, "Variant",
					 "size=5 tax=removed", &e), 0);
	ck_assert_int_eq(record2_replay(&rec, &out, &f), -1);
	ck_assert_int_eq(f.error, RECORD2_ERR_TAG_MISSING);
	ck_assert_str_eq(f.tag, "Result");
	record2_free(&rec);
}
END_TEST

START_TEST(t_from_core)
{
	struct core_variant v;
	struct core_record core, out;
	struct record2 rec;
	struct record2_fault f;
	enum core_error err;
	enum record2_error e;
	int passes;

	core_variant_default(&v);
	v.draw_offers = false;
	ck_assert_int_eq(record_init(&core, &v, &err), 0);
	ck_assert_int_eq(record_play_text(&core, "e5-a1", 5, &passes, &err), 0);
	ck_assert_int_eq(record_play_text(&core, "e5-i9", 5, &passes, &err), 0);
	ck_assert_int_eq(record_end(&core, CORE_END_TIME, CORE_WHITE, &err), 0);
	ck_assert_int_eq(record2_from_core(&rec, &core, &e), 0);
	ck_assert_str_eq(record2_tag_get(&rec, "Variant"),
			 "size=5 tax=removed draw=no");
	ck_assert_str_eq(record2_tag_get(&rec, "Result"), "0-1");
	ck_assert_str_eq(record2_tag_get(&rec, "Termination"), "time");
	ck_assert_int_eq(record2_replay(&rec, &out, &f), 0);
	ck_assert_uint_eq(out.pos.key, core.pos.key);
	record_free(&out);
	record2_free(&rec);
	record_free(&core);
}
END_TEST

/* ---- Time ---- */

START_TEST(t_time)
{
	char buf[RECORD2_TIME_LEN + 1];
	int64_t t;

	ck_assert_str_eq(record2_time_format(0, buf), "1970-01-01T00:00:00Z");
	ck_assert_str_eq(record2_time_format(951782400, buf),
			 "2000-02-29T00:00:00Z");
	ck_assert_str_eq(record2_time_format(RECORD2_TIME_MAX, buf),
			 "9999-12-31T23:59:59Z");
	ck_assert_int_eq(record2_time_parse("2024-02-29T12:34:56Z", 20, &t), 0);
	ck_assert_int_eq(t, 1709210096);
	ck_assert_int_eq(record2_time_parse("9999-12-31T23:59:59Z", 20, &t), 0);
	ck_assert_int_eq(t, RECORD2_TIME_MAX);
	static const char *const bad[] = {
		"2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-00-10T00:00:00Z", "2026-12-00T00:00:00Z",
		"2026-12-01T10:60:00Z", "2026-12-01T10:00:60Z",
		"2026-12-01t10:00:00Z", "2026-12-01T10:00:00z",
		"1969-12-31T23:59:59Z", "2026-12-01T10:00:00+00:00",
		"2026-12-1T10:00:00Z", "+026-12-01T10:00:00Z",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(record2_time_parse(bad[i], strlen(bad[i]),
						 &t) == -1, "%s", bad[i]);
	/* Every day for 1200 years and back. */
	for (int64_t s = 0; s < RECORD2_TIME_MAX; s += 86400 * 365 + 3671) {
		record2_time_format(s, buf);
		ck_assert_int_eq(record2_time_parse(buf, strlen(buf), &t), 0);
		ck_assert_int_eq(t, s);
	}
}
END_TEST

TEST_MAIN("core record2", "record2", NULL, NULL, 0, t_full_roundtrip,
	  t_docs_example, t_crlf_and_small_buffer, t_version1_reads,
	  t_version1_passes, t_replay_legal_and_illegal, t_replay_result,
	  t_replay_signers, t_conditional, t_forced_passes, t_build,
	  t_from_core, t_time)
