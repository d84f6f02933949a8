/* archive_verify.c -- `ashes archive verify`: an archive checked with no
 * database and a keyring of its own (see archive.h).  The players'
 * signatures prove the game, so they come first, ply by ply: files,
 * signature, the signed text against the record (game, ply, move, and
 * how firmly), the signer, the sha256, the signature's time; then the
 * other mails and the comments that name them, the replay of the record
 * through the rules with its result, the clocks, the resignation's own
 * mail; last MANIFEST, which is only the daemon's word that nothing was
 * added or left out, and its signature. */
#include <config.h>
#include "archive/archive_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/notation.h"
#include "core/variant.h"
#include "mail/inbound.h"
#include "server/command.h"
#include "util/xstr.h"
#include "util/run.h"

/* The daemon's defaults when the record names no window (mail/inbound.h). */
#define VERIFY_MAX_AGE (7 * 24 * 3600)
#define VERIFY_MAX_FUTURE (10 * 60)

static const char *const reason_names[ARCHIVE_REASON_COUNT] = {
	[ARCHIVE_OK] = "ok",
	[ARCHIVE_TAMPERED_MAIL] = "tampered mail",
	[ARCHIVE_MISSING_PLY] = "missing ply",
	[ARCHIVE_WRONG_PLY] = "wrong ply",
	[ARCHIVE_ILLEGAL_MOVE] = "illegal move",
	[ARCHIVE_FOREIGN_SIGNER] = "foreign signer",
	[ARCHIVE_RESULT_MISMATCH] = "result mismatch",
	[ARCHIVE_UNSIGNED] = "unsigned ply",
	[ARCHIVE_BAD_RECORD] = "bad record",
	[ARCHIVE_TAMPERED_MANIFEST] = "tampered manifest",
	[ARCHIVE_CLOCK_MISMATCH] = "clock mismatch",
	[ARCHIVE_LATE_MOVE] = "late move",
	[ARCHIVE_FORGED_CONDITIONAL] = "forged conditional",
};

const char *archive_reason_name(enum archive_reason reason)
{
	if ((unsigned)reason >= ARCHIVE_REASON_COUNT)
		return "unknown";
	return reason_names[reason];
}

/* The last 16 hex digits of a fingerprint. */
static const char *verify_short(const char *fpr)
{
	size_t n = strlen(fpr);

	return n > RECORD2_KEY_SHORT ? fpr + n - RECORD2_KEY_SHORT : fpr;
}

static const char *verify_binding_words(enum archive_binding b)
{
	switch (b) {
	case ARCHIVE_BIND_TEXT:
		return "bound by the signed text";
	case ARCHIVE_BIND_GAME:
		return "bound only by the unsigned In-Reply-To header (the "
		       "signed text names the game, not this ply)";
	case ARCHIVE_BIND_HEADER:
		return "bound only by the unsigned In-Reply-To header";
	case ARCHIVE_BIND_NONE:
		break;
	}
	return "not bound";
}

/* ---- the record ---------------------------------------------------- */

static enum archive_reason verify_record_reason(enum record2_error e)
{
	switch (e) {
	case RECORD2_ERR_RESULT:
	case RECORD2_ERR_TERMINATION:
	case RECORD2_ERR_RESULT_TERMINATION:
	case RECORD2_ERR_RESULT_LINE:
	case RECORD2_ERR_RESULT_MISMATCH:
	case RECORD2_ERR_GAME_ON:
	case RECORD2_ERR_NO_DRAWS:
		return ARCHIVE_RESULT_MISMATCH;
	case RECORD2_ERR_PLY_NUMBER:
		return ARCHIVE_WRONG_PLY;
	case RECORD2_ERR_PLY_ILLEGAL:
	case RECORD2_ERR_PASS_NOT_FORCED:
	case RECORD2_ERR_PASS_MISSING:
	case RECORD2_ERR_NOT_CANONICAL:
		return ARCHIVE_ILLEGAL_MOVE;
	case RECORD2_ERR_SIGNER:
		return ARCHIVE_FOREIGN_SIGNER;
	default:
		return ARCHIVE_BAD_RECORD;
	}
}

