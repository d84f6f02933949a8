/* maildir_source.c -- the "dir" mailbox source: a folder of .eml files, for
 * local runs (ashesd --maildir DIR) and unit tests.
 *
 * Files are read from DIR/new/ when that folder exists, else from DIR, in
 * name order; a handled file is renamed into DIR/archive/ (rename is atomic,
 * so a file present is a file not yet handled), a set-aside one into
 * DIR/quarantine/.  A set-aside whose rename failed is never handed out
 * again by this source; the rename is retried before each scan (after a
 * restart such a file is handed out again).  UIDs are handed out in
 * discovery order for the life of the source and UIDVALIDITY is 1: the
 * saved last UID is not used to skip files, since the files themselves say
 * what is left.  After a crash between the caller's commit and the rename
 * a file is handed out again: the store's Message-ID / sha256 record makes
 * that harmless.  A file's mtime is when the mail was received (a mail
 * delivery agent writes the file on receipt).
 */
#include "config.h"

#include "mail/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"

#define DIR_UIDVALIDITY 1

struct dir_entry {
	char *name;
	uint32_t uid;
	bool aside;	/* set aside, rename not done yet: never handed out */
};

struct dir_source {
	struct mail_source src;
	char *path;		/* where the .eml files are */
	char *archive;		/* where handled files go */
	char *quarantine;	/* where set-aside files go */
	unsigned int poll_ms;
	struct dir_entry *entries;	/* known, not yet archived */
	size_t n_entries, cap_entries;
	uint32_t next_uid;
	uint32_t cursor;	/* last UID handed out */
	struct buf data;	/* the message handed out */
	int64_t received;	/* its file's mtime (0: unknown) */
	int wake_pipe[2];	/* interrupt() writes here */
};

static bool dir_is_eml(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 4 && strcmp(name + len - 4, ".eml") == 0;
}

static int dir_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct dir_entry *dir_find(struct dir_source *ds, const char *name)
{
	size_t i;

	for (i = 0; i < ds->n_entries; i++) {
		if (strcmp(ds->entries[i].name, name) == 0)
			return &ds->entries[i];
	}
	return NULL;
}

/* Give new .eml files a UID, in name order.  Returns 0 or -1. */
static int dir_scan(struct dir_source *ds, const char **error_r)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = -1;

	d = opendir(ds->path);
	if (d == NULL) {
		*error_r = mail_source_error(&ds->src, "opendir %s: %s",
					     ds->path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!dir_is_eml(de->d_name) || dir_find(ds, de->d_name) != NULL)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = realloc(names, cap * sizeof(*names));
			if (names == NULL)
				abort();
		}
		names[n] = strdup(de->d_name);
		if (names[n] == NULL)
			abort();
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), dir_name_cmp);
	for (i = 0; i < n; i++) {
		if (ds->n_entries == ds->cap_entries) {
			ds->cap_entries = ds->cap_entries ?
				ds->cap_entries * 2 : 16;
			ds->entries = realloc(ds->entries, ds->cap_entries *
					      sizeof(*ds->entries));
			if (ds->entries == NULL)
				abort();
		}
		ds->entries[ds->n_entries].name = names[i];
		ds->entries[ds->n_entries].uid = ++ds->next_uid;
		ds->entries[ds->n_entries].aside = false;
		ds->n_entries++;
	}
	ret = 0;
	free(names);
	return ret;
}

/* The files listed, not handled and not set aside, above the cursor:
 * what is still to hand out. */
static long dir_waiting(const struct dir_source *ds)
{
	long n = 0;

	for (size_t i = 0; i < ds->n_entries; i++)
		if (ds->entries[i].uid > ds->cursor && !ds->entries[i].aside &&
		    ds->entries[i].uid > ds->src.state.last_uid)
			n++;
	return n;
}

/* Read a file into ds->data, its mtime into ds->received (the time it
 * was delivered into the folder): 1 done, 0 gone, -1 error. */
