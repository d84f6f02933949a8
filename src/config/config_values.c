/* config_values.c -- the config's value syntax: booleans, durations
 * (500ms, 30s, 1h30m) and sizes (512K, 1M), read and written back in the
 * shortest exact spelling; see club_config.h.
 */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>

#include "config/config_private.h"

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
	for (size_t i = 0; i < errors->count; i++)
		free(errors->lines[i]);
	free(errors->lines);
	errors->lines = NULL;
	errors->count = 0;
}

void config_errors_format(const struct config_errors *errors, struct buf *out)
{
	for (size_t i = 0; i < errors->count; i++) {
		buf_puts(out, errors->lines[i]);
		buf_putc(out, '\n');
	}
}
