/* test_template_lang.c -- templates by language: the lookup order (the
 * override folder's L/, the default folder's L/, the override folder, the
 * default folder), the fallback to English file by file and partial by
 * partial, the languages a set finds, Content-Language picking, dates in
 * words from calendar.txt, and display columns of UTF-8 text. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/render.h"
#include "render/template.h"
#include "util/width.h"
#include "../check_run.h"
#include "../test_file.h"

static char dir_over[64], dir_def[64];

static void mkdir_in(const char *dir, const char *sub)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void setup(void)
{
	strcpy(dir_over, "/tmp/ashes-lang-over-XXXXXX");
	strcpy(dir_def, "/tmp/ashes-lang-def-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir_over));
	ck_assert_ptr_nonnull(mkdtemp(dir_def));
}

static void teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir_over, dir_def);
	ck_assert_int_eq(system(cmd), 0);
}

/* Render name in language lang of set; assert success; static result. */
static const char *render_in(struct template_set *set, const char *lang,
			     const char *name)
{
	static struct buf out = BUF_INIT;
	struct template_set *ls = template_set_language(set, lang);
	const char *error = NULL;

	ck_assert_msg(ls != NULL, "no language %s", lang);
	buf_reset(&out);
	if (template_render(ls, name, NULL, &out, &error) < 0)
		ck_abort_msg("render %s/%s: %s", lang, name, error);
	return buf_str(&out);
}

/* Four copies of a.txt, one in each place: each is taken while those
 * before it in the order exist, then the next. */
START_TEST(test_lookup_order)
{
	struct template_set *set;
	char path[256];

	mkdir_in(dir_over, "de");
	mkdir_in(dir_def, "de");
	write_file_in(dir_over, "de", "a.txt", "over-de\n");
	write_file_in(dir_def, "de", "a.txt", "def-de\n");
	write_file_in(dir_over, NULL, "a.txt", "over-en\n");
	write_file_in(dir_def, NULL, "a.txt", "def-en\n");
	for (int step = 0; step < 4; step++) {
		static const char *const want[] = { "over-de\n", "def-de\n",
						    "over-en\n", "def-en\n" };
		static const char *const place[] = { "over/de", "def/de",
						     "over", "def" };

		set = template_set_new(dir_over, dir_def);
		ck_assert_msg(strcmp(render_in(set, "de", "a.txt"),
				     want[step]) == 0, "step %d: %s", step,
			      render_in(set, "de", "a.txt"));
		/* English never reads a language's folder. */
		ck_assert_str_eq(render_in(set, "en", "a.txt"),
				 step < 3 ? "over-en\n" : "def-en\n");
		template_set_free(&set);
		snprintf(path, sizeof(path), "%s/%s/a.txt",
			 strncmp(place[step], "over", 4) == 0 ? dir_over :
			 dir_def, place[step] + (place[step][0] == 'o' ? 4 : 3));
		ck_assert_int_eq(remove(path), 0);
	}
}
END_TEST

/* A file a language lacks is the English one; its partials are looked
 * up in the language again, so a German file's {{>x}} finds the German
 * x, and an English file's {{>x}} too. */
