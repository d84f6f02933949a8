/* test_template.c -- every construct of the template language, its error
 * messages (with file:line), and the override folder's fallback. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/template.h"
#include "../check_run.h"
#include "../test_file.h"

static char dir_over[64], dir_def[64];

static void write_file(const char *dir, const char *name, const char *text)
{
	write_file_in(dir, NULL, name, text);
}

static void rm_dir(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void setup(void)
{
	strcpy(dir_over, "/tmp/ashes-tpl-over-XXXXXX");
	strcpy(dir_def, "/tmp/ashes-tpl-def-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir_over));
	ck_assert_ptr_nonnull(mkdtemp(dir_def));
}

static void teardown(void)
{
	rm_dir(dir_over);
	rm_dir(dir_def);
}

/* Render text with ctx; assert success and return the output (static). */
static const char *render_ok(const char *text, const struct template_ctx *ctx)
{
	static struct buf out = BUF_INIT;
	struct template_set *set = template_set_new(NULL, dir_def);
	const char *error = NULL;
	int rc;

	buf_reset(&out);
	rc = template_render_text(set, "t", text, ctx, &out, &error);
	if (rc != 0)
		ck_abort_msg("render failed: %s", error);
	template_set_free(&set);
	ck_assert_ptr_null(set);
	return buf_str(&out);
}

/* Render text expecting failure; return the error (static copy). */
static const char *render_err(const char *text, const struct template_ctx *ctx)
{
	static char msg[512];
	struct buf out = BUF_INIT;
	struct template_set *set = template_set_new(NULL, dir_def);
	const char *error = NULL;

	ck_assert_int_eq(template_render_text(set, "t.txt", text, ctx, &out,
					      &error), -1);
	ck_assert_ptr_nonnull(error);
	snprintf(msg, sizeof(msg), "%s", error);
	template_set_free(&set);
	buf_free(&out);
	return msg;
}

START_TEST(test_variables)
{
	struct template_ctx *ctx = template_ctx_new();

	template_ctx_set(ctx, "name", "Alice & <Bob>");
	template_ctx_set_int(ctx, "n", -42);
	template_ctx_setf(ctx, "f", "%s-%d", "c3", 5);
	ck_assert_str_eq(render_ok("Hi {{name}}, {{ n }} {{f}}.", ctx),
			 "Hi Alice & <Bob>, -42 c3-5.");
	/* Unset renders as nothing; text without tags is copied as is. */
	ck_assert_str_eq(render_ok("[{{missing}}]", ctx), "[]");
	ck_assert_str_eq(render_ok("no tags } { here\n", ctx),
			 "no tags } { here\n");
	ck_assert_str_eq(render_ok("", ctx), "");
	ck_assert_str_eq(template_ctx_get(ctx, "n"), "-42");
	ck_assert_ptr_null(template_ctx_get(ctx, "missing"));
	template_ctx_free(&ctx);
	ck_assert_ptr_null(ctx);
}
END_TEST

START_TEST(test_filters)
{
	struct template_ctx *ctx = template_ctx_new();

	template_ctx_set(ctx, "name", "Alice & <Bob> \"q\" 'a'");
	template_ctx_set(ctx, "c", "white");
	ck_assert_str_eq(render_ok("{{name|html}}", ctx),
			 "Alice &amp; &lt;Bob&gt; &quot;q&quot; &#39;a&#39;");
	ck_assert_str_eq(render_ok("{{c|cap}} {{c}}", ctx), "White white");
	template_ctx_free(&ctx);
}
END_TEST

START_TEST(test_sections)
{
	struct template_ctx *ctx = template_ctx_new();

	template_ctx_set(ctx, "yes", "x");
	template_ctx_set(ctx, "empty", "");
	template_ctx_set_bool(ctx, "flag", true);
	template_ctx_set_bool(ctx, "gone", true);
	template_ctx_set_bool(ctx, "gone", false);
	ck_assert_str_eq(render_ok("{{#yes}}A{{yes}}{{/yes}}"
				   "{{#empty}}B{{/empty}}"
				   "{{#nope}}C{{/nope}}"
				   "{{#flag}}D{{/flag}}"
				   "{{#gone}}E{{/gone}}", ctx), "AxD");
	ck_assert_str_eq(render_ok("{{^yes}}A{{/yes}}"
				   "{{^empty}}B{{/empty}}"
				   "{{^nope}}C{{/nope}}"
				   "{{^gone}}E{{/gone}}", ctx), "BCE");
	template_ctx_free(&ctx);
}
END_TEST

