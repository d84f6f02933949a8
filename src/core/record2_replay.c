/* record2_replay.c -- a version 2 record through the rules: replay its
 * plies (forced passes where the rules force them, nowhere else), check
 * each signer and the Result and Termination tags against the end the
 * plies reach; and the way back, a record2 from a replayed core_record.
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/record2-int.h"
#include "core/variant.h"

static int fail_ply(struct record2_fault *f, enum record2_error error,
		    const struct record2 *rec, size_t i)
{
	f->error = error;
	f->ply = i + 1;
	/* A ply the record lacks would stand where the result line is. */
	f->line = i < rec->nplies ? rec->plies[i].line : rec->result_line;
	return -1;
}

static int fail_tag(struct record2_fault *f, enum record2_error error,
		    const struct record2 *rec, const char *key)
{
	const struct record2_tag *t = record2_tag_find(rec, key);

	f->error = error;
	f->line = t != NULL ? t->line : 0;
	snprintf(f->tag, sizeof(f->tag), "%s", key);
	return -1;
}

/* The short form (last 16 hex digits) of the WhiteKey / BlackKey tags,
 * by colour; false unless both are there. */
static bool player_keys(const struct record2 *rec,
			char keys[2][RECORD2_KEY_SHORT + 1])
{
	const char *w = record2_tag_get(rec, "WhiteKey");
	const char *b = record2_tag_get(rec, "BlackKey");

	if (w == NULL || b == NULL || strlen(w) < RECORD2_KEY_SHORT ||
	    strlen(b) < RECORD2_KEY_SHORT)
		return false;
	/* The tags were checked: 40 or 64 hex digits. */
	strcpy(keys[CORE_WHITE], w + strlen(w) - RECORD2_KEY_SHORT);
	strcpy(keys[CORE_BLACK], b + strlen(b) - RECORD2_KEY_SHORT);
	return true;
}

/* The index of the swap ply, or the number of plies without one.  Only
 * ply 2 can be the swap (elsewhere the replay refuses it). */
static size_t swap_index(const struct record2 *rec)
{
	if (rec->nplies >= 2 && strcmp(rec->plies[1].move, "swap") == 0)
		return 1;
	return rec->nplies;
}

/* Play the plies; the first fault into *f. */
static int replay_plies(const struct record2 *rec, struct core_record *out,
			struct record2_fault *f)
{
	char keys[2][RECORD2_KEY_SHORT + 1];
	bool signed_game = player_keys(rec, keys);
	size_t swap = swap_index(rec);

	for (size_t i = 0; i < rec->nplies; i++) {
		const struct record2_ply *p = &rec->plies[i];
		bool pass = strcmp(p->move, "pass") == 0;
		char canonical[CORE_MOVE_TEXT_MAX];
		enum core_error err;
		struct core_move m;

		if (pass && (p->annot.fields &
			     (RECORD2_F_KEY | RECORD2_F_SHA256)))
			return fail_ply(f, RECORD2_ERR_PASS_SIGNED, rec, i);
		if (i < out->nplies) {
			/* The last move forced this pass. */
			if (!pass)
				return fail_ply(f, RECORD2_ERR_PASS_MISSING,
						rec, i);
			continue;
		}
		struct core_position before = out->pos;
		if (notation_parse_move(&out->pos, p->move, strlen(p->move),
					&m, &err) < 0 ||
		    record_play(out, &m, &err) < 0) {
			bool unforced = pass &&
				err == CORE_ERR_PASS_NOT_FORCED;
			f->core_err = err;
			return fail_ply(f, unforced ?
					RECORD2_ERR_PASS_NOT_FORCED :
					RECORD2_ERR_PLY_ILLEGAL, rec, i);
		}
		notation_format_move(before.geom, &m, canonical);
		if (strcmp(canonical, p->move) != 0)
			return fail_ply(f, RECORD2_ERR_NOT_CANONICAL, rec, i);
		if (signed_game && (p->annot.fields & RECORD2_F_KEY)) {
			/* Up to the swap the players hold the colours they
			 * give up by it. */
			int player = i <= swap && swap < rec->nplies ?
				!before.to_move : before.to_move;
			if (strcmp(p->annot.key, keys[player]) != 0)
				return fail_ply(f, RECORD2_ERR_SIGNER, rec, i);
		}
	}
	if (out->nplies > rec->nplies)
		/* The record stops before a pass the last move forced. */
		return fail_ply(f, RECORD2_ERR_PASS_MISSING, rec, rec->nplies);
	return 0;
}

enum record2_termination record2_termination_of(enum core_end_reason r)
{
	switch (r) {
	case CORE_END_ELIMINATION: return RECORD2_TERM_ELIMINATION;
	case CORE_END_DOUBLE_PASS: return RECORD2_TERM_DOUBLE_PASS;
	case CORE_END_RESIGNATION: return RECORD2_TERM_RESIGNATION;
	case CORE_END_AGREED_DRAW: return RECORD2_TERM_AGREEMENT;
	case CORE_END_TIME: return RECORD2_TERM_TIME;
	case CORE_END_NONE: break;
	}
	return RECORD2_TERM_ONGOING;
}

