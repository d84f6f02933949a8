/* record.c -- the text game record (docs/record-format.md): a header with
 * the variant, one numbered line per ply (swap and forced passes included)
 * and the result.  Parsing replays and validates every ply; a refusal is a
 * code and its facts (struct record_fault_info), never words.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core-int.h"
#include "core/notation.h"
#include "core/record.h"

int record_init(struct core_record *rec, const struct core_variant *v,
		enum core_error *err_r)
{
	memset(rec, 0, sizeof(*rec));
	if (core_position_init(&rec->pos, v, err_r) < 0)
		return -1;
	rec->variant = *v;
	return 0;
}

void record_free(struct core_record *rec)
{
	free(rec->plies);
	rec->plies = NULL;
	rec->nplies = rec->cap = 0;
}

/* Room for `more` plies after the current ones. */
static int record_reserve(struct core_record *rec, size_t more)
{
	if (rec->nplies + more <= rec->cap)
		return 0;
	size_t cap = rec->cap < 32 ? 32 : rec->cap * 2;
	while (cap < rec->nplies + more)
		cap *= 2;
	struct core_move *p = realloc(rec->plies, cap * sizeof(*p));
	if (p == NULL)
		return -1;
	rec->plies = p;
	rec->cap = cap;
	return 0;
}

int record_play(struct core_record *rec, struct core_move *move,
		enum core_error *err_r)
{
	static const struct core_move pass = {
		.kind = CORE_MOVE_PASS, .from = -1, .to = -1
	};
	int passes;

	/* A move adds itself and at most two forced passes. */
	if (record_reserve(rec, 3) < 0) {
		*err_r = CORE_ERR_NO_MEMORY;
		return -1;
	}
	if (core_play(&rec->pos, move, &passes, err_r) < 0)
		return -1;
	rec->plies[rec->nplies++] = *move;
	for (int i = 0; i < passes; i++)
		rec->plies[rec->nplies++] = pass;
	return 0;
}

int record_play_text(struct core_record *rec, const char *text, size_t len,
		     int *pending_passes, enum core_error *err_r)
{
	struct core_move move;

	if (notation_parse_move(&rec->pos, text, len, &move, err_r) < 0)
		return -1;
	if (move.kind == CORE_MOVE_PASS && pending_passes != NULL &&
	    *pending_passes > 0) {
		/* The pass the server already recorded. */
		(*pending_passes)--;
		return 0;
	}
	size_t before = rec->nplies;
	if (record_play(rec, &move, err_r) < 0)
		return -1;
	if (pending_passes != NULL)
		*pending_passes = (int)(rec->nplies - before - 1);
	return 0;
}

int record_end(struct core_record *rec, enum core_end_reason reason,
	       enum core_color loser, enum core_error *err_r)
{
	return core_end_game(&rec->pos, reason, loser, err_r);
}

/* snprintf-style appender: counts everything, writes what fits. */
struct out {
	char *buf;
	size_t len, n;
};

static void out_printf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct out *o, const char *fmt, ...)
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

size_t record_format(const struct core_record *rec, char *buf, size_t len)
{
	const struct core_geom *g = rec->pos.geom;
	struct out o = { buf, len, 0 };
	char text[CORE_MOVE_TEXT_MAX], variant[64];

	if (len > 0)
		buf[0] = '\0';
	out_printf(&o, "%s\nvariant: %s\n", RECORD_MAGIC,
		   notation_format_variant(&rec->variant, variant,
					   sizeof(variant)));
	for (size_t i = 0; i < rec->nplies; i++) {
		const struct core_move *m = &rec->plies[i];
		out_printf(&o, "%zu. %s%s\n", i + 1,
			   notation_format_move(g, m, text),
			   m->kind == CORE_MOVE_PASS ? " (forced)" : "");
	}
	if (rec->pos.result == CORE_ONGOING)
		out_printf(&o, "result: ongoing\n");
	else
		out_printf(&o, "result: %s (%s)\n",
			   core_result_name(rec->pos.result),
			   core_end_reason_name(rec->pos.end_reason));
	return o.n;
}