START_TEST(test_lists)
{
	struct template_ctx *ctx = template_ctx_new();
	struct template_ctx *it;

	template_ctx_set(ctx, "sep", ";");
	template_ctx_set(ctx, "who", "outer");
	it = template_ctx_add(ctx, "items");
	template_ctx_set(it, "who", "a");
	template_ctx_add(it, "sub");
	template_ctx_set(template_ctx_add(it, "sub"), "v", "2");
	it = template_ctx_add(ctx, "items");
	template_ctx_set(it, "who", "b");
	template_ctx_list(ctx, "none");
	/* Items see their own keys first, then the enclosing ones. */
	ck_assert_str_eq(render_ok("{{#items}}{{who}}{{sep}}"
				   "{{#sub}}({{v}}{{who}}){{/sub}}{{/items}}"
				   "{{who}}", ctx),
			 "a;(a)(2a)b;outer");
	ck_assert_str_eq(render_ok("{{#none}}X{{/none}}{{^none}}empty{{/none}}"
				   "{{^items}}Y{{/items}}", ctx), "empty");
	/* A string set over a list replaces it, and back. */
	template_ctx_set(ctx, "items", "s");
	ck_assert_str_eq(render_ok("{{#items}}[{{items}}]{{/items}}", ctx),
			 "[s]");
	template_ctx_free(&ctx);
}
END_TEST

START_TEST(test_standalone_lines)
{
	struct template_ctx *ctx = template_ctx_new();

	template_ctx_add(ctx, "l");
	template_ctx_add(ctx, "l");
	ck_assert_str_eq(render_ok("begin\n"
				   "  {{! a comment }}\n"
				   "{{#l}}\n"
				   "item\n"
				   "  {{/l}}  \n"
				   "{{^l}}\n"
				   "never\n"
				   "{{/l}}\n"
				   "end {{#l}}x{{/l}}\n", ctx),
			 "begin\nitem\nitem\nend xx\n");
	/* A multi-line comment vanishes too. */
	ck_assert_str_eq(render_ok("a{{! one\ntwo }}b", ctx), "ab");
	template_ctx_free(&ctx);
}
END_TEST

