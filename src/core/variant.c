/* variant.c -- the table of a game's options and everything that reads or
 * writes them by it; see variant.h.  A new option is a new row (and a
 * field in struct core_variant), not a new case in each parser.
 */
#include <string.h>

#include "core/variant.h"
#include "core/core-int.h"

/* Numbers are read from at most this many digits when applied: enough for
 * any board size; a longer one ("size=0005") is out of range. */
#define VARIANT_NUMBER_DIGITS 3

static int variant_get_size(const struct core_variant *v)
{
	return v->size;
}

static void variant_put_size(struct core_variant *v, int value)
{
	v->size = value;
}

static int variant_get_tax(const struct core_variant *v)
{
	return (int)v->tax_rule;
}

static void variant_put_tax(struct core_variant *v, int value)
{
	v->tax_rule = (enum core_tax_rule)value;
}

static int variant_get_swap(const struct core_variant *v)
{
	return v->swap;
}

static void variant_put_swap(struct core_variant *v, int value)
{
	v->swap = value != 0;
}

static int variant_get_draw(const struct core_variant *v)
{
	return v->draw_offers;
}

static void variant_put_draw(struct core_variant *v, int value)
{
	v->draw_offers = value != 0;
}

/* By enum core_tax_rule. */
static const char *const variant_tax_names[] = { "removed", "lost", NULL };

static const struct core_variant_option core_variant_options[] = {
	{ "size", CORE_VARIANT_NUMBER, NULL, CORE_MIN_SIZE, CORE_MAX_SIZE,
	  CORE_DEFAULT_SIZE, false, true, CORE_ERR_BAD_SIZE,
	  variant_get_size, variant_put_size },
	{ "tax", CORE_VARIANT_CHOICE, variant_tax_names, 0, 0,
	  CORE_TAX_REMOVED, false, true, CORE_ERR_BAD_VARIANT,
	  variant_get_tax, variant_put_tax },
	{ "swap", CORE_VARIANT_FLAG, NULL, 0, 1, 0, true, true,
	  CORE_ERR_BAD_VARIANT, variant_get_swap, variant_put_swap },
	/* The service's own option: may the players agree a draw. */
	{ "draw", CORE_VARIANT_FLAG, NULL, 0, 1, 1, false, false,
	  CORE_ERR_BAD_VARIANT, variant_get_draw, variant_put_draw },
};

#define VARIANT_NOPTIONS \
	(sizeof(core_variant_options) / sizeof(core_variant_options[0]))

bool core_word_is(const char *text, size_t len, const char *word)
{
	size_t n = strlen(word);

	if (len != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != word[i])
			return false;
	}
	return true;
}

static bool variant_all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return len > 0;
}

const struct core_variant_option *core_variant_option_at(size_t i)
{
	return i < VARIANT_NOPTIONS ? &core_variant_options[i] : NULL;
}

const struct core_variant_option *core_variant_option_find(const char *key,
							   size_t len)
{
	for (size_t i = 0; i < VARIANT_NOPTIONS; i++)
		if (core_word_is(key, len, core_variant_options[i].key))
			return &core_variant_options[i];
	return NULL;
}

/* The value value[0 .. len-1] means for opt, or -1 if it means none.
 * Numbers are not range-checked here. */
static int variant_value(const struct core_variant_option *opt,
			 const char *value, size_t len, size_t max_digits)
{
	int n = 0;

	switch (opt->type) {
	case CORE_VARIANT_NUMBER:
		if (!variant_all_digits(value, len) || len > max_digits)
			return -1;
		for (size_t i = 0; i < len; i++)
			n = n * 10 + (value[i] - '0');
		return n;
	case CORE_VARIANT_CHOICE:
		for (int i = 0; opt->names[i] != NULL; i++)
			if (core_word_is(value, len, opt->names[i]))
				return i;
		return -1;
	case CORE_VARIANT_FLAG:
		if (core_word_is(value, len, "yes"))
			return 1;
		if (core_word_is(value, len, "no"))
			return 0;
		return -1;
	}
	return -1;
}

bool core_variant_option_value_ok(const struct core_variant_option *opt,
				  const char *value, size_t len)
{
	return variant_value(opt, value, len,
			     CORE_VARIANT_NUMBER_DIGITS_MAX) >= 0;
}

int core_variant_get(const struct core_variant *v,
		     const struct core_variant_option *opt)
{
	return opt->get(v);
}

/* The largest value of opt: for a choice, the last name's index. */
static int variant_max(const struct core_variant_option *opt)
{
	int max = -1;

	if (opt->type != CORE_VARIANT_CHOICE)
		return opt->max;
	while (opt->names[max + 1] != NULL)
		max++;
	return max;
}

