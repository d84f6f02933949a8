/* record2.c -- the game record, version 2 (docs/record-format.md): the
 * record in memory, its builders and the writer.  The checks of values are
 * record2_check.c, the reader record2_parse.c, the replay
 * record2_replay.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core-int.h"
#include "core/notation.h"
#include "core/record2-int.h"
#include "core/variant.h"

const struct record2_comment_rule record2_comment_rules[] = {
	[RECORD2_COMMENT_MESSAGE] = {
		"message", RECORD2_F_KEY | RECORD2_F_AT | RECORD2_F_SHA256,
		RECORD2_F_AT, true, true },
	[RECORD2_COMMENT_UNDONE] = { "undone", 0, 0, false, false },
	[RECORD2_COMMENT_UNDO] = {
		"undo", RECORD2_F_PLY | RECORD2_F_KEY | RECORD2_F_AT |
		RECORD2_F_SHA256, RECORD2_F_PLY | RECORD2_F_AT, false, true },
	[RECORD2_COMMENT_CLOCK] = {
		"clock", RECORD2_F_SIDE | RECORD2_F_SECONDS | RECORD2_F_AT,
		RECORD2_F_SIDE | RECORD2_F_SECONDS | RECORD2_F_AT, false,
		true },
	[RECORD2_COMMENT_VACATION] = {
		"vacation", RECORD2_F_SIDE | RECORD2_F_DAYS | RECORD2_F_KEY |
		RECORD2_F_AT | RECORD2_F_SHA256,
		RECORD2_F_SIDE | RECORD2_F_DAYS | RECORD2_F_AT, false, true },
	[RECORD2_COMMENT_OTHER] = { NULL, 0, 0, true, true },
};

/* Indexed by enum record2_error. */
static const char *const record2_error_names[RECORD2_ERR_COUNT] = {
	[RECORD2_OK] = "ok",
	[RECORD2_ERR_EMPTY] = "empty",
	[RECORD2_ERR_NUL] = "nul",
	[RECORD2_ERR_LINE_LONG] = "line_long",
	[RECORD2_ERR_ENCODING] = "encoding",
	[RECORD2_ERR_MAGIC] = "magic",
	[RECORD2_ERR_TAG] = "tag",
	[RECORD2_ERR_TAG_TWICE] = "tag_twice",
	[RECORD2_ERR_TAG_VALUE] = "tag_value",
	[RECORD2_ERR_TAG_MISSING] = "tag_missing",
	[RECORD2_ERR_FINGERPRINT] = "fingerprint",
	[RECORD2_ERR_SHA256] = "sha256",
	[RECORD2_ERR_TIME] = "time",
	[RECORD2_ERR_VARIANT] = "variant",
	[RECORD2_ERR_RESULT] = "result",
	[RECORD2_ERR_TERMINATION] = "termination",
	[RECORD2_ERR_RESULT_TERMINATION] = "result_termination",
	[RECORD2_ERR_LINE] = "line",
	[RECORD2_ERR_PLY_NUMBER] = "ply_number",
	[RECORD2_ERR_MOVE] = "move",
	[RECORD2_ERR_ANNOTATION] = "annotation",
	[RECORD2_ERR_CLOCK] = "clock",
	[RECORD2_ERR_PASS_SIGNED] = "pass_signed",
	[RECORD2_ERR_COMMENT] = "comment",
	[RECORD2_ERR_TEXT] = "text",
	[RECORD2_ERR_RESULT_LINE] = "result_line",
	[RECORD2_ERR_TRUNCATED] = "truncated",
	[RECORD2_ERR_AFTER_RESULT] = "after_result",
	[RECORD2_ERR_VERSION1] = "version1",
	[RECORD2_ERR_PLY_ILLEGAL] = "ply_illegal",
	[RECORD2_ERR_PASS_NOT_FORCED] = "pass_not_forced",
	[RECORD2_ERR_PASS_MISSING] = "pass_missing",
	[RECORD2_ERR_NOT_CANONICAL] = "not_canonical",
	[RECORD2_ERR_SIGNER] = "signer",
	[RECORD2_ERR_GAME_ON] = "game_on",
	[RECORD2_ERR_RESULT_MISMATCH] = "result_mismatch",
	[RECORD2_ERR_NO_DRAWS] = "no_draws",
	[RECORD2_ERR_NO_MEMORY] = "no_memory",
};

