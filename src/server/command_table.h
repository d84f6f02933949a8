/* command_table.h -- the commands of the mail language and the reasons a
 * line is none, one row each.  A command's row, in the spirit of
 * OpenSMTPD's commands[] (smtp_session.c), holds the words that start it,
 * what reads the rest of its line, who may run it, what runs it and the
 * template of its result:
 *
 *   ROW(KIND, keyword, name, parse, names_game, gate, run, template)
 *
 * KIND      COMMAND_KIND of enum command_kind (command.h); the comment
 *           above a row says which fields of struct command it fills.
 * keyword   the word a line starts with, any case; two words ("challenge
 *           bot") when the second picks another command.
 * name      the command's name in the corpus tests (command_kind_name()).
 * parse     what reads the rest of the line (command.c, command_args.c).
 * names_game  the line names a game: a refused one may still say which.
 * gate      who may run it, GATE_gate (commands.c).
 * run       the handler (server_private.h); template its result's words,
 *           under templates/mail/.
 *
 * The language's columns (keyword to names_game) are expanded by
 * command_keywords.c, all but parse, and by command.c, parse alone, row
 * for row; the service's (gate to template) by commands.c: the reader
 * links none of the service's functions, so it is tested and fuzzed
 * alone.  The order is the reader's: a two-word row comes before the row
 * of its first word, and of keywords as close to a slip as each other
 * the first is suggested.  Some lines are read by another keyword's parser: `accept
 * undo` and `offer undo` are undo's, `accept draw` and `offer draw`
 * draw's. */
#ifndef ASHES_SERVER_COMMAND_TABLE_H
#define ASHES_SERVER_COMMAND_TABLE_H

