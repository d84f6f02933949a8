/* archive_verify_cond.c -- verify's check of a ply played from the
 * mover's conditional moves (cond=N in its record line, docs/
 * record-format.md): the daemon played it for the player, in the
 * transaction of the opponent's move, from a mail the player sent
 * before.  Nothing the export wrote is trusted: the mail is found by the
 * sha256 of its signed part among the archive's files and checked as
 * any mail is (archive_verify_mail.c); its signer must be the mover;
 * it must have been signed, and received, before the daemon received
 * the opponent's move that began its line (ply N+1), and received after
 * the position it was set in (ply N); and one of its `conditional GAME`
 * lines, read by the daemon's own reader and played through the rules
 * from the position after N plies, must name exactly the plies N+1 to
 * this one. */
#include <config.h>
#include "archive/archive_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/variant.h"
#include "server/command.h"

/* The mail whose signed part has sha256 sha, read from the archive's
 * files if need be (a ply's NNNN or any other): 0 with *m_r, 1 with the
 * verdict, -1. */
static int cond_mail(struct verify *v, size_t ply, const char *sha,
		     struct verify_mail **m_r, const char **error_r)
{
	*m_r = verify_mail_by_sha(v, sha);
	for (size_t i = 0; i < v->nnames && *m_r == NULL; i++) {
		const char *name = v->names[i];
		size_t n = strlen(name);
		char stem[16];
		struct verify_mail *m;
		int r;

		if (n < 5 || n - 4 >= sizeof(stem) ||
		    strcmp(name + n - 4, ".eml") != 0)
			continue;
		snprintf(stem, sizeof(stem), "%.*s", (int)(n - 4), name);
		if (verify_mail_by_stem(v, stem) != NULL)
			continue;
		r = verify_mail_load(v, stem, ARCHIVE_TAMPERED_MAIL, ply, &m,
				     error_r);
		if (r != 0)
			return r;
		if (m->sha256[0] != '\0' && strcmp(m->sha256, sha) == 0)
			*m_r = m;
	}
	if (*m_r == NULL)
		return verify_fail(v, ARCHIVE_MISSING_PLY, ply, "ply %zu was "
				   "played from conditional moves in a mail "
				   "of sha256 %s, which the archive does not "
				   "hold", ply, sha);
	return 0;
}

/* When the daemon received the mail of sha256 sha: the at= of the ply
 * it played (a move and conditional lines in one mail), else of the
 * comment that names it.  0 with *at_r, or 1 with the verdict. */
static int cond_received(struct verify *v, size_t ply, const char *sha,
			 int64_t *at_r)
{
	char got[RECORD2_SHA256_HEX + 1], at[RECORD2_TIME_LEN + 2];

	for (size_t i = 0; i < v->rec.nplies; i++) {
		const struct record2_annot *a = &v->rec.plies[i].annot;
		if ((a->fields & (RECORD2_F_SHA256 | RECORD2_F_COND |
				  RECORD2_F_AT)) ==
		    (RECORD2_F_SHA256 | RECORD2_F_AT) &&
		    strcmp(a->sha256, sha) == 0) {
			*at_r = a->at;
			return 0;
		}
	}
	for (size_t i = 0; i < v->rec.ncomments; i++) {
		const struct record2_comment *c = &v->rec.comments[i];
		if (c->kind == RECORD2_COMMENT_OTHER &&
		    verify_word(c->text, "sha256", got, sizeof(got)) &&
		    strcmp(got, sha) == 0 &&
		    verify_word(c->text, "at", at, sizeof(at)) &&
		    record2_time_parse(at, strlen(at), at_r) == 0)
			return 0;
	}
	return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "the record "
			   "says when no mail of sha256 %s was received, "
			   "which ply %zu was played from", sha, ply);
}

/* Does a `conditional GAME ...` line of text name plies from+1 .. to
 * (1-based) of the record, played from the position after `from`
 * plies?  The line that does into line (the words as written). */
static bool cond_names(const struct verify *v, const char *text,
		       size_t from, size_t to, char *line, size_t len)
{
	struct command_list list;
	struct core_variant var;
	struct core_record start;
	enum core_error err;
	bool found = false;

	core_variant_default(&var);
	if (core_variant_parse(&var, record2_tag_get(&v->rec, "Variant"),
			       &err) < 0 ||
	    record_init(&start, &var, &err) < 0)
		return false;
	for (size_t i = 0; i < from; i++)
		if (i >= start.nplies &&
		    record_play_text(&start, v->rec.plies[i].move,
				     strlen(v->rec.plies[i].move), NULL,
				     &err) < 0) {
			record_free(&start);
			return false;
		}
	command_parse_mail(NULL, text, strlen(text), v->game, &list);
	for (size_t i = 0; i < list.count && !found; i++) {
		const struct command *c = &list.items[i];
		struct core_position pos = start.pos;
		bool same = c->kind == COMMAND_CONDITIONAL &&
			    c->game == v->game &&
			    c->cond_action == COMMAND_COND_SET &&
			    c->ncond >= to - from;

		for (size_t k = 0; same && k < to - from; k++) {
			char canon[CORE_MOVE_TEXT_MAX];
			struct core_move m;

			same = notation_parse_move(&pos, c->cond[k],
						   strlen(c->cond[k]), &m,
						   &err) == 0 &&
			       strcmp(notation_format_move(pos.geom, &m,
							   canon),
				      v->rec.plies[from + k].move) == 0 &&
			       core_play(&pos, &m, NULL, &err) == 0 &&
			       (k + 1 == to - from ||
				pos.ply == (int)(from + k + 1));
		}
		if (same) {
			snprintf(line, len, "%s", c->text);
			found = true;
		}
	}
	command_list_free(&list);
	record_free(&start);
	return found;
}

