/* club_ladder.c -- the ladder commands by mail: `ladder list`, `ladder
 * NAME` (the standings, the reader's place and whom they may challenge),
 * `ladder challenge NAME PLAYER` (a game with the ladder's settings,
 * offered to the defender), `ladder join NAME` and `ladder leave NAME`;
 * and what an answer to a ladder's challenge does to the ladder (accept:
 * recorded, too late refused; decline: a walkover for the challenger;
 * withdraw: cancelled).  The rules are ladder.c's; a refusal names the
 * rule and its numbers (mail/refusal.txt ladder_*). */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ladder a command names, or REFUSED (no_such_ladder). */
static int ladder_named(struct handle *h, const char *name,
			const struct server_ladder **l_r)
{
	*l_r = club_ladder_find(h->srv, name);
	if (*l_r != NULL)
		return 0;
	server_refuse(h, "no_such_ladder");
	template_ctx_set(h->refusal, "ladder", name);
	return REFUSED;
}

/* A refusal from the ladder's rules: ladder_CODE with its numbers. */
static int ladder_refuse(struct handle *h, const struct server_ladder *l,
			 const struct ladder_fault *f)
{
	char code[48];

	snprintf(code, sizeof(code), "ladder_%s", ladder_error_name(f->error));
	server_refuse(h, code);
	template_ctx_set(h->refusal, "ladder", l->club.name);
	template_ctx_set_int(h->refusal, "value", (long)f->value);
	template_ctx_set_int(h->refusal, "max", (long)f->max);
	template_ctx_set_int(h->refusal, "place", f->place);
	template_ctx_set_int(h->refusal, "defender_place", f->defender_place);
	if (f->game != 0)
		template_ctx_setf(h->refusal, "game", "%" PRId64, f->game);
	if (f->until != 0 && f->until != LADDER_NEVER)
		server_set_utc(h->refusal, "until", f->until, false);
	return REFUSED;
}

/* The rules in words for templates: rule_range, rule_max_out, ... */
static void ladder_rules_ctx(const struct server_ladder *l, size_t size,
			     struct template_ctx *ctx)
{
	const struct ladder_rules *r = &l->rules;

	template_ctx_set(ctx, "ladder", l->club.name);
	template_ctx_set_bool(ctx, "ladder_open", l->club.open);
	template_ctx_set_int(ctx, "rule_range", ladder_range_places(r, size));
	template_ctx_set_int(ctx, "rule_max_out", r->max_out);
	template_ctx_set_int(ctx, "rule_max_in", r->max_in);
	template_ctx_set_int(ctx, "rule_accept_days",
			     (long)(r->accept_within / LADDER_DAY));
	/* Unset without a wait: the template leaves the rule out. */
	if (r->rematch_wait >= LADDER_DAY)
		template_ctx_set_int(ctx, "rule_rematch_days",
				     (long)(r->rematch_wait / LADDER_DAY));
	template_ctx_set_bool(ctx, "rated", l->club.rated);
}

int club_ladder_ctx(struct handle *h, const struct server_ladder *l,
		    int64_t reader, struct template_ctx *ctx)
{
	struct ladder_standing *st = NULL;
	int64_t *can = NULL;
	size_t ncan = 0;
	int ret = club_ladder_standing(h, l->club.name, &st);

	if (ret < 0)
		return -1;
	ladder_rules_ctx(l, st->nmembers, ctx);
	template_ctx_list(ctx, "standing");
	template_ctx_set_int(ctx, "size", (long)st->nmembers);
	for (size_t i = 0; ret == 0 && i < st->nmembers; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "standing");
		char name[COMMAND_NAME_MAX + 1];
		int64_t pid = st->members[i].player;

		template_ctx_set_int(it, "place", (long)i + 1);
		ret = game_player_name(h, pid, name);
		template_ctx_set(it, "name", name);
		template_ctx_set_int(it, "out", st->members[i].out);
		template_ctx_set_int(it, "in", st->members[i].in);
		if (pid == reader) {
			template_ctx_set_bool(it, "me", true);
			template_ctx_set_int(ctx, "my_place", (long)i + 1);
			template_ctx_set_bool(ctx, "my_top", i == 0);
		}
	}
	for (size_t i = 0; ret == 0 && i < st->nopen; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "challenges");
		char a[COMMAND_NAME_MAX + 1], b[COMMAND_NAME_MAX + 1];

		template_ctx_set_bool(ctx, "any_challenges", true);
		template_ctx_setf(it, "game", "%" PRId64, st->open[i].game);
		ret = game_player_name(h, st->open[i].challenger, a);
		if (ret == 0)
			ret = game_player_name(h, st->open[i].defender, b);
		template_ctx_set(it, "challenger", a);
		template_ctx_set(it, "defender", b);
		template_ctx_set_bool(it, "accepted", st->open[i].accepted);
	}
	if (ret == 0 && reader != 0 && ladder_position(st, reader) > 0) {
		can = calloc(st->nmembers + 1, sizeof(*can));
		if (can == NULL)
			ret = server_store_fail(h, "out of memory");
		else if (ladder_challengeable(&l->rules, st, reader, h->now,
					      can, &ncan, NULL) < 0)
			ncan = 0;
		for (size_t i = 0; ret == 0 && i < ncan; i++) {
			struct template_ctx *it = template_ctx_add(ctx, "may");
			char name[COMMAND_NAME_MAX + 1];
			ret = game_player_name(h, can[i], name);
			template_ctx_set(it, "name", name);
			template_ctx_set_bool(ctx, "may_challenge", true);
		}
		free(can);
	}
	ladder_standing_free(&st);
	return ret;
}

