/* record2_parse.c -- the reader of game records: version 2 strictly, line
 * by line, each malformed line a code and its number; version 1 through
 * record_parse(), as a record2 with its moves and no annotations.
 */
#include <stdlib.h>
#include <string.h>

#include "core/record2-int.h"

struct reader {
	const char *text;
	size_t len, at;
	int line;                 /* of the last line read */
	struct record2 *rec;
	struct record2_fault *f;
};

/* The next line, without its LF (and a CR before it); false at the end.
 * A text that ends with a line end has no empty line after it. */
static bool next_line(struct reader *r, const char **s_r, size_t *n_r)
{
	const char *s = r->text + r->at;
	size_t n = 0;

	if (r->at >= r->len)
		return false;
	while (r->at + n < r->len && s[n] != '\n')
		n++;
	r->at += n + 1;
	r->line++;
	if (n > 0 && s[n - 1] == '\r')
		n--;
	*s_r = s;
	*n_r = n;
	return true;
}

static int fail(struct reader *r, enum record2_error error)
{
	r->f->error = error;
	r->f->line = r->line;
	return -1;
}

static int fail_tag(struct reader *r, enum record2_error error,
		    const char *key, size_t len)
{
	if (len > RECORD2_TAG_KEY_MAX)
		len = RECORD2_TAG_KEY_MAX;
	memcpy(r->f->tag, key, len);
	r->f->tag[len] = '\0';
	return fail(r, error);
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

/* What every line must be, whatever it says. */
static int line_ok(struct reader *r, const char *s, size_t n)
{
	if (memchr(s, '\0', n) != NULL)
		return fail(r, RECORD2_ERR_NUL);
	if (n > RECORD2_LINE_MAX)
		return fail(r, RECORD2_ERR_LINE_LONG);
	if (!record2_encoding_ok(s, n))
		return fail(r, RECORD2_ERR_ENCODING);
	return 0;
}

/* ---- Tags ---- */

static int read_tag(struct reader *r, const char *s, size_t n)
{
	struct record2 *rec = r->rec;
	const char *colon = memchr(s, ':', n);
	enum record2_error e;
	enum core_error core_err = CORE_OK;
	size_t klen, vlen;
	char key[RECORD2_TAG_KEY_MAX + 1];

	if (colon == NULL)
		return fail(r, RECORD2_ERR_TAG);
	klen = (size_t)(colon - s);
	if (!record2_tag_key_ok(s, klen) || klen + 2 > n || colon[1] != ' ')
		return fail_tag(r, RECORD2_ERR_TAG, s, klen);
	memcpy(key, s, klen);
	key[klen] = '\0';
	if (record2_tag_find(rec, key) != NULL)
		return fail_tag(r, RECORD2_ERR_TAG_TWICE, s, klen);
	vlen = n - klen - 2;
	e = record2_tag_check(key, colon + 2, vlen, &core_err);
	if (e != RECORD2_OK) {
		r->f->core_err = core_err;
		return fail_tag(r, e, s, klen);
	}
	if (record2_grow((void **)&rec->tags, &rec->tags_cap, rec->ntags,
			 sizeof(*rec->tags)) < 0)
		return fail(r, RECORD2_ERR_NO_MEMORY);
	struct record2_tag *t = &rec->tags[rec->ntags];
	t->key = record2_strndup(key, klen);
	t->value = record2_strndup(colon + 2, vlen);
	t->line = r->line;
	if (t->key == NULL || t->value == NULL) {
		free(t->key);
		free(t->value);
		return fail(r, RECORD2_ERR_NO_MEMORY);
	}
	rec->ntags++;
	return 0;
}

/* At the blank line: the tags a replay needs, and a result its
 * termination can give. */
static int header_complete(struct reader *r)
{
	static const char *const required[] = {
		"Variant", "Result", "Termination"
	};
	enum record2_result result;
	enum record2_termination term;
	enum record2_error e;

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (record2_tag_find(r->rec, required[i]) == NULL)
			return fail_tag(r, RECORD2_ERR_TAG_MISSING, required[i],
					strlen(required[i]));
	if (record2_outcome(r->rec, &result, &term, &e) < 0)
		return fail(r, e); /* read_tag() checked them: not reached */
	if (!record2_outcome_ok(result, term)) {
		r->line = record2_tag_find(r->rec, "Termination")->line;
		return fail_tag(r, RECORD2_ERR_RESULT_TERMINATION,
				"Termination", 11);
	}
	return 0;
}

/* ---- Annotations ---- */

/* The fields by bit, as written. */
static const char *const field_names[] = {
	"ply", "side", "seconds", "days", "key", "at", "clock", "sha256",
	"cond",
};
#define NFIELDS (sizeof(field_names) / sizeof(field_names[0]))

/* A number of at most max_digits digits without leading zero (0 itself
 * only if zero_ok); -1 otherwise. */
static int64_t read_number(const char *s, size_t n, size_t max_digits,
			   bool zero_ok)
{
	int64_t v = 0;

	if (n == 0 || n > max_digits || (s[0] == '0' && (n > 1 || !zero_ok)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* One field's value into a; RECORD2_OK or the error. */
static enum record2_error read_field(unsigned bit, const char *v, size_t n,
				     struct record2_annot *a)
{
	int64_t x;

	switch (bit) {
	case RECORD2_F_PLY:
		if ((x = read_number(v, n, 9, false)) < 0)
			return RECORD2_ERR_ANNOTATION;
		a->ply = (size_t)x;
		break;
	case RECORD2_F_SIDE:
		if (n == 5 && memcmp(v, "white", 5) == 0)
			a->side = CORE_WHITE;
		else if (n == 5 && memcmp(v, "black", 5) == 0)
			a->side = CORE_BLACK;
		else
			return RECORD2_ERR_ANNOTATION;
		break;
	case RECORD2_F_SECONDS:
		/* Always signed; "-0" would not write back. */
		if (n < 2 || (v[0] != '+' && v[0] != '-') ||
		    (x = read_number(v + 1, n - 1, 12, v[0] == '+')) < 0)
			return RECORD2_ERR_ANNOTATION;
		a->seconds = v[0] == '-' ? -x : x;
		break;
	case RECORD2_F_DAYS:
		if ((x = read_number(v, n, 5, false)) < 0)
			return RECORD2_ERR_ANNOTATION;
		a->days = (int)x;
		break;
	case RECORD2_F_KEY:
		if (!record2_hex_ok(v, n, RECORD2_KEY_SHORT, true))
			return RECORD2_ERR_FINGERPRINT;
		memcpy(a->key, v, n);
		a->key[n] = '\0';
		break;
	case RECORD2_F_AT:
		if (record2_time_parse(v, n, &a->at) < 0)
			return RECORD2_ERR_TIME;
		break;
	case RECORD2_F_CLOCK:
		if ((x = read_number(v, n, 12, true)) < 0)
			return RECORD2_ERR_ANNOTATION;
		a->clock = x;
		break;
	case RECORD2_F_SHA256:
		if (!record2_hex_ok(v, n, RECORD2_SHA256_HEX, false))
			return RECORD2_ERR_SHA256;
		memcpy(a->sha256, v, n);
		a->sha256[n] = '\0';
		break;
	case RECORD2_F_COND:
		if ((x = read_number(v, n, 9, true)) < 0)
			return RECORD2_ERR_ANNOTATION;
		a->cond = (size_t)x;
		break;
	}
	return RECORD2_OK;
}

/* The fields between the braces, s[0 .. n-1]: "name=value" apart by one
 * blank, each field at most once and in the order of field_names. */
static enum record2_error read_annot(const char *s, size_t n,
				     struct record2_annot *a)
{
	size_t at = 0;
	int last = -1;

	memset(a, 0, sizeof(*a));
	if (n == 0)
		return RECORD2_ERR_ANNOTATION;
	while (at <= n) {
		size_t k = 0, eq;
		int f;
		while (at + k < n && s[at + k] != ' ')
			k++;
		const char *tok = s + at;
		const char *sep = memchr(tok, '=', k);
		if (sep == NULL)
			return RECORD2_ERR_ANNOTATION;
		eq = (size_t)(sep - tok);
		for (f = 0; f < (int)NFIELDS; f++)
			if (strlen(field_names[f]) == eq &&
			    memcmp(field_names[f], tok, eq) == 0)
				break;
		if (f == (int)NFIELDS || f <= last)
			return RECORD2_ERR_ANNOTATION;
		enum record2_error e = read_field(1u << f, sep + 1,
						  k - eq - 1, a);
		if (e != RECORD2_OK)
			return e;
		a->fields |= 1u << f;
		last = f;
		at += k + 1;
	}
	return RECORD2_OK;
}

/* s[0 .. n-1] is " {...}" (or nothing): its fields into a. */
static enum record2_error read_braces(const char *s, size_t n,
				      struct record2_annot *a)
{
	memset(a, 0, sizeof(*a));
	if (n == 0)
		return RECORD2_OK;
	if (n < 3 || s[0] != ' ' || s[1] != '{' || s[n - 1] != '}' ||
	    memchr(s + 2, '}', n - 3) != NULL)
		return RECORD2_ERR_ANNOTATION;
	return read_annot(s + 2, n - 3, a);
}

/* ---- Plies ---- */

/* "N. " at the start of s: N into *number_r and the length read, or 0. */
static size_t read_ply_number(const char *s, size_t n, size_t *number_r)
{
	size_t i = 0;
	int64_t v;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	v = read_number(s, i, 9, false);
	*number_r = v < 0 ? 0 : (size_t)v;
	if (v < 0 || i + 2 > n || s[i] != '.' || s[i + 1] != ' ')
		return 0;
	return i + 2;
}

/* "MOVE[ (forced)][ {...}]": the rest of a ply line, after its number. */
static enum record2_error read_ply(const struct record2 *rec, const char *s,
				   size_t n, struct record2_ply *p)
{
	size_t k = 0;
	enum record2_error e;

	memset(p, 0, sizeof(*p));
	while (k < n && s[k] != ' ')
		k++;
	if (k >= sizeof(p->move))
		return RECORD2_ERR_MOVE;
	memcpy(p->move, s, k);
	p->move[k] = '\0';
	s += k;
	n -= k;
	/* A pass is only ever forced, and says so. */
	bool forced = starts_with(s, n, " (forced)");
	if (forced != (strcmp(p->move, "pass") == 0))
		return RECORD2_ERR_MOVE;
	if (forced)
		s += 9, n -= 9;
	if ((e = record2_move_check(record2_geom(rec), p->move, k)) !=
	    RECORD2_OK)
		return e;
	if ((e = read_braces(s, n, &p->annot)) != RECORD2_OK)
		return e;
	return record2_ply_check(rec, p);
}

static int read_ply_line(struct reader *r, const char *s, size_t n)
{
	struct record2 *rec = r->rec;
	size_t number, k = read_ply_number(s, n, &number);
	struct record2_ply p;
	enum record2_error e;

	r->f->ply = rec->nplies + 1;
	if (k == 0 || number != rec->nplies + 1) {
		r->f->numbered = number;
		return fail(r, RECORD2_ERR_PLY_NUMBER);
	}
	if ((e = read_ply(rec, s + k, n - k, &p)) != RECORD2_OK)
		return fail(r, e);
	p.line = r->line;
	if (record2_grow((void **)&rec->plies, &rec->plies_cap, rec->nplies,
			 sizeof(*rec->plies)) < 0)
		return fail(r, RECORD2_ERR_NO_MEMORY);
	rec->plies[rec->nplies++] = p;
	r->f->ply = 0;
	return 0;
}

/* ---- Comments ---- */

/* The comment after "; ", s[0 .. n-1], into *c (text not yet copied:
 * *text_r, *tlen_r). */
static enum record2_error read_comment(const struct record2 *rec,
				       const char *s, size_t n,
				       struct record2_comment *c,
				       const char **text_r, size_t *tlen_r)
{
	const struct record2_comment_rule *rule;
	size_t k = record2_kind_word(s, n);
	enum record2_comment_kind kind;
	enum record2_error e;

	if (k == 0 || (k < n && s[k] != ' '))
		return RECORD2_ERR_COMMENT;
	c->kind = kind = record2_kind_find(s, k);
	rule = &record2_comment_rules[kind];
	if (kind == RECORD2_COMMENT_OTHER) {
		/* Kept as it is, for a later reader. */
		*text_r = s;
		*tlen_r = n;
		return record2_text_ok(s, n) ? RECORD2_OK : RECORD2_ERR_TEXT;
	}
	if (k == n)
		return RECORD2_ERR_COMMENT;
	s += k + 1;
	n -= k + 1;
	if (kind == RECORD2_COMMENT_UNDONE) {
		size_t m = read_ply_number(s, n, &c->number);
		/* A ply taken back came after the plies that stand. */
		if (m == 0 || c->number <= rec->nplies)
			return RECORD2_ERR_COMMENT;
		return read_ply(rec, s + m, n - m, &c->undone);
	}
	const char *close = memchr(s, '}', n);
	if (n < 2 || s[0] != '{' || close == NULL)
		return RECORD2_ERR_COMMENT;
	k = (size_t)(close - s);
	if ((e = read_annot(s + 1, k - 1, &c->annot)) != RECORD2_OK ||
	    (e = record2_annot_check(&c->annot, rule->allowed,
				     rule->required, false)) != RECORD2_OK)
		return e;
	if (kind == RECORD2_COMMENT_UNDO && c->annot.ply <= rec->nplies)
		return RECORD2_ERR_COMMENT;
	if (k + 1 < n) {
		if (s[k + 1] != ' ' || !rule->text_allowed ||
		    !record2_text_ok(s + k + 2, n - k - 2))
			return RECORD2_ERR_TEXT;
		*text_r = s + k + 2;
		*tlen_r = n - k - 2;
	} else if (rule->text_required) {
		return RECORD2_ERR_TEXT;
	}
	return RECORD2_OK;
}

static int read_comment_line(struct reader *r, const char *s, size_t n)
{
	struct record2 *rec = r->rec;
	struct record2_comment c;
	const char *text = NULL;
	size_t tlen = 0;
	enum record2_error e;

	memset(&c, 0, sizeof(c));
	if ((e = read_comment(rec, s, n, &c, &text, &tlen)) != RECORD2_OK) {
		if (c.kind == RECORD2_COMMENT_UNDONE)
			r->f->ply = c.number;
		return fail(r, e);
	}
	c.after = rec->nplies;
	c.line = r->line;
	c.undone.line = c.kind == RECORD2_COMMENT_UNDONE ? r->line : 0;
	if (text != NULL && (c.text = record2_strndup(text, tlen)) == NULL)
		return fail(r, RECORD2_ERR_NO_MEMORY);
	if (record2_grow((void **)&rec->comments, &rec->comments_cap,
			 rec->ncomments, sizeof(*rec->comments)) < 0) {
		free(c.text);
		return fail(r, RECORD2_ERR_NO_MEMORY);
	}
	rec->comments[rec->ncomments++] = c;
	return 0;
}

/* ---- The result line ---- */

/* "result: R (T)", which must say what the tags say. */
static int read_result_line(struct reader *r, const char *s, size_t n)
{
	enum record2_result result, tag_result;
	enum record2_termination term, tag_term;
	enum record2_error e;
	size_t k = 0;

	while (k < n && s[k] != ' ')
		k++;
	if (k + 3 > n || s[k + 1] != '(' || s[n - 1] != ')')
		return fail(r, RECORD2_ERR_RESULT_LINE);
	if (record2_result_read(s, k, &result) < 0)
		return fail(r, RECORD2_ERR_RESULT);
	if (record2_termination_read(s + k + 2, n - k - 3, &term) < 0)
		return fail(r, RECORD2_ERR_TERMINATION);
	if (record2_outcome(r->rec, &tag_result, &tag_term, &e) < 0)
		return fail(r, e); /* header_complete() checked: not reached */
	if (result != tag_result || term != tag_term)
		return fail(r, RECORD2_ERR_RESULT_LINE);
	r->rec->result_line = r->line;
	return 0;
}

/* ---- Version 2 ---- */

static int read_v2(struct reader *r)
{
	const char *s;
	size_t n;
	bool done = false;

	/* The first line is the magic (the caller saw it). */
	next_line(r, &s, &n);
	for (;;) {
		if (!next_line(r, &s, &n)) {
			r->line++;
			return fail(r, RECORD2_ERR_TRUNCATED);
		}
		if (line_ok(r, s, n) < 0)
			return -1;
		if (n == 0)
			break;
		if (read_tag(r, s, n) < 0)
			return -1;
	}
	if (header_complete(r) < 0)
		return -1;
	while (next_line(r, &s, &n)) {
		if (line_ok(r, s, n) < 0)
			return -1;
		if (done)
			return fail(r, RECORD2_ERR_AFTER_RESULT);
		if (n > 0 && s[0] >= '0' && s[0] <= '9') {
			if (read_ply_line(r, s, n) < 0)
				return -1;
		} else if (starts_with(s, n, "; ")) {
			if (read_comment_line(r, s + 2, n - 2) < 0)
				return -1;
		} else if (starts_with(s, n, "result: ")) {
			if (read_result_line(r, s + 8, n - 8) < 0)
				return -1;
			done = true;
		} else {
			return fail(r, RECORD2_ERR_LINE);
		}
	}
	if (!done) {
		r->line++;
		return fail(r, RECORD2_ERR_TRUNCATED);
	}
	return 0;
}

/* ---- Version 1 ---- */

static int read_v1(struct reader *r)
{
	struct core_record core;
	struct record_fault_info v1;
	enum record2_error e;

	if (record_parse_detail(&core, r->text, r->len, &v1) < 0) {
		r->line = v1.line;
		r->f->core_err = v1.err;
		r->f->v1 = v1.fault;
		r->f->ply = v1.ply;
		/* Neither version, or no text: say so plainly. */
		if (v1.fault == RECORD_FAULT_MAGIC)
			return fail(r, RECORD2_ERR_MAGIC);
		if (v1.fault == RECORD_FAULT_EMPTY)
			return fail(r, RECORD2_ERR_EMPTY);
		if (v1.fault == RECORD_FAULT_NUL)
			return fail(r, RECORD2_ERR_NUL);
		return fail(r, RECORD2_ERR_VERSION1);
	}
	if (record2_from_core(r->rec, &core, &e) < 0) {
		record_free(&core);
		return fail(r, e);
	}
	record_free(&core);
	r->rec->version = 1;
	return 0;
}

int record2_parse_detail(const char *text, size_t len, struct record2 *rec_r,
			 struct record2_fault *fault_r)
{
	struct record2_fault f;
	struct reader r = { text, len, 0, 0, rec_r, &f };
	size_t magic = strlen(RECORD2_MAGIC);
	int ret;

	memset(&f, 0, sizeof(f));
	record2_init(rec_r);
	if (len >= magic && memcmp(text, RECORD2_MAGIC, magic) == 0 &&
	    (len == magic || text[magic] == '\n' ||
	     (text[magic] == '\r' && len > magic + 1 &&
	      text[magic + 1] == '\n')))
		ret = read_v2(&r);
	else
		ret = read_v1(&r);
	if (ret < 0) {
		record2_free(rec_r);
		if (fault_r != NULL)
			*fault_r = f;
		return -1;
	}
	return 0;
}

int record2_parse(const char *text, size_t len, struct record2 *rec_r,
		  int *line_r, enum record2_error *error_r)
{
	struct record2_fault f;

	if (record2_parse_detail(text, len, rec_r, &f) == 0)
		return 0;
	if (line_r != NULL)
		*line_r = f.line;
	*error_r = f.error;
	return -1;
}