#define COMMAND_TABLE(ROW) \
	/* topic: "", "rules", or a command keyword */ \
	ROW(HELP, "help", "help", parse_help, false, \
	    ANYONE, help_run, "help.txt") \
	/* name */ \
	ROW(REGISTER, "register", "register", parse_register, false, \
	    ANYONE, identity_register, "cmd-register.txt") \
	/* level (0: not given), options: the practice opponent (bot.c) */ \
	ROW(CHALLENGE_BOT, "challenge bot", "challenge", parse_challenge_bot, \
	    false, REGISTERED, bot_challenge, "cmd-challenge-bot.txt") \
	/* name (a player or "any"), options */ \
	ROW(CHALLENGE, "challenge", "challenge", parse_challenge, false, \
	    REGISTERED, play_challenge, "cmd-challenge.txt") \
	/* game */ \
	ROW(ACCEPT, "accept", "accept", parse_answer, true, \
	    GAME, play_accept, "cmd-accept.txt") \
	ROW(DECLINE, "decline", "decline", parse_answer, true, \
	    GAME, play_decline, "cmd-decline.txt") \
	ROW(WITHDRAW, "withdraw", "withdraw", parse_game_arg, true, \
	    GAME, play_decline, "cmd-decline.txt") \
	/* game: a game over, challenged again, colours swapped \
	 * (rematch.c) */ \
	ROW(REMATCH, "rematch", "rematch", parse_game_arg, true, \
	    GAME, rematch_run, "cmd-rematch.txt") \
	/* game, ply (0: the thread's current), move */ \
	ROW(MOVE, "move", "move", parse_move, true, \
	    TO_MOVE, play_move, "cmd-move.txt") \
	/* game, cond_action, cond[ncond]: `conditional GAME THEIRS MINE \
	 * ...`, `conditional GAME`, `conditional GAME cancel` \
	 * (conditional.c); its gate says the opponent is to move */ \
	ROW(CONDITIONAL, "conditional", "conditional", parse_conditional, \
	    true, PLAYER, conditional_run, "cmd-conditional.txt") \
	/* game, move */ \
	ROW(PREVIEW, "preview", "preview", parse_preview, true, \
	    GAME, play_preview, "cmd-preview.txt") \
	/* game */ \
	ROW(RESIGN, "resign", "resign", parse_game_arg, true, \
	    PLAYER, play_resign, "cmd-resign.txt") \
	/* draw action, game */ \
	ROW(DRAW, "draw", "draw", parse_draw, true, \
	    PLAYER, play_draw, "cmd-draw.txt") \
	/* game */ \
	ROW(BOARD, "board", "board", parse_game_arg, true, \
	    GAME, view_game, "cmd-board.txt") \
	ROW(MOVES, "moves", "moves", parse_game_arg, true, \
	    GAME, view_game, "cmd-moves.txt") \
	ROW(HISTORY, "history", "history", parse_game_arg, true, \
	    GAME, view_game, "cmd-history.txt") \
	ROW(GAMES, "games", "games", parse_no_args, false, \
	    REGISTERED, view_games, "cmd-games.txt") \
	/* game */ \
	ROW(OBSERVE, "observe", "observe", parse_game_arg, true, \
	    GAME, view_observe, "cmd-observe.txt") \
	ROW(UNOBSERVE, "unobserve", "unobserve", parse_game_arg, true, \
	    GAME, view_observe, "cmd-observe.txt") \
	/* code: the one mailed to a claimed address */ \
	ROW(CONFIRM, "confirm", "confirm", parse_confirm, false, \
	    ANYONE, identity_confirm, "cmd-confirm.txt") \
	/* `key replace`: the key the mail carries */ \
	ROW(KEY_REPLACE, "key", "key", parse_key, false, \
	    REGISTERED, identity_key_replace, "cmd-key.txt") \
	/* options[0]: `set KEY VALUE` */ \
	ROW(SET, "set", "set", command_parse_set, false, \
	    REGISTERED, settings_set, "cmd-set.txt") \
	ROW(SETTINGS, "settings", "settings", parse_no_args, false, \
	    REGISTERED, settings_show, "cmd-settings.txt") \
	/* game, note: `message GAME TEXT` */ \
	ROW(MESSAGE, "message", "message", parse_message, true, \
	    GAME, message_send, "cmd-message.txt") \
	/* game, note: `note GAME TEXT`, a note its author alone reads \
	 * (note.c); `notes GAME`, the author's notes on the game */ \
	ROW(NOTE, "note", "note", parse_message, true, \
	    GAME, note_run, "cmd-note.txt") \
	ROW(NOTES, "notes", "notes", parse_game_arg, true, \
	    GAME, note_list_run, "cmd-notes.txt") \
	/* vacation action, days or dates */ \
	ROW(VACATION, "vacation", "vacation", command_parse_vacation, false, \
	    REGISTERED, vacation_run, "cmd-vacation.txt") \
	/* game: a win on time, the flag having fallen.  Not TO_MOVE: the \
	 * opponent of the player to move claims. */ \
	ROW(CLAIM, "claim", "claim", parse_game_arg, true, \
	    PLAYER, flag_claim, "cmd-claim.txt") \
	/* ladder action, club (ladder), name */ \
	ROW(LADDER, "ladder", "ladder", command_parse_club, false, \
	    REGISTERED, club_ladder_run, "cmd-ladder.txt") \
	/* league action, club (league) */ \
	ROW(LEAGUE, "league", "league", command_parse_club, false, \
	    REGISTERED, club_league_run, "cmd-league.txt") \
	/* tournament action, club (the event) */ \
	ROW(TOURNAMENT, "tournament", "tournament", command_parse_club, \
	    false, REGISTERED, club_tournament_run, "cmd-tournament.txt") \
	ROW(RATINGS, "ratings", "ratings", parse_no_args, false, \
	    REGISTERED, club_ratings, "cmd-ratings.txt") \
	/* game: its archive, mailed (archive_cmd.c says why this gate) */ \
	ROW(ARCHIVE, "archive", "archive", parse_game_arg, true, \
	    PLAYER_OR_FINISHED, archive_cmd_run, "cmd-archive.txt") \
	/* game: the bot's best moves, for the player to move (bot.c) */ \
	ROW(HINT, "hint", "hint", parse_game_arg, true, \
	    TO_MOVE, bot_hint, "cmd-hint.txt") \
	/* game: the bot's analysis of a finished game, mailed by the bot \
	 * thread (analysis.c); a player of it, or anyone once it is over */ \
	ROW(ANALYSE, "analyse", "analyse", parse_game_arg, true, \
	    PLAYER_OR_FINISHED, analysis_run, "cmd-analyse.txt") \
	ROW(ANALYZE, "analyze", "analyse", parse_game_arg, true, \
	    PLAYER_OR_FINISHED, analysis_run, "cmd-analyse.txt") \
	/* undo action, game: `offer undo GAME` (and `offer draw GAME`) */ \
	ROW(UNDO, "offer", "undo", parse_offer, true, \
	    PLAYER, undo_run, "cmd-undo.txt")