static int ladder_list(struct handle *h, struct template_ctx *out)
{
	int ret = 0;

	template_ctx_list(out, "ladders");
	template_ctx_set_bool(out, "any_ladders", h->srv->cfg.nladders > 0);
	for (size_t i = 0; ret == 0 && i < h->srv->cfg.nladders; i++) {
		const struct server_ladder *l = &h->srv->cfg.ladders[i];
		struct template_ctx *it = template_ctx_add(out, "ladders");
		struct ladder_standing *st = NULL;
		int place;

		ret = club_ladder_standing(h, l->club.name, &st);
		if (ret < 0)
			break;
		template_ctx_set(it, "name", l->club.name);
		template_ctx_set_int(it, "size", (long)st->nmembers);
		template_ctx_set_bool(it, "open", l->club.open);
		place = ladder_position(st, h->me->id);
		if (place > 0)
			template_ctx_set_int(it, "my_place", place);
		ladder_standing_free(&st);
	}
	return ret;
}

/* ladder challenge NAME PLAYER */
static int ladder_challenge(struct handle *h, const struct server_ladder *l,
			    const struct command *c, struct game *g,
			    struct template_ctx *out)
{
	struct ladder_standing *st = NULL;
	struct store_player *target = NULL;
	struct ladder_fault f;
	struct ladder_event ev;
	struct template_ctx *ctx;
	int64_t id;
	int ret;

	if ((ret = game_player_named(h, c->name, &target)) != 0)
		return ret;
	ret = club_ladder_standing(h, l->club.name, &st);
	if (ret == 0 && ladder_check_challenge(&l->rules, st, h->me->id,
					       target->id, h->now, &f) < 0) {
		ret = ladder_refuse(h, l, &f);
		template_ctx_set(h->refusal, "name", target->name);
		template_ctx_set(h->refusal, "name", target->name);
	}
	if (ret == 0)
		ret = club_game_create(h, &l->club, h->me->id, target->id,
				       false, l->club.name, 0, 0, &id);
	if (ret == 0) {
		ladder_challenge_event(&l->rules, h->me->id, target->id, id,
				       h->now, &ev);
		ret = club_ladder_record(h, l->club.name, st, &ev, "mail",
					 NULL);
	}
	if (ret == 0) {
		ret = game_load(h, id, g, true);
		ret = ret == 1 ? 0 : ret < 0 ? -1 :
		      server_store_fail(h, "new game vanished");
	}
	if (ret == 0) {
		if (h->first_game == 0)
			h->first_game = id;
		game_ctx(h, g, out);
		template_ctx_set(out, "ladder", l->club.name);
		if (ev.accept_by != LADDER_NEVER)
			server_set_utc(out, "accept_by", ev.accept_by, false);
		ctx = template_ctx_new();
		game_ctx(h, g, ctx);
		template_ctx_set(ctx, "ladder", l->club.name);
		if (ev.accept_by != LADDER_NEVER)
			server_set_utc(ctx, "accept_by", ev.accept_by, false);
		ret = notice_send(h, g, target->id, NOTICE_CHALLENGE, ctx);
		template_ctx_free(&ctx);
	}
	ladder_standing_free(&st);
	store_player_free(&target);
	return ret;
}

