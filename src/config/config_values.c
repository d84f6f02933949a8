/* config_values.c -- the config's value syntax: booleans, durations
 * (500ms, 30s, 1h30m) and sizes (512K, 1M), read and written back in the
 * shortest exact spelling; lists of hours ("48h, 12h") and time controls
 * (read by the service's clock module, server/clock.h); lists of
 * player names, decimals and dates; see club_config.h.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "config/config_private.h"
#include "server/clock.h"
#include "server/command.h"
#include "util/xalloc.h"
#include "util/xstr.h"

int config_parse_bool(const char *s, bool *b_r, const char **error_r)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*b_r = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*b_r = false;
			return 0;
		}
	}
	*error_r = "expected yes/no, true/false or on/off";
	return -1;
}

int config_parse_number(const char **pp, uint64_t max, uint64_t *n_r)
{
	const char *p = *pp;
	uint64_t n = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
		p++;
	}
	*pp = p;
	*n_r = n;
	return 0;
}

int config_parse_duration(const char *s, uint64_t *ms_r, const char **error_r)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = {
		/* "ms" before "m" so "500ms" is not read as minutes */
		{ "ms", 1 }, { "s", CONFIG_SEC }, { "m", CONFIG_MIN },
		{ "h", CONFIG_HOUR }, { "d", CONFIG_DAY }, { "w", 7 * CONFIG_DAY },
	};
	const char *p = s;
	uint64_t total = 0;

	if (*p == '\0') {
		*error_r = "empty duration";
		return -1;
	}
	if (strspn(s, "0123456789") == strlen(s)) {
		/* a bare number is seconds */
		if (config_parse_number(&p, CONFIG_DURATION_MAX / CONFIG_SEC,
					&total) < 0) {
			*error_r = "duration too long";
			return -1;
		}
		*ms_r = total * CONFIG_SEC;
		return 0;
	}
	while (*p != '\0') {
		uint64_t n, scale = 0;

		if (config_parse_number(&p, CONFIG_DURATION_MAX, &n) < 0) {
			*error_r = isdigit((unsigned char)*p) ? "duration too long"
				: "expected a number with a unit: 500ms, 30s, 10m, 2h, 7d, 1w";
			return -1;
		}
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t len = strlen(units[i].unit);

			if (strncmp(p, units[i].unit, len) == 0 &&
			    !isalpha((unsigned char)p[len])) {
				scale = units[i].ms;
				p += len;
				break;
			}
		}
		if (scale == 0) {
			*error_r = "unknown unit (use ms, s, m, h, d or w)";
			return -1;
		}
		if (n > CONFIG_DURATION_MAX / scale ||
		    total + n * scale > CONFIG_DURATION_MAX) {
			*error_r = "duration too long";
			return -1;
		}
		total += n * scale;
	}
	*ms_r = total;
	return 0;
}

int config_parse_size(const char *s, uint64_t *bytes_r, const char **error_r)
{
	const char *p = s;
	uint64_t n, scale = 1;
	const uint64_t max = 1ull << 50;

	if (config_parse_number(&p, max, &n) < 0) {
		*error_r = isdigit((unsigned char)*p) ? "size too large"
			: "expected a number with an optional K, M or G";
		return -1;
	}
	switch (toupper((unsigned char)*p)) {
	case '\0':
		break;
	case 'K':
		scale = 1024;
		break;
	case 'M':
		scale = 1024 * 1024;
		break;
	case 'G':
		scale = 1024 * 1024 * 1024;
		break;
	default:
		*error_r = "unknown unit (use K, M or G)";
		return -1;
	}
	if (*p != '\0') {
		p++;
		/* allow 1M, 1MB and 1MiB: all mean 1024*1024 here */
		if (strcasecmp(p, "B") != 0 && strcasecmp(p, "iB") != 0 && *p != '\0') {
			*error_r = "unknown unit (use K, M or G)";
			return -1;
		}
	}
	if (n > max / scale) {
		*error_r = "size too large";
		return -1;
	}
	*bytes_r = n * scale;
	return 0;
}

