/* command_args.c -- the arguments of the commands that set something
 * about a player or a game's clock: `set KEY VALUE`, `vacation ...`, and
 * the clock options of `challenge` (clock=, weekends=, vacation=).  The
 * grammar of the other commands is command.c's. */
#include "server/command_private.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

/* The options of a game's clock, which the service keeps besides the
 * rules' (core/variant.h): clock=SPEC, weekends=on|off, vacation=yes|no.
 * Only the form is checked here (the characters a spec is written with);
 * the service refuses a bad spec naming the accepted forms. */
static const char *const clock_option_keys[] = { "clock", "weekends",
						 "vacation" };

int command_parse_clock_option(struct command *cmd, const struct word *w,
			      size_t klen, const char *val, size_t vlen)
{
	const char *key = NULL;
	struct command_option *opt;

	for (size_t i = 0; i < N_ELEMENTS(clock_option_keys); i++)
		if (strlen(clock_option_keys[i]) == klen &&
		    strncasecmp(w->s, clock_option_keys[i], klen) == 0)
			key = clock_option_keys[i];
	if (key == NULL)
		return command_fail(cmd, COMMAND_ERR_UNKNOWN_OPTION, w->s, klen);
	for (size_t i = 0; i < cmd->noptions; i++)
		if (strcmp(cmd->options[i].key, key) == 0)
			return command_fail_str(cmd, COMMAND_ERR_DUPLICATE_OPTION, key);
	if (cmd->noptions >= COMMAND_MAX_OPTIONS)
		return command_fail(cmd, COMMAND_ERR_EXTRA_ARG, w->s, w->len);
	if (val == NULL || vlen == 0 || vlen >= COMMAND_OPTION_VALUE_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
	for (size_t i = 0; i < vlen; i++)
		if (!isalnum((unsigned char)val[i]) && val[i] != ':' &&
		    val[i] != '+' && val[i] != '/')
			return command_fail(cmd, COMMAND_ERR_BAD_OPTION, w->s, w->len);
	opt = &cmd->options[cmd->noptions++];
	command_copy_lower(opt->key, sizeof(opt->key), key, strlen(key));
	command_copy_lower(opt->value, sizeof(opt->value), val, vlen);
	return 0;
}

/* set KEY VALUE (or set KEY=VALUE): only the shape is checked here, a
 * word for KEY and one for VALUE (two for `set summary daily HH:MM`);
 * which keys and values exist is the settings handler's to say. */
int command_parse_set(struct command *cmd, const struct word *w, size_t nw,
		     const char *end, int64_t thread_game)
{
	struct word key, val = { NULL, 0 };
	const char *eq;
	size_t next = 2;

	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "SETTING");
	key = w[1];
	eq = memchr(key.s, '=', key.len);
	if (eq != NULL) {
		val.s = eq + 1;
		val.len = key.len - (size_t)(eq - key.s) - 1;
		key.len = (size_t)(eq - key.s);
	} else if (nw >= 3) {
		val = w[2];
		next = 3;
	}
	if (key.len == 0 || key.len >= COMMAND_OPTION_KEY_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_SETTING, key.s, key.len);
	for (size_t i = 0; i < key.len; i++)
		if (!isalpha((unsigned char)key.s[i]) && key.s[i] != '-' &&
		    key.s[i] != '_')
			return command_fail(cmd, COMMAND_ERR_BAD_SETTING, key.s,
				    key.len);
	if (val.len == 0)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, "VALUE");
	if (val.len >= COMMAND_OPTION_VALUE_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_VALUE, val.s, val.len);
	for (size_t i = 0; i < val.len; i++)
		if (!isgraph((unsigned char)val.s[i]))
			return command_fail(cmd, COMMAND_ERR_BAD_VALUE, val.s, val.len);
	command_copy_lower(cmd->options[0].key, sizeof(cmd->options[0].key), key.s,
		   key.len);
	command_copy_cut(cmd->options[0].value, sizeof(cmd->options[0].value), val.s,
		 val.len);
	cmd->noptions = 1;
	/* `set summary daily HH:MM`: a value of two words, kept as
	 * "daily HH:MM" for the settings handler to check. */
	if (next == 3 && nw >= 4 && strcmp(cmd->options[0].key, "summary") == 0 &&
	    strcasecmp(cmd->options[0].value, "daily") == 0) {
		size_t have = strlen(cmd->options[0].value);

		if (have + 1 + w[3].len >= COMMAND_OPTION_VALUE_MAX)
			return command_fail(cmd, COMMAND_ERR_BAD_VALUE, w[3].s,
					    w[3].len);
		cmd->options[0].value[have] = ' ';
		command_copy_cut(cmd->options[0].value + have + 1,
				 COMMAND_OPTION_VALUE_MAX - have - 1, w[3].s,
				 w[3].len);
		next = 4;
	}
	return command_no_more(cmd, w, nw, next);
}

/* A whole number of at most `digits` digits in w: 0 and *n_r, or -1. */
static int args_number(const char *s, size_t len, size_t digits, int *n_r)
{
	int n = 0;

	if (len == 0 || len > digits)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	*n_r = n;
	return 0;
}

/* A date YYYY-MM-DD: its shape and the ranges of month and day (the
 * service knows there is no February 30th). */