int core_variant_set(struct core_variant *v,
		     const struct core_variant_option *opt, int value,
		     enum core_error *err_r)
{
	if (value < opt->min || value > variant_max(opt)) {
		*err_r = opt->bad_value;
		return -1;
	}
	opt->put(v, value);
	return 0;
}

void core_variant_default(struct core_variant *v_r)
{
	enum core_error err;

	memset(v_r, 0, sizeof(*v_r));
	for (size_t i = 0; i < VARIANT_NOPTIONS; i++)
		(void)core_variant_set(v_r, &core_variant_options[i],
				       core_variant_options[i].def, &err);
}

/* Apply value[0 .. len-1] to opt in v.  -1 with opt->bad_value. */
static int variant_apply(struct core_variant *v,
			 const struct core_variant_option *opt,
			 const char *value, size_t len, enum core_error *err_r)
{
	int n = variant_value(opt, value, len, VARIANT_NUMBER_DIGITS);

	if (n < 0) {
		*err_r = opt->bad_value;
		return -1;
	}
	return core_variant_set(v, opt, n, err_r);
}

int core_variant_set_option(struct core_variant *v, const char *key,
			    const char *value, enum core_error *err_r)
{
	const struct core_variant_option *opt =
		core_variant_option_find(key, strlen(key));

	if (opt == NULL) {
		*err_r = CORE_ERR_BAD_VARIANT;
		return -1;
	}
	return variant_apply(v, opt, value, strlen(value), err_r);
}

int core_variant_parse_word(struct core_variant *v,
			    enum core_variant_scope scope, const char *word,
			    size_t len, enum core_error *err_r)
{
	const char *eq = memchr(word, '=', len);
	size_t klen = eq != NULL ? (size_t)(eq - word) : len;
	const struct core_variant_option *opt =
		core_variant_option_find(word, klen);
	bool bare;

	if (opt == NULL || (scope == CORE_VARIANT_RULES && !opt->rules))
		goto unknown;
	bare = opt->type == CORE_VARIANT_FLAG && opt->bare;
	if (eq == NULL) {
		/* "swap": the only way a bare flag is written */
		if (!bare)
			goto unknown;
		opt->put(v, 1);
		return 0;
	}
	/* "swap=yes" is not the stored form, and "size=" says nothing */
	if (bare || klen + 1 == len)
		goto unknown;
	return variant_apply(v, opt, eq + 1, len - klen - 1, err_r);
unknown:
	*err_r = CORE_ERR_BAD_VARIANT;
	return -1;
}

int core_variant_parse(struct core_variant *v, const char *text,
		       enum core_error *err_r)
{
	while (text != NULL && *text != '\0') {
		size_t n = strcspn(text, " \t");

		if (n > 0 && core_variant_parse_word(v, CORE_VARIANT_ALL, text,
						     n, err_r) < 0)
			return -1;
		text += n;
		text += strspn(text, " \t");
	}
	return 0;
}

/* Text appended to a fixed buffer, cut to fit, always NUL-terminated. */
struct variant_out {
	char *buf;
	size_t len, n;
};

static void variant_puts(struct variant_out *o, const char *s)
{
	for (; *s != '\0'; s++) {
		if (o->n + 1 < o->len)
			o->buf[o->n++] = *s;
	}
	if (o->len > 0)
		o->buf[o->n] = '\0';
}

static void variant_put_number(struct variant_out *o, int n)
{
	char digits[12];
	size_t i = sizeof(digits);
	unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;

	digits[--i] = '\0';
	do {
		digits[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (n < 0)
		digits[--i] = '-';
	variant_puts(o, digits + i);
}

char *core_variant_format(const struct core_variant *v,
			  enum core_variant_scope scope, char *buf, size_t len)
{
	struct variant_out o = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < VARIANT_NOPTIONS; i++) {
		const struct core_variant_option *opt = &core_variant_options[i];
		int value = opt->get(v);

		if (scope == CORE_VARIANT_RULES && !opt->rules)
			continue;
		/* a flag is written only when it is not at its default */
		if (opt->type == CORE_VARIANT_FLAG && value == opt->def)
			continue;
		if (o.n > 0)
			variant_puts(&o, " ");
		variant_puts(&o, opt->key);
		if (opt->type == CORE_VARIANT_FLAG && opt->bare)
			continue;
		variant_puts(&o, "=");
		switch (opt->type) {
		case CORE_VARIANT_NUMBER:
			variant_put_number(&o, value);
			break;
		case CORE_VARIANT_CHOICE:
			/* a field set by hand may hold no name's index */
			if (value < 0 || value > variant_max(opt))
				value = opt->def;
			variant_puts(&o, opt->names[value]);
			break;
		case CORE_VARIANT_FLAG:
			variant_puts(&o, value ? "yes" : "no");
			break;
		}
	}
	return buf;
}
