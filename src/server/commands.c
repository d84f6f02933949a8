/* commands.c -- the command table of the game service, in the spirit of
 * OpenSMTPD's commands[] (smtp_session.c): one row per command states who
 * may run it, what runs it and the template of its result.  The gate, the
 * loading of the game, the rendering and the freeing happen here, once,
 * driven by the row; a new command is a row and a handler.
 *
 * A mail's commands run in order; the first refused one stops the rest
 * (earlier ones keep their effect), and the reply lists each result. */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>

static const struct server_command server_commands[] = {
	{ COMMAND_HELP, "help", GATE_ANYONE, "mail/help.txt", help_run },
	{ COMMAND_REGISTER, "register", GATE_ANYONE, "mail/cmd-register.txt",
	  identity_register },
	{ COMMAND_CONFIRM, "confirm", GATE_ANYONE, "mail/cmd-confirm.txt",
	  identity_confirm },
	{ COMMAND_KEY_REPLACE, "key replace", GATE_REGISTERED,
	  "mail/cmd-key.txt", identity_key_replace },
	{ COMMAND_CHALLENGE, "challenge", GATE_REGISTERED,
	  "mail/cmd-challenge.txt", play_challenge },
	{ COMMAND_ACCEPT, "accept", GATE_GAME, "mail/cmd-accept.txt",
	  play_accept },
	{ COMMAND_DECLINE, "decline", GATE_GAME, "mail/cmd-decline.txt",
	  play_decline },
	{ COMMAND_WITHDRAW, "withdraw", GATE_GAME, "mail/cmd-decline.txt",
	  play_decline },
	{ COMMAND_MOVE, "move", GATE_TO_MOVE, "mail/cmd-move.txt", play_move },
	{ COMMAND_PREVIEW, "preview", GATE_GAME, "mail/cmd-preview.txt",
	  play_preview },
	{ COMMAND_RESIGN, "resign", GATE_PLAYER, "mail/cmd-resign.txt",
	  play_resign },
	{ COMMAND_DRAW, "draw", GATE_PLAYER, "mail/cmd-draw.txt", play_draw },
	{ COMMAND_BOARD, "board", GATE_GAME, "mail/cmd-board.txt", view_game },
	{ COMMAND_MOVES, "moves", GATE_GAME, "mail/cmd-moves.txt", view_game },
	{ COMMAND_HISTORY, "history", GATE_GAME, "mail/cmd-history.txt",
	  view_game },
	{ COMMAND_GAMES, "games", GATE_REGISTERED, "mail/cmd-games.txt",
	  view_games },
	{ COMMAND_OBSERVE, "observe", GATE_GAME, "mail/cmd-observe.txt",
	  view_observe },
	{ COMMAND_UNOBSERVE, "unobserve", GATE_GAME, "mail/cmd-observe.txt",
	  view_observe },
	{ COMMAND_MESSAGE, "message", GATE_GAME, "mail/cmd-message.txt",
	  message_send },
	{ COMMAND_UNDO, "undo", GATE_PLAYER, "mail/cmd-undo.txt", undo_run },
	{ COMMAND_SET, "set", GATE_REGISTERED, "mail/cmd-set.txt",
	  settings_set },
	{ COMMAND_SETTINGS, "settings", GATE_REGISTERED,
	  "mail/cmd-settings.txt", settings_show },
	{ COMMAND_VACATION, "vacation", GATE_REGISTERED,
	  "mail/cmd-vacation.txt", vacation_run },
	/* Not GATE_TO_MOVE: the opponent of the player to move claims. */
	{ COMMAND_CLAIM, "claim", GATE_PLAYER, "mail/cmd-claim.txt",
	  flag_claim },
	{ COMMAND_LADDER, "ladder", GATE_REGISTERED, "mail/cmd-ladder.txt",
	  club_ladder_run },
	{ COMMAND_LEAGUE, "league", GATE_REGISTERED, "mail/cmd-league.txt",
	  club_league_run },
	{ COMMAND_RATINGS, "ratings", GATE_REGISTERED, "mail/cmd-ratings.txt",
	  club_ratings },
	/* Who may have which game's archive: archive_cmd.c. */
	{ COMMAND_ARCHIVE, "archive", GATE_GAME, "mail/cmd-archive.txt",
	  archive_cmd_run },
	/* The practice opponent: bot.c (a hint is for the player to move). */
	{ COMMAND_CHALLENGE_BOT, "challenge", GATE_REGISTERED,
	  "mail/cmd-challenge-bot.txt", bot_challenge },
	{ COMMAND_HINT, "hint", GATE_TO_MOVE, "mail/cmd-hint.txt", bot_hint },
};

static const struct server_command *commands_find(enum command_kind kind)
{
	for (size_t i = 0; i < sizeof(server_commands) /
			       sizeof(server_commands[0]); i++)
		if (server_commands[i].kind == kind)
			return &server_commands[i];
	return NULL;
}