static int args_date(const struct word *w, int ymd[3])
{
	if (w->len != 10 || w->s[4] != '-' || w->s[7] != '-' ||
	    args_number(w->s, 4, 4, &ymd[0]) < 0 ||
	    args_number(w->s + 5, 2, 2, &ymd[1]) < 0 ||
	    args_number(w->s + 8, 2, 2, &ymd[2]) < 0 ||
	    ymd[1] < 1 || ymd[1] > 12 || ymd[2] < 1 || ymd[2] > 31)
		return -1;
	return 0;
}

/* vacation | vacation N | vacation N days | vacation from DATE to DATE |
 * vacation cancel */
int command_parse_vacation(struct command *cmd, const struct word *w,
			   size_t nw, const char *end, int64_t thread_game)
{
	cmd->vacation = COMMAND_VACATION_SHOW;
	if (nw == 1)
		return 0;
	if (command_word_is(&w[1], "cancel")) {
		cmd->vacation = COMMAND_VACATION_CANCEL;
		return command_no_more(cmd, w, nw, 2);
	}
	if (command_word_is(&w[1], "from")) {
		cmd->vacation = COMMAND_VACATION_DATES;
		if (nw < 5)
			return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG,
						nw < 3 ? "DATE" :
						nw < 4 ? "to" : "DATE");
		if (args_date(&w[2], cmd->vacation_from) < 0)
			return command_fail(cmd, COMMAND_ERR_BAD_VACATION,
					    w[2].s, w[2].len);
		if (!command_word_is(&w[3], "to"))
			return command_fail(cmd, COMMAND_ERR_BAD_VACATION,
					    w[3].s, w[3].len);
		if (args_date(&w[4], cmd->vacation_to) < 0)
			return command_fail(cmd, COMMAND_ERR_BAD_VACATION,
					    w[4].s, w[4].len);
		return command_no_more(cmd, w, nw, 5);
	}
	cmd->vacation = COMMAND_VACATION_DAYS;
	if (args_number(w[1].s, w[1].len, 3, &cmd->vacation_days) < 0 ||
	    cmd->vacation_days < 1 ||
	    cmd->vacation_days > COMMAND_VACATION_DAYS_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_VACATION, w[1].s,
				    w[1].len);
	if (nw > 2 && (command_word_is(&w[2], "days") ||
		       command_word_is(&w[2], "day")))
		return command_no_more(cmd, w, nw, 3);
	return command_no_more(cmd, w, nw, 2);
}

/* A ladder's or league's name: 1-32 of a-z 0-9 _ - (any case as written;
 * kept in lower case). */
static int args_club_name(struct command *cmd, const struct word *w)
{
	if (w->len == 0 || w->len > COMMAND_CLUB_MAX)
		return command_fail(cmd, COMMAND_ERR_BAD_CLUB, w->s, w->len);
	for (size_t i = 0; i < w->len; i++)
		if (!isalnum((unsigned char)w->s[i]) && w->s[i] != '_' &&
		    w->s[i] != '-')
			return command_fail(cmd, COMMAND_ERR_BAD_CLUB, w->s,
					    w->len);
	command_copy_lower(cmd->club, sizeof(cmd->club), w->s, w->len);
	return 0;
}

/* ladder list | ladder NAME | ladder challenge NAME PLAYER |
 * ladder join NAME | ladder leave NAME; league NAME | league list |
 * league join NAME | league leave NAME; the same four of tournament */
int command_parse_club(struct command *cmd, const struct word *w, size_t nw,
		       const char *end, int64_t thread_game)
{
	bool ladder = cmd->kind == COMMAND_LADDER;
	const char *what = ladder ? "LADDER" :
			   cmd->kind == COMMAND_LEAGUE ? "LEAGUE" : "TOURNAMENT";
	size_t next;

	if (nw < 2)
		return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG, what);
	if (command_word_is(&w[1], "list")) {
		cmd->club_action = COMMAND_CLUB_LIST;
		return command_no_more(cmd, w, nw, 2);
	}
	if (command_word_is(&w[1], "join") ||
	    command_word_is(&w[1], "leave") ||
	    (ladder && command_word_is(&w[1], "challenge"))) {
		cmd->club_action = command_word_is(&w[1], "join") ?
			COMMAND_CLUB_JOIN : command_word_is(&w[1], "leave") ?
			COMMAND_CLUB_LEAVE : COMMAND_CLUB_CHALLENGE;
		if (nw < 3)
			return command_fail_str(cmd, COMMAND_ERR_MISSING_ARG,
						what);
		if (args_club_name(cmd, &w[2]) < 0)
			return -1;
		next = 3;
		if (cmd->club_action == COMMAND_CLUB_CHALLENGE) {
			if (nw < 4)
				return command_fail_str(cmd,
						COMMAND_ERR_MISSING_ARG,
						"PLAYER");
			if (!command_name_ok(w[3].s, w[3].len))
				return command_fail(cmd, COMMAND_ERR_BAD_NAME,
						    w[3].s, w[3].len);
			command_copy_lower(cmd->name, sizeof(cmd->name),
					   w[3].s, w[3].len);
			next = 4;
		}
		return command_no_more(cmd, w, nw, next);
	}
	cmd->club_action = COMMAND_CLUB_SHOW;
	if (args_club_name(cmd, &w[1]) < 0)
		return -1;
	return command_no_more(cmd, w, nw, 2);
}
