/* test_cases.c -- the game service driven by case files, as curl's
 * tests/data: each file of tests/server/cases/ states the mails that go
 * in and the exact mails the service queues for each (and the outcome it
 * records); this driver is generic.  Every case runs as its own Check test
 * on a fresh store with the real templates.  The format is described in
 * tests/server/cases/README.
 *
 * This file holds the case list, the Check tests and the walk through a
 * case's sections; cases_run.h says which file does the rest.
 *
 * Environment:
 *   ASHES_SRCDIR         the source tree (set by `make check`)
 *   ASHES_CASES=WORD     run only the cases whose file name holds WORD
 *   ASHES_CASES_WRITE=1  rewrite every case's <sent> and <outcome>
 *                        sections with what the service did (then read
 *                        the diff: it must be what a player should get)
 *   ASHES_CASES_DUMP=1   print every queued mail as the cases show it
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases_run.h"
#include "../check_run.h"

/* ---- the case list ----------------------------------------------------- */

static char cases_dir[PATH_MAX];
static char **case_names;
static size_t case_count;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cases_scan(void)
{
	const char *src = getenv("ASHES_SRCDIR");
	const char *only = getenv("ASHES_CASES");
	size_t cap = 0;
	struct dirent *d;
	DIR *dir;

	snprintf(cases_dir, sizeof(cases_dir), "%s/tests/server/cases",
		 src != NULL ? src : "..");
	dir = opendir(cases_dir);
	if (dir == NULL) {
		fprintf(stderr, "test_cases: cannot open %s\n", cases_dir);
		exit(1);
	}
	while ((d = readdir(dir)) != NULL) {
		size_t len = strlen(d->d_name);
		if (len < 6 || strcmp(d->d_name + len - 5, ".case") != 0)
			continue;
		if (only != NULL && only[0] != '\0' &&
		    strstr(d->d_name, only) == NULL)
			continue;
		if (case_count == cap) {
			cap = cap ? cap * 2 : 64;
			case_names = realloc(case_names, cap * sizeof(*case_names));
			if (case_names == NULL)
				abort();
		}
		case_names[case_count++] = cases_strdup(d->d_name);
	}
	closedir(dir);
	qsort(case_names, case_count, sizeof(*case_names), name_cmp);
}

/* ---- reporting --------------------------------------------------------- */

static void run_report(struct run *r, int line, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s:%d: ", r->path, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	r->failures++;
}

/* An error in the case or its setup: the case stops. */
void run_fail(struct run *r, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	run_report(r, line, fmt, ap);
	va_end(ap);
	r->fatal = true;
}

/* The service did not do what the case expects: the case goes on. */
void run_mismatch(struct run *r, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	run_report(r, line, fmt, ap);
	va_end(ap);
}

/* ---- running a case ---------------------------------------------------- */

static void run_case(const char *name, bool write)
{
	struct run r;
	char path[PATH_MAX + 256], err[512];
	char **after = NULL;
	size_t nafter = 0, i;
	bool have_title = false, server_made = false;

	memset(&r, 0, sizeof(r));
	snprintf(path, sizeof(path), "%s/%s", cases_dir, name);
	r.path = path;
	r.write = write;
	r.dump = getenv("ASHES_CASES_DUMP") != NULL;
	if (cases_file_load(path, &r.file, err, sizeof(err)) < 0)
		ck_abort_msg("%s", err);
	run_open(&r);
	for (i = 0; i < r.file.count && !r.fatal;) {
		const struct cases_section *s = &r.file.sections[i++];

		if (strcmp(s->name, "title") == 0) {
			have_title = true;
		} else if (strcmp(s->name, "config") == 0 && !server_made) {
			config_read(&r, s);
		} else if (strcmp(s->name, "config") == 0) {
			/* A reload (SIGHUP): the service anew, on the same
			 * store, with the settings as changed. */
			server_free(&r.srv);
			if (config_read(&r, s) == 0)
				run_server_new(&r);
		} else if (strcmp(s->name, "capture") == 0 && !server_made) {
			capture_read(&r, s);
		} else if (strcmp(s->name, "setup") == 0 && r.nmail == 0) {
			if (!server_made) {
				run_server_new(&r);
				server_made = true;
			}
			if (setup_read(&r, s) == 0)
				r.setup_outbox = r.last_outbox;
		} else if (cases_section_step(s->name)) {
			struct buf gen = BUF_INIT;
			if (!server_made) {
				run_server_new(&r);
				server_made = true;
			}
			run_step(&r, s, &i, &gen);
			after = realloc(after, (nafter + 1) * sizeof(*after));
			ck_assert_ptr_nonnull(after);
			after[nafter++] = buf_steal(&gen);
			buf_free(&gen);
		} else {
			run_fail(&r, s->line, "<%s> is not expected here",
				 s->name);
		}
	}
	if (!have_title)
		run_fail(&r, 1, "the case has no <title>");
	if (write && !r.fatal) {
		if (cases_file_rewrite(&r.file, after, nafter, err,
				       sizeof(err)) < 0)
			run_fail(&r, 0, "%s", err);
	}
	for (i = 0; i < nafter; i++)
		free(after[i]);
	free(after);
	run_close(&r);
	ck_assert_msg(r.failures == 0, "%s: %d problem(s), see the messages above",
		      name, r.failures);
}

START_TEST(test_case)
{
	const char *w = getenv("ASHES_CASES_WRITE");

	run_case(case_names[_i], w != NULL && w[0] != '\0' && w[0] != '0');
}
END_TEST

/* The diff and the file format themselves, on small texts. */
START_TEST(test_driver_self)
{
	char path[] = "/tmp/ashes-cases-self-XXXXXX";
	struct cases_file f;
	char err[256], *after[1];
	FILE *o;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	o = fdopen(fd, "w");
	fputs("<title>\nself\n</title>\n\nnote\n<mail>\nFrom: alice\n\n"
	      "help\n</mail>\n\n<sent>\nold\n</sent>\n\n<outcome>\nx\n"
	      "</outcome>\n\ntail\n", o);
	fclose(o);
	ck_assert_int_eq(cases_file_load(path, &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(f.count, 4);
	ck_assert_str_eq(f.sections[1].content, "From: alice\n\nhelp\n");
	after[0] = "<sent>\nnew\n</sent>\n";
	ck_assert_int_eq(cases_file_rewrite(&f, after, 1, err, sizeof(err)), 0);
	cases_file_free(&f);
	ck_assert_int_eq(cases_file_load(path, &f, err, sizeof(err)), 0);
	ck_assert_str_eq(f.text, "<title>\nself\n</title>\n\nnote\n<mail>\n"
			 "From: alice\n\nhelp\n</mail>\n<sent>\nnew\n</sent>\n"
			 "\ntail\n");
	cases_file_free(&f);
	unlink(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cases");
	TCase *tc = tcase_create("cases");
	int failed;

	cases_scan();
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_driver_self);
	if (case_count > 0)
		tcase_add_loop_test(tc, test_case, 0, (int)case_count);
	suite_add_tcase(s, tc);
	failed = test_failures(s);
	for (size_t i = 0; i < case_count; i++)
		free(case_names[i]);
	free(case_names);
	return failed != 0;
}
