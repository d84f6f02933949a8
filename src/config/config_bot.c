/* config_bot.c -- the [bot] section of ashesd.conf as a whole: the levels
 * offered ("1-5", "1,2,3", "2-4,5") read into a set, and the bot's name
 * checked; the keys themselves are config_keys.c's. */
#include <config.h>

#include <ctype.h>
#include <string.h>

#include "config/config_private.h"

/* The longest bot name: a player's name in the games' mails. */
#define CONFIG_BOT_NAME_MAX 24

static unsigned config_bot_line(const struct config_parse *ps,
				const char *key)
{
	ptrdiff_t i = config_key_find("bot", key);

	return i < 0 ? 0 : ps->lines[i];
}

/* "1-5", "1, 3" or "1-2,4": the levels 1-5 as bits.  0 if malformed or
 * out of range. */
static unsigned config_bot_levels(const char *s)
{
	unsigned set = 0;

	while (*s != '\0') {
		int lo, hi;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '1' || *s > '5')
			return 0;
		lo = hi = *s++ - '0';
		if (*s == '-') {
			s++;
			if (*s < '1' || *s > '5')
				return 0;
			hi = *s++ - '0';
		}
		if (hi < lo)
			return 0;
		for (int l = lo; l <= hi; l++)
			set |= 1u << l;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return 0;
	}
	return set;
}

/* 1-24 of letters, digits, blanks, '-' and '_', starting with a letter:
 * no line break or markup can reach a mail through it. */
static bool config_bot_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > CONFIG_BOT_NAME_MAX ||
	    !isalpha((unsigned char)name[0]))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c >= 0x80 || !(isalnum(c) || c == ' ' || c == '-' ||
				   c == '_'))
			return false;
	}
	return true;
}

void config_bot_check(struct config_parse *ps)
{
	struct config_bot *bot = &ps->cfg->bot;

	bot->levels = bot->levels_text != NULL ?
		      config_bot_levels(bot->levels_text) : 0;
	if (bot->levels == 0)
		config_error(ps->errors, ps->file,
			     config_bot_line(ps, "levels"),
			     "[bot] levels: \"%s\" is not a set of levels 1 to "
			     "5, such as 1-5 or 1,2,3",
			     bot->levels_text != NULL ? bot->levels_text : "");
	if (bot->name == NULL || !config_bot_name_ok(bot->name))
		config_error(ps->errors, ps->file, config_bot_line(ps, "name"),
			     "[bot] name: 1 to %d letters, digits, blanks, "
			     "'-' or '_', starting with a letter",
			     CONFIG_BOT_NAME_MAX);
	/* A player who never moves must not keep a bot game for ever. */
	if (bot->clock == NULL || strncmp(bot->clock, "none", 4) == 0)
		config_error(ps->errors, ps->file, config_bot_line(ps, "clock"),
			     "[bot] clock: a bot game needs a clock, such as "
			     "days:3, so that one whose player stops moving "
			     "ends");
}
