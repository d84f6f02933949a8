/* tests/util/test_json.c -- the JSON writer (src/util/json.h): exact
 * output, escaping of every awkward byte, invalid UTF-8 replaced, and
 * misuse refused. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "tests/check_run.h"
#include "util/json.h"

START_TEST(test_json_document)
{
	struct buf b = BUF_INIT;
	struct json_writer w;

	json_init(&w, &b);
	json_object_begin(&w, NULL);
	json_int(&w, "schema", 1);
	json_string(&w, "name", "alice");
	json_array_begin(&w, "list");
	json_int(&w, NULL, -5);
	json_bool(&w, NULL, true);
	json_null(&w, NULL);
	json_real(&w, NULL, 1.5);
	json_real(&w, NULL, NAN);
	json_object_begin(&w, NULL);
	json_object_end(&w);
	json_array_end(&w);
	json_array_begin(&w, "empty");
	json_array_end(&w);
	json_string(&w, "none", NULL);
	json_object_end(&w);
	ck_assert_int_eq(json_end(&w), 0);
	ck_assert_str_eq(buf_str(&b),
			 "{\n"
			 "  \"schema\": 1,\n"
			 "  \"name\": \"alice\",\n"
			 "  \"list\": [\n"
			 "    -5,\n"
			 "    true,\n"
			 "    null,\n"
			 "    1.5,\n"
			 "    null,\n"
			 "    {}\n"
			 "  ],\n"
			 "  \"empty\": [],\n"
			 "  \"none\": null\n"
			 "}\n");
	buf_free(&b);
}
END_TEST

START_TEST(test_json_escapes)
{
	static const char in[] = "q\"b\\n\n\r\t\x01\x1f\x7f" "\0z"
				 "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	struct buf b = BUF_INIT;

	json_quote(&b, in, sizeof(in) - 1);
	ck_assert_str_eq(buf_str(&b),
			 "\"q\\\"b\\\\n\\n\\r\\t\\u0001\\u001f\\u007f\\u0000z"
			 "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	buf_free(&b);
}
END_TEST

START_TEST(test_json_bad_utf8)
{
	/* a lone continuation byte, an overlong '/', a surrogate, a
	 * truncated sequence at the end, a byte beyond U+10FFFF */
	static const char in[] = "a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xf5"
				 "e\xe2\x82";
	struct buf b = BUF_INIT;
	const char *r = "\xef\xbf\xbd";
	char want[128];

	json_quote(&b, in, sizeof(in) - 1);
	snprintf(want, sizeof(want), "\"a%sb%s%sc%s%s%sd%se%s%s\"", r, r, r,
		 r, r, r, r, r, r);
	ck_assert_str_eq(buf_str(&b), want);
	buf_free(&b);
}
END_TEST

START_TEST(test_json_misuse)
{
	struct buf b = BUF_INIT;
	struct json_writer w;

	/* a value without a key in an object */
	json_init(&w, &b);
	json_object_begin(&w, NULL);
	json_int(&w, NULL, 1);
	json_object_end(&w);
	ck_assert_int_eq(json_end(&w), -1);
	/* a key in an array */
	buf_reset(&b);
	json_init(&w, &b);
	json_array_begin(&w, NULL);
	json_int(&w, "k", 1);
	ck_assert_int_eq(json_end(&w), -1);
	/* left open, ended twice, wrong end */
	buf_reset(&b);
	json_init(&w, &b);
	json_object_begin(&w, NULL);
	ck_assert_int_eq(json_end(&w), -1);
	json_init(&w, &b);
	json_array_begin(&w, NULL);
	json_object_end(&w);
	ck_assert_int_eq(json_end(&w), -1);
	/* two top-level values; nothing at all */
	json_init(&w, &b);
	json_int(&w, NULL, 1);
	json_int(&w, NULL, 2);
	ck_assert_int_eq(json_end(&w), -1);
	json_init(&w, &b);
	ck_assert_int_eq(json_end(&w), -1);
	/* too deep: bounded, refused */
	json_init(&w, &b);
	for (int i = 0; i < JSON_DEPTH_MAX + 4; i++)
		json_array_begin(&w, NULL);
	ck_assert(w.failed);
	buf_free(&b);
}
END_TEST

TEST_MAIN("json", "writer", NULL, NULL, 0, test_json_document,
	  test_json_escapes, test_json_bad_utf8, test_json_misuse)
