/* cases_driver.h -- the text side of the service's data-driven tests
 * (tests/server/test_cases.c): reading a case file into its sections,
 * a mail's header lines, a unified diff of expected against actual text,
 * and rewriting a case file with the actual output.  Knows nothing of the
 * service; tests/server/cases/README describes the file format.
 *
 * Allocation failure aborts (buf.h's policy); every other failure is
 * returned as -1 with a message in the caller's `err` buffer.
 */
#ifndef ASHES_TESTS_CASES_DRIVER_H
#define ASHES_TESTS_CASES_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One <name attrs> ... </name> section.  The tags stand on lines of their
 * own; the content is every line between them, each ended by "\n". */
struct cases_section {
	char name[32];
	char *attrs;    /* what follows the name inside the open tag, or "" */
	char *content;
	int line;       /* line number of the open tag, 1-based */
	size_t start;   /* offset of the open tag's line in the file */
	size_t end;     /* offset just past the close tag's line */
};

struct cases_file {
	char *path;
	char *text;     /* the whole file, NUL-terminated */
	size_t len;
	struct cases_section *sections;
	size_t count;
};

/* Read and split a case file.  Text outside sections is free comment.
 * -1 (err filled) for an unreadable file, an unclosed or nested section. */
int cases_file_load(const char *path, struct cases_file *f, char *err,
		    size_t errlen);
void cases_file_free(struct cases_file *f);

/* Is `name` one of the sections the writer regenerates (sent, outcome)? */
bool cases_section_generated(const char *name);

/* Is `name` a step the generated sections follow (mail, digests,
 * tick)? */
bool cases_section_step(const char *name);

/* The next line from *p on (a section's content) that is neither blank
 * nor a "#" comment, into text (cut at size), *p moved past it; *line
 * counts every line read.  false at the end of the content. */
bool cases_next_line(const char **p, int *line, char *text, size_t size);

/* Write f back to its path with every generated section dropped and
 * after[i] inserted right after the i-th step section (<mail>,
 * <digests> or <tick>; after may hold NULL entries: nothing inserted).
 * Whitespace-only text between a step and the generated sections that
 * followed it is dropped with them.
 * -1 (err filled) if the file cannot be written. */
int cases_file_rewrite(const struct cases_file *f, char *const *after,
		       size_t nafter, char *err, size_t errlen);

/* One "Name: value" header line of a mail section. */
struct cases_header {
	char *name;
	char *value;
};

/* Split a <mail> section's content into header lines and the body: the
 * headers run up to the first empty line, the body is everything after
 * it.  -1 (err filled) for a header line without "Name: value". */
int cases_mail_parse(const char *content, struct cases_header **headers_r,
		     size_t *count_r, char **body_r, char *err,
		     size_t errlen);
void cases_headers_free(struct cases_header **headers, size_t count);

/* Print a unified diff (3 lines of context) of expected against actual
 * to out, with the given labels.  Prints nothing when they are equal. */
void cases_diff(FILE *out, const char *label_expected, const char *expected,
		const char *label_actual, const char *actual);

/* Copy of s (aborts when out of memory). */
char *cases_strdup(const char *s);

#endif
