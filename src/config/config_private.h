/* config_private.h -- what the files of the config module share: the key
 * table's shape, the state of one load, and the helpers each file lends
 * the others.  Not for other modules: they use club_config.h.
 */
#ifndef ASHES_CONFIG_PRIVATE_H
#define ASHES_CONFIG_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/club_config.h"

#define CONFIG_SEC 1000ull
#define CONFIG_MIN (60 * CONFIG_SEC)
#define CONFIG_HOUR (60 * CONFIG_MIN)
#define CONFIG_DAY (24 * CONFIG_HOUR)
#define CONFIG_DURATION_MAX (3650 * CONFIG_DAY)

/* Room for every key of the table (checked where the table is). */
#define CONFIG_KEYS_MAX 192

enum config_key_type {
	KT_STRING,   /* char *, empty value = unset (NULL) */
	KT_PATH,     /* char *, must be absolute */
	KT_SECRET,   /* char *, never printed */
	KT_ADDRESS,  /* char *, local@domain */
	KT_URL,      /* struct config_server: url, host, port, implicit_tls */
	KT_BOOL,     /* bool */
	KT_UINT,     /* unsigned in [min, max] */
	KT_INT,      /* int in [min, max] */
	KT_DURATION, /* uint64_t milliseconds in [min, max] */
	KT_SIZE,     /* uint64_t bytes in [min, max] */
	KT_ENUM,     /* int, one of names[] */
	KT_CLOCK,    /* char *, a time control (server/clock.h), stored in
		      * its canonical spelling; empty: "none" */
	KT_HOURS,    /* struct config_hours: "48h, 12h", each a whole number
		      * of hours in [min, max] (milliseconds); "none" or
		      * empty: no hours */
	/* struct core_variant: the option of the core's table named by def,
	 * read as a KT_BOOL, KT_INT or KT_ENUM by the option's type, with
	 * the core's range, names and default. */
	KT_VARIANT,
	/* uint64_t milliseconds: 0 (never), or in [min, max] */
	KT_DURATION_OR_NEVER,
	KT_MEMBERS,  /* struct config_members: "alice, bob"; empty: none */
	KT_PLACES,   /* struct config_places: N in [min, max], or 1%..100% */
	KT_DATE,     /* int64_t: "YYYY-MM-DD", its UTC midnight */
	/* double: a decimal with at most 6 places ("0.5"), in [min, max]
	 * millionths */
	KT_DECIMAL,
};

struct config_name {
	const char *name;
	int value;      /* enum value; for KT_URL the default port */
	bool tls;       /* KT_URL: implicit TLS */
};

struct config_key {
	const char *section;
	const char *key;
	enum config_key_type type;
	size_t offset;
	/* NULL: unset by default.  KT_VARIANT: the core option's key (the
	 * default is the core's). */
	const char *def;
	const struct config_name *names;  /* KT_ENUM, KT_URL; {NULL} ends */
	uint64_t min, max;
};

/* config_keys.c: the table, in the order --check-config prints it. */
extern const struct config_key config_keys[];
extern const size_t config_nkeys;

/* Room for the keys of one ladder or league section. */
#define CONFIG_CLUB_KEYS_MAX 24

/* A kind of named section, [ladder NAME] or [league NAME]: its keys
 * (offsets into its own struct, which starts with a struct config_club)
 * and where struct config keeps the list. */
struct config_club_kind {
	const char *section;    /* "ladder" */
	const struct config_key *keys;
	size_t nkeys;
	size_t size;            /* of its struct */
	size_t list_offset;     /* of its array in struct config */
	size_t count_offset;    /* of its size_t count there */
};

enum {
	CONFIG_CLUB_LADDER,
	CONFIG_CLUB_LEAGUE,
	CONFIG_CLUB_TOURNAMENT,
	CONFIG_CLUB_KINDS,
};

/* config_clubs.c: the kinds, by the enum above. */
extern const struct config_club_kind config_club_kinds[CONFIG_CLUB_KINDS];

/* On which line each key of one named section was set (0: not), and
 * whether its value was refused (so the checks of the whole say nothing
 * more of it). */
struct config_club_lines {
	unsigned keys[CONFIG_CLUB_KEYS_MAX];
	bool refused[CONFIG_CLUB_KEYS_MAX];
};

/* The section the reader is in. */
struct config_cursor {
	char section[64]; /* as written: "smtp", "ladder main" */
	bool ok;          /* false: a bad header, whose keys are skipped */
	int kind;         /* a CONFIG_CLUB_*, or -1: a plain section */
	size_t index;     /* kind's section: its index in the list */
};

/* The state of one load: where messages go, and on which line each key
 * was set (0: not in the file). */