static int verify_record(struct verify *v)
{
	struct buf text = BUF_INIT;
	struct record2_fault f;
	const char *game, *window;
	long long age, future;
	int ret = 1;

	if (archive_read_file(v->dir, "record.txt", 4 * 1024 * 1024,
			      &text) < 0) {
		ret = verify_fail(v, ARCHIVE_BAD_RECORD, 0, "record.txt: %s",
				  strerror(errno));
		goto out;
	}
	if (record2_parse_detail(text.data, text.len, &v->rec, &f) < 0) {
		ret = verify_fail(v, verify_record_reason(f.error), f.ply,
				  "record.txt:%d does not read: %s%s%s", f.line,
				  record2_error_name(f.error),
				  f.tag[0] ? ", tag " : "", f.tag);
		goto out;
	}
	game = record2_tag_get(&v->rec, "Game");
	if (game == NULL || (v->game = strtoll(game, NULL, 10)) <= 0) {
		ret = verify_fail(v, ARCHIVE_BAD_RECORD, 0, "record.txt has "
				  "no Game tag: the signed texts cannot be "
				  "held against a game");
		goto out;
	}
	v->max_age = VERIFY_MAX_AGE;
	v->max_future = VERIFY_MAX_FUTURE;
	window = record2_tag_get(&v->rec, "SignatureWindow");
	if (window != NULL &&
	    sscanf(window, "max-age=%lld max-future=%lld", &age,
		   &future) == 2 && age > 0 && future >= 0) {
		v->max_age = age;
		v->max_future = future;
	}
	v->v->game = v->game;
	v->v->plies = v->rec.nplies;
	snprintf(v->v->result, sizeof(v->v->result), "%s",
		 record2_tag_get(&v->rec, "Result") != NULL ?
		 record2_tag_get(&v->rec, "Result") : "*");
	ret = 0;
out:
	buf_free(&text);
	return ret;
}

/* ---- the plies ----------------------------------------------------- */

/* The player who made ply i (0-based) at pos: before the swap the
 * players hold the colours they give up by it. */
static enum core_color verify_mover(const struct record2 *rec, size_t i,
				    const struct core_position *pos)
{
	bool swap = rec->nplies >= 2 && strcmp(rec->plies[1].move,
					       "swap") == 0;

	return swap && i <= 1 ? (enum core_color)!pos->to_move :
	       (enum core_color)pos->to_move;
}

int verify_signer(struct verify *v, size_t i, enum core_color mover,
			 const struct verify_mail *m)
{
	const struct record2_ply *p = &v->rec.plies[i];
	const char *tag = mover == CORE_WHITE ? "WhiteKey" : "BlackKey";
	const char *want = record2_tag_get(&v->rec, tag);

	if (!(p->annot.fields & RECORD2_F_KEY))
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, i + 1,
				   "the record names no signer of ply %zu, "
				   "%s is signed by %s", i + 1, m->stem,
				   m->sig.fpr);
	if (strcmp(p->annot.key, verify_short(m->sig.fpr)) != 0)
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, i + 1,
				   "%s is signed by %s, the record says key "
				   "%s", m->stem, m->sig.fpr, p->annot.key);
	if (want != NULL && strcasecmp(want, m->sig.fpr) != 0)
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, i + 1,
				   "%s is signed by %s, not by the mover's "
				   "key %s (%s)", m->stem, m->sig.fpr, tag,
				   want);
	return 0;
}

/* The signed text says this move as this ply of this game. */
static int verify_binding(struct verify *v, size_t i,
			  const struct core_position *pos,
			  const struct verify_mail *m,
			  enum archive_binding *b_r)
{
	const char *move = v->rec.plies[i].move;
	char other[COMMAND_TEXT_MAX + 64];