int verify_cond_ply(struct verify *v, size_t i, enum core_color mover,
		    struct core_record *core, const char **error_r)
{
	const struct record2_ply *p = &v->rec.plies[i];
	const struct record2_annot *a = &p->annot;
	size_t from = a->cond, ply = i + 1;
	char t1[RECORD2_TIME_LEN + 1], t2[RECORD2_TIME_LEN + 1];
	char t3[RECORD2_TIME_LEN + 1], line[COMMAND_TEXT_MAX];
	const char *name;
	struct verify_mail *m;
	struct core_move mv;
	enum core_error err;
	int64_t received, answered, created;
	int r;

	/* Its line: the opponent's moves and the mover's, in pairs, the
	 * first the opponent's move after ply `from`. */
	if (from >= ply || (ply - from) % 2 != 0 ||
	    ply - from > COMMAND_COND_MOVES)
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "ply "
				   "%zu says it was played from conditional "
				   "moves set after ply %zu: no line of at "
				   "most %d pairs ends with it", ply, from,
				   COMMAND_COND_DEPTH);
	if ((r = cond_mail(v, ply, a->sha256, &m, error_r)) != 0)
		return r;
	if (m->kind == PGP_SIGNED_NONE)
		return verify_fail(v, ARCHIVE_UNSIGNED, ply, "%s, whose "
				   "conditional moves ply %zu was played "
				   "from, is not signed", m->stem, ply);
	if ((r = verify_signer(v, i, mover, m)) != 0 ||
	    (r = cond_received(v, ply, a->sha256, &received)) != 0)
		return r;
	answered = v->rec.plies[from].annot.at;
	created = (int64_t)m->sig.created;
	if (!(v->rec.plies[from].annot.fields & RECORD2_F_AT))
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "ply "
				   "%zu, the move ply %zu answers from "
				   "conditional moves, has no time", from + 1,
				   ply);
	if (created > answered)
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "%s "
				   "was signed %s, after ply %zu it answers "
				   "was received (%s)", m->stem,
				   record2_time_format(created, t1), from + 1,
				   record2_time_format(answered, t2));
	if (received > answered)
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "%s "
				   "was received %s, after ply %zu it answers "
				   "(%s)", m->stem,
				   record2_time_format(received, t1), from + 1,
				   record2_time_format(answered, t2));
	if (from > 0 && (v->rec.plies[from - 1].annot.fields & RECORD2_F_AT) &&
	    received < v->rec.plies[from - 1].annot.at)
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "%s "
				   "was received %s, before ply %zu, whose "
				   "position its lines start from (%s)",
				   m->stem, record2_time_format(received, t1),
				   from, record2_time_format(
					   v->rec.plies[from - 1].annot.at,
					   t2));
	if (created < received - v->max_age ||
	    created > received + v->max_future)
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "%s "
				   "was signed %s and received %s: outside "
				   "the replay window", m->stem,
				   record2_time_format(created, t1),
				   record2_time_format(received, t2));
	if (!cond_names(v, m->text, from, ply, line, sizeof(line)))
		return verify_fail(v, ARCHIVE_FORGED_CONDITIONAL, ply, "no "
				   "conditional line of %s for game %" PRId64
				   " plays plies %zu to %zu as the record has "
				   "them (ply %zu: %s)", m->stem, v->game,
				   from + 1, ply, ply, p->move);
	m->named = true;
	if (notation_parse_move(&core->pos, p->move, strlen(p->move), &mv,
				&err) < 0 || record_play(core, &mv, &err) < 0)
		return verify_fail(v, ARCHIVE_ILLEGAL_MOVE, ply, "ply %zu, %s: "
				   "the rules refuse it (%s)", ply, p->move,
				   core_error_name(err));
	name = record2_tag_get(&v->rec, mover == CORE_WHITE ? "White" :
			       "Black");
	fprintf(v->out, "ply %zu %s: %s %s, conditional moves of %s (%s%s%s) "
		"signed %s, received %s, before ply %zu (received %s): "
		"\"%s\"\n", ply, p->move, m->stem, verify_form(m->kind),
		a->key, mover == CORE_WHITE ? "White" : "Black",
		name != NULL ? " " : "", name != NULL ? name : "",
		record2_time_format(created, t1),
		record2_time_format(received, t2), from + 1,
		record2_time_format(answered, t3), line);
	return 0;
}
