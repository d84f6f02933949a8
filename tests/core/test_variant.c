/* test_variant.c -- the table of a game's options (variant.h): defaults,
 * the exact variant text, every value of every option round-tripped
 * through the text and the `challenge` form, and every error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/variant.h"
#include "../check_run.h"

static void assert_same(const struct core_variant *a,
			const struct core_variant *b)
{
	const struct core_variant_option *opt;

	for (size_t i = 0; (opt = core_variant_option_at(i)) != NULL; i++)
		ck_assert_msg(core_variant_get(a, opt) == core_variant_get(b, opt),
			      "%s: %d != %d", opt->key, core_variant_get(a, opt),
			      core_variant_get(b, opt));
	ck_assert_int_eq(a->size, b->size);
	ck_assert(a->swap == b->swap);
	ck_assert_int_eq(a->tax_rule, b->tax_rule);
	ck_assert(a->draw_offers == b->draw_offers);
}

static const char *format_all(const struct core_variant *v)
{
	static char buf[CORE_VARIANT_TEXT_MAX];

	return core_variant_format(v, CORE_VARIANT_ALL, buf, sizeof(buf));
}

START_TEST(t_table)
{
	static const char *const keys[] = { "size", "tax", "swap", "draw" };
	const struct core_variant_option *opt;
	size_t i;

	for (i = 0; (opt = core_variant_option_at(i)) != NULL; i++) {
		ck_assert_uint_lt(i, 4);
		ck_assert_str_eq(opt->key, keys[i]);
		ck_assert_ptr_eq(core_variant_option_find(opt->key,
							  strlen(opt->key)), opt);
	}
	ck_assert_uint_eq(i, 4);
	ck_assert_ptr_eq(core_variant_option_find("SwAp", 4),
			 core_variant_option_at(2));
	ck_assert_ptr_eq(core_variant_option_find("size=7", 4),
			 core_variant_option_at(0));
	ck_assert_ptr_null(core_variant_option_find("siz", 3));
	ck_assert_ptr_null(core_variant_option_find("sizes", 5));
	ck_assert_ptr_null(core_variant_option_find("", 0));
	ck_assert(core_variant_option_find("swap", 4)->bare);
	ck_assert(!core_variant_option_find("draw", 4)->bare);
	ck_assert(!core_variant_option_find("draw", 4)->rules);
}
END_TEST

START_TEST(t_defaults)
{
	struct core_variant v;
	char buf[CORE_VARIANT_TEXT_MAX];

	memset(&v, 0xff, sizeof(v));
	core_variant_default(&v);
	ck_assert_int_eq(v.size, CORE_DEFAULT_SIZE);
	ck_assert(!v.swap);
	ck_assert_int_eq(v.tax_rule, CORE_TAX_REMOVED);
	ck_assert(v.draw_offers);
	ck_assert_str_eq(format_all(&v), "size=5 tax=removed");
	ck_assert_str_eq(core_variant_format(&v, CORE_VARIANT_RULES, buf,
					     sizeof(buf)), "size=5 tax=removed");
}
END_TEST

/* The text is byte for byte what the service stored before the table:
 * "size=%d tax=%s", " swap" when on, " draw=no" when draws are off. */
START_TEST(t_format_exact)
{
	struct core_variant v;
	char buf[CORE_VARIANT_TEXT_MAX], want[CORE_VARIANT_TEXT_MAX];

	for (int size = CORE_MIN_SIZE; size <= CORE_MAX_SIZE; size++)
		for (int bits = 0; bits < 8; bits++) {
			core_variant_default(&v);
			v.size = size;
			v.tax_rule = bits & 1 ? CORE_TAX_LOST : CORE_TAX_REMOVED;
			v.swap = (bits & 2) != 0;
			v.draw_offers = (bits & 4) == 0;
			snprintf(want, sizeof(want), "size=%d tax=%s%s", size,
				 bits & 1 ? "lost" : "removed",
				 bits & 2 ? " swap" : "");
			ck_assert_str_eq(core_variant_format(&v,
				CORE_VARIANT_RULES, buf, sizeof(buf)), want);
			ck_assert_str_eq(notation_format_variant(&v, buf,
				sizeof(buf)), want);
			if (bits & 4)
				strcat(want, " draw=no");
			ck_assert_str_eq(format_all(&v), want);
		}
	/* cut to fit, always terminated */
	core_variant_default(&v);
	v.draw_offers = false;
	ck_assert_str_eq(core_variant_format(&v, CORE_VARIANT_ALL, buf, 8),
			 "size=5 ");
	ck_assert_str_eq(core_variant_format(&v, CORE_VARIANT_ALL, buf, 1), "");
	/* a field set by hand to no value of the table still prints a name */
	v.tax_rule = (enum core_tax_rule)7;
	ck_assert_str_eq(format_all(&v), "size=5 tax=removed draw=no");
}
END_TEST