	archive_bind(m->text, pos, v->game, i + 1, move, b_r, other,
		     sizeof(other));
	if (*b_r == ARCHIVE_BIND_NONE)
		return verify_fail(v, ARCHIVE_WRONG_PLY, i + 1,
				   "the signed text of %s does not play %s as "
				   "ply %zu of game %" PRId64 "%s%s", m->stem,
				   move, i + 1, v->game,
				   other[0] ? ": it says " : "", other);
	/* Nothing signed names the game: the headers must, at least. */
	if (*b_r == ARCHIVE_BIND_HEADER &&
	    command_thread_game(m->subject, m->thread, NULL) != v->game)
		return verify_fail(v, ARCHIVE_WRONG_PLY, i + 1,
				   "nothing binds %s to game %" PRId64 ": "
				   "neither its signed text nor its headers",
				   m->stem, v->game);
	return 0;
}

/* The signature's time: after the last ply's, and in the window the
 * daemon took signatures in, around the receipt. */
static int verify_time(struct verify *v, size_t i,
		       const struct verify_mail *m, int64_t *last)
{
	const struct record2_annot *a = &v->rec.plies[i].annot;
	char t1[RECORD2_TIME_LEN + 1], t2[RECORD2_TIME_LEN + 1];
	int64_t created = (int64_t)m->sig.created;

	if (created < *last)
		return verify_fail(v, ARCHIVE_WRONG_PLY, i + 1,
				   "%s was signed %s, before the ply before "
				   "it (%s)", m->stem,
				   record2_time_format(created, t1),
				   record2_time_format(*last, t2));
	if ((a->fields & RECORD2_F_AT) &&
	    (created < a->at - v->max_age || created > a->at + v->max_future))
		return verify_fail(v, ARCHIVE_WRONG_PLY, i + 1,
				   "%s was signed %s and received %s: outside "
				   "the replay window", m->stem,
				   record2_time_format(created, t1),
				   record2_time_format(a->at, t2));
	*last = created;
	return 0;
}

static int verify_ply(struct verify *v, size_t i, struct core_record *core,
		      int64_t *last, const char **error_r)
{
	const struct record2_ply *p = &v->rec.plies[i];
	const char *color, *name;
	char stem[16], when[RECORD2_TIME_LEN + 1], got[RECORD2_TIME_LEN + 1];
	char clock[48] = "";
	struct verify_mail *m;
	enum archive_binding b;
	enum core_color mover;
	struct core_move mv;
	enum core_error err;
	int r;

	if (i < core->nplies) {
		/* The move before forced this pass. */
		if (strcmp(p->move, "pass") != 0)
			return verify_fail(v, ARCHIVE_ILLEGAL_MOVE, i + 1,
					   "ply %zu must be a forced pass, the "
					   "record says %s", i + 1, p->move);
		fprintf(v->out, "ply %zu pass (forced): no mail, forced by "
			"ply %zu\n", i + 1, i);
		return 0;
	}
	if (strcmp(p->move, "pass") == 0)
		return verify_fail(v, ARCHIVE_ILLEGAL_MOVE, i + 1,
				   "ply %zu is a forced pass, and nothing "
				   "forces one there", i + 1);
	mover = verify_mover(&v->rec, i, &core->pos);
	/* A reply from conditional moves: its mail is no ply's. */
	if (p->annot.fields & RECORD2_F_COND)
		return verify_cond_ply(v, i, mover, core, error_r);
	snprintf(stem, sizeof(stem), "%04u", (unsigned)(i + 1));
	r = verify_mail_load(v, stem, ARCHIVE_MISSING_PLY, i + 1, &m,
			     error_r);
	if (r != 0)
		return r;
	m->named = true;
	if (m->kind == PGP_SIGNED_NONE)
		return verify_fail(v, (p->annot.fields & RECORD2_F_SHA256) ?
				   ARCHIVE_MISSING_PLY : ARCHIVE_UNSIGNED,
				   i + 1, "%s.eml is not signed%s", stem,
				   (p->annot.fields & RECORD2_F_SHA256) ?
				   ", and its signed part is not in the "
				   "archive" : "");
	if ((r = verify_binding(v, i, &core->pos, m, &b)) != 0 ||
	    (r = verify_signer(v, i, mover, m)) != 0)
		return r;
	if (!(p->annot.fields & RECORD2_F_SHA256) ||
	    strcmp(p->annot.sha256, m->sha256) != 0)
		return verify_fail(v, ARCHIVE_TAMPERED_MAIL, i + 1,
				   "the signed part of %s has sha256 %s, the "
				   "record says %s", stem, m->sha256,
				   (p->annot.fields & RECORD2_F_SHA256) ?
				   p->annot.sha256 : "none");
	if ((r = verify_time(v, i, m, last)) != 0)
		return r;
	if (notation_parse_move(&core->pos, p->move, strlen(p->move), &mv,
				&err) < 0 || record_play(core, &mv, &err) < 0)
		return verify_fail(v, ARCHIVE_ILLEGAL_MOVE, i + 1,
				   "ply %zu, %s: the rules refuse it (%s)",
				   i + 1, p->move, core_error_name(err));
	color = mover == CORE_WHITE ? "White" : "Black";
	name = record2_tag_get(&v->rec, color);
	if (p->annot.fields & RECORD2_F_CLOCK)
		snprintf(clock, sizeof(clock), ", clock %" PRId64 "s",
			 p->annot.clock);
	fprintf(v->out, "ply %zu %s: %s %s, signed by %s (%s%s%s) %s, "
		"received %s%s, %s\n", i + 1, p->move, stem,
		verify_form(m->kind), verify_short(m->sig.fpr), color,
		name != NULL ? " " : "", name != NULL ? name : "",
		record2_time_format((int64_t)m->sig.created, when),
		record2_time_format(p->annot.at, got), clock,
		verify_binding_words(b));
	return 0;
}