/* Why a line is not a command:
 *
 *   ERR(CODE, section, text)
 *
 * CODE      COMMAND_CODE of enum command_error (command.h); the comment
 *           says what the command's `detail` then names.
 * section   the refusal's words: the section of mail/refusal.txt.
 * text      a short English reason, for the tests' corpus
 *           (command_error_string()); players read the section. */
#define COMMAND_ERRORS(ERR) \
	ERR(OK, "ok", "no error") \
	/* first word is no command and no move */ \
	ERR(ERR_UNKNOWN, "e_unknown", "unknown command") \
	/* detail: what is missing */ \
	ERR(ERR_MISSING_ARG, "e_missing_arg", "missing argument") \
	/* detail: the extra word */ \
	ERR(ERR_EXTRA_ARG, "e_extra_arg", "unexpected extra word") \
	/* detail: the word given for GAME, PLY, MOVE; the name */ \
	ERR(ERR_BAD_GAME, "e_bad_game", "not a game number") \
	ERR(ERR_BAD_PLY, "e_bad_ply", "not a ply number") \
	ERR(ERR_BAD_MOVE, "e_bad_move", "not a move") \
	ERR(ERR_BAD_NAME, "e_bad_name", "a player name is 2 to 24 letters, " \
	    "digits, '-' or '_', starting with a letter") \
	/* detail: the key; key=value; the key */ \
	ERR(ERR_UNKNOWN_OPTION, "e_unknown_option", "unknown option") \
	ERR(ERR_BAD_OPTION, "e_bad_option", "bad option value") \
	ERR(ERR_DUPLICATE_OPTION, "e_duplicate_option", "option given twice") \
	/* detail: the word after "draw" */ \
	ERR(ERR_BAD_DRAW, "e_bad_draw", "draw takes offer, accept or decline") \
	/* a bare move outside a game's thread */ \
	ERR(ERR_NO_GAME, "e_no_game", "a move without a game number only " \
	    "works in a reply to the game's own mail") \
	/* more than COMMAND_MAX commands */ \
	ERR(ERR_TOO_MANY, "e_too_many", "too many commands in one mail") \
	/* a bare move (or a command without GAME) in a thread whose game \
	 * only the unsigned headers name: the signed text does not */ \
	ERR(ERR_THREAD_UNCONFIRMED, "e_thread_unconfirmed", \
	    "the signed text does not name the game") \
	/* detail: the word given for CODE; the word after "key" */ \
	ERR(ERR_BAD_CODE, "e_bad_code", "not a confirmation code") \
	ERR(ERR_BAD_KEY_ACTION, "e_bad_key_action", "unknown key action") \
	/* detail: the word given for KEY, for VALUE; the word after "offer" */ \
	ERR(ERR_BAD_SETTING, "e_bad_setting", "not a setting name") \
	ERR(ERR_BAD_VALUE, "e_bad_value", "not a setting value") \
	ERR(ERR_BAD_OFFER, "e_bad_offer", "offer takes undo or draw") \
	/* a message's or a note's TEXT: detail, how long it may be */ \
	ERR(ERR_TEXT_TOO_LONG, "e_text_too_long", "message too long") \
	/* detail: the word that is no DAYS, DATE, from, to or cancel */ \
	ERR(ERR_BAD_VACATION, "e_bad_vacation", "bad vacation") \
	/* detail: the word that is no ladder or league name */ \
	ERR(ERR_BAD_CLUB, "e_bad_club", "bad ladder, league or tournament name") \
	/* detail: how many moves a conditional line gave */ \
	ERR(ERR_COND_PAIRS, "e_cond_pairs", "conditional moves come in " \
	    "pairs") \
	ERR(ERR_COND_DEPTH, "e_cond_depth", "too many conditional moves")

#endif