/* Every value of every option: set, written, read back (as the stored
 * text and as a `challenge` option) to the same variant. */
START_TEST(t_round_trip)
{
	const struct core_variant_option *opt;
	enum core_error err;

	for (size_t i = 0; (opt = core_variant_option_at(i)) != NULL; i++) {
		int lo = opt->min, hi = opt->max;

		if (opt->type == CORE_VARIANT_CHOICE)
			for (hi = 0; opt->names[hi + 1] != NULL; hi++)
				;
		for (int value = lo; value <= hi; value++) {
			struct core_variant v, back, by_option;
			char text[CORE_VARIANT_TEXT_MAX], word[32];

			core_variant_default(&v);
			ck_assert_int_eq(core_variant_set(&v, opt, value, &err), 0);
			ck_assert_int_eq(core_variant_get(&v, opt), value);
			core_variant_format(&v, CORE_VARIANT_ALL, text,
					    sizeof(text));
			core_variant_default(&back);
			ck_assert_msg(core_variant_parse(&back, text, &err) == 0,
				      "%s: %s", text, core_error_name(err));
			assert_same(&v, &back);

			switch (opt->type) {
			case CORE_VARIANT_NUMBER:
				snprintf(word, sizeof(word), "%d", value);
				break;
			case CORE_VARIANT_CHOICE:
				snprintf(word, sizeof(word), "%s",
					 opt->names[value]);
				break;
			case CORE_VARIANT_FLAG:
				snprintf(word, sizeof(word), "%s",
					 value ? "yes" : "no");
				break;
			}
			ck_assert(core_variant_option_value_ok(opt, word,
							       strlen(word)));
			core_variant_default(&by_option);
			ck_assert_int_eq(core_variant_set_option(&by_option,
					 opt->key, word, &err), 0);
			assert_same(&v, &by_option);
		}
	}
}
END_TEST