static int verify_plies(struct verify *v, const char **error_r)
{
	struct core_record core;
	struct core_variant var;
	enum core_error err;
	const char *text = record2_tag_get(&v->rec, "Variant");
	int64_t last = INT64_MIN;
	int r = 0;

	core_variant_default(&var);
	if (text == NULL || core_variant_parse(&var, text, &err) < 0 ||
	    record_init(&core, &var, &err) < 0)
		return verify_fail(v, ARCHIVE_BAD_RECORD, 0, "record.txt: no "
				   "variant the rules know");
	for (size_t i = 0; i < v->rec.nplies && r == 0; i++)
		r = verify_ply(v, i, &core, &last, error_r);
	record_free(&core);
	if (r != 0)
		return r;
	/* A ply's mail the record does not have. */
	for (size_t i = 0; i < v->nnames; i++) {
		unsigned long n;
		char rest[16];
		if (sscanf(v->names[i], "%4lu.%15s", &n, rest) == 2 &&
		    strlen(v->names[i]) > 5 && v->names[i][4] == '.' &&
		    n > v->rec.nplies)
			return verify_fail(v, ARCHIVE_MISSING_PLY, n,
					   "%s is in the archive, the record "
					   "ends at ply %zu", v->names[i],
					   v->rec.nplies);
	}
	return 0;
}

/* ---- the other mails, and what the comments name ----------------- */

/* Is fpr the key of WhiteKey or BlackKey (or are they not given)? */
static bool verify_player_key(const struct verify *v, const char *fpr)
{
	const char *w = record2_tag_get(&v->rec, "WhiteKey");
	const char *b = record2_tag_get(&v->rec, "BlackKey");

	if (w == NULL && b == NULL)
		return true;
	return (w != NULL && strcasecmp(w, fpr) == 0) ||
	       (b != NULL && strcasecmp(b, fpr) == 0);
}