const char *record2_error_name(enum record2_error error)
{
	return core_table_name(record2_error_names, RECORD2_ERR_COUNT,
			       (unsigned)error);
}

/* ---- The record in memory ---- */

void record2_init(struct record2 *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->version = 2;
}

void record2_free(struct record2 *rec)
{
	for (size_t i = 0; i < rec->ntags; i++) {
		free(rec->tags[i].key);
		free(rec->tags[i].value);
	}
	for (size_t i = 0; i < rec->ncomments; i++)
		free(rec->comments[i].text);
	free(rec->tags);
	free(rec->plies);
	free(rec->comments);
	record2_init(rec);
}

char *record2_strndup(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (p != NULL) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

int record2_grow(void **array, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t want = *cap < 16 ? 16 : *cap * 2;
	void *p = realloc(*array, want * size);
	if (p == NULL)
		return -1;
	*array = p;
	*cap = want;
	return 0;
}

const struct record2_tag *record2_tag_find(const struct record2 *rec,
					   const char *key)
{
	for (size_t i = 0; i < rec->ntags; i++)
		if (strcmp(rec->tags[i].key, key) == 0)
			return &rec->tags[i];
	return NULL;
}

const char *record2_tag_get(const struct record2 *rec, const char *key)
{
	const struct record2_tag *t = record2_tag_find(rec, key);

	return t != NULL ? t->value : NULL;
}

const struct core_geom *record2_geom(const struct record2 *rec)
{
	const char *text = record2_tag_get(rec, "Variant");
	struct core_variant v;
	enum core_error err;

	if (text == NULL ||
	    record2_variant_read(text, strlen(text), &v, &err) < 0)
		return NULL;
	return core_geom_get(v.size);
}

int record2_tag_set(struct record2 *rec, const char *key, const char *value,
		    enum record2_error *error_r)
{
	struct record2_tag *t =
		(struct record2_tag *)record2_tag_find(rec, key);
	enum core_error core_err;
	char *v;

	if (!record2_tag_key_ok(key, strlen(key))) {
		*error_r = RECORD2_ERR_TAG;
		return -1;
	}
	*error_r = record2_tag_check(key, value, strlen(value), &core_err);
	if (*error_r != RECORD2_OK)
		return -1;
	v = record2_strndup(value, strlen(value));
	if (v == NULL)
		goto nomem;
	if (t != NULL) {
		free(t->value);
		t->value = v;
		return 0;
	}
	if (record2_grow((void **)&rec->tags, &rec->tags_cap, rec->ntags,
			 sizeof(*rec->tags)) < 0 ||
	    (rec->tags[rec->ntags].key = record2_strndup(key, strlen(key))) ==
	    NULL) {
		free(v);
		goto nomem;
	}
	rec->tags[rec->ntags].value = v;
	rec->tags[rec->ntags].line = 0;
	rec->ntags++;
	return 0;
nomem:
	*error_r = RECORD2_ERR_NO_MEMORY;
	return -1;
}

enum record2_error record2_ply_check(const struct record2 *rec,
				     const struct record2_ply *p)
{
	const char *tc = record2_tag_get(rec, "TimeControl");
	bool pass = strcmp(p->move, "pass") == 0;
	enum record2_error e;

	e = record2_move_check(record2_geom(rec), p->move, strlen(p->move));
	if (e == RECORD2_OK)
		e = record2_annot_check(&p->annot, pass ? RECORD2_PASS_FIELDS :
					RECORD2_PLY_FIELDS, 0, pass);
	if (e == RECORD2_OK && (p->annot.fields & RECORD2_F_CLOCK) &&
	    (tc == NULL || strcmp(tc, "none") == 0))
		e = RECORD2_ERR_CLOCK;
	return e;
}

int record2_ply_add(struct record2 *rec, const char *move,
		    const struct record2_annot *annot,
		    enum record2_error *error_r)
{
	struct record2_ply p;

	memset(&p, 0, sizeof(p));
	if (strlen(move) >= sizeof(p.move)) {
		*error_r = RECORD2_ERR_MOVE;
		return -1;
	}
	strcpy(p.move, move);
	if (annot != NULL)
		p.annot = *annot;
	if ((*error_r = record2_ply_check(rec, &p)) != RECORD2_OK)
		return -1;
	if (record2_grow((void **)&rec->plies, &rec->plies_cap, rec->nplies,
			 sizeof(*rec->plies)) < 0) {
		*error_r = RECORD2_ERR_NO_MEMORY;
		return -1;
	}
	rec->plies[rec->nplies++] = p;
	return 0;
}

int record2_comment_add(struct record2 *rec, const struct record2_comment *c,
			enum record2_error *error_r)
{
	struct record2_comment copy = *c;
	const struct record2_comment_rule *rule;
	size_t tlen = c->text != NULL ? strlen(c->text) : 0;
	enum record2_error e = RECORD2_OK;

	if ((unsigned)c->kind > RECORD2_COMMENT_OTHER) {
		*error_r = RECORD2_ERR_COMMENT;
		return -1;
	}
	rule = &record2_comment_rules[c->kind];
	copy.after = rec->nplies;
	copy.line = 0;
	copy.undone.line = 0;
	copy.text = NULL;
	if (c->kind == RECORD2_COMMENT_UNDONE) {
		if (c->number <= copy.after || c->number > 999999999)
			e = RECORD2_ERR_COMMENT;
		else
			e = record2_ply_check(rec, &c->undone);
	} else if (c->kind != RECORD2_COMMENT_OTHER) {
		e = record2_annot_check(&c->annot, rule->allowed,
					rule->required, false);
	}
	if (e == RECORD2_OK && c->text != NULL &&
	    (!rule->text_allowed || !record2_text_ok(c->text, tlen)))
		e = RECORD2_ERR_TEXT;
	if (e == RECORD2_OK && c->text == NULL && rule->text_required)
		e = RECORD2_ERR_TEXT;
	/* Another kind's text starts with its kind word. */
	if (e == RECORD2_OK && c->kind == RECORD2_COMMENT_OTHER) {
		size_t k = record2_kind_word(c->text, tlen);
		if (k == 0 || (k < tlen && c->text[k] != ' ') ||
		    record2_kind_find(c->text, k) != RECORD2_COMMENT_OTHER)
			e = RECORD2_ERR_COMMENT;
	}
	if (e != RECORD2_OK) {
		*error_r = e;
		return -1;
	}
	if (c->text != NULL &&
	    (copy.text = record2_strndup(c->text, tlen)) == NULL)
		goto nomem;
	if (record2_grow((void **)&rec->comments, &rec->comments_cap,
			 rec->ncomments, sizeof(*rec->comments)) < 0) {
		free(copy.text);
		goto nomem;
	}
	rec->comments[rec->ncomments++] = copy;
	return 0;
nomem:
	*error_r = RECORD2_ERR_NO_MEMORY;
	return -1;
}

int record2_outcome(const struct record2 *rec, enum record2_result *result_r,
		    enum record2_termination *term_r,
		    enum record2_error *error_r)
{
	const char *r = record2_tag_get(rec, "Result");
	const char *t = record2_tag_get(rec, "Termination");

	if (r == NULL || t == NULL) {
		*error_r = RECORD2_ERR_TAG_MISSING;
		return -1;
	}
	if (record2_result_read(r, strlen(r), result_r) < 0) {
		*error_r = RECORD2_ERR_RESULT;
		return -1;
	}
	if (record2_termination_read(t, strlen(t), term_r) < 0) {
		*error_r = RECORD2_ERR_TERMINATION;
		return -1;
	}
	return 0;
}

/* ---- Writing ---- */

void record2_out_printf(struct record2_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->n < o->len ? o->buf + o->n : NULL,
		      o->n < o->len ? o->len - o->n : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->n += (size_t)n;
}

void record2_out_annot(struct record2_out *o, const struct record2_annot *a,
		       const char *open)
{
	char when[RECORD2_TIME_LEN + 1];
	const char *sep = open;

	if (a->fields == 0)
		return;
	if (a->fields & RECORD2_F_PLY) {
		record2_out_printf(o, "%sply=%zu", sep, a->ply);
		sep = " ";
	}
	if (a->fields & RECORD2_F_SIDE) {
		record2_out_printf(o, "%sside=%s", sep,
				   core_color_name(a->side));
		sep = " ";
	}
	if (a->fields & RECORD2_F_SECONDS) {
		record2_out_printf(o, "%sseconds=%+lld", sep,
				   (long long)a->seconds);
		sep = " ";
	}
	if (a->fields & RECORD2_F_DAYS) {
		record2_out_printf(o, "%sdays=%d", sep, a->days);
		sep = " ";
	}
	if (a->fields & RECORD2_F_KEY) {
		record2_out_printf(o, "%skey=%s", sep, a->key);
		sep = " ";
	}
	if (a->fields & RECORD2_F_AT) {
		record2_out_printf(o, "%sat=%s", sep,
				   record2_time_format(a->at, when));
		sep = " ";
	}
	if (a->fields & RECORD2_F_CLOCK) {
		record2_out_printf(o, "%sclock=%lld", sep,
				   (long long)a->clock);
		sep = " ";
	}
	if (a->fields & RECORD2_F_SHA256) {
		record2_out_printf(o, "%ssha256=%s", sep, a->sha256);
		sep = " ";
	}
	if (a->fields & RECORD2_F_COND)
		record2_out_printf(o, "%scond=%zu", sep, a->cond);
	record2_out_printf(o, "}");
}

void record2_out_ply(struct record2_out *o, size_t number,
		     const struct record2_ply *p)
{
	record2_out_printf(o, "%zu. %s%s", number, p->move,
			   strcmp(p->move, "pass") == 0 ? " (forced)" : "");
	record2_out_annot(o, &p->annot, " {");
}

static void out_comment(struct record2_out *o, const struct record2_comment *c)
{
	if (c->kind == RECORD2_COMMENT_OTHER) {
		record2_out_printf(o, "; %s\n", c->text != NULL ? c->text : "");
		return;
	}
	record2_out_printf(o, "; %s ", record2_comment_rules[c->kind].name);
	if (c->kind == RECORD2_COMMENT_UNDONE) {
		record2_out_ply(o, c->number, &c->undone);
	} else {
		record2_out_annot(o, &c->annot, "{");
	}
	if (c->text != NULL)
		record2_out_printf(o, " %s", c->text);
	record2_out_printf(o, "\n");
}

size_t record2_format(const struct record2 *rec, char *buf, size_t len)
{
	const char *result = record2_tag_get(rec, "Result");
	const char *term = record2_tag_get(rec, "Termination");
	struct record2_out o = { buf, len, 0 };
	size_t c = 0;

	if (len > 0)
		buf[0] = '\0';
	record2_out_printf(&o, "%s\n", RECORD2_MAGIC);
	for (size_t i = 0; i < rec->ntags; i++)
		record2_out_printf(&o, "%s: %s\n", rec->tags[i].key,
				   rec->tags[i].value);
	record2_out_printf(&o, "\n");
	for (size_t i = 0; i <= rec->nplies; i++) {
		/* Comments keep their order; `after` never decreases. */
		while (c < rec->ncomments &&
		       (rec->comments[c].after <= i || i == rec->nplies))
			out_comment(&o, &rec->comments[c++]);
		if (i < rec->nplies) {
			record2_out_ply(&o, i + 1, &rec->plies[i]);
			record2_out_printf(&o, "\n");
		}
	}
	record2_out_printf(&o, "result: %s (%s)\n",
			   result != NULL ? result : "*",
			   term != NULL ? term : "ongoing");
	return o.n;
}