/* ladder join NAME, ladder leave NAME */
static int ladder_membership(struct handle *h, const struct server_ladder *l,
			     bool join, struct template_ctx *out)
{
	struct ladder_standing *st = NULL;
	struct ladder_event ev;
	const char *code = NULL;
	int place, ret = club_ladder_standing(h, l->club.name, &st);

	if (ret < 0)
		return -1;
	place = ladder_position(st, h->me->id);
	if (join && place > 0)
		code = "ladder_already_member";
	else if (!join && place == 0)
		code = "ladder_not_member";
	else if (join && !l->club.open && !club_listed(&l->club, h->me->name))
		code = "ladder_closed";
	if (code != NULL) {
		server_refuse(h, code);
		template_ctx_set(h->refusal, "ladder", l->club.name);
		template_ctx_set_int(h->refusal, "place", place);
		ladder_standing_free(&st);
		return REFUSED;
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = join ? LADDER_EVENT_JOINED : LADDER_EVENT_LEFT;
	ev.at = h->now;
	ev.player = h->me->id;
	ret = club_ladder_record(h, l->club.name, st, &ev, "mail", NULL);
	ladder_standing_free(&st);
	if (ret < 0)
		return -1;
	template_ctx_set_bool(out, join ? "joined" : "left", true);
	return club_ladder_ctx(h, l, h->me->id, out);
}

int club_ladder_run(struct handle *h, const struct command *c, struct game *g,
		    struct template_ctx *out)
{
	const struct server_ladder *l = NULL;
	int ret;

	if (c->club_action == COMMAND_CLUB_LIST) {
		template_ctx_set_bool(out, "list", true);
		return ladder_list(h, out);
	}
	if ((ret = ladder_named(h, c->club, &l)) != 0)
		return ret;
	switch (c->club_action) {
	case COMMAND_CLUB_CHALLENGE:
		template_ctx_set_bool(out, "challenged", true);
		return ladder_challenge(h, l, c, g, out);
	case COMMAND_CLUB_JOIN:
	case COMMAND_CLUB_LEAVE:
		return ladder_membership(h, l, c->club_action ==
					 COMMAND_CLUB_JOIN, out);
	default:
		template_ctx_set_bool(out, "show", true);
		return club_ladder_ctx(h, l, h->me->id, out);
	}
}

int club_ladder_answer(struct handle *h, struct game *g,
		       enum command_kind answer)
{
	struct ladder_standing *st = NULL;
	const struct ladder_challenge *ch;
	struct ladder_fault f;
	struct ladder_event ev;
	const char *error;
	char *ladder = NULL;
	int ret = club_game_ladder(h, g->row->id, &ladder, NULL);

	if (ret < 0 || ladder == NULL)
		return ret;
	ret = club_ladder_standing(h, ladder, &st);
	ch = ret == 0 ? ladder_open_challenge(st, g->row->id) : NULL;
	if (ret < 0 || ch == NULL)
		goto out;
	memset(&ev, 0, sizeof(ev));
	ev.at = h->now;
	ev.game = g->row->id;
	if (answer == COMMAND_ACCEPT) {
		if (ladder_check_accept(st, g->row->id, h->me->id, h->now,
					&f) < 0) {
			const struct server_ladder *l =
				club_ladder_find(h->srv, ladder);
			if (l != NULL) {
				ret = ladder_refuse(h, l, &f);
				goto out;
			}
		}
		ev.kind = LADDER_EVENT_ACCEPTED;
		ev.player = h->me->id;
	} else {
		/* Declining is no way to keep a place: a walkover. */
		ev.kind = LADDER_EVENT_RESULT;
		ev.player = ch->challenger;
		ev.other = ch->defender;
		ev.result = answer == COMMAND_DECLINE ?
			    LADDER_RESULT_WALKOVER : LADDER_RESULT_CANCELLED;
	}
	ret = club_ladder_record(h, ladder, st, &ev, "mail", NULL);
	if (ret == 0 && ev.kind == LADDER_EVENT_RESULT &&
	    store_game_club_applied(h->srv->store, g->row->id, h->now,
				    &error) < 0)
		ret = server_store_fail(h, error);
out:
	ladder_standing_free(&st);
	free(ladder);
	return ret;
}
