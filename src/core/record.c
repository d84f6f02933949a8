/* record.c -- the text game record (docs/record-format.md): a header with
 * the variant, one numbered line per ply (swap and forced passes included)
 * and the result.  Parsing replays and validates every ply.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/record.h"

#define RECORD_MAGIC "ashes-record 1"

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

struct parse {
	struct core_record *rec;
	char *msg;
	size_t msglen;
	enum core_error err;
};

static int parse_fail(struct parse *p, enum core_error err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_fail(struct parse *p, enum core_error err, const char *fmt, ...)
{
	va_list ap;

	p->err = err;
	if (p->msg != NULL && p->msglen > 0) {
		va_start(ap, fmt);
		vsnprintf(p->msg, p->msglen, fmt, ap);
		va_end(ap);
	}
	return -1;
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
			return parse_fail(p, CORE_ERR_BAD_VARIANT,
					  "unknown variant option '%.*s'",
					  (int)n, s);
		memcpy(opt, s, n);
		opt[n] = '\0';
		if (notation_parse_variant_option(&v, opt, &err) < 0)
			return parse_fail(p, err, "%s: '%s'",
					  core_error_string(err), opt);
		s += n;
		len -= n;
	}
	if (record_init(p->rec, &v, &err) < 0)
		return parse_fail(p, err, "%s", core_error_string(err));
	return 0;
}

/* "N. MOVE" or "N. pass (forced)". */
static int parse_ply(struct parse *p, const char *s, size_t len,
		     size_t *parsed)
{
	struct core_record *rec = p->rec;
	size_t i = 0, number = 0;
	struct core_move move;
	enum core_error err;
	char text[CORE_MOVE_TEXT_MAX];

	while (i < len && s[i] >= '0' && s[i] <= '9' && i < 9)
		number = number * 10 + (size_t)(s[i++] - '0');
	if (i == 0 || i + 1 >= len || s[i] != '.' || s[i + 1] != ' ')
		return parse_fail(p, CORE_ERR_RECORD,
				  "expected a numbered ply like '%zu. e5-c3' or the result line",
				  *parsed + 1);
	if (number != *parsed + 1)
		return parse_fail(p, CORE_ERR_RECORD,
				  "ply %zu is numbered %zu", *parsed + 1,
				  number);
	s += i + 2;
	len -= i + 2;
	bool forced = len > 9 && memcmp(s + len - 9, " (forced)", 9) == 0;
	if (forced)
		len -= 9;
	if (notation_parse_move(&rec->pos, s, len, &move, &err) < 0)
		return parse_fail(p, err, "ply %zu: '%.*s': %s",
				  number, (int)len, s, core_error_string(err));
	if (forced && move.kind != CORE_MOVE_PASS)
		return parse_fail(p, CORE_ERR_RECORD,
				  "ply %zu: only a pass can be forced", number);
	if (*parsed < rec->nplies) {
		/* The replay already made this ply a forced pass. */
		if (move.kind != CORE_MOVE_PASS)
			return parse_fail(p, CORE_ERR_RECORD,
					  "ply %zu must be a forced pass: the player to move has no legal move there",
					  number);
		(*parsed)++;
		return 0;
	}
	struct core_position before = rec->pos;
	if (record_play(rec, &move, &err) < 0) {
		char why[256];
		notation_format_move(before.geom, &move, text);
		if (move.kind == CORE_MOVE_PASS && err == CORE_ERR_PASS_NOT_FORCED)
			snprintf(why, sizeof(why), "%s has a legal move, so a pass cannot be played here",
				 core_color_name(before.to_move));
		else
			core_explain_move(&before, &move, err, why, sizeof(why));
		return parse_fail(p, err, "ply %zu (%s): %s", number, text, why);
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
	return parse_fail(p, CORE_ERR_RECORD,
			  "unknown result '%.*s': expected ongoing, white, black or draw",
			  (int)n, s);
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
					  "the result needs its reason in brackets: elimination, double pass, resignation, agreed draw or time");
	} else if (len != 0) {
		return parse_fail(p, CORE_ERR_RECORD,
				  "nothing may follow 'result: ongoing'");
	}

	if (pos->result != CORE_ONGOING || result == CORE_ONGOING ||
	    reason == CORE_END_ELIMINATION || reason == CORE_END_DOUBLE_PASS) {
		/* Decided by the moves: the line must say what they did. */
		if (pos->result == (uint8_t)result &&
		    pos->end_reason == (uint8_t)reason)
			return 0;
		if (pos->result == CORE_ONGOING)
			return parse_fail(p, CORE_ERR_RECORD,
					  "the result says %s (%s), but after these plies the game is still on",
					  core_result_name(result),
					  core_end_reason_name(reason));
		return parse_fail(p, CORE_ERR_RECORD,
				  "the result says %s, but the plies end the game with %s (%s)",
				  core_result_name(result),
				  core_result_name(pos->result),
				  core_end_reason_name(pos->end_reason));
	}
	if ((reason == CORE_END_AGREED_DRAW) != (result == CORE_RESULT_DRAW))
		return parse_fail(p, CORE_ERR_RECORD,
				  "%s cannot end with %s",
				  core_result_name(result),
				  core_end_reason_name(reason));
	if (record_end(p->rec, reason,
		       result == CORE_RESULT_WHITE ? CORE_BLACK : CORE_WHITE,
		       &err) < 0)
		return parse_fail(p, err, "%s", core_error_string(err));
	return 0;
}