/* Every mail that is no ply's: signed well, by one of the players. */
static int verify_other_mails(struct verify *v, const char **error_r)
{
	for (size_t i = 0; i < v->nnames; i++) {
		const char *name = v->names[i];
		char stem[16], when[RECORD2_TIME_LEN + 1];
		struct verify_mail *m;
		struct command_list list;
		size_t n = strlen(name);
		int r;

		if (n < 5 || strcmp(name + n - 4, ".eml") != 0 ||
		    (n == 8 && name[0] >= '0' && name[0] <= '9'))
			continue;
		if (n - 4 >= sizeof(stem))
			return verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
					   "%s: not a name an archive gives",
					   name);
		snprintf(stem, sizeof(stem), "%.*s", (int)(n - 4), name);
		/* A conditional ply's mail was read with its ply. */
		if ((m = verify_mail_by_stem(v, stem)) == NULL &&
		    (r = verify_mail_load(v, stem, ARCHIVE_TAMPERED_MAIL, 0,
					  &m, error_r)) != 0)
			return r;
		if (m->kind != PGP_SIGNED_NONE &&
		    !verify_player_key(v, m->sig.fpr))
			return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, 0,
					   "%s is signed by %s, who plays "
					   "neither side", stem, m->sig.fpr);
		command_parse_mail(NULL, m->text, strlen(m->text), v->game,
				   &list);
		fprintf(v->out, "%s: %s", stem, verify_form(m->kind));
		if (m->kind != PGP_SIGNED_NONE)
			fprintf(v->out, ", signed by %s %s",
				verify_short(m->sig.fpr),
				record2_time_format((int64_t)m->sig.created,
						    when));
		fprintf(v->out, ": %s\n", list.count > 0 ?
			list.items[0].text : "(no command)");
		command_list_free(&list);
	}
	return 0;
}

bool verify_word(const char *text, const char *name, char *out,
			size_t len)
{
	size_t n = strlen(name);

	for (const char *p = text; p != NULL && *p != '\0';
	     p = strchr(p, ' '), p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, name, n) == 0 && p[n] == '=') {
			size_t k = strcspn(p + n + 1, " ");
			if (k >= len)
				return false;
			memcpy(out, p + n + 1, k);
			out[k] = '\0';
			return true;
		}
	}
	return false;
}

/* The mail a comment names by key and sha256: there, and by that key. */
static int verify_named(struct verify *v, size_t after, const char *what,
			const char *key, const char *sha,
			struct verify_mail **m_r)
{
	struct verify_mail *m = verify_mail_by_sha(v, sha);

	*m_r = m;
	if (m == NULL)
		return verify_fail(v, ARCHIVE_TAMPERED_MAIL, 0,
				   "the %s after ply %zu names a mail of "
				   "sha256 %s, which the archive does not "
				   "hold", what, after, sha);
	if (key != NULL && strcmp(key, verify_short(m->sig.fpr)) != 0)
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, 0,
				   "the %s after ply %zu says key %s, %s is "
				   "signed by %s", what, after, key, m->stem,
				   m->sig.fpr);
	m->named = true;
	return 0;
}

static int verify_comments(struct verify *v)
{
	for (size_t i = 0; i < v->rec.ncomments; i++) {
		const struct record2_comment *c = &v->rec.comments[i];
		const struct record2_annot *a = c->kind ==
			RECORD2_COMMENT_UNDONE ? &c->undone.annot : &c->annot;
		char key[RECORD2_KEY_SHORT + 1], sha[RECORD2_SHA256_HEX + 1];
		struct verify_mail *m;
		int r;

		if (c->kind == RECORD2_COMMENT_OTHER) {
			if (!verify_word(c->text, "sha256", sha, sizeof(sha)))
				continue;
			r = verify_named(v, c->after, "comment", verify_word(
						 c->text, "key", key,
						 sizeof(key)) ? key : NULL,
					 sha, &m);
		} else if (a->fields & RECORD2_F_SHA256) {
			r = verify_named(v, c->after, "comment",
					 (a->fields & RECORD2_F_KEY) ? a->key :
					 NULL, a->sha256, &m);
		} else {
			continue;
		}
		if (r != 0)
			return r;
	}
	return 0;
}

