/* record2_check.c -- the checks of every value of a version 2 record
 * (tags, moves, annotations, times, text), shared by the reader and the
 * builders so that whatever a builder accepts writes a text that reads.
 */
#include <stdio.h>
#include <string.h>

#include "core/record2-int.h"
#include "core/variant.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const record2_result_names[] = {
	[RECORD2_RESULT_NONE] = "*",
	[RECORD2_RESULT_WHITE] = "1-0",
	[RECORD2_RESULT_BLACK] = "0-1",
	[RECORD2_RESULT_DRAW] = "1/2-1/2",
};

static const char *const record2_termination_names[] = {
	[RECORD2_TERM_ONGOING] = "ongoing",
	[RECORD2_TERM_ELIMINATION] = "elimination",
	[RECORD2_TERM_DOUBLE_PASS] = "double-pass",
	[RECORD2_TERM_RESIGNATION] = "resignation",
	[RECORD2_TERM_AGREEMENT] = "agreement",
	[RECORD2_TERM_TIME] = "time",
	[RECORD2_TERM_CANCELLED] = "cancelled",
};

const char *record2_result_name(enum record2_result r)
{
	return (unsigned)r < COUNT(record2_result_names) ?
		record2_result_names[r] : "?";
}

const char *record2_termination_name(enum record2_termination t)
{
	return (unsigned)t < COUNT(record2_termination_names) ?
		record2_termination_names[t] : "?";
}

/* Index of text[0 .. len-1] in names[0 .. n-1], or -1. */
static int name_index(const char *const *names, size_t n, const char *text,
		      size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && memcmp(names[i], text, len) == 0)
			return (int)i;
	return -1;
}

int record2_result_read(const char *text, size_t len,
			enum record2_result *r_r)
{
	int i = name_index(record2_result_names,
			   COUNT(record2_result_names), text, len);

	if (i < 0)
		return -1;
	*r_r = (enum record2_result)i;
	return 0;
}

int record2_termination_read(const char *text, size_t len,
			     enum record2_termination *t_r)
{
	int i = name_index(record2_termination_names,
			   COUNT(record2_termination_names), text, len);

	if (i < 0)
		return -1;
	*t_r = (enum record2_termination)i;
	return 0;
}

bool record2_outcome_ok(enum record2_result r, enum record2_termination t)
{
	switch (t) {
	case RECORD2_TERM_ONGOING:
	case RECORD2_TERM_CANCELLED:
		return r == RECORD2_RESULT_NONE;
	case RECORD2_TERM_ELIMINATION:
		/* Both sides wiped out by one move is a draw. */
		return r != RECORD2_RESULT_NONE;
	case RECORD2_TERM_DOUBLE_PASS:
	case RECORD2_TERM_AGREEMENT:
		return r == RECORD2_RESULT_DRAW;
	case RECORD2_TERM_RESIGNATION:
	case RECORD2_TERM_TIME:
		return r == RECORD2_RESULT_WHITE || r == RECORD2_RESULT_BLACK;
	}
	return false;
}

/* ---- Time: civil dates of the proleptic Gregorian calendar, UTC. ---- */