void config_format_duration(uint64_t ms, struct buf *out)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = {
		{ "d", CONFIG_DAY }, { "h", CONFIG_HOUR }, { "m", CONFIG_MIN },
		{ "s", CONFIG_SEC }, { "ms", 1 },
	};

	if (ms == 0) {
		buf_puts(out, "0");
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ms >= units[i].ms) {
			buf_printf(out, "%" PRIu64 "%s", ms / units[i].ms, units[i].unit);
			ms %= units[i].ms;
		}
	}
}

void config_format_size(uint64_t bytes, struct buf *out)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t scale = 1ull << (10 * (3 - i));

		if (bytes != 0 && bytes % scale == 0) {
			buf_printf(out, "%" PRIu64 "%c", bytes / scale, units[i]);
			return;
		}
	}
	buf_printf(out, "%" PRIu64, bytes);
}

/* Step *p past the item it is on, the comma after it and the blanks
 * after that: false at the end of the list (no comma). */
static bool list_next(const char **p)
{
	*p += strcspn(*p, ",");
	if (**p == '\0')
		return false;
	(*p)++;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return true;
}

/* ---------------------------------------------------------------- clocks */

/* Why clock_control_parse refused a spec, in the words of the file. */
static void config_clock_reason(const struct clock_fault *f, struct buf *msg)
{
	switch (f->error) {
	case CLOCK_ERR_EMPTY:
	case CLOCK_ERR_UNKNOWN_KIND:
		buf_puts(msg, "unknown time control");
		break;
	case CLOCK_ERR_TOO_LONG:
		buf_printf(msg, "too long (at most %lld characters)",
			   (long long)f->max);
		break;
	case CLOCK_ERR_UNIT:
		buf_puts(msg, "Fischer times are whole hours, such as 240h");
		break;
	case CLOCK_ERR_DAYS_RANGE:
		buf_printf(msg, "%lld days is out of range (%lld..%lld)",
			   (long long)f->value, (long long)f->min,
			   (long long)f->max);
		break;
	case CLOCK_ERR_INITIAL_RANGE:
	case CLOCK_ERR_INCREMENT_RANGE:
		buf_printf(msg, "%s of %lldh is out of range (%lldh..%lldh)",
			   f->error == CLOCK_ERR_INITIAL_RANGE ?
			   "an initial time" : "an increment",
			   (long long)f->value, (long long)f->min,
			   (long long)f->max);
		break;
	case CLOCK_ERR_CAP_RANGE:
		buf_printf(msg, "a cap of %lldh is out of range (the initial "
			   "time %lldh..%lldh)", (long long)f->value,
			   (long long)f->min, (long long)f->max);
		break;
	default:
		buf_puts(msg, "malformed");
		break;
	}
}

int config_parse_clock(const char *s, char **canonical_r, struct buf *msg)
{
	struct clock_control c;
	struct clock_fault f;
	char spec[CLOCK_SPEC_MAX];

	if (*s == '\0')
		s = "none";
	if (clock_control_parse(s, &c, &f) < 0 ||
	    clock_control_format(&c, spec, sizeof(spec)) < 0) {
		config_clock_reason(&f, msg);
		buf_printf(msg, "; expected none, days:N (N %d..%d), "
			   "fischer:Ih+Jh or fischer:Ih+Jh/Kh (I, J and K "
			   "whole hours, such as fischer:240h+36h/240h)",
			   CLOCK_MIN_DAYS, CLOCK_MAX_DAYS);
		return -1;
	}
	*canonical_r = xstrdup(spec);
	return 0;
}

static int config_hours_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x > y ? -1 : x < y;
}