START_TEST(t_parse_text)
{
	struct core_variant v, want;
	enum core_error err = CORE_OK;

	core_variant_default(&v);
	ck_assert_int_eq(core_variant_parse(&v, "size=7 tax=lost swap draw=no",
					    &err), 0);
	ck_assert_int_eq(v.size, 7);
	ck_assert_int_eq(v.tax_rule, CORE_TAX_LOST);
	ck_assert(v.swap);
	ck_assert(!v.draw_offers);
	ck_assert_int_eq(core_variant_parse(&v, "draw=yes", &err), 0);
	ck_assert(v.draw_offers);

	/* what the text leaves unsaid keeps the caller's value */
	core_variant_default(&v);
	v.draw_offers = false;
	ck_assert_int_eq(core_variant_parse(&v, "  SIZE=9\tTax=Removed  ",
					    &err), 0);
	ck_assert_int_eq(v.size, 9);
	ck_assert(!v.draw_offers);
	ck_assert_int_eq(core_variant_parse(&v, "", &err), 0);
	ck_assert_int_eq(core_variant_parse(&v, NULL, &err), 0);
	core_variant_default(&want);
	want.size = 9;
	want.draw_offers = false;
	assert_same(&v, &want);

	ck_assert_int_eq(core_variant_parse(&v, "size=5 colour=red", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(core_variant_parse(&v, "size=99 tax=lost", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
}
END_TEST

static void word_fails(enum core_variant_scope scope, const char *word,
		       enum core_error want)
{
	struct core_variant v, before;
	enum core_error err = CORE_OK;

	core_variant_default(&v);
	v.size = 7;
	before = v;
	ck_assert_msg(core_variant_parse_word(&v, scope, word, strlen(word),
					      &err) == -1, "%s parsed", word);
	ck_assert_msg(err == want, "%s: %s", word, core_error_name(err));
	assert_same(&v, &before);
}

START_TEST(t_word_errors)
{
	static const struct {
		const char *word;
		enum core_error err;
	} bad[] = {
		{ "size=", CORE_ERR_BAD_VARIANT },
		{ "size", CORE_ERR_BAD_VARIANT },
		{ "size=2", CORE_ERR_BAD_SIZE },
		{ "size=14", CORE_ERR_BAD_SIZE },
		{ "size=5x", CORE_ERR_BAD_SIZE },
		{ "size=-5", CORE_ERR_BAD_SIZE },
		{ "size=0005", CORE_ERR_BAD_SIZE },
		{ "tax=gone", CORE_ERR_BAD_VARIANT },
		{ "tax=", CORE_ERR_BAD_VARIANT },
		{ "tax", CORE_ERR_BAD_VARIANT },
		{ "colour", CORE_ERR_BAD_VARIANT },
		{ "=5", CORE_ERR_BAD_VARIANT },
		{ "swap=yes", CORE_ERR_BAD_VARIANT },
		{ "swap=no", CORE_ERR_BAD_VARIANT },
		{ "draw", CORE_ERR_BAD_VARIANT },
		{ "draw=maybe", CORE_ERR_BAD_VARIANT },
	};
	struct core_variant v;
	enum core_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		word_fails(CORE_VARIANT_ALL, bad[i].word, bad[i].err);
		word_fails(CORE_VARIANT_RULES, bad[i].word, bad[i].err);
	}
	/* draw is the service's: unknown to the rules (records, --variant) */
	word_fails(CORE_VARIANT_RULES, "draw=no", CORE_ERR_BAD_VARIANT);
	core_variant_default(&v);
	ck_assert_int_eq(notation_parse_variant_option(&v, "draw=no", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(core_variant_parse_word(&v, CORE_VARIANT_ALL,
						 "draw=no", 7, &err), 0);
	ck_assert(!v.draw_offers);
	/* 3 digits, a leading zero included, are still read */
	ck_assert_int_eq(notation_parse_variant_option(&v, "size=007", &err), 0);
	ck_assert_int_eq(v.size, 7);
	/* len bounds the word: "swap" of "swapped" */
	core_variant_default(&v);
	ck_assert_int_eq(core_variant_parse_word(&v, CORE_VARIANT_RULES,
						 "swapped", 4, &err), 0);
	ck_assert(v.swap);
}
END_TEST

/* A `challenge` option: the key and the value apart, as the command
 * parser hands them on. */
START_TEST(t_set_option)
{
	const struct core_variant_option *size = core_variant_option_at(0);
	const struct core_variant_option *tax = core_variant_option_at(1);
	const struct core_variant_option *swap = core_variant_option_at(2);
	struct core_variant v, before;
	enum core_error err = CORE_OK;

	core_variant_default(&v);
	ck_assert_int_eq(core_variant_set_option(&v, "SWAP", "Yes", &err), 0);
	ck_assert(v.swap);
	ck_assert_int_eq(core_variant_set_option(&v, "swap", "no", &err), 0);
	ck_assert(!v.swap);
	ck_assert_int_eq(core_variant_set_option(&v, "draw", "no", &err), 0);
	ck_assert(!v.draw_offers);
	ck_assert_int_eq(core_variant_set_option(&v, "draw", "yes", &err), 0);
	ck_assert(v.draw_offers);
	ck_assert_int_eq(core_variant_set_option(&v, "tax", "LOST", &err), 0);
	ck_assert_int_eq(v.tax_rule, CORE_TAX_LOST);
	ck_assert_int_eq(core_variant_set_option(&v, "size", "013", &err), 0);
	ck_assert_int_eq(v.size, 13);

	before = v;
	ck_assert_int_eq(core_variant_set_option(&v, "size", "99", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(core_variant_set_option(&v, "size", "000005", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(core_variant_set_option(&v, "size", "", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(core_variant_set_option(&v, "tax", "gone", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(core_variant_set_option(&v, "swap", "maybe", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(core_variant_set_option(&v, "colour", "red", &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	assert_same(&v, &before);

	/* well-formed is not in range: size=99 reaches the service */
	ck_assert(core_variant_option_value_ok(size, "99", 2));
	ck_assert(core_variant_option_value_ok(size, "999999", 6));
	ck_assert(!core_variant_option_value_ok(size, "1234567", 7));
	ck_assert(!core_variant_option_value_ok(size, "", 0));
	ck_assert(!core_variant_option_value_ok(size, "7a", 2));
	ck_assert(core_variant_option_value_ok(tax, "Removed", 7));
	ck_assert(!core_variant_option_value_ok(tax, "gone", 4));
	ck_assert(core_variant_option_value_ok(swap, "NO", 2));
	ck_assert(!core_variant_option_value_ok(swap, "on", 2));

	/* by value */
	ck_assert_int_eq(core_variant_set(&v, size, CORE_MIN_SIZE - 1, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_SIZE);
	ck_assert_int_eq(core_variant_set(&v, tax, 2, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	ck_assert_int_eq(core_variant_set(&v, swap, 2, &err), -1);
	ck_assert_int_eq(err, CORE_ERR_BAD_VARIANT);
	assert_same(&v, &before);
}
END_TEST

TEST_MAIN("core variant", "variant", NULL, NULL, 0, t_table, t_defaults,
	  t_format_exact, t_round_trip, t_parse_text, t_word_errors,
	  t_set_option)
