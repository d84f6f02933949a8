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
#define CONFIG_KEYS_MAX 96

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
	/* struct core_variant: the option of the core's table named by def,
	 * read as a KT_BOOL, KT_INT or KT_ENUM by the option's type, with
	 * the core's range, names and default. */
	KT_VARIANT,
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

/* The state of one load: where messages go, and on which line each key
 * was set (0: not in the file). */
struct config_parse {
	const char *file;
	struct config *cfg;
	struct config_errors *errors;
	unsigned lines[CONFIG_KEYS_MAX];
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
/* Replace *field by a copy of value (NULL for ""); the old one is wiped. */
void config_set_string(char **field, const char *value);
/* Wipe and free *p (a password, perhaps), and set it to NULL. */
void config_wipe_free(char **p);

/* config_values.c: digits only, no sign, no overflow past max; *pp is
 * moved past them.  -1 if there are none or too many. */
int config_parse_number(const char **pp, uint64_t max, uint64_t *n_r);

/* config_check.c: the checks of the whole, after every line was read;
 * ov may be NULL. */
void config_check(struct config_parse *ps, const struct config_overrides *ov);

#endif