int config_parse_hours(const char *s, uint64_t min_ms, uint64_t max_ms,
		       struct config_hours *hours_r, struct buf *msg)
{
	struct config_hours h = { { 0 }, 0 };
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || strcasecmp(p, "none") == 0) {
		*hours_r = h;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[64];
		const char *error;
		uint64_t ms;

		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0 || len >= sizeof(item)) {
			buf_puts(msg, "expected durations separated by commas, "
				 "such as 48h, 12h, or none");
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (config_parse_duration(item, &ms, &error) < 0) {
			buf_printf(msg, "\"%s\": %s", item, error);
			return -1;
		}
		if (ms % CONFIG_HOUR != 0 || ms < min_ms || ms > max_ms) {
			buf_printf(msg, "\"%s\" is not a whole number of hours "
				   "from %uh to %uh", item,
				   (unsigned)(min_ms / CONFIG_HOUR),
				   (unsigned)(max_ms / CONFIG_HOUR));
			return -1;
		}
		for (unsigned i = 0; i < h.count; i++) {
			if (h.hours[i] == ms / CONFIG_HOUR) {
				buf_printf(msg, "%uh is given twice",
					   h.hours[i]);
				return -1;
			}
		}
		if (h.count == CONFIG_REMINDERS_MAX) {
			buf_printf(msg, "more than %d durations",
				   CONFIG_REMINDERS_MAX);
			return -1;
		}
		h.hours[h.count++] = (unsigned)(ms / CONFIG_HOUR);
		if (!list_next(&p))
			break;
	}
	qsort(h.hours, h.count, sizeof(h.hours[0]), config_hours_cmp);
	*hours_r = h;
	return 0;
}

void config_format_hours(const struct config_hours *hours, struct buf *out)
{
	if (hours->count == 0) {
		buf_puts(out, "none");
		return;
	}
	for (unsigned i = 0; i < hours->count; i++)
		buf_printf(out, "%s%uh", i > 0 ? ", " : "", hours->hours[i]);
}

/* ---------------------------------------------------------------- lists */

/* Free an array of *count strings and empty it (members, errors). */
static void strings_free(char ***strings, size_t *count)
{
	for (size_t i = 0; i < *count; i++)
		free((*strings)[i]);
	free(*strings);
	*strings = NULL;
	*count = 0;
}

void config_members_free(struct config_members *members)
{
	strings_free(&members->names, &members->count);
}

int config_parse_members(const char *s, struct config_members *members_r,
			 struct buf *msg)
{
	struct config_members m = { NULL, 0 };
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	while (*p != '\0') {
		size_t len = strcspn(p, ",");
		char *name;

		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0) {
			buf_puts(msg, "expected player names separated by "
				 "commas, such as alice, bob");
			goto fail;
		}
		name = strndup(p, len);
		if (name == NULL)
			abort();
		if (!command_name_ok(name, len)) {
			buf_printf(msg, "\"%s\" is not a player name (2 to 24 "
				   "letters, digits, '-' or '_', starting with "
				   "a letter, and no command word)", name);
			free(name);
			goto fail;
		}
		for (size_t i = 0; i < m.count; i++) {
			if (strcasecmp(m.names[i], name) == 0) {
				if (strcmp(m.names[i], name) == 0)
					buf_printf(msg, "%s is named twice", name);
				else
					buf_printf(msg, "%s is named twice (as %s: "
						   "names ignore case)", name,
						   m.names[i]);
				free(name);
				goto fail;
			}
		}
		m.names = xrealloc(m.names, (m.count + 1) * sizeof(*m.names));
		m.names[m.count++] = name;
		if (!list_next(&p))
			break;
		if (*p == '\0') {
			buf_puts(msg, "a comma at the end, with no name after it");
			goto fail;
		}
	}
	config_members_free(members_r);
	*members_r = m;
	return 0;
fail:
	config_members_free(&m);
	return -1;
}

int config_parse_places(const char *s, uint64_t min, uint64_t max,
			struct config_places *places_r, struct buf *msg)
{
	const char *p = s;
	bool percent;
	uint64_t n;