/* Indexed by enum record_fault: the code words of faults. */
static const char *const record_fault_names[RECORD_FAULT_COUNT] = {
	[RECORD_FAULT_NONE] = "none",
	[RECORD_FAULT_EMPTY] = "empty",
	[RECORD_FAULT_NUL] = "nul",
	[RECORD_FAULT_MAGIC] = "magic",
	[RECORD_FAULT_NO_VARIANT] = "no_variant",
	[RECORD_FAULT_VARIANT_LINE] = "variant_line",
	[RECORD_FAULT_OPTION_TOO_LONG] = "option_too_long",
	[RECORD_FAULT_OPTION] = "option",
	[RECORD_FAULT_VARIANT] = "variant",
	[RECORD_FAULT_PLY_UNNUMBERED] = "ply_unnumbered",
	[RECORD_FAULT_PLY_MISNUMBERED] = "ply_misnumbered",
	[RECORD_FAULT_PLY_UNREADABLE] = "ply_unreadable",
	[RECORD_FAULT_PLY_FORCED] = "ply_forced",
	[RECORD_FAULT_PLY_NOT_PASS] = "ply_not_pass",
	[RECORD_FAULT_PASS_MISSING] = "pass_missing",
	[RECORD_FAULT_PASS_NOT_FORCED] = "pass_not_forced",
	[RECORD_FAULT_PLY_ILLEGAL] = "ply_illegal",
	[RECORD_FAULT_RESULT_UNKNOWN] = "result_unknown",
	[RECORD_FAULT_RESULT_NO_REASON] = "result_no_reason",
	[RECORD_FAULT_RESULT_TRAILING] = "result_trailing",
	[RECORD_FAULT_RESULT_GAME_ON] = "result_game_on",
	[RECORD_FAULT_RESULT_MISMATCH] = "result_mismatch",
	[RECORD_FAULT_RESULT_REASON] = "result_reason",
	[RECORD_FAULT_RESULT_END] = "result_end",
	[RECORD_FAULT_AFTER_RESULT] = "after_result",
};

const char *record_fault_name(enum record_fault fault)
{
	return core_table_name(record_fault_names, RECORD_FAULT_COUNT,
			       (unsigned)fault);
}

struct parse {
	struct core_record *rec;
	struct record_fault_info info; /* the first fault */
};

/* Note the fault (the caller fills in its facts in p->info); returns -1. */
static int parse_fail(struct parse *p, enum core_error err,
		      enum record_fault fault)
{
	p->info.err = err;
	p->info.fault = fault;
	return -1;
}