static int dir_read_file(struct dir_source *ds, const char *name,
			 const char **error_r)
{
	char chunk[65536];
	struct buf path = BUF_INIT;
	struct stat st;
	ssize_t r;
	int fd, ret = -1;

	buf_printf(&path, "%s/%s", ds->path, name);
	fd = open(buf_str(&path), O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		ret = 0;	/* taken away meanwhile */
		goto out;
	}
	if (fd < 0) {
		*error_r = mail_source_error(&ds->src, "open %s: %s",
					     buf_str(&path), strerror(errno));
		goto out;
	}
	ds->received = fstat(fd, &st) == 0 && st.st_mtime > 0 ?
		       (int64_t)st.st_mtime : 0;
	buf_reset(&ds->data);
	buf_append(&ds->data, "", 0);
	while ((r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*error_r = mail_source_error(&ds->src, "read %s: %s",
						     buf_str(&path),
						     strerror(errno));
			goto out;
		}
		buf_append(&ds->data, chunk, (size_t)r);
	}
	ret = 1;
out:
	if (fd >= 0)
		close(fd);
	buf_free(&path);
	return ret;
}

/* Drop entry i (its file is gone). */
static void dir_forget(struct dir_source *ds, size_t i)
{
	free(ds->entries[i].name);
	memmove(&ds->entries[i], &ds->entries[i + 1],
		(ds->n_entries - i - 1) * sizeof(*ds->entries));
	ds->n_entries--;
}

/* Rename entry i into folder TO (made 0700 when missing) and forget it.
 * Returns 0, or -1 with *error_r and errno (the entry stays). */
static int dir_move(struct dir_source *ds, size_t i, const char *to,
		    const char **error_r)
{
	struct buf from = BUF_INIT, dest = BUF_INIT;
	int ret = -1, err = 0;

	buf_printf(&from, "%s/%s", ds->path, ds->entries[i].name);
	buf_printf(&dest, "%s/%s", to, ds->entries[i].name);
	if (mkdir(to, 0700) < 0 && errno != EEXIST) {
		err = errno;
		*error_r = mail_source_error(&ds->src, "mkdir %s: %s", to,
					     strerror(errno));
		goto out;
	}
	if (rename(buf_str(&from), buf_str(&dest)) < 0) {
		err = errno;
		*error_r = mail_source_error(&ds->src, "rename %s to %s: %s",
					     buf_str(&from), buf_str(&dest),
					     strerror(errno));
		goto out;
	}
	dir_forget(ds, i);
	ret = 0;
out:
	buf_free(&from);
	buf_free(&dest);
	errno = err;
	return ret;
}

/* Entry of UID, or -1 with *error_r. */
static ssize_t dir_find_uid(struct dir_source *ds, uint32_t uid,
			    const char **error_r)
{
	size_t i;

	for (i = 0; i < ds->n_entries; i++) {
		if (ds->entries[i].uid == uid)
			return (ssize_t)i;
	}
	*error_r = mail_source_error(&ds->src, "no message with UID %u",
				     (unsigned int)uid);
	return -1;
}

static enum mail_source_result dir_next(struct mail_source *src,
					struct mail_source_message *msg_r,
					const char **error_r)
{
	struct dir_source *ds = (struct dir_source *)src;
	size_t i;
	int r;

	if (src->state.uidvalidity != DIR_UIDVALIDITY) {
		bool changed = src->state.uidvalidity != 0;

		src->state.uidvalidity = DIR_UIDVALIDITY;
		src->state.last_uid = 0;
		if (changed)
			return MAIL_SOURCE_RESCAN;
	}
	/* Set-asides whose rename failed: try again (the error was
	 * reported then).  A file taken away meanwhile is forgotten. */
	for (i = 0; i < ds->n_entries; i++) {
		const char *ignored;

		if (!ds->entries[i].aside)
			continue;
		if (dir_move(ds, i, ds->quarantine, &ignored) == 0) {
			i--;
		} else if (errno == ENOENT) {
			dir_forget(ds, i);
			i--;
		}
	}
	if (dir_scan(ds, error_r) < 0)
		return MAIL_SOURCE_ERROR;
	mail_source_note_contact(src, dir_waiting(ds));
	for (i = 0; i < ds->n_entries; i++) {
		if (ds->entries[i].uid <= ds->cursor || ds->entries[i].aside)
			continue;
		r = dir_read_file(ds, ds->entries[i].name, error_r);
		if (r < 0)
			return MAIL_SOURCE_ERROR;
		if (r == 0) {
			/* Taken away by someone else: forget it. */
			dir_forget(ds, i);
			i--;
			continue;
		}
		ds->cursor = ds->entries[i].uid;
		mail_source_note_handed_out(src);
		msg_r->uidvalidity = DIR_UIDVALIDITY;
		msg_r->uid = ds->entries[i].uid;
		msg_r->data = buf_str(&ds->data);
		msg_r->size = ds->data.len;
		msg_r->received = ds->received;
		return MAIL_SOURCE_MESSAGE;
	}
	return MAIL_SOURCE_NONE;
}