/* A resignation is the loser's own signed word. */
static int verify_resignation(struct verify *v)
{
	enum record2_result result;
	enum record2_termination term;
	enum record2_error e;
	char sha[RECORD2_SHA256_HEX + 1];
	const char *loser_tag, *loser_key, *who;
	struct verify_mail *m = NULL;
	enum archive_binding b;

	if (record2_outcome(&v->rec, &result, &term, &e) < 0 ||
	    term != RECORD2_TERM_RESIGNATION)
		return 0;
	for (size_t i = 0; i < v->rec.ncomments && m == NULL; i++) {
		const struct record2_comment *c = &v->rec.comments[i];
		if (c->kind == RECORD2_COMMENT_OTHER &&
		    strncmp(c->text, "resign ", 7) == 0 &&
		    verify_word(c->text, "sha256", sha, sizeof(sha)))
			m = verify_mail_by_sha(v, sha);
	}
	if (m == NULL)
		return verify_fail(v, ARCHIVE_RESULT_MISMATCH, 0, "the record "
				   "says a resignation and names no signed "
				   "mail of it");
	loser_tag = result == RECORD2_RESULT_WHITE ? "BlackKey" : "WhiteKey";
	who = result == RECORD2_RESULT_WHITE ? "Black" : "White";
	loser_key = record2_tag_get(&v->rec, loser_tag);
	b = archive_bind_resign(m->text, v->game);
	if (b == ARCHIVE_BIND_NONE)
		return verify_fail(v, ARCHIVE_RESULT_MISMATCH, 0,
				   "the signed text of %s does not resign "
				   "game %" PRId64, m->stem, v->game);
	if (loser_key != NULL && strcasecmp(loser_key, m->sig.fpr) != 0)
		return verify_fail(v, ARCHIVE_RESULT_MISMATCH, 0,
				   "%s resigns, signed by %s: not %s (%s), "
				   "whom the Result %s makes the loser",
				   m->stem, m->sig.fpr, who, loser_key,
				   record2_result_name(result));
	fprintf(v->out, "resignation: %s, signed by %s (%s), %s\n", m->stem,
		verify_short(m->sig.fpr), who,
		b == ARCHIVE_BIND_TEXT ? "bound by the signed text" :
		"bound only by the unsigned In-Reply-To header");
	return 0;
}

static int verify_replay(struct verify *v)
{
	struct core_record out;
	struct record2_fault f;

	if (record2_replay(&v->rec, &out, &f) < 0)
		return verify_fail(v, verify_record_reason(f.error), f.ply,
				   "record.txt:%d: %s%s%s%s%s", f.line,
				   record2_error_name(f.error),
				   f.tag[0] ? ", tag " : "", f.tag,
				   f.core_err != 0 ? ": " : "",
				   f.core_err != 0 ?
				   core_error_name(f.core_err) : "");
	record_free(&out);
	fprintf(v->out, "result: %s (%s), as the replay of the %zu plies "
		"through the rules ends the game\n",
		record2_tag_get(&v->rec, "Result"),
		record2_tag_get(&v->rec, "Termination"), v->rec.nplies);
	return 0;
}

/* The clocks: each clock= as the record's own times give it, and a loss
 * on time as they give it. */