	if (config_parse_number(&p, UINT64_MAX, &n) < 0 ||
	    (*p != '\0' && strcmp(p, "%") != 0)) {
		buf_printf(msg, "bad value \"%s\": expected a number of places "
			   "or a percentage, such as 3 or 10%%", s);
		return -1;
	}
	percent = *p == '%';
	if (percent ? n < 1 || n > 100 : n < min || n > max) {
		buf_printf(msg, "%s is out of range (%" PRIu64 "..%" PRIu64
			   ", or 1%%..100%%)", s, min, max);
		return -1;
	}
	places_r->n = (unsigned)n;
	places_r->percent = percent;
	return 0;
}

/* ---------------------------------------------------------------- decimals */

/* Places a decimal may have: millionths. */
#define CONFIG_DECIMAL_PLACES 6

int config_parse_decimal(const char *s, uint64_t *millionths_r,
			 const char **error_r)
{
	const char *p = s;
	uint64_t whole, frac = 0;
	unsigned places = 0;

	if (config_parse_number(&p, 1000000, &whole) < 0) {
		*error_r = "expected a decimal number, such as 0.5";
		return -1;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p)) {
			*error_r = "expected a decimal number, such as 0.5";
			return -1;
		}
		for (; isdigit((unsigned char)*p); p++, places++) {
			if (places == CONFIG_DECIMAL_PLACES) {
				*error_r = "more than 6 decimal places";
				return -1;
			}
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
	}
	if (*p != '\0') {
		*error_r = "expected a decimal number, such as 0.5";
		return -1;
	}
	for (; places < CONFIG_DECIMAL_PLACES; places++)
		frac *= 10;
	*millionths_r = whole * 1000000 + frac;
	return 0;
}

void config_format_decimal(uint64_t millionths, struct buf *out)
{
	char frac[CONFIG_DECIMAL_PLACES + 1];
	size_t len;

	buf_printf(out, "%" PRIu64, millionths / 1000000);
	snprintf(frac, sizeof(frac), "%06u", (unsigned)(millionths % 1000000));
	len = strlen(frac);
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	if (len > 0)
		buf_printf(out, ".%s", frac);
}

/* ---------------------------------------------------------------- dates */

int config_parse_date(const char *s, int64_t *t_r, const char **error_r)
{
	int year, month, day;

	/* exactly YYYY-MM-DD: no sign, no blanks, no time */
	for (size_t i = 0; i < 10; i++) {
		if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i])) {
			*error_r = "expected a date as YYYY-MM-DD";
			return -1;
		}
	}
	if (s[10] != '\0') {
		*error_r = "expected a date as YYYY-MM-DD";
		return -1;
	}
	year = atoi(s);
	month = atoi(s + 5);
	day = atoi(s + 8);
	/* The clock module's calendar, at UTC (a NULL zone). */
	if (clock_local_day_start(NULL, year, month, day, t_r) < 0) {
		*error_r = "no such day (or not between 1970 and 9999)";
		return -1;
	}
	return 0;
}

void config_format_date(int64_t t, struct buf *out)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL) {
		buf_puts(out, "1970-01-01"); /* not reached: t was read */
		return;
	}
	buf_printf(out, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		   tm.tm_mday);
}

/* ---------------------------------------------------------------- errors */

void config_error(struct config_errors *errors, const char *file,
		  unsigned line, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	char **lines;

	if (line > 0)
		buf_printf(&b, "%s:%u: ", file, line);
	else
		buf_printf(&b, "%s: ", file);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	lines = realloc(errors->lines, (errors->count + 1) * sizeof(*lines));
	if (lines == NULL) {
		fputs("ashesd: out of memory\n", stderr);
		abort();
	}
	errors->lines = lines;
	errors->lines[errors->count++] = buf_steal(&b);
}

void config_errors_free(struct config_errors *errors)
{
	strings_free(&errors->lines, &errors->count);
}

void config_errors_format(const struct config_errors *errors, struct buf *out)
{
	for (size_t i = 0; i < errors->count; i++) {
		buf_puts(out, errors->lines[i]);
		buf_putc(out, '\n');
	}
}