/* The same, naming len bytes of the parsed text as the words at fault. */
static int parse_fail_text(struct parse *p, enum core_error err,
			   enum record_fault fault, const char *s, size_t len)
{
	p->info.text = s;
	p->info.text_len = len;
	return parse_fail(p, err, fault);
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

static int parse_variant(struct parse *p, const char *s, size_t len)
{
	struct core_variant v;
	enum core_error err;
	char opt[32];

	core_variant_default(&v);
	while (len > 0) {
		size_t n = 0;
		while (len > 0 && (*s == ' ' || *s == '\t'))
			s++, len--;
		while (n < len && s[n] != ' ' && s[n] != '\t')
			n++;
		if (n == 0)
			break;
		if (n >= sizeof(opt))
			return parse_fail_text(p, CORE_ERR_BAD_VARIANT,
					       RECORD_FAULT_OPTION_TOO_LONG,
					       s, n);
		memcpy(opt, s, n);
		opt[n] = '\0';
		if (notation_parse_variant_option(&v, opt, &err) < 0)
			return parse_fail_text(p, err, RECORD_FAULT_OPTION,
					       s, n);
		s += n;
		len -= n;
	}
	if (record_init(p->rec, &v, &err) < 0)
		return parse_fail(p, err, RECORD_FAULT_VARIANT);
	return 0;
}

/* "N. MOVE" or "N. pass (forced)", ply *parsed + 1 (counted on success). */
static int parse_ply(struct parse *p, const char *s, size_t len,
		     size_t *parsed)
{
	struct core_record *rec = p->rec;
	size_t i = 0, number = 0;
	struct core_move move;
	enum core_error err;

	while (i < len && s[i] >= '0' && s[i] <= '9' && i < 9)
		number = number * 10 + (size_t)(s[i++] - '0');
	if (i == 0 || i + 1 >= len || s[i] != '.' || s[i + 1] != ' ')
		return parse_fail(p, CORE_ERR_RECORD,
				  RECORD_FAULT_PLY_UNNUMBERED);
	if (number != *parsed + 1) {
		p->info.numbered = number;
		return parse_fail(p, CORE_ERR_RECORD,
				  RECORD_FAULT_PLY_MISNUMBERED);
	}
	s += i + 2;
	len -= i + 2;
	bool forced = len > 9 && memcmp(s + len - 9, " (forced)", 9) == 0;
	if (forced)
		len -= 9;
	if (notation_parse_move(&rec->pos, s, len, &move, &err) < 0)
		return parse_fail_text(p, err, RECORD_FAULT_PLY_UNREADABLE,
				       s, len);
	if (forced && move.kind != CORE_MOVE_PASS)
		return parse_fail(p, CORE_ERR_RECORD, RECORD_FAULT_PLY_FORCED);
	if (*parsed < rec->nplies) {
		/* The replay already made this ply a forced pass. */
		if (move.kind != CORE_MOVE_PASS)
			return parse_fail(p, CORE_ERR_RECORD,
					  RECORD_FAULT_PLY_NOT_PASS);
		(*parsed)++;
		return 0;
	}
	struct core_position before = rec->pos;
	if (record_play(rec, &move, &err) < 0) {
		/* The move as the replay left it: "e5xa1" once it saw the
		 * stack on a1. */
		notation_format_move(before.geom, &move, p->info.move_text);
		p->info.geom = before.geom;
		core_check_info(&before, &move, err, &p->info.check);
		return parse_fail(p, err,
				  move.kind == CORE_MOVE_PASS &&
				  err == CORE_ERR_PASS_NOT_FORCED ?
				  RECORD_FAULT_PASS_NOT_FORCED :
				  RECORD_FAULT_PLY_ILLEGAL);
	}
	(*parsed)++;
	return 0;
}

static int parse_result(struct parse *p, const char *s, size_t len)
{
	struct core_position *pos = &p->rec->pos;
	enum core_result result = CORE_ONGOING;
	enum core_end_reason reason = CORE_END_NONE;
	enum core_error err;
	size_t n;

	for (n = 0; n < len && s[n] != ' '; n++)
		;
	for (int r = CORE_ONGOING; r <= CORE_RESULT_DRAW; r++) {
		const char *name = core_result_name((enum core_result)r);
		if (strlen(name) == n && memcmp(s, name, n) == 0)
			result = (enum core_result)r;
		else
			continue;
		goto found_result;
	}
	return parse_fail_text(p, CORE_ERR_RECORD,
			       RECORD_FAULT_RESULT_UNKNOWN, s, n);
found_result:
	s += n;
	len -= n;
	if (result != CORE_ONGOING) {
		bool ok = false;
		if (len >= 3 && s[0] == ' ' && s[1] == '(' && s[len - 1] == ')') {
			for (int r = CORE_END_ELIMINATION; r <= CORE_END_TIME; r++) {
				const char *name = core_end_reason_name((enum core_end_reason)r);
				if (strlen(name) == len - 3 &&
				    memcmp(s + 2, name, len - 3) == 0) {
					reason = (enum core_end_reason)r;
					ok = true;
				}
			}
		}
		if (!ok)
			return parse_fail(p, CORE_ERR_RECORD,
					  RECORD_FAULT_RESULT_NO_REASON);
	} else if (len != 0) {
		return parse_fail(p, CORE_ERR_RECORD,
				  RECORD_FAULT_RESULT_TRAILING);
	}

	p->info.result = result;
	p->info.end_reason = reason;
	if (pos->result != CORE_ONGOING || result == CORE_ONGOING ||
	    reason == CORE_END_ELIMINATION || reason == CORE_END_DOUBLE_PASS) {
		/* Decided by the moves: the line must say what they did. */
		if (pos->result == (uint8_t)result &&
		    pos->end_reason == (uint8_t)reason)
			return 0;
		if (pos->result == CORE_ONGOING)
			return parse_fail(p, CORE_ERR_RECORD,
					  RECORD_FAULT_RESULT_GAME_ON);
		p->info.played_result = (enum core_result)pos->result;
		p->info.played_end_reason =
			(enum core_end_reason)pos->end_reason;
		return parse_fail(p, CORE_ERR_RECORD,
				  RECORD_FAULT_RESULT_MISMATCH);
	}
	if ((reason == CORE_END_AGREED_DRAW) != (result == CORE_RESULT_DRAW))
		return parse_fail(p, CORE_ERR_RECORD,
				  RECORD_FAULT_RESULT_REASON);
	if (record_end(p->rec, reason,
		       result == CORE_RESULT_WHITE ? CORE_BLACK : CORE_WHITE,
		       &err) < 0)
		return parse_fail(p, err, RECORD_FAULT_RESULT_END);
	return 0;
}

int record_parse_detail(struct core_record *rec_r, const char *text,
			size_t len, struct record_fault_info *fault_r)
{
	struct parse p;
	enum { WANT_MAGIC, WANT_VARIANT, PLIES, DONE } state = WANT_MAGIC;
	size_t at = 0, parsed = 0;
	int line = 0;

	memset(&p, 0, sizeof(p));
	p.rec = rec_r;
	memset(rec_r, 0, sizeof(*rec_r));
	while (at < len) {
		const char *s = text + at;
		size_t n = 0;
		while (at + n < len && s[n] != '\n')
			n++;
		at += n + 1;
		line++;
		/* Blank lines, comments and line-end blanks mean nothing. */
		size_t l = n;
		while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t' ||
				 s[l - 1] == '\r'))
			l--;
		while (l > 0 && (*s == ' ' || *s == '\t'))
			s++, l--;
		if (l == 0 || s[0] == '#')
			continue;
		if (memchr(s, '\0', l) != NULL) {
			parse_fail(&p, CORE_ERR_RECORD, RECORD_FAULT_NUL);
			goto fail;
		}
		switch (state) {
		case WANT_MAGIC:
			if (l != strlen(RECORD_MAGIC) ||
			    memcmp(s, RECORD_MAGIC, l) != 0) {
				parse_fail(&p, CORE_ERR_RECORD,
					   RECORD_FAULT_MAGIC);
				goto fail;
			}
			state = WANT_VARIANT;
			break;
		case WANT_VARIANT:
			if (!starts_with(s, l, "variant:")) {
				parse_fail(&p, CORE_ERR_RECORD,
					   RECORD_FAULT_VARIANT_LINE);
				goto fail;
			}
			if (parse_variant(&p, s + 8, l - 8) < 0)
				goto fail;
			state = PLIES;
			break;
		case PLIES:
			if (starts_with(s, l, "result:")) {
				if (parsed < rec_r->nplies) {
					p.info.ply = parsed + 1;
					parse_fail(&p, CORE_ERR_RECORD,
						   RECORD_FAULT_PASS_MISSING);
					goto fail;
				}
				size_t k = 7;
				while (k < l && s[k] == ' ')
					k++;
				if (parse_result(&p, s + k, l - k) < 0)
					goto fail;
				state = DONE;
				break;
			}
			if (parse_ply(&p, s, l, &parsed) < 0) {
				p.info.ply = parsed + 1;
				goto fail;
			}
			break;
		case DONE:
			parse_fail(&p, CORE_ERR_RECORD,
				   RECORD_FAULT_AFTER_RESULT);
			goto fail;
		}
	}
	if (state != PLIES && state != DONE) {
		parse_fail(&p, CORE_ERR_RECORD, state == WANT_MAGIC ?
			   RECORD_FAULT_EMPTY : RECORD_FAULT_NO_VARIANT);
		goto fail;
	}
	if (parsed < rec_r->nplies) {
		p.info.ply = parsed + 1;
		parse_fail(&p, CORE_ERR_RECORD, RECORD_FAULT_PASS_MISSING);
		goto fail;
	}
	return 0;
fail:
	record_free(rec_r);
	p.info.line = line;
	if (fault_r != NULL)
		*fault_r = p.info;
	return -1;
}

int record_parse(struct core_record *rec_r, const char *text, size_t len,
		 int *line_r, enum core_error *err_r)
{
	struct record_fault_info fault;

	if (record_parse_detail(rec_r, text, len, &fault) == 0)
		return 0;
	if (line_r != NULL)
		*line_r = fault.line;
	*err_r = fault.err;
	return -1;
}