int record_parse_detail(struct core_record *rec_r, const char *text,
			size_t len, int *line_r, enum core_error *err_r,
			char *msg, size_t msglen)
{
	struct parse p = { rec_r, msg, msglen, CORE_OK };
	enum { WANT_MAGIC, WANT_VARIANT, PLIES, DONE } state = WANT_MAGIC;
	size_t at = 0, parsed = 0;
	int line = 0;

	memset(rec_r, 0, sizeof(*rec_r));
	if (msg != NULL && msglen > 0)
		msg[0] = '\0';
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
			parse_fail(&p, CORE_ERR_RECORD, "a NUL byte in the record");
			goto fail;
		}
		switch (state) {
		case WANT_MAGIC:
			if (l != strlen(RECORD_MAGIC) ||
			    memcmp(s, RECORD_MAGIC, l) != 0) {
				parse_fail(&p, CORE_ERR_RECORD,
					   "a record starts with the line '%s'",
					   RECORD_MAGIC);
				goto fail;
			}
			state = WANT_VARIANT;
			break;
		case WANT_VARIANT:
			if (!starts_with(s, l, "variant:")) {
				parse_fail(&p, CORE_ERR_RECORD,
					   "expected the line 'variant: size=N tax=removed|lost [swap]'");
				goto fail;
			}
			if (parse_variant(&p, s + 8, l - 8) < 0)
				goto fail;
			state = PLIES;
			break;
		case PLIES:
			if (starts_with(s, l, "result:")) {
				if (parsed < rec_r->nplies) {
					parse_fail(&p, CORE_ERR_RECORD,
						   "ply %zu, a forced pass, is missing",
						   parsed + 1);
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
			if (parse_ply(&p, s, l, &parsed) < 0)
				goto fail;
			break;
		case DONE:
			parse_fail(&p, CORE_ERR_RECORD,
				   "nothing may follow the result line");
			goto fail;
		}
	}
	if (state != PLIES && state != DONE) {
		parse_fail(&p, CORE_ERR_RECORD, state == WANT_MAGIC ?
			   "the record is empty" :
			   "the record has no variant line");
		goto fail;
	}
	if (parsed < rec_r->nplies) {
		parse_fail(&p, CORE_ERR_RECORD,
			   "ply %zu, a forced pass, is missing", parsed + 1);
		goto fail;
	}
	return 0;
fail:
	record_free(rec_r);
	if (line_r != NULL)
		*line_r = line;
	*err_r = p.err;
	return -1;
}

int record_parse(struct core_record *rec_r, const char *text, size_t len,
		 int *line_r, enum core_error *err_r)
{
	return record_parse_detail(rec_r, text, len, line_r, err_r, NULL, 0);
}