static int verify_clocks(struct verify *v)
{
	struct archive_clock_fault f;
	char t1[RECORD2_TIME_LEN + 1], t2[RECORD2_TIME_LEN + 1];
	const struct record2_annot *a;

	if (archive_clock_check(&v->rec, v->out, &f) == 0)
		return 0;
	if (f.reason == ARCHIVE_RESULT_MISMATCH)
		return verify_fail(v, ARCHIVE_RESULT_MISMATCH, 0, "%s",
				   f.detail);
	a = &v->rec.plies[f.ply - 1].annot;
	if (f.reason == ARCHIVE_LATE_MOVE)
		return verify_fail(v, ARCHIVE_LATE_MOVE, f.ply, "ply %zu was "
				   "received %s, after its flag fell at %s, "
				   "and nothing in the record explains it",
				   f.ply, record2_time_format(a->at, t1),
				   record2_time_format(f.deadline, t2));
	if (f.lo == f.hi)
		return verify_fail(v, ARCHIVE_CLOCK_MISMATCH, f.ply, "ply %zu: "
				   "the record says %" PRId64 " s left, the "
				   "times give %" PRId64, f.ply, f.recorded,
				   f.lo);
	return verify_fail(v, ARCHIVE_CLOCK_MISMATCH, f.ply, "ply %zu: the "
			   "record says %" PRId64 " s left, the times give "
			   "%" PRId64 " to %" PRId64, f.ply, f.recorded, f.lo,
			   f.hi);
}

/* ---- the whole ----------------------------------------------------- */

/* What verify unpacks of a .tar.gz at most (ashes(1) says it): a file
 * as large as verify reads one, all of them together, and entries. */
static const struct archive_untar_limits verify_limits = {
	.max_file = VERIFY_FILE_MAX,
	.max_total = 256ull * 1024 * 1024,
	.max_entries = 10000,
};

/* Unpack a .tar.gz into tmp/x; its one folder into dir. */
static int verify_unpack(const char *path, const char *tmp, char *dir,
			 size_t len, const char **error_r)
{
	char into[4096];

	if ((size_t)snprintf(into, sizeof(into), "%s/x", tmp) >=
	    sizeof(into) || mkdir(into, 0700) < 0) {
		*error_r = "cannot make a folder to unpack into";
		return -1;
	}
	return archive_untar(path, into, &verify_limits, dir, len, error_r);
}

static int verify_run(struct verify *v, const struct archive_verify_opts
		      *opts, const char **error_r)
{
	struct buf keys = BUF_INIT;
	const char *bad;
	unsigned int nkeys = 0;
	int r;

	if (archive_list_dir(v->dir, &v->names, &v->nnames, &bad) < 0) {
		if (bad == NULL) {
			*error_r = strerror(errno);
			return -1;
		}
		return verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0, "%s is "
				   "not a plain file", bad);
	}
	if ((r = verify_record(v)) != 0)
		return r;
	if (archive_read_file(v->dir, "keys.asc", PGP_EXPORT_KEYS_MAX,
			      &keys) < 0 ||
	    pgp_export_load_keys(v->pgp, keys.data, keys.len, &nkeys,
				 error_r) < 0 || nkeys == 0) {
		buf_free(&keys);
		return verify_fail(v, ARCHIVE_FOREIGN_SIGNER, 0, "keys.asc "
				   "gives no key to check the signatures "
				   "with");
	}
	buf_free(&keys);
	fprintf(v->out, "game %" PRId64 ": %s (White) - %s (Black), %s, %s "
		"(%s), %zu plies; %u keys from keys.asc\n", v->game,
		record2_tag_get(&v->rec, "White") ? record2_tag_get(&v->rec,
								     "White") :
		"?", record2_tag_get(&v->rec, "Black") ?
		record2_tag_get(&v->rec, "Black") : "?",
		record2_tag_get(&v->rec, "Variant"),
		record2_tag_get(&v->rec, "Result"),
		record2_tag_get(&v->rec, "Termination"), v->rec.nplies, nkeys);
	if ((r = verify_plies(v, error_r)) != 0 ||
	    (r = verify_other_mails(v, error_r)) != 0 ||
	    (r = verify_comments(v)) != 0 ||
	    (r = verify_replay(v)) != 0 ||
	    (r = verify_clocks(v)) != 0 ||
	    (r = verify_resignation(v)) != 0 ||
	    (r = verify_manifest(v, opts != NULL ? opts->daemon_key : NULL,
				 error_r)) != 0)
		return r;
	return 0;
}

/* All holds, and nobody said whose key signed MANIFEST.asc: say what
 * that proves and what not, and how to check it all. */