START_TEST(test_partials)
{
	struct template_ctx *ctx = template_ctx_new();
	struct template_set *set;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	template_ctx_set(ctx, "x", "1");
	write_file(dir_def, "main.txt", "<{{>part.txt}}>\n{{>sub/deep.txt}}\n");
	write_file(dir_def, "part.txt", "p{{x}}");
	mkdir(strcat(strcpy((char[128]){ 0 }, dir_def), "/sub"), 0700);
	write_file(dir_def, "sub/deep.txt", "deep\n");
	set = template_set_new(NULL, dir_def);
	ck_assert_int_eq(template_render(set, "main.txt", ctx, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "<p1>\ndeep\n");
	ck_assert_int_eq(template_check(set, "main.txt", &error), 0);
	template_set_free(&set);
	buf_free(&out);
	template_ctx_free(&ctx);
}
END_TEST

START_TEST(test_override_fallback)
{
	struct template_set *set;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	write_file(dir_def, "a.txt", "default a, {{>b.txt}}\n");
	write_file(dir_def, "b.txt", "default b");
	write_file(dir_over, "b.txt", "operator b");
	set = template_set_new(dir_over, dir_def);
	/* a.txt is not in the override folder: the default is used, and its
	 * partial b.txt comes from the override folder. */
	ck_assert_int_eq(template_render(set, "a.txt", NULL, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "default a, operator b\n");
	buf_reset(&out);
	ck_assert_int_eq(template_render(set, "nothere.txt", NULL, &out,
					 &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "template 'nothere.txt' not found"));
	ck_assert_ptr_nonnull(strstr(error, dir_over));
	ck_assert_ptr_nonnull(strstr(error, dir_def));
	ck_assert_int_eq(template_render(set, "../etc/passwd", NULL, &out,
					 &error), -1);
	ck_assert_str_eq(error, "bad template name '../etc/passwd'");
	template_set_free(&set);

	/* Without an override folder, the default alone. */
	set = template_set_new(NULL, dir_def);
	buf_reset(&out);
	ck_assert_int_eq(template_render(set, "a.txt", NULL, &out, &error), 0);
	ck_assert_str_eq(buf_str(&out), "default a, default b\n");
	template_set_free(&set);

	/* A default folder that does not exist at all (a program not
	 * installed): the error says so and names the settings. */
	set = template_set_new(NULL, "/nonexistent/ashes-templates");
	ck_assert_str_eq(template_set_default_dir(set),
			 "/nonexistent/ashes-templates");
	ck_assert_int_eq(template_render(set, "a.txt", NULL, &out, &error), -1);
	ck_assert_str_eq(error, "template 'a.txt' not found in "
			 "/nonexistent/ashes-templates, which does not exist "
			 "(not installed? name a templates folder with "
			 "ASHES_TEMPLATES, or ashesd's [templates] dir)");
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

START_TEST(test_errors)
{
	char want[512];
	struct template_set *set;
	struct buf out = BUF_INIT;
	const char *error = NULL;

	ck_assert_str_eq(render_err("a\nb {{x\n}}", NULL),
			 "t.txt:2: tag spans lines: '}}' missing?");
	ck_assert_str_eq(render_err("a\n\nb {{x", NULL),
			 "t.txt:3: unterminated tag: '{{' without '}}'");
	ck_assert_str_eq(render_err("x\n{{#a}}\n{{#b}}\n{{/a}}\n", NULL),
			 "t.txt:4: {{/a}} closes section 'b' opened on line 3");
	ck_assert_str_eq(render_err("x\n{{/a}}", NULL),
			 "t.txt:2: {{/a}} closes no section");
	ck_assert_str_eq(render_err("1\n2\n{{#a}}\n{{^b}}{{/b}}", NULL),
			 "t.txt:3: section 'a' is never closed");
	ck_assert_str_eq(render_err("{{x|upper}}", NULL),
			 "t.txt:1: unknown filter 'upper' (known: html, cap)");
	ck_assert_str_eq(render_err("{{ }}", NULL), "t.txt:1: tag without a name");
	ck_assert_str_eq(render_err("{{a b}}", NULL), "t.txt:1: bad tag '{{a b}}'");
	ck_assert_str_eq(render_err("\n{{#a b}}{{/a}}", NULL),
			 "t.txt:2: bad tag '{{#a b}}'");

	/* Errors in files name the file's path; a missing partial names the
	 * including line too. */
	write_file(dir_def, "bad.txt", "ok\n{{#s}}\n");
	write_file(dir_def, "inc.txt", "line1\n{{>missing.txt}}\n");
	write_file(dir_def, "loop.txt", "{{>loop.txt}}");
	set = template_set_new(NULL, dir_def);
	ck_assert_int_eq(template_render(set, "bad.txt", NULL, &out, &error), -1);
	snprintf(want, sizeof(want), "%s/bad.txt:2: section 's' is never closed",
		 dir_def);
	ck_assert_str_eq(error, want);
	ck_assert_int_eq(template_check(set, "bad.txt", &error), -1);
	ck_assert_int_eq(template_check(set, "inc.txt", &error), -1);
	snprintf(want, sizeof(want), "%s/inc.txt:2: {{>missing.txt}}: "
		 "template 'missing.txt' not found in %s", dir_def, dir_def);
	ck_assert_str_eq(error, want);
	ck_assert_int_eq(template_render(set, "loop.txt", NULL, &out, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "partials nested more than 16 deep"));
	template_set_free(&set);
	buf_free(&out);
}
END_TEST

TEST_MAIN("template", "template", setup, teardown, 0, test_variables,
	  test_filters, test_sections, test_lists, test_standalone_lines,
	  test_partials, test_override_fallback, test_errors)
