/* name_table.h -- the code words of an enum: a table indexed by the
 * enum's values (designated initialisers, holes NULL), read both ways.
 * The store writes the words and reads them back; the config reads
 * them from the operator. */
#ifndef ASHES_UTIL_NAME_TABLE_H
#define ASHES_UTIL_NAME_TABLE_H

#include <stddef.h>

#define NAME_TABLE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* names[i], or "unknown" for an index not in the table (a code added to
 * an enum but not to its table). */
const char *name_table_name(const char *const *names, size_t n, unsigned i);
/* The index of word (exact) in names: 0 and *i_r, or -1. */
int name_table_parse(const char *const *names, size_t n, const char *word,
		     unsigned *i_r);

#endif