START_TEST(test_fallback_file_by_file)
{
	struct template_set *set;
	const char *error = NULL;
	struct buf out = BUF_INIT;

	mkdir_in(dir_def, "de");
	write_file_in(dir_def, NULL, "main.txt", "EN main [{{>part.txt}}]\n");
	write_file_in(dir_def, NULL, "part.txt", "EN part");
	write_file_in(dir_def, NULL, "other.txt", "EN other [{{>part.txt}}]\n");
	write_file_in(dir_def, NULL, "new.txt", "EN only\n");
	write_file_in(dir_def, "de", "main.txt", "DE main [{{>part.txt}}]\n");
	write_file_in(dir_def, "de", "part.txt", "DE Teil");
	set = template_set_new(NULL, dir_def);
	ck_assert_str_eq(render_in(set, "de", "main.txt"), "DE main [DE Teil]\n");
	ck_assert_str_eq(render_in(set, "de", "other.txt"),
			 "EN other [DE Teil]\n");
	ck_assert_str_eq(render_in(set, "de", "new.txt"), "EN only\n");
	ck_assert_str_eq(render_in(set, "en", "main.txt"), "EN main [EN part]\n");
	/* A file nowhere names the folders, as for English. */
	ck_assert_int_eq(template_render(template_set_language(set, "de"),
					 "none.txt", NULL, &out, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "template 'none.txt' not found"));
	/* Every language checks its own files at start-up. */
	ck_assert_int_eq(template_check(template_set_language(set, "de"),
					"main.txt", &error), 0);
	template_set_free(&set);
	/* An override of one German file changes only that one. */
	mkdir_in(dir_over, "de");
	write_file_in(dir_over, "de", "part.txt", "Teil des Betreibers");
	set = template_set_new(dir_over, dir_def);
	ck_assert_str_eq(render_in(set, "de", "main.txt"),
			 "DE main [Teil des Betreibers]\n");
	ck_assert_str_eq(render_in(set, "en", "main.txt"), "EN main [EN part]\n");
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

/* The languages are the sub-folders named as languages, of either
 * folder, sorted after "en"; "mail" and a file named "ko" are none. */
START_TEST(test_languages_found)
{
	struct template_set *set;
	const char *langs[TEMPLATE_LANGUAGES_MAX];
	size_t n;

	mkdir_in(dir_def, "ko");
	mkdir_in(dir_def, "mail");
	mkdir_in(dir_over, "de");
	mkdir_in(dir_over, "ko");
	mkdir_in(dir_over, "EN");
	write_file_in(dir_def, NULL, "fr", "a file, not a folder\n");
	set = template_set_new(dir_over, dir_def);
	n = template_set_languages(set, langs, TEMPLATE_LANGUAGES_MAX);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(langs[0], "en");
	ck_assert_str_eq(langs[1], "de");
	ck_assert_str_eq(langs[2], "ko");
	ck_assert_ptr_eq(template_set_language(set, "en"), set);
	ck_assert_ptr_eq(template_set_language(set, NULL), set);
	ck_assert_ptr_nonnull(template_set_language(set, "KO"));
	ck_assert_str_eq(template_set_lang(template_set_language(set, "ko")),
			 "ko");
	ck_assert_ptr_null(template_set_language(set, "fr"));
	ck_assert_ptr_null(template_set_language(set, "mail"));
	ck_assert(!template_lang_name_ok("mail"));
	ck_assert(!template_lang_name_ok("d"));
	ck_assert(!template_lang_name_ok("De"));
	ck_assert(template_lang_name_ok("qaa"));
	template_set_free(&set);
}
END_TEST

START_TEST(test_content_language)
{
	struct template_set *set;
	char longtag[64], many[256], far[300];

	mkdir_in(dir_def, "de");
	mkdir_in(dir_def, "ko");
	set = template_set_new(NULL, dir_def);
	/* good: the first tag the club has, by its primary subtag */
	ck_assert_str_eq(template_set_pick_language(set, "de-DE"), "de");
	ck_assert_str_eq(template_set_pick_language(set, "ko-KR, en"), "ko");
	ck_assert_str_eq(template_set_pick_language(set, "fr-CH, KO, de"), "ko");
	ck_assert_str_eq(template_set_pick_language(set, "en-GB"), "en");
	ck_assert_str_eq(template_set_pick_language(set, "  de ,ko"), "de");
	ck_assert_str_eq(template_set_pick_language(set, "zh-Hant-TW,de"), "de");
	/* unknown languages only */
	ck_assert_ptr_null(template_set_pick_language(set, "fr-FR, ja"));
	/* bad: not tags at all */
	ck_assert_ptr_null(template_set_pick_language(set, ""));
	ck_assert_ptr_null(template_set_pick_language(set, NULL));
	ck_assert_ptr_null(template_set_pick_language(set, "d"));
	ck_assert_ptr_null(template_set_pick_language(set, "deutsch"));
	ck_assert_ptr_null(template_set_pick_language(set, "de_DE"));
	ck_assert_ptr_null(template_set_pick_language(set, "de-D\xc3\xa9"));
	ck_assert_ptr_null(template_set_pick_language(set, "=?utf-8?q?de?="));
	/* overlong: a tag over 35 bytes is skipped, the next one taken */
	snprintf(longtag, sizeof(longtag), "de-%s",
		 "aaaaaaaa-bbbbbbbb-cccccccc-dddddddd-e");
	ck_assert_ptr_null(template_set_pick_language(set, longtag));
	snprintf(many, sizeof(many), "%s, ko", longtag);
	ck_assert_str_eq(template_set_pick_language(set, many), "ko");
	/* and only 8 tags are read: the ninth is never reached */
	ck_assert_ptr_null(template_set_pick_language(set,
		"fr, it, es, pt, nl, sv, da, fi, de"));
	ck_assert_str_eq(template_set_pick_language(set,
		"fr, it, es, pt, nl, sv, da, de"), "de");
	/* nor past 256 bytes */
	memset(far, ' ', sizeof(far));
	memcpy(far + 280, "de-DE", 6);
	ck_assert_ptr_null(template_set_pick_language(set, far));
	memcpy(far + 240, "ko", 2);
	ck_assert_str_eq(template_set_pick_language(set, far), "ko");
	template_set_free(&set);
}
END_TEST

static const char calendar_en[] =
	"{{! names }}\n"
	"month_1 = January\nmonth_2 = February\nmonth_3 = March\n"
	"month_4 = April\nmonth_5 = May\nmonth_6 = June\nmonth_7 = July\n"
	"month_8 = August\nmonth_9 = September\nmonth_10 = October\n"
	"month_11 = November\nmonth_12 = December\n"
	"weekday_1 = Monday\nweekday_2 = Tuesday\nweekday_3 = Wednesday\n"
	"weekday_4 = Thursday\nweekday_5 = Friday\nweekday_6 = Saturday\n"
	"weekday_7 = Sunday\n"
	"date = {{weekday}} {{day}} {{month}} {{year}}, {{time}} {{zone}}\n";

START_TEST(test_dates_in_words)
{
	struct template_set *set;
	struct render_date d = { 2026, 12, 3, 4, 14, 5, "CET" };
	struct buf out = BUF_INIT;
	const char *error = NULL;

	mkdir_in(dir_def, "ko");
	mkdir_in(dir_def, "de");
	write_file_in(dir_def, NULL, "calendar.txt", calendar_en);
	/* a Korean order and names (only the lines it uses) */
	write_file_in(dir_def, "ko", "calendar.txt",
		      "month_12 = 12월\nweekday_4 = 목요일\n"
		      "date = {{year}}년 {{month}} {{day}}일 {{weekday}} "
		      "{{time}} {{zone}}\n");
	set = template_set_new(NULL, dir_def);
	ck_assert_int_eq(render_date(set, &d, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "Thursday 3 December 2026, 14:05 CET");
	buf_reset(&out);
	ck_assert_int_eq(render_date(template_set_language(set, "ko"), &d,
				     &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "2026년 12월 3일 목요일 14:05 CET");
	/* German has no calendar: English, file by file */
	buf_reset(&out);
	ck_assert_int_eq(render_date(template_set_language(set, "de"), &d,
				     &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "Thursday 3 December 2026, 14:05 CET");
	/* a line the calendar lacks is an error naming it */
	d.month = 1;
	buf_reset(&out);
	ck_assert_int_eq(render_date(template_set_language(set, "ko"), &d,
				     &out, &error), -1);
	ck_assert_str_eq(error, "calendar.txt (ko): no line 'month_1 = ...'");
	d.month = 13;
	ck_assert_int_eq(render_date(set, &d, &out, &error), -1);
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

/* The shipped calendars (templates/ and its translations): every month
 * and weekday of every language has its line, and each writes a date in
 * its own order. */
START_TEST(test_shipped_calendars)
{
	static const struct {
		const char *lang, *date;
	} want[] = {
		{ "en", "Thursday 3 December 2026, 14:05 CET" },
		{ "de", "Donnerstag, 3. Dezember 2026, 14:05 Uhr CET" },
		{ "ko", "2026년 12월 3일 (목) 14:05 CET" },
	};
	const char *src = getenv("ASHES_SRCDIR");
	char dir[512];
	struct template_set *set;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	snprintf(dir, sizeof(dir), "%s/templates", src != NULL ? src : ".");
	set = template_set_new(NULL, dir);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct template_set *ls = strcmp(want[i].lang, "en") == 0 ?
			set : template_set_language(set, want[i].lang);
		struct render_date d = { 2026, 12, 3, 4, 14, 5, "CET" };

		ck_assert_msg(ls != NULL, "no language %s", want[i].lang);
		buf_reset(&out);
		ck_assert_int_eq(render_date(ls, &d, &out, &error), 0);
		ck_assert_str_eq(buf_str(&out), want[i].date);
		for (d.month = 1; d.month <= 12; d.month++)
			for (d.weekday = 1; d.weekday <= 7; d.weekday++) {
				buf_reset(&out);
				if (render_date(ls, &d, &out, &error) < 0)
					ck_abort_msg("%s: %s", want[i].lang, error);
			}
	}
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

/* A span of time in each shipped calendar's words: the English as the
 * clocks always said it (game_clock_span()), the singulars, the three
 * forms; a calendar without a span line is an error naming it. */
START_TEST(test_shipped_spans)
{
	static const struct {
		const char *lang;
		long long seconds;
		const char *span;
	} want[] = {
		{ "en", 86400, "1 day 0 hours" },
		{ "en", 2 * 86400 + 3600, "2 days 1 hour" },
		{ "en", 23 * 3600 + 59 * 60, "23 hours 59 minutes" },
		{ "en", 60, "1 minute" },
		{ "en", -5, "0 minutes" },
		{ "de", 86400, "1 Tag 0 Stunden" },
		{ "de", 2 * 86400 + 3600, "2 Tage 1 Stunde" },
		{ "de", 3600 + 60, "1 Stunde 1 Minute" },
		{ "de", 0, "0 Minuten" },
		{ "ko", 2 * 86400 + 3600, "2일 1시간" },
		{ "ko", 23 * 3600 + 59 * 60, "23시간 59분" },
		{ "ko", 7 * 60, "7분" },
	};
	const char *src = getenv("ASHES_SRCDIR");
	char dir[512];
	struct template_set *set;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	snprintf(dir, sizeof(dir), "%s/templates", src != NULL ? src : ".");
	set = template_set_new(NULL, dir);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct template_set *ls = strcmp(want[i].lang, "en") == 0 ?
			set : template_set_language(set, want[i].lang);

		ck_assert_msg(ls != NULL, "no language %s", want[i].lang);
		buf_reset(&out);
		ck_assert_int_eq(render_span(ls, want[i].seconds, &out, &error), 0);
		ck_assert_str_eq(buf_str(&out), want[i].span);
	}
	template_set_free(&set);
	write_file_in(dir_def, NULL, "calendar.txt", "date = {{day}}\n");
	set = template_set_new(NULL, dir_def);
	buf_reset(&out);
	ck_assert_int_eq(render_span(set, 60, &out, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "no line 'span"));
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

START_TEST(test_display_width)
{
	struct buf out = BUF_INIT;

	ck_assert_uint_eq(width_text(""), 0);
	ck_assert_uint_eq(width_text("move"), 4);
	ck_assert_uint_eq(width_text("Zug über"), 8);      /* ü: one */
	ck_assert_uint_eq(width_text("차례"), 4);          /* Hangul: two */
	ck_assert_uint_eq(width_text("백 c3"), 5);
	ck_assert_uint_eq(width_text("가나다라마바사"), 14);
	ck_assert_uint_eq(width_text("漢字"), 4);
	ck_assert_uint_eq(width_text("ＡＢ"), 4);          /* fullwidth */
	ck_assert_uint_eq(width_text("e\xcc\x81"), 1);     /* e + combining acute */
	ck_assert_uint_eq(width_text("a\xe2\x80\x8b" "b"), 2); /* zero width space */
	/* conjoining jamo: an initial (2) with its vowel and final (0) */
	ck_assert_uint_eq(width_text("\xe1\x84\x80\xe1\x85\xa1\xe1\x86\xa8"), 2);
	/* bytes that are no UTF-8: one column each, never a read past */
	ck_assert_uint_eq(width_text("\xff\xfe"), 2);
	ck_assert_uint_eq(width_text("\xe1\x84"), 2);
	ck_assert_uint_eq(width_textn("차례입니다", 6), 4);
	/* padding by columns keeps a table of Korean and Latin aligned */
	width_pad(&out, "백", 6);
	buf_puts(&out, "|\n");
	width_pad(&out, "white", 6);
	buf_puts(&out, "|\n");
	width_pad(&out, "흑돌", 6);
	buf_puts(&out, "|\n");
	width_pad(&out, "toolongname", 6);
	buf_puts(&out, "|\n");
	ck_assert_str_eq(buf_str(&out), "백    |\nwhite |\n흑돌  |\ntoolongname|\n");
	buf_free(&out);
}
END_TEST

TEST_MAIN("template_lang", "template_lang", setup, teardown, 0,
	  test_lookup_order, test_fallback_file_by_file, test_languages_found,
	  test_content_language, test_dates_in_words, test_shipped_spans,
	  test_shipped_calendars, test_display_width)
