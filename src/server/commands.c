/* commands.c -- the game service's side of the command table
 * (command_table.h): a row's gate, handler and template.  The gate, the
 * loading of the game, the rendering and the freeing happen here, once,
 * driven by the row; a new command is a row, a parser and a handler.
 *
 * A mail's commands run in order; the first refused one stops the rest
 * (earlier ones keep their effect), and the reply lists each result. */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>

/* Who may run a command; each gate includes the ones before it. */
enum commands_gate {
	GATE_ANYONE = 0,  /* even a sender nobody knows yet */
	GATE_REGISTERED,  /* a player with a confirmed address */
	GATE_GAME,        /* ... naming a game that exists (loaded) */
	GATE_PLAYER_OR_FINISHED, /* ... a player of it, or anyone once it
				  * is finished */
	GATE_PLAYER,      /* ... an active game the sender plays in */
	GATE_TO_MOVE,     /* ... and it is the sender's turn (the ply, if
			   * given, is the next one) */
};

/* The service's columns of the command table, by kind. */
struct commands_row {
	enum commands_gate gate;
	const char *template;     /* the result's words, from out */
	server_command_fn *run;
};

#define SERVICE_ROW(kind, word, name, parse, names_game, gate, run, tmpl) \
	[COMMAND_##kind] = { GATE_##gate, "mail/" tmpl, run },
static const struct commands_row commands_table[] = {
	COMMAND_TABLE(SERVICE_ROW)
};

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
static int commands_gate(struct handle *h, const struct commands_row *row,
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
	if (row->gate == GATE_GAME ||
	    (row->gate == GATE_PLAYER_OR_FINISHED &&
	     g->row->status == STORE_GAME_FINISHED))
		return 0;
	if (g->row->status != STORE_GAME_ACTIVE)
		return game_refuse_status(h, g);
	color = game_my_color(h, g);
	if (color < 0)
		return game_refuse(h, "not_your_game", g->row->id);
	if (row->gate <= GATE_PLAYER)
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
	const struct commands_row *row = &commands_table[c->kind];
	struct game g;
	int ret;

	if (c->kind == COMMAND_INVALID) {
		/* A line that names a game keeps the reply in that game's
		 * thread, for a sender who may see the game. */
		if (c->game > 0 && h->me != NULL && !identity_pending(h->me) &&
		    game_note_first(h, c->game) < 0)
			return -1;
		server_refuse(h, command_error_section(c->error));
		template_ctx_set(h->refusal, "detail", c->detail);
		template_ctx_set(h->refusal, "suggestion", c->suggestion);
		return REFUSED;
	}
	/* The bot's own mail (the bot thread's, in process) plays a move
	 * and nothing else: whatever else its key might be made to sign,
	 * no other act of the bot is ever recorded. */
	if (h->msg->in_process && c->kind != COMMAND_MOVE)
		return server_refuse(h, "bot_moves_only");
	memset(&g, 0, sizeof(g));
	ret = commands_gate(h, row, c, &g);
	/* A note is for its author alone: never in a mail an archive keeps
	 * (after the gate, so that the refusal is in the game's thread). */
	if (ret == 0)
		ret = note_mail_check(h);
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
	h->commands = &list;
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
	h->commands = NULL;
	command_list_free(&list);
	if (ret < 0)
		return -1;
	if (out->status == SERVER_OK)
		snprintf(out->outcome, sizeof(out->outcome), "ok: %zu command%s",
			 out->commands_run, out->commands_run == 1 ? "" : "s");
	return server_queue_reply(h);
}

/* The templates the service renders besides the table's and the
 * notices' (partials are checked through these). */
static const char *const commands_other_templates[] = {
	"calendar.txt",
	"mail/mail-refused.txt",
	"mail/refusal.txt",
	"mail/reply.txt",
	"mail/subject-game.txt",
	"mail/subject-reply.txt",
	"mail/subject-key-revoked.txt",
	"mail/digest.txt",
	"mail/subject-digest.txt",
	"mail/summary.txt",
	"mail/summary-observed.txt",
	"mail/summary-result.txt",
	"mail/subject-summary.txt",
	"mail/reminder.txt",
	"mail/subject-reminder.txt",
	"mail/standings.txt",
	"mail/subject-standings.txt",
	"mail/board.html",
	"mail/archive.txt",
	"mail/bot-move.txt",
	"mail/subject-bot-move.txt",
	"mail/hint.txt",
	"mail/analysis.txt",
	"mail/address-code.txt",
	"mail/address-moved.txt",
	"mail/export.txt",
	"mail/export-unavailable.txt",
	"mail/subject-account.txt",
	"move-words.txt",
	"rule.txt",
	"explain.txt",
	"picture.txt",
	NULL,
};

/* Every template of one language's set. */
static int commands_check_set(struct template_set *ts, const char **error_r)
{
	size_t i;

	/* row 0 is COMMAND_INVALID's, which runs nothing */
	for (i = 1; i < sizeof(commands_table) / sizeof(commands_table[0]);
	     i++)
		if (template_check(ts, commands_table[i].template, error_r) < 0)
			return -1;
	for (i = 0; i < NOTICE_COUNT; i++)
		if (template_check(ts, server_notices[i].template, error_r) < 0)
			return -1;
	for (i = 0; commands_other_templates[i] != NULL; i++)
		if (template_check(ts, commands_other_templates[i], error_r) < 0)
			return -1;
	return 0;
}

int commands_check_templates(struct server *server, const char **error_r)
{
	const char *langs[TEMPLATE_LANGUAGES_MAX];
	size_t n = template_set_languages(server->cfg.templates, langs,
					  TEMPLATE_LANGUAGES_MAX);

	/* Each language's files (English where it has none) parse, and so
	 * do the partials they name. */
	for (size_t i = 0; i < n; i++)
		if (commands_check_set(template_set_language(
					       server->cfg.templates, langs[i]),
				       error_r) < 0)
			return -1;
	return 0;
}