static void verify_unpinned(const struct verify *v, FILE *out)
{
	const char *w = record2_tag_get(&v->rec, "WhiteKey");
	const char *b = record2_tag_get(&v->rec, "BlackKey");

	fprintf(out, "NOT VERIFIED against the club's key: no --daemon-key "
		"was given.\n"
		"  Proven: every ply of game %" PRId64 " (%zu plies) is signed "
		"by the key record.txt names for its mover (WhiteKey %s, "
		"BlackKey %s), and the result follows from the plies by the "
		"rules.\n"
		"  Not proven: that these keys are the players' (keys.asc came "
		"with the archive), the players' names, the other tags of "
		"record.txt, that no mail was left out: only MANIFEST.asc's "
		"signer vouches for them, key %s, which you did not pin.\n"
		"  To verify: ashes archive verify PATH --daemon-key FPR, with "
		"the club's full fingerprint as the club publishes it.\n",
		v->game, v->rec.nplies, w != NULL ? w : "(none)",
		b != NULL ? b : "(none)", v->v->signer);
}

/* gpg.conf of verify's own keyring. */
static int verify_gpg_conf(const char *home, const char **error_r)
{
	static const char text[] = "allow-non-selfsigned-uid\n";
	char name[] = "gpg.conf";

	if (archive_write_file(home, name, text, sizeof(text) - 1) < 0) {
		*error_r = strerror(errno);
		return -1;
	}
	return 0;
}

int verify_in(const char *path, const char *tmp,
		     const struct archive_verify_opts *opts, FILE *out,
		     struct archive_verdict *v_r, const char **error_r)
{
	char home[4096], dir[4096];
	struct verify v;
	struct stat sb;
	int ret = -1;

	memset(&v, 0, sizeof(v));
	v.out = out;
	v.v = v_r;
	if (stat(path, &sb) < 0) {
		*error_r = strerror(errno);
		return -1;
	}
	if ((size_t)snprintf(home, sizeof(home), "%s/gnupg", tmp) >=
	    sizeof(home) || mkdir(home, 0700) < 0) {
		*error_r = strerror(errno);
		goto out;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(dir, sizeof(dir), "%s", path);
	} else if (!archive_ends_with(path, ".tar.gz")) {
		*error_r = "neither a folder nor a .tar.gz";
		goto out;
	} else if (verify_unpack(path, tmp, dir, sizeof(dir), error_r) < 0) {
		goto out;
	}
	v.dir = dir;
	/* A public copy's keys bear a user ID nobody signed (the players'
	 * own hold their addresses): this keyring trusts no user ID, only
	 * the fingerprints the record names, so it may take them. */
	if (verify_gpg_conf(home, error_r) < 0 ||
	    pgp_ctx_new(home, &v.pgp, error_r) < 0)
		goto out;
	ret = verify_run(&v, opts, error_r);
	if (ret == 0 && (opts == NULL || opts->daemon_key == NULL)) {
		verify_unpinned(&v, out);
		ret = ARCHIVE_VERIFY_UNPINNED;
	}
	if (ret == 1)
		fprintf(out, "FAILED%s%.0zu: %s: %s\n", v_r->ply > 0 ?
			" at ply " : "", v_r->ply,
			archive_reason_name(v_r->reason), v_r->detail);
	else if (ret == 0)
		fprintf(out, "verified: game %" PRId64 ", %zu plies, %zu "
			"signed mails; MANIFEST signed by the club's key %s\n",
			v.game, v.rec.nplies, v.nmails, v_r->signer);
out:
	if (v.pgp != NULL) {
		/* gpg may have started an agent for the keyring. */
		char *argv[] = { "gpgconf", "--homedir", home, "--kill",
				 "all", NULL };
		pgp_ctx_free(&v.pgp);
		(void)run_program(argv, NULL);
	}
	verify_mails_free(&v);
	archive_names_free(&v.names, v.nnames);
	record2_free(&v.rec);
	return ret;
}