/* Days from 1970-01-01 to y-m-d (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y_r, int *m_r, int *d_r)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);

	*d_r = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m_r = m;
	*y_r = yoe + era * 400 + (m <= 2);
}

/* n decimal digits of v at s. */
static void put_digits(char *s, int64_t v, int n)
{
	while (n-- > 0) {
		s[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

char *record2_time_format(int64_t t, char *buf)
{
	int64_t secs, y;
	int m, d;

	if (t < 0)
		t = 0;
	if (t > RECORD2_TIME_MAX)
		t = RECORD2_TIME_MAX;
	secs = t % 86400;
	civil_from_days(t / 86400, &y, &m, &d);
	memcpy(buf, "0000-00-00T00:00:00Z", RECORD2_TIME_LEN + 1);
	put_digits(buf, y, 4);
	put_digits(buf + 5, m, 2);
	put_digits(buf + 8, d, 2);
	put_digits(buf + 11, secs / 3600, 2);
	put_digits(buf + 14, secs / 60 % 60, 2);
	put_digits(buf + 17, secs % 60, 2);
	return buf;
}

/* The n digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int record2_time_parse(const char *text, size_t len, int64_t *t_r)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
				     30, 31 };
	int y, mo, d, h, mi, s;

	if (len != RECORD2_TIME_LEN || text[4] != '-' || text[7] != '-' ||
	    text[10] != 'T' || text[13] != ':' || text[16] != ':' ||
	    text[19] != 'Z')
		return -1;
	y = digits(text, 4);
	mo = digits(text + 5, 2);
	d = digits(text + 8, 2);
	h = digits(text + 11, 2);
	mi = digits(text + 14, 2);
	s = digits(text + 17, 2);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
		return -1;
	if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 ||
						    y % 400 == 0)))
		return -1;
	*t_r = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
	return 0;
}

/* ---- Checks of values ---- */

bool record2_encoding_ok(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		uint32_t cp;
		size_t n;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return false;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return false;
		if (len - i <= n)
			return false;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates, beyond U+10FFFF, and the C1
		 * controls are refused. */
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
		    (cp >= 0x80 && cp <= 0x9f))
			return false;
		i += n + 1;
	}
	return true;
}

bool record2_text_ok(const char *text, size_t len)
{
	return len > 0 && text[0] != ' ' && text[0] != '\t' &&
	       text[len - 1] != ' ' && text[len - 1] != '\t' &&
	       record2_encoding_ok(text, len);
}

size_t record2_kind_word(const char *s, size_t len)
{
	size_t k = 0;

	while (k < len && ((s[k] >= 'a' && s[k] <= 'z') ||
			   (k > 0 && ((s[k] >= '0' && s[k] <= '9') ||
				      s[k] == '-'))))
		k++;
	return k;
}

enum record2_comment_kind record2_kind_find(const char *s, size_t len)
{
	int kind;

	for (kind = 0; kind < RECORD2_COMMENT_OTHER; kind++)
		if (strlen(record2_comment_rules[kind].name) == len &&
		    memcmp(record2_comment_rules[kind].name, s, len) == 0)
			break;
	return (enum record2_comment_kind)kind;
}

bool record2_tag_key_ok(const char *key, size_t len)
{
	if (len == 0 || len > RECORD2_TAG_KEY_MAX || key[0] < 'A' ||
	    key[0] > 'Z')
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = key[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

bool record2_hex_ok(const char *s, size_t len, size_t n, bool upper)
{
	if (len != n)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') ||
		      (upper ? c >= 'A' && c <= 'F' : c >= 'a' && c <= 'f')))
			return false;
	}
	return true;
}