static int dir_mark_handled(struct mail_source *src, uint32_t uid,
			    const char **error_r)
{
	struct dir_source *ds = (struct dir_source *)src;
	ssize_t i = dir_find_uid(ds, uid, error_r);

	if (i < 0)
		return -1;
	/* Set aside already: it goes to quarantine, not to the archive. */
	if (!ds->entries[i].aside &&
	    dir_move(ds, (size_t)i, ds->archive, error_r) < 0)
		return -1;
	if (uid > src->state.last_uid)
		src->state.last_uid = uid;
	return 0;
}

static int dir_set_aside(struct mail_source *src, uint32_t uid,
			 const char **error_r)
{
	struct dir_source *ds = (struct dir_source *)src;
	ssize_t i = dir_find_uid(ds, uid, error_r);

	if (i < 0)
		return -1;
	/* Done with, whether the rename works now or at a later next(). */
	ds->entries[i].aside = true;
	if (uid > src->state.last_uid)
		src->state.last_uid = uid;
	return dir_move(ds, (size_t)i, ds->quarantine, error_r);
}

static int dir_wait(struct mail_source *src, unsigned int max_ms,
		    const char **error_r)
{
	struct dir_source *ds = (struct dir_source *)src;
	unsigned int ms = max_ms < ds->poll_ms ? max_ms : ds->poll_ms;
	size_t i;

	/* Files handed out but not marked were not handled: offer them
	 * again after this wait (they are still here). */
	ds->cursor = 0;
	if (mail_source_sleep(ds->wake_pipe, ms) == 0)
		return 0;
	/* Cheap to check: tell the caller whether anything waits. */
	if (dir_scan(ds, error_r) < 0)
		return -1;
	for (i = 0; i < ds->n_entries; i++) {
		if (ds->entries[i].uid > ds->cursor && !ds->entries[i].aside)
			return 1;
	}
	return 0;
}

static void dir_interrupt(struct mail_source *src)
{
	struct dir_source *ds = (struct dir_source *)src;

	mail_source_wake(ds->wake_pipe);
}

static void dir_close(struct mail_source *src)
{
	struct dir_source *ds = (struct dir_source *)src;
	size_t i;

	for (i = 0; i < ds->n_entries; i++)
		free(ds->entries[i].name);
	free(ds->entries);
	free(ds->path);
	free(ds->archive);
	free(ds->quarantine);
	buf_free(&ds->data);
	mail_source_wake_close(ds->wake_pipe);
	free(ds);
}

static int dir_open(const struct mail_source_settings *set,
		    struct mail_source **src_r, const char **error_r)
{
	struct dir_source *ds;
	struct buf sub = BUF_INIT;
	struct stat st;

	if (set->path == NULL || set->path[0] == '\0') {
		*error_r = "mail source dir: no path given";
		return -1;
	}
	if (stat(set->path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		*error_r = "mail source dir: path is not a directory";
		return -1;
	}
	ds = calloc(1, sizeof(*ds));
	if (ds == NULL)
		abort();
	ds->src.v = &mail_source_dir;
	buf_printf(&sub, "%s/new", set->path);
	if (stat(buf_str(&sub), &st) == 0 && S_ISDIR(st.st_mode))
		ds->path = buf_steal(&sub);
	else
		ds->path = strdup(set->path);
	buf_free(&sub);
	buf_printf(&sub, "%s/archive", set->path);
	ds->archive = buf_steal(&sub);
	buf_printf(&sub, "%s/quarantine", set->path);
	ds->quarantine = buf_steal(&sub);
	if (ds->path == NULL)
		abort();
	ds->poll_ms = set->poll_ms ? set->poll_ms : 1000;
	if (mail_source_wake_init(ds->wake_pipe) < 0) {
		*error_r = "mail source dir: pipe failed";
		free(ds->path);
		free(ds->archive);
		free(ds->quarantine);
		free(ds);
		return -1;
	}
	*src_r = &ds->src;
	return 0;
}

const struct mail_source_vfuncs mail_source_dir = {
	.name = "dir",
	.open = dir_open,
	.next = dir_next,
	.mark_handled = dir_mark_handled,
	.set_aside = dir_set_aside,
	.wait = dir_wait,
	.interrupt = dir_interrupt,
	.close = dir_close,
};