/* Codes of the refusal template for command-language errors. */
static const char *parse_error_code(enum command_error err)
{
	switch (err) {
	case COMMAND_OK: return "ok";
	case COMMAND_ERR_UNKNOWN: return "e_unknown";
	case COMMAND_ERR_MISSING_ARG: return "e_missing_arg";
	case COMMAND_ERR_EXTRA_ARG: return "e_extra_arg";
	case COMMAND_ERR_BAD_GAME: return "e_bad_game";
	case COMMAND_ERR_BAD_PLY: return "e_bad_ply";
	case COMMAND_ERR_BAD_MOVE: return "e_bad_move";
	case COMMAND_ERR_BAD_NAME: return "e_bad_name";
	case COMMAND_ERR_UNKNOWN_OPTION: return "e_unknown_option";
	case COMMAND_ERR_BAD_OPTION: return "e_bad_option";
	case COMMAND_ERR_DUPLICATE_OPTION: return "e_duplicate_option";
	case COMMAND_ERR_BAD_DRAW: return "e_bad_draw";
	case COMMAND_ERR_NO_GAME: return "e_no_game";
	case COMMAND_ERR_TOO_MANY: return "e_too_many";
	case COMMAND_ERR_THREAD_UNCONFIRMED: return "e_thread_unconfirmed";
	case COMMAND_ERR_BAD_CODE: return "e_bad_code";
	case COMMAND_ERR_BAD_KEY_ACTION: return "e_bad_key_action";
	case COMMAND_ERR_BAD_SETTING: return "e_bad_setting";
	case COMMAND_ERR_BAD_VALUE: return "e_bad_value";
	case COMMAND_ERR_BAD_OFFER: return "e_bad_offer";
	case COMMAND_ERR_TEXT_TOO_LONG: return "e_text_too_long";
	case COMMAND_ERR_BAD_VACATION: return "e_bad_vacation";
	case COMMAND_ERR_BAD_CLUB: return "e_bad_club";
	}
	return "e_unknown";
}

/* A command from a player whose address is not confirmed yet. */
static int refuse_pending(struct handle *h)
{
	struct store_claim claim;
	const char *error;
	int r;

	server_refuse(h, "not_confirmed");
	r = store_claim_get(h->srv->store, h->me->id, &claim, &error);
	if (r < 0)
		return server_store_fail(h, error);
	if (r == 1)
		template_ctx_set(h->refusal, "address", claim.address);
	store_claim_clear(&claim);
	return REFUSED;
}

/* The gate of a row: 0 pass, REFUSED, -1.  Loads the game from
 * GATE_GAME on (into g; the caller frees it). */
