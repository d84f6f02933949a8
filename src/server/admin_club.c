/* admin_club.c -- the operator's view of and hand on the club's ladders:
 * `ashes ladder show NAME` (the standings, as members read them),
 * `ashes ladder history NAME` (every event of the log: what, when, who
 * recorded it and why -- the positions can be explained and audited from
 * it), and `ashes ladder move NAME PLAYER POS` (recorded in the log as
 * the operator's). */
#include "server/server_private.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The configured ladder, or -1 with server->errbuf. */
static const struct server_ladder *admin_ladder(struct server *server,
						const char *name)
{
	const struct server_ladder *l = club_ladder_find(server, name);

	if (l == NULL)
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no ladder \"%s\" in the configuration", name);
	return l;
}

static int admin_club_fail(struct server *server, struct handle *h,
			   const char **error_r)
{
	char why[sizeof(server->errbuf) - 16];

	snprintf(why, sizeof(why), "%s", h->error != NULL ? h->error :
		 "failure");
	snprintf(server->errbuf, sizeof(server->errbuf), "%s", why);
	*error_r = server->errbuf;
	return -1;
}

int server_ladder_show(struct server *server, const char *ladder,
		       int64_t now, struct buf *out, const char **error_r)
{
	const struct server_ladder *l = admin_ladder(server, ladder);
	struct template_ctx *ctx;
	struct handle h;
	int ret;

	if (l == NULL) {
		*error_r = server->errbuf;
		return -1;
	}
	server_handle_at(server, &h, now);
	ctx = template_ctx_new();
	ret = club_ladder_ctx(&h, l, 0, ctx);
	if (ret == 0)
		ret = server_render(&h, "admin-ladder.txt", ctx, out);
	template_ctx_free(&ctx);
	return ret < 0 ? admin_club_fail(server, &h, error_r) : 0;
}

int server_ladder_history(struct server *server, const char *ladder,
			  struct buf *out, const char **error_r)
{
	const struct server_ladder *l = admin_ladder(server, ladder);
	struct store_ladder_event *ev = NULL;
	struct template_ctx *ctx;
	struct handle h;
	const char *error;
	size_t n = 0;
	int ret = 0;

	/* A ladder taken out of the configuration keeps its history. */
	(void)l;
	server_handle_at(server, &h, 0);
	if (store_ladder_events(server->store, ladder, &ev, &n, &error) < 0) {
		h.error = error;
		return admin_club_fail(server, &h, error_r);
	}
	ctx = template_ctx_new();
	template_ctx_set(ctx, "ladder", ladder);
	template_ctx_list(ctx, "events");
	template_ctx_set_bool(ctx, "any_events", n > 0);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		struct template_ctx *it = template_ctx_add(ctx, "events");
		char a[COMMAND_NAME_MAX + 1], b[COMMAND_NAME_MAX + 1];

		template_ctx_setf(it, "id", "%" PRId64, ev[i].id);
		template_ctx_set(it, "kind", ev[i].kind);
		template_ctx_set_bool(it, ev[i].kind, true);
		server_set_utc(it, "at", ev[i].at, true);
		ret = game_player_name(&h, ev[i].player_id, a);
		if (ret == 0)
			ret = game_player_name(&h, ev[i].other_id, b);
		template_ctx_set(it, "player", a);
		if (b[0] != '\0')
			template_ctx_set(it, "other", b);
		if (ev[i].game_id != 0)
			template_ctx_setf(it, "game", "%" PRId64,
					  ev[i].game_id);
		if (ev[i].outcome != NULL) {
			char flag[32];
			template_ctx_set(it, "outcome", ev[i].outcome);
			snprintf(flag, sizeof(flag), "outcome_%s",
				 ev[i].outcome);
			template_ctx_set_bool(it, flag, true);
		}
		if (ev[i].position != 0)
			template_ctx_set_int(it, "position", ev[i].position);
		template_ctx_set(it, "actor", ev[i].actor != NULL ?
				 ev[i].actor : "mail");
		if (ev[i].note != NULL)
			template_ctx_set(it, "note", ev[i].note);
		if (ev[i].inbound_id != 0)
			template_ctx_setf(it, "inbound", "%" PRId64,
					  ev[i].inbound_id);
	}
	if (ret == 0)
		ret = server_render(&h, "admin-ladder-history.txt", ctx, out);
	template_ctx_free(&ctx);
	store_rows_free(&ev, n, sizeof(*ev), store_ladder_event_clear);
	template_ctx_free(&h.refusal);
	return ret < 0 ? admin_club_fail(server, &h, error_r) : 0;
}

/* The move itself, in the open transaction. */
static int admin_move(struct handle *h, const struct server_ladder *l,
		      const char *player, int pos, const char *note,
		      struct buf *out)
{
	struct server *server = h->srv;
	struct ladder_standing *st = NULL;
	struct store_player *p = NULL;
	struct ladder_event ev;
	const char *error;
	int ret, was;

	ret = store_player_by_name(server->store, player, &p, &error);
	if (ret <= 0) {
		if (ret < 0)
			return server_store_fail(h, error);
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "no player \"%s\"", player);
		return server_store_fail(h, server->errbuf);
	}
	ret = club_ladder_standing(h, l->club.name, &st);
	was = ret == 0 ? ladder_position(st, p->id) : 0;
	if (ret == 0 && was == 0) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "%s is no member of ladder %s", p->name, l->club.name);
		ret = server_store_fail(h, server->errbuf);
	} else if (ret == 0 && (pos < 1 || (size_t)pos > st->nmembers)) {
		snprintf(server->errbuf, sizeof(server->errbuf),
			 "ladder %s has places 1 to %zu", l->club.name,
			 st->nmembers);
		ret = server_store_fail(h, server->errbuf);
	}
	if (ret == 0) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = LADDER_EVENT_MOVED;
		ev.at = h->now;
		ev.player = p->id;
		ev.position = pos;
		ret = club_ladder_record(h, l->club.name, st, &ev, "operator",
					 note);
	}
	if (ret == 0)
		buf_printf(out, "ladder %s: %s moved from place %d to %d\n",
			   l->club.name, p->name, was, pos);
	ladder_standing_free(&st);
	store_player_free(&p);
	return ret;
}

int server_ladder_move(struct server *server, const char *ladder,
		       const char *player, int pos, const char *note,
		       int64_t now, struct buf *out, const char **error_r)
{
	const struct server_ladder *l = admin_ladder(server, ladder);
	struct handle h;
	const char *error;
	int ret;

	if (l == NULL) {
		*error_r = server->errbuf;
		return -1;
	}
	server_handle_at(server, &h, now);
	if (store_begin(server->store, &error) < 0) {
		*error_r = error;
		return -1;
	}
	ret = admin_move(&h, l, player, pos, note, out);
	if (ret == 0 && store_commit(server->store, &error) < 0)
		ret = server_store_fail(&h, error);
	template_ctx_free(&h.refusal);
	if (ret < 0) {
		admin_club_fail(server, &h, error_r);
		store_rollback(server->store);
		return -1;
	}
	return 0;
}