struct config_parse {
	const char *file;
	struct config *cfg;
	struct config_errors *errors;
	unsigned lines[CONFIG_KEYS_MAX];
	/* Per kind, per section of it: its keys' lines. */
	struct config_club_lines *club_lines[CONFIG_CLUB_KINDS];
};

/* config_read.c: append "FILE:LINE: message" (line 0: "FILE: message"). */
void config_error(struct config_errors *errors, const char *file,
		  unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* config_keys.c */
/* Index of [section] key in config_keys, or -1. */
ptrdiff_t config_key_find(const char *section, const char *key);
/* Store value into cfg for key k.  Returns 0, or -1 with a message in
 * *msg (a buf the caller frees). */
int config_set(struct config *cfg, const struct config_key *k,
	       const char *value, struct buf *msg);
/* Set cfg's field of k to its default (nothing for keys without one).
 * Returns config_set's result. */
int config_set_default(struct config *cfg, const struct config_key *k,
		       struct buf *msg);
/* Store value into field, which is k's (in whatever struct k's offset is
 * of).  Messages name k->section.  Returns 0, or -1 with a message. */
int config_set_field(const struct config_key *k, void *field,
		     const char *value, struct buf *msg);
/* k's value in field, as the file would say it (nothing when unset). */
void config_dump_value(const struct config_key *k, const void *field,
		       struct buf *out);
/* "key = value\n", as config_dump writes every key. */
void config_dump_key(const struct config_key *k, const void *field,
		     struct buf *out);
/* A string as the parser would read it back (quoted when needed). */
void config_dump_string(struct buf *out, const char *s);
/* Replace *field by a copy of value (NULL for ""); the old one is wiped. */
void config_set_string(char **field, const char *value);
/* Wipe and free *p (a password, perhaps), and set it to NULL. */
void config_wipe_free(char **p);

/* config_values.c: digits only, no sign, no overflow past max; *pp is
 * moved past them.  -1 if there are none or too many. */
int config_parse_number(const char **pp, uint64_t max, uint64_t *n_r);
/* A time control (clock_control_parse's spec) into *canonical_r (caller
 * frees).  0, or -1 with why and the accepted forms appended to msg. */
int config_parse_clock(const char *s, char **canonical_r, struct buf *msg);
/* "48h, 12h" (or "none", or "") into *hours_r, sorted highest first,
 * each between min_ms and max_ms.  0, or -1 with why appended to msg. */
int config_parse_hours(const char *s, uint64_t min_ms, uint64_t max_ms,
		       struct config_hours *hours_r, struct buf *msg);
/* "48h, 12h", or "none" for an empty list, appended to out. */
void config_format_hours(const struct config_hours *hours, struct buf *out);

/* "alice, bob" (or "") into *members_r, the old list freed; each a
 * player name, none twice.  0, or -1 with why appended to msg and
 * *members_r unchanged. */
int config_parse_members(const char *s, struct config_members *members_r,
			 struct buf *msg);
void config_members_free(struct config_members *members);
/* "N" places in [min, max], or "N%", 1..100, into *places_r.  0, or -1
 * with why appended to msg. */
int config_parse_places(const char *s, uint64_t min, uint64_t max,
			struct config_places *places_r, struct buf *msg);
/* A decimal with at most 6 places, in millionths.  0, or -1. */
int config_parse_decimal(const char *s, uint64_t *millionths_r,
			 const char **error_r);
/* millionths as the shortest decimal ("0.5", "1"). */
void config_format_decimal(uint64_t millionths, struct buf *out);

/* config_clubs.c */
/* A "[ladder NAME]" or "[league NAME]" header at line: the section's
 * kind and words.  Sets *cur (ok false after a refused header, with the
 * error given).  Returns false if section is no kind's. */
bool config_club_begin(struct config_parse *ps, const char *kind,
		       const char *name, unsigned line,
		       struct config_cursor *cur);
/* The key called key of cur's named section, or NULL; *field_r is where
 * its value goes, *line_r where the line it was set on goes, *refused_r
 * where a refusal of its value is noted. */
const struct config_key *config_club_key(struct config_parse *ps,
					 const struct config_cursor *cur,
					 const char *key, void **field_r,
					 unsigned **line_r, bool **refused_r);
/* After every line: [game]'s values where a section set none, required
 * keys, members, promotion and relegation. */
void config_clubs_check(struct config_parse *ps);
void config_clubs_dump(const struct config *cfg, struct buf *out);
void config_clubs_free(struct config *cfg);
/* The load's lines of named sections. */
void config_club_lines_free(struct config_parse *ps);

/* config_bot.c: [bot] levels read into cfg->bot.levels, and the bot's
 * name checked. */
void config_bot_check(struct config_parse *ps);

/* config_check.c: the checks of the whole, after every line was read;
 * ov may be NULL. */
void config_check(struct config_parse *ps, const struct config_overrides *ov);

#endif