static int commands_gate(struct handle *h, const struct server_command *row,
			 const struct command *c, struct game *g)
{
	int color, next, ret;

	if (row->gate == GATE_ANYONE)
		return 0;
	if (h->me == NULL)
		return server_refuse(h, "not_registered");
	if (identity_pending(h->me))
		return refuse_pending(h);
	if (row->gate == GATE_REGISTERED)
		return 0;
	ret = game_load(h, c->game, g, true);
	if (ret <= 0)
		return ret < 0 ? -1 : REFUSED;
	if (h->first_game == 0)
		h->first_game = c->game;
	if (row->gate == GATE_GAME)
		return 0;
	if (g->row->status != STORE_GAME_ACTIVE)
		return game_refuse_status(h, g);
	color = game_my_color(h, g);
	if (color < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	if (row->gate == GATE_PLAYER)
		return 0;
	next = g->rec.pos.ply + 1;
	if (c->ply != 0 && c->ply != next) {
		game_refuse(h, "stale_ply", g->row->id);
		template_ctx_set_int(h->refusal, "next_ply", next);
		template_ctx_set_int(h->refusal, "given_ply", c->ply);
		return REFUSED;
	}
	if (color != (int)g->rec.pos.to_move) {
		game_refuse(h, "not_your_turn", g->row->id);
		template_ctx_set(h->refusal, "to_move_name",
				 g->rec.pos.to_move == CORE_WHITE ? g->white :
				 g->black);
		return REFUSED;
	}
	return 0;
}

/* One command: 0 done (its result in out's "output"), REFUSED, -1. */
static int commands_run_one(struct handle *h, const struct command *c,
			    struct template_ctx *out)
{
	const struct server_command *row;
	struct game g;
	int ret;

	if (c->kind == COMMAND_INVALID) {
		/* A line that names a game keeps the reply in that game's
		 * thread, for a sender who may see the game. */
		if (c->game > 0 && h->me != NULL && !identity_pending(h->me) &&
		    game_note_first(h, c->game) < 0)
			return -1;
		server_refuse(h, parse_error_code(c->error));
		template_ctx_set(h->refusal, "detail", c->detail);
		template_ctx_set(h->refusal, "suggestion", c->suggestion);
		return REFUSED;
	}
	row = commands_find(c->kind);
	if (row == NULL)
		return server_refuse(h, "e_unknown");
	/* The bot's own mail (the bot thread's, in process) plays a move
	 * and nothing else: whatever else its key might be made to sign,
	 * no other act of the bot is ever recorded. */
	if (h->msg->in_process && c->kind != COMMAND_MOVE)
		return server_refuse(h, "bot_moves_only");
	memset(&g, 0, sizeof(g));
	ret = commands_gate(h, row, c, &g);
	if (ret == 0)
		ret = row->run(h, c, &g, out);
	/* The notices a handler sent worded the list for their readers;
	 * the result is the sender's (`set moves`). */
	if (ret == 0 && h->me != NULL)
		ret = recipient_moves_ctx(h, h->me->id, out);
	if (ret == 0)
		ret = server_render_into(h, row->template, out, out, "output");
	game_free(&g);
	return ret;
}

void commands_parse(const struct handle *h, struct command_list *list_r)
{
	const struct server_inbound *msg = h->msg;
	int64_t thread;

	/* The headers say which game's thread this is; only the signed text
	 * can confirm it (a header can be changed on the way). */
	thread = command_thread_game(msg->subject, msg->references,
				     h->srv->domain);
	if (thread > 0 &&
	    !command_thread_confirmed(msg->body, msg->body != NULL ?
				      msg->body_len : 0, thread))
		thread = -1;
	command_parse_mail(msg->subject, msg->body != NULL ? msg->body : "",
			   msg->body != NULL ? msg->body_len : 0, thread,
			   list_r);
}

int commands_run(struct handle *h, struct server_outcome *out)
{
	struct command_list list;
	int ret = 0;

	commands_parse(h, &list);
	template_ctx_set_bool(h->reply, "skipped_quoted", list.skipped_quoted);
	template_ctx_set_bool(h->reply, "skipped_prose", list.skipped_prose);
	template_ctx_set_bool(h->reply, "subject_ignored", list.subject_ignored);
	template_ctx_list(h->reply, "results");
	if (list.count == 0) {
		out->status = SERVER_NO_COMMANDS;
		template_ctx_set_bool(h->reply, "no_commands", true);
		snprintf(out->outcome, sizeof(out->outcome), "no commands");
	}
	for (size_t i = 0; i < list.count; i++) {
		const struct command *c = &list.items[i];
		struct template_ctx *item = template_ctx_add(h->reply,
							     "results");
		template_ctx_set(item, "text", c->text);
		template_ctx_set_int(item, "line", c->line);
		template_ctx_set_bool(item, "from_subject", c->line == 0);
		if (h->srv->cfg.max_commands > 0 &&
		    i >= h->srv->cfg.max_commands) {
			server_refuse(h, "e_too_many");
			ret = REFUSED;
		} else {
			ret = commands_run_one(h, c, item);
		}
		if (ret < 0)
			break;
		if (ret == REFUSED) {
			template_ctx_set(h->refusal, "text", c->text);
			template_ctx_set_int(h->refusal, "line", c->line);
			ret = server_render_into(h, "mail/refusal.txt", h->refusal,
					  item, "refusal");
			if (ret < 0)
				break;
			template_ctx_set_bool(item, "refused", true);
			template_ctx_set_bool(h->reply, "not_run",
					      i + 1 < list.count ||
					      list.stopped_early);
			out->status = SERVER_REFUSED;
			out->failed_line = c->line;
			snprintf(out->outcome, sizeof(out->outcome),
				 "refused: line %d: %s (%s)", c->line,
				 template_ctx_get(h->refusal, "code"), c->text);
			break;
		}
		out->commands_run++;
	}
	h->only_moves = out->status == SERVER_OK && list.count > 0;
	for (size_t i = 0; i < list.count; i++)
		if (list.items[i].kind != COMMAND_MOVE)
			h->only_moves = false;
	command_list_free(&list);
	if (ret < 0)
		return -1;
	if (out->status == SERVER_OK)
		snprintf(out->outcome, sizeof(out->outcome), "ok: %zu command%s",
			 out->commands_run, out->commands_run == 1 ? "" : "s");
	return server_queue_reply(h, "reply");
}

/* The templates the service renders besides the table's and the
 * notices' (partials are checked through these). */
static const char *const commands_other_templates[] = {
	"mail/mail-refused.txt",
	"mail/refusal.txt",
	"mail/reply.txt",
	"mail/subject-game.txt",
	"mail/subject-reply.txt",
	"mail/subject-key-revoked.txt",
	"mail/digest.txt",
	"mail/subject-digest.txt",
	"mail/reminder.txt",
	"mail/subject-reminder.txt",
	"mail/standings.txt",
	"mail/subject-standings.txt",
	"mail/board.html",
	"mail/archive.txt",
	"mail/bot-move.txt",
	"mail/subject-bot-move.txt",
	"mail/hint.txt",
	"move-words.txt",
	"rule.txt",
	"explain.txt",
	"picture.txt",
	NULL,
};

int commands_check_templates(struct server *server, const char **error_r)
{
	struct template_set *ts = server->cfg.templates;
	size_t i;

	for (i = 0; i < sizeof(server_commands) / sizeof(server_commands[0]);
	     i++)
		if (template_check(ts, server_commands[i].template, error_r) < 0)
			return -1;
	for (i = 0; i < NOTICE_COUNT; i++)
		if (template_check(ts, server_notices[i].template, error_r) < 0)
			return -1;
	for (i = 0; commands_other_templates[i] != NULL; i++)
		if (template_check(ts, commands_other_templates[i], error_r) < 0)
			return -1;
	return 0;
}