/* A game id: a positive decimal number without leading zero. */
static bool game_id_ok(const char *s, size_t len)
{
	if (len == 0 || len > 18 || s[0] < '1' || s[0] > '9')
		return false;
	for (size_t i = 1; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* A domain: labels of letters, digits and '-' (not at either end),
 * apart by dots. */
static bool domain_ok(const char *s, size_t len)
{
	size_t label = 0;

	if (len == 0 || len > 253)
		return false;
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? s[i] : '.';
		if (c == '.') {
			if (label == 0 || label > 63 || s[i - 1] == '-')
				return false;
			label = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || (c == '-' && label > 0)) {
			label++;
		} else {
			return false;
		}
	}
	return true;
}

int record2_variant_read(const char *text, size_t len,
			 struct core_variant *v_r, enum core_error *core_err_r)
{
	char canonical[CORE_VARIANT_TEXT_MAX];
	struct core_variant v;
	size_t at = 0;

	core_variant_default(&v);
	while (at < len) {
		size_t n = 0;
		while (at + n < len && text[at + n] != ' ')
			n++;
		if (n == 0 || core_variant_parse_word(&v, CORE_VARIANT_ALL,
						      text + at, n,
						      core_err_r) < 0) {
			if (n == 0)
				*core_err_r = CORE_ERR_BAD_VARIANT;
			return -1;
		}
		at += n + 1;
	}
	/* One text per variant: what core_variant_format() writes. */
	core_variant_format(&v, CORE_VARIANT_ALL, canonical, sizeof(canonical));
	if (strlen(canonical) != len || memcmp(canonical, text, len) != 0) {
		*core_err_r = CORE_ERR_BAD_VARIANT;
		return -1;
	}
	*v_r = v;
	return 0;
}

/* Tags whose values have a form of their own; every other value is a
 * free text. */
enum record2_error record2_tag_check(const char *key, const char *value,
				     size_t len, enum core_error *core_err_r)
{
	enum record2_result r;
	enum record2_termination t;
	struct core_variant v;
	int64_t when;

	if (!record2_encoding_ok(value, len))
		return RECORD2_ERR_ENCODING;
	if (!record2_text_ok(value, len))
		return RECORD2_ERR_TAG_VALUE;
	if (strcmp(key, "Game") == 0)
		return game_id_ok(value, len) ? RECORD2_OK :
			RECORD2_ERR_TAG_VALUE;
	if (strcmp(key, "Site") == 0)
		return domain_ok(value, len) ? RECORD2_OK :
			RECORD2_ERR_TAG_VALUE;
	if (strcmp(key, "WhiteKey") == 0 || strcmp(key, "BlackKey") == 0)
		return record2_hex_ok(value, len, 40, true) ||
		       record2_hex_ok(value, len, 64, true) ? RECORD2_OK :
			RECORD2_ERR_FINGERPRINT;
	if (strcmp(key, "Date") == 0 || strcmp(key, "EndDate") == 0)
		return record2_time_parse(value, len, &when) == 0 ?
			RECORD2_OK : RECORD2_ERR_TIME;
	if (strcmp(key, "Variant") == 0)
		return record2_variant_read(value, len, &v, core_err_r) == 0 ?
			RECORD2_OK : RECORD2_ERR_VARIANT;
	if (strcmp(key, "Result") == 0)
		return record2_result_read(value, len, &r) == 0 ? RECORD2_OK :
			RECORD2_ERR_RESULT;
	if (strcmp(key, "Termination") == 0)
		return record2_termination_read(value, len, &t) == 0 ?
			RECORD2_OK : RECORD2_ERR_TERMINATION;
	return RECORD2_OK;
}

/* A cell name in canonical form: a lower-case letter and a row number
 * without leading zero.  Its length, or 0. */
static size_t cell_token(const char *s, size_t len)
{
	size_t i = 2;

	if (len < 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '1' || s[1] > '9')
		return 0;
	while (i < len && i < 4 && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

enum record2_error record2_move_check(const struct core_geom *g,
				      const char *move, size_t len)
{
	size_t a, b, i;

	if ((len == 4 && memcmp(move, "swap", 4) == 0) ||
	    (len == 4 && memcmp(move, "pass", 4) == 0))
		return RECORD2_OK;
	a = cell_token(move, len);
	if (a == 0 || a + 1 >= len || (move[a] != '-' && move[a] != 'x'))
		return RECORD2_ERR_MOVE;
	b = cell_token(move + a + 1, len - a - 1);
	if (b == 0)
		return RECORD2_ERR_MOVE;
	i = a + 1 + b;
	if (i < len) {
		/* "/K": 1 to 9 digits, no leading zero. */
		if (move[i] != '/' || len - i < 2 || len - i > 10 ||
		    move[i + 1] < '1' || move[i + 1] > '9')
			return RECORD2_ERR_MOVE;
		for (i += 2; i < len; i++)
			if (move[i] < '0' || move[i] > '9')
				return RECORD2_ERR_MOVE;
	}
	if (g != NULL && (core_cell_parse(g, move, a) < 0 ||
			  core_cell_parse(g, move + a + 1, b) < 0))
		return RECORD2_ERR_MOVE;
	return RECORD2_OK;
}

enum record2_error record2_annot_check(const struct record2_annot *a,
				       unsigned allowed, unsigned required,
				       bool pass)
{
	unsigned f = a->fields;

	if (pass && (f & (RECORD2_F_KEY | RECORD2_F_SHA256 | RECORD2_F_COND)))
		return RECORD2_ERR_PASS_SIGNED;
	if ((f & ~allowed) != 0 || (f & required) != required)
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_PLY) && (a->ply < 1 || a->ply > 999999999))
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_SIDE) && a->side != CORE_WHITE &&
	    a->side != CORE_BLACK)
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_SECONDS) && (a->seconds < -RECORD2_SECONDS_MAX ||
					a->seconds > RECORD2_SECONDS_MAX))
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_DAYS) && (a->days < 1 || a->days > RECORD2_DAYS_MAX))
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_KEY) && !record2_hex_ok(a->key, strlen(a->key),
						   RECORD2_KEY_SHORT, true))
		return RECORD2_ERR_FINGERPRINT;
	if ((f & RECORD2_F_AT) && (a->at < 0 || a->at > RECORD2_TIME_MAX))
		return RECORD2_ERR_TIME;
	if ((f & RECORD2_F_CLOCK) && (a->clock < 0 ||
				      a->clock > RECORD2_SECONDS_MAX))
		return RECORD2_ERR_ANNOTATION;
	if ((f & RECORD2_F_SHA256) &&
	    !record2_hex_ok(a->sha256, strlen(a->sha256), RECORD2_SHA256_HEX,
			    false))
		return RECORD2_ERR_SHA256;
	/* A conditional reply cites the mail that set it, and comes after
	 * the opponent's move it answers. */
	if ((f & RECORD2_F_COND) && (!(f & RECORD2_F_SHA256) ||
				     a->cond > 999999999))
		return RECORD2_ERR_ANNOTATION;
	return RECORD2_OK;
}
