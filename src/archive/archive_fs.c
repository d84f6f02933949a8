/* archive_fs.c -- the files of an archive: written new (never through a
 * link, never over a file), read only when they are plain files (an
 * archive is untrusted input: a link in it must not make verify read the
 * verifier's own files), a folder listed and removed, and tar run. */
#include <config.h> /* autoconf's: _GNU_SOURCE (nftw, O_NOFOLLOW) */
#include "archive/archive_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"
#include "util/xstr.h"

bool archive_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int fs_path(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Close fd after a failure, keeping the failure's errno: -1. */
static int fs_close_failed(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
	return -1;
}

int archive_write_file(const char *dir, const char *name, const void *data,
		       size_t len)
{
	char path[4096];
	const char *p = data;
	int fd;

	if (fs_path(path, sizeof(path), dir, name) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail;
	return close(fd);
fail:
	return fs_close_failed(fd);
}

int archive_read_file(const char *dir, const char *name, size_t max,
		      struct buf *out)
{
	char path[4096], chunk[8192];
	struct stat sb;
	int fd;

	if (fs_path(path, sizeof(path), dir, name) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0)
		goto fail;
	if (!S_ISREG(sb.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	if ((uint64_t)sb.st_size > max) {
		errno = EFBIG;
		goto fail;
	}
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		buf_append(out, chunk, (size_t)n);
		if (out->len > max) {
			errno = EFBIG;
			goto fail;
		}
	}
	if (out->data == NULL)
		buf_puts(out, "");
	return close(fd);
fail:
	return fs_close_failed(fd);
}

static int fs_remove_one(const char *path, const struct stat *sb, int flag,
			 struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		(void)rmdir(path);
	else
		(void)unlink(path);
	return 0;
}

void archive_remove_tree(const char *dir)
{
	(void)nftw(dir, fs_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int fs_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void archive_names_free(char ***names, size_t count)
{
	for (size_t i = 0; *names != NULL && i < count; i++)
		free((*names)[i]);
	free(*names);
	*names = NULL;
}

int archive_list_dir(const char *dir, char ***names_r, size_t *count_r,
		     const char **bad_r)
{
	static __thread char bad[300];
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	*names_r = NULL;
	*count_r = 0;
	*bad_r = NULL;
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fs_path(path, sizeof(path), dir, e->d_name) < 0 ||
		    lstat(path, &sb) < 0)
			goto fail;
		if (!S_ISREG(sb.st_mode)) {
			snprintf(bad, sizeof(bad), "%s", e->d_name);
			*bad_r = bad;
			errno = EINVAL;
			goto fail;
		}
		if (n + 1 >= cap) {
			cap = cap == 0 ? 64 : cap * 2;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
		names[n] = NULL;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), fs_name_cmp);
	*names_r = names;
	*count_r = n;
	return 0;
fail:
	{
		int saved = errno;
		closedir(d);
		archive_names_free(&names, n);
		errno = saved;
	}
	return -1;
}