enum record2_result record2_result_of(enum core_result r)
{
	switch (r) {
	case CORE_RESULT_WHITE: return RECORD2_RESULT_WHITE;
	case CORE_RESULT_BLACK: return RECORD2_RESULT_BLACK;
	case CORE_RESULT_DRAW: return RECORD2_RESULT_DRAW;
	case CORE_ONGOING: break;
	}
	return RECORD2_RESULT_NONE;
}

/* The end the tags claim, against the end the plies reached. */
static int replay_outcome(const struct record2 *rec, struct core_record *out,
			  enum record2_result result,
			  enum record2_termination term,
			  struct record2_fault *f)
{
	const struct core_position *pos = &out->pos;
	enum core_end_reason reason;
	enum core_error err;

	if (pos->result != CORE_ONGOING) {
		/* Decided by the moves: the tags must say how. */
		if (term != record2_termination_of(pos->end_reason))
			return fail_tag(f, RECORD2_ERR_RESULT_MISMATCH, rec,
					"Termination");
		if (result != record2_result_of(pos->result))
			return fail_tag(f, RECORD2_ERR_RESULT_MISMATCH, rec,
					"Result");
		return 0;
	}
	switch (term) {
	case RECORD2_TERM_ONGOING:
	case RECORD2_TERM_CANCELLED:
		return 0;
	case RECORD2_TERM_ELIMINATION:
	case RECORD2_TERM_DOUBLE_PASS:
		return fail_tag(f, RECORD2_ERR_GAME_ON, rec, "Termination");
	case RECORD2_TERM_AGREEMENT:
		if (!out->variant.draw_offers)
			return fail_tag(f, RECORD2_ERR_NO_DRAWS, rec,
					"Termination");
		reason = CORE_END_AGREED_DRAW;
		break;
	case RECORD2_TERM_RESIGNATION:
		reason = CORE_END_RESIGNATION;
		break;
	default:
		reason = CORE_END_TIME;
		break;
	}
	if (record_end(out, reason, result == RECORD2_RESULT_WHITE ?
		       CORE_BLACK : CORE_WHITE, &err) < 0) {
		f->core_err = err; /* not reached: the game is on */
		return fail_tag(f, RECORD2_ERR_RESULT_MISMATCH, rec,
				"Termination");
	}
	return 0;
}

int record2_replay(const struct record2 *rec, struct core_record *out,
		   struct record2_fault *fault_r)
{
	const char *variant = record2_tag_get(rec, "Variant");
	enum record2_result result;
	enum record2_termination term;
	struct record2_fault f;
	struct core_variant v;
	enum record2_error e;

	memset(&f, 0, sizeof(f));
	memset(out, 0, sizeof(*out));
	if (variant == NULL) {
		fail_tag(&f, RECORD2_ERR_TAG_MISSING, rec, "Variant");
		goto fail;
	}
	if (record2_variant_read(variant, strlen(variant), &v,
				 &f.core_err) < 0) {
		fail_tag(&f, RECORD2_ERR_VARIANT, rec, "Variant");
		goto fail;
	}
	if (record2_outcome(rec, &result, &term, &e) < 0) {
		fail_tag(&f, e, rec, record2_tag_get(rec, "Result") == NULL ||
			 e == RECORD2_ERR_RESULT ? "Result" : "Termination");
		goto fail;
	}
	if (!record2_outcome_ok(result, term)) {
		fail_tag(&f, RECORD2_ERR_RESULT_TERMINATION, rec,
			 "Termination");
		goto fail;
	}
	if (record_init(out, &v, &f.core_err) < 0) {
		fail_tag(&f, RECORD2_ERR_VARIANT, rec, "Variant");
		goto fail;
	}
	if (replay_plies(rec, out, &f) < 0 ||
	    replay_outcome(rec, out, result, term, &f) < 0)
		goto fail;
	return 0;
fail:
	record_free(out);
	if (fault_r != NULL)
		*fault_r = f;
	return -1;
}

int record2_from_core(struct record2 *rec_r, const struct core_record *core,
		      enum record2_error *error_r)
{
	const struct core_position *pos = &core->pos;
	char variant[CORE_VARIANT_TEXT_MAX], move[CORE_MOVE_TEXT_MAX];

	record2_init(rec_r);
	core_variant_format(&core->variant, CORE_VARIANT_ALL, variant,
			    sizeof(variant));
	if (record2_tag_set(rec_r, "Variant", variant, error_r) < 0 ||
	    record2_tag_set(rec_r, "Result",
			    record2_result_name(record2_result_of(pos->result)),
			    error_r) < 0 ||
	    record2_tag_set(rec_r, "Termination",
			    record2_termination_name(
				    record2_termination_of(pos->end_reason)),
			    error_r) < 0)
		goto fail;
	for (size_t i = 0; i < core->nplies; i++)
		if (record2_ply_add(rec_r, notation_format_move(
					    pos->geom, &core->plies[i], move),
				    NULL, error_r) < 0)
			goto fail;
	return 0;
fail:
	record2_free(rec_r);
	return -1;
}
