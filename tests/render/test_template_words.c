/* test_template_words.c -- code words in the reader's language:
 * {{NAME_word}} gives NAME's value as words.txt of the set's language
 * words it (file by file back to English, a value with no line as
 * itself, through the tag's filter, inside list items too), {{NAME}}
 * stays the code word; and the shipped words files: every translation
 * has every key of the English one, and the English one a line for every
 * code word the rules name. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "render/template.h"
#include "../check_run.h"
#include "../test_file.h"

static char dir_def[64];

static void setup(void)
{
	strcpy(dir_def, "/tmp/ashes-words-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir_def));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir_def);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *render_text(struct template_set *set, const char *text,
			       const struct template_ctx *ctx)
{
	static struct buf out = BUF_INIT;
	const char *error = NULL;

	buf_reset(&out);
	if (template_render_text(set, "test", text, ctx, &out, &error) < 0)
		ck_abort_msg("render: %s", error);
	return buf_str(&out);
}

START_TEST(test_word_variables)
{
	struct template_set *set, *de, *ko;
	struct template_ctx *ctx = template_ctx_new(), *it;
	struct buf out = BUF_INIT;
	const char *error = NULL;
	char path[128];

	write_file_in(dir_def, NULL, "words.txt",
		      "{{! the English words: what the code words say }}\n"
		      "white = white\nblack = black\n"
		      "double_pass = double pass\n");
	snprintf(path, sizeof(path), "%s/de", dir_def);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/ko", dir_def);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	write_file_in(dir_def, "de", "words.txt",
		      "white = Weiß\n  black\t=  Schwarz  \n"
		      "double_pass = doppeltes Passen\n");
	write_file_in(dir_def, "ko", "x.txt", "no words file here\n");
	set = template_set_new(NULL, dir_def);
	de = template_set_language(set, "de");
	ko = template_set_language(set, "ko");
	template_ctx_set(ctx, "turn", "white");
	template_ctx_set(ctx, "loser", "black");
	template_ctx_set(ctx, "end_reason", "double pass");
	template_ctx_set(ctx, "opponent", "alice");
	template_ctx_set(ctx, "opponent_word", "set by the caller");
	it = template_ctx_add(ctx, "games");
	template_ctx_set(it, "status", "black");
	it = template_ctx_add(ctx, "games");
	template_ctx_set(it, "status", "finished");

	/* {{NAME}} is the code word in every language; {{NAME_word}} its
	 * word in the set's own words.txt. */
	ck_assert_str_eq(render_text(de, "{{turn}} {{turn_word}} "
				     "{{loser_word}} {{end_reason_word}}", ctx),
			 "white Weiß Schwarz doppeltes Passen");
	ck_assert_str_eq(render_text(set, "{{turn_word|cap}} "
				     "{{end_reason_word}}", ctx),
			 "White double pass");
	/* No words.txt in ko/: the English one, file by file. */
	ck_assert_str_eq(render_text(ko, "{{turn_word}}", ctx), "white");
	/* A value with no line reads as itself; a NAME_word the caller set
	 * is that value; no NAME: nothing. */
	ck_assert_str_eq(render_text(de, "[{{#games}}{{status_word}};"
				     "{{/games}}] {{opponent_word}} "
				     "[{{nothing_word}}] [{{_word}}]", ctx),
			 "[Schwarz;finished;] set by the caller [] []");
	ck_assert_str_eq(render_text(de, "{{turn_word|html}}", ctx),
			 "Weiß");
	template_set_free(&set);

	/* A set whose folders hold no words.txt at all: an error naming it,
	 * where a {{NAME_word}} asks for it (and only there). */
	teardown();
	setup();
	write_file_in(dir_def, NULL, "a.txt", "{{turn_word}}\n");
	set = template_set_new(NULL, dir_def);
	ck_assert_int_eq(template_render(set, "a.txt", NULL, &out, &error), 0);
	ck_assert_int_eq(template_render(set, "a.txt", ctx, &out, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "words.txt"));
	template_set_free(&set);
	template_ctx_free(&ctx);
	buf_free(&out);
}
END_TEST

/* The keys of the NAME = TEXT file path (comments left out), one line
 * each, into keys (as "\nkey\n" pieces for strstr). */
static void read_keys(const char *path, struct buf *keys)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool comment = false;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	buf_puts(keys, "\n");
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *p = line;
		size_t n = 0;

		if (strncmp(line, "{{!", 3) == 0)
			comment = true;
		if (comment) {
			comment = strstr(line, "}}") == NULL;
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
		       (p[n] >= '0' && p[n] <= '9'))
			n++;
		if (n == 0 || strchr(p + n, '=') == NULL)
			continue;
		buf_append(keys, p, n);
		buf_puts(keys, "\n");
	}
	fclose(f);
}

static bool has_key(const struct buf *keys, const char *key)
{
	char want[80];

	snprintf(want, sizeof(want), "\n%s\n", key);
	return strstr(buf_str(keys), want) != NULL;
}

START_TEST(test_shipped_words)
{
	static const char *const langs[] = { "de", "ko" };
	const char *src = getenv("ASHES_SRCDIR");
	struct buf en = BUF_INIT, tr = BUF_INIT;
	char path[512];
	size_t nkeys = 0;

	snprintf(path, sizeof(path), "%s/templates/words.txt",
		 src != NULL ? src : ".");
	read_keys(path, &en);
	/* Every code word of the rules has its line in English. */
	for (int c = 0; c < 2; c++)
		ck_assert_msg(has_key(&en, core_color_name((enum core_color)c)),
			      "no word for %s", core_color_name((enum core_color)c));
	ck_assert(has_key(&en, "draw"));
	ck_assert(has_key(&en, "elimination"));
	ck_assert(has_key(&en, "double_pass"));
	ck_assert(has_key(&en, "resignation"));
	ck_assert(has_key(&en, "agreed_draw"));
	ck_assert(has_key(&en, "time"));
	ck_assert(has_key(&en, "finished"));
	for (const char *p = buf_str(&en); (p = strchr(p + 1, '\n')) != NULL;)
		nkeys++;
	ck_assert_uint_ge(nkeys, 17);
	/* Every translation has every English key, and the same count. */
	for (size_t l = 0; l < sizeof(langs) / sizeof(langs[0]); l++) {
		const char *k = buf_str(&en) + 1;

		buf_reset(&tr);
		snprintf(path, sizeof(path), "%s/templates/%s/words.txt",
			 src != NULL ? src : ".", langs[l]);
		read_keys(path, &tr);
		while (*k != '\0') {
			const char *e = strchr(k, '\n');
			char key[80];

			snprintf(key, sizeof(key), "%.*s", (int)(e - k), k);
			ck_assert_msg(has_key(&tr, key), "%s: no line '%s = ...'",
				      path, key);
			k = e + 1;
		}
		ck_assert_uint_eq(tr.len, en.len);
	}
	buf_free(&en);
	buf_free(&tr);
}
END_TEST

TEST_MAIN("template_words", "template_words", setup, teardown, 0,
	  test_word_variables, test_shipped_words)
