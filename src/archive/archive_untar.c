/* archive_untar.c -- an archive's .tar.gz unpacked by us, within bounds
 * (archive_private.h).  The file is a stranger's: gzip only inflates it
 * into a pipe, and we read the tar stream ourselves, so that nothing is
 * written before its header was checked -- a regular file or the one
 * folder of the archive, a plain name, a size under the bound for one
 * file and under what is left of the bound for all -- and nothing past
 * the size a header gave.  At the first breach gzip is killed and the
 * unpacking stops: a 2 MB .tar.gz of 2 GiB of zeros writes nothing. */
#include <config.h>
#include "archive/archive_private.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAR_BLOCK 512
/* What may follow the end of the entries (tar's padding). */
#define UNTAR_TRAILER_MAX (1024 * 1024)

static __thread char untar_error[512];

static int untar_fail(const char **error_r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int untar_fail(const char **error_r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(untar_error, sizeof(untar_error), fmt, ap);
	va_end(ap);
	*error_r = untar_error;
	return -1;
}

/* Read exactly len bytes from fd: 1, 0 at the end of the stream before
 * any byte, -1 on an error or a stream cut short (errno EIO). */
static int untar_read(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			if (got == 0)
				return 0;
			errno = EIO;
			return -1;
		}
		got += (size_t)n;
	}
	return 1;
}

/* An octal field of a tar header (NUL or blank ended); -1 if it is not
 * one (the base-256 form is refused: no file of an archive needs it). */
static int64_t untar_octal(const unsigned char *f, size_t len)
{
	int64_t v = 0;
	size_t i = 0;

	while (i < len && f[i] == ' ')
		i++;
	if (i == len || f[i] < '0' || f[i] > '7')
		return -1;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (INT64_MAX >> 3))
			return -1;
		v = v * 8 + (f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != '\0' && f[i] != ' ')
			return -1;
	return v;
}

/* The header's checksum is right (the sum of its bytes, the checksum
 * field counted as blanks). */
static bool untar_checksum_ok(const unsigned char *h)
{
	int64_t want = untar_octal(h + 148, 8), sum = 0;

	for (size_t i = 0; i < TAR_BLOCK; i++)
		sum += i >= 148 && i < 156 ? ' ' : h[i];
	return want >= 0 && sum == want;
}

/* The entry's name ("prefix/name" of ustar) into name. */
static int untar_name(const unsigned char *h, char *name, size_t len)
{
	char base[101], prefix[156];

	memcpy(base, h, 100);
	base[100] = '\0';
	memcpy(prefix, h + 345, 155);
	prefix[155] = '\0';
	/* Only POSIX ustar has a prefix there; GNU's format ("ustar  ")
	 * keeps other fields in those bytes. */
	if (memcmp(h + 257, "ustar\0", 6) != 0)
		prefix[0] = '\0';
	if ((size_t)snprintf(name, len, "%s%s%s", prefix,
			     prefix[0] ? "/" : "", base) >= len)
		return -1;
	return 0;
}

struct untar {
	int fd;                 /* the inflated stream */
	const char *into;
	const struct archive_untar_limits *lim;
	char top[256];          /* the one folder, once seen */
	uint64_t total;         /* bytes written so far */
	size_t entries;
};

/* Split "TOP/FILE" (or "TOP/" / "TOP") and check both: one folder of a
 * plain name, a file of a name an archive gives. */
static int untar_split(struct untar *u, const char *name, bool dir,
		       const char **file_r, const char **error_r)
{
	char top[256];
	const char *slash = strchr(name, '/');
	size_t n = slash != NULL ? (size_t)(slash - name) : strlen(name);

	*file_r = NULL;
	if (n == 0 || n >= sizeof(top))
		return untar_fail(error_r, "an entry named \"%.100s\": not in "
				  "one folder of the archive", name);
	memcpy(top, name, n);
	top[n] = '\0';
	if (!archive_name_ok(top))
		return untar_fail(error_r, "a folder named \"%.100s\": not a "
				  "name an archive gives", top);
	if (u->top[0] == '\0')
		snprintf(u->top, sizeof(u->top), "%s", top);
	else if (strcmp(u->top, top) != 0)
		return untar_fail(error_r, "more than one folder (%.100s, "
				  "%.100s): an archive is one", u->top, top);
	if (slash != NULL && slash[1] != '\0') {
		const char *file = slash + 1;
		size_t k = strlen(file);

		if (dir && file[k - 1] == '/')
			return untar_fail(error_r, "a folder in the folder "
					  "(%.100s): an archive has none",
					  name);
		if (!archive_name_ok(file))
			return untar_fail(error_r, "a file named \"%.100s\": "
					  "not a name an archive gives", name);
		if (dir)
			return untar_fail(error_r, "a folder in the folder "
					  "(%.100s): an archive has none",
					  name);
		*file_r = file;
	} else if (!dir) {
		return untar_fail(error_r, "a file \"%.100s\" beside the "
				  "folder: an archive is one folder", name);
	}
	return 0;
}

static int untar_mkdir_top(struct untar *u, const char **error_r)
{
	char path[4096];
	struct stat sb;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", u->into, u->top) >=
	    sizeof(path))
		return untar_fail(error_r, "a path too long");
	if (mkdir(path, 0700) == 0)
		return 0;
	if (errno == EEXIST && lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	return untar_fail(error_r, "%s: %s", path, strerror(errno));
}

/* Copy size bytes of the stream into the new file TOP/file, then skip
 * to the next block: every byte counted against the bounds. */
static int untar_file(struct untar *u, const char *file, uint64_t size,
		      const char **error_r)
{
	char path[4096];
	unsigned char block[64 * TAR_BLOCK];
	uint64_t left = size + (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
	uint64_t data = size;
	int fd, ret = -1;

	if (untar_mkdir_top(u, error_r) < 0)
		return -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", u->into, u->top,
			     file) >= sizeof(path))
		return untar_fail(error_r, "a path too long");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return untar_fail(error_r, "%s/%s: %s%s", u->top, file,
				  strerror(errno), errno == EEXIST ?
				  " (twice in the archive)" : "");
	while (left > 0) {
		size_t chunk = left < sizeof(block) ? (size_t)left :
			       sizeof(block);
		size_t keep = data < chunk ? (size_t)data : chunk;
		int r = untar_read(u->fd, block, chunk);

		if (r <= 0) {
			untar_fail(error_r, "the .tar.gz ends inside %s/%s",
				   u->top, file);
			goto out;
		}
		for (size_t off = 0; off < keep;) {
			ssize_t n = write(fd, block + off, keep - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				untar_fail(error_r, "%s: %s", path,
					   strerror(errno));
				goto out;
			}
			off += (size_t)n;
		}
		u->total += keep;
		data -= keep;
		left -= chunk;
	}
	ret = 0;
out:
	if (close(fd) < 0 && ret == 0)
		ret = untar_fail(error_r, "%s: %s", path, strerror(errno));
	return ret;
}

/* One header: 1 an entry done, 0 the end of the archive, -1 refused. */
static int untar_entry(struct untar *u, const char **error_r)
{
	unsigned char h[TAR_BLOCK];
	char name[300];
	const char *file;
	int64_t size;
	int r = untar_read(u->fd, h, sizeof(h));
	bool zero = true;

	if (r < 0)
		return untar_fail(error_r, "the .tar.gz is cut short, or not "
				  "a .tar.gz");
	if (r == 0)
		return 0; /* tar writes two zero blocks; the end will do */
	for (size_t i = 0; i < sizeof(h) && zero; i++)
		zero = h[i] == 0;
	if (zero)
		return 0;
	if (!untar_checksum_ok(h))
		return untar_fail(error_r, "not a tar header (its checksum is "
				  "wrong) at entry %zu", u->entries + 1);
	if (++u->entries > u->lim->max_entries)
		return untar_fail(error_r, "more than %zu entries: more than "
				  "an archive holds", u->lim->max_entries);
	if (untar_name(h, name, sizeof(name)) < 0)
		return untar_fail(error_r, "an entry's name is too long");
	size = untar_octal(h + 124, 12);
	if (size < 0)
		return untar_fail(error_r, "%.100s: not a size in its header",
				  name);
	switch (h[156]) {
	case '5':
		if (size != 0)
			return untar_fail(error_r, "%.100s: a folder with a "
					  "size", name);
		if (untar_split(u, name, true, &file, error_r) < 0 ||
		    untar_mkdir_top(u, error_r) < 0)
			return -1;
		return 1;
	case '0':
	case '\0':
		if ((uint64_t)size > u->lim->max_file)
			return untar_fail(error_r, "%.100s: %" PRId64 " bytes, "
					  "more than the %" PRIu64 " one file "
					  "of an archive may have", name, size,
					  u->lim->max_file);
		if ((uint64_t)size > u->lim->max_total - u->total)
			return untar_fail(error_r, "%.100s: %" PRId64 " bytes "
					  "more, past the %" PRIu64 " all "
					  "files of an archive may have", name,
					  size, u->lim->max_total);
		if (untar_split(u, name, false, &file, error_r) < 0)
			return -1;
		return untar_file(u, file, (uint64_t)size, error_r) < 0 ? -1 :
		       1;
	default:
		/* Links, devices, fifos, long names, pax headers: an
		 * archive we write has none. */
		return untar_fail(error_r, "%.100s: an entry of type '%c', "
				  "not a file or a folder", name,
				  h[156] >= 0x21 && h[156] < 0x7f ? h[156] :
				  '?');
	}
}

int archive_untar(const char *path, const char *into,
		  const struct archive_untar_limits *lim, char *dir,
		  size_t dir_len, const char **error_r)
{
	struct untar u;
	int pipefd[2], status, r, ret = -1;
	pid_t pid;

	memset(&u, 0, sizeof(u));
	u.into = into;
	u.lim = lim;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return untar_fail(error_r, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return untar_fail(error_r, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		char *argv[] = { "gzip", "-dc", "--", (char *)path, NULL };
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0)
			dup2(fd, 0);
		dup2(pipefd[1], 1);
		execvp(argv[0], argv);
		fprintf(stderr, "ashes: cannot run gzip: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	u.fd = pipefd[0];
	while ((r = untar_entry(&u, error_r)) == 1)
		;
	if (r == 0 && u.top[0] == '\0')
		untar_fail(error_r, "the .tar.gz holds no folder of an "
			   "archive");
	else if (r == 0)
		ret = 0;
	/* tar pads its output to a record (10 KiB): read it, so that gzip
	 * ends well, but not much more. */
	if (ret == 0) {
		unsigned char block[TAR_BLOCK * 16];
		size_t rest = 0;
		ssize_t n;

		while ((n = read(u.fd, block, sizeof(block))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || (rest += (size_t)n) > UNTAR_TRAILER_MAX) {
				ret = untar_fail(error_r, "more than %d bytes "
						 "after the end of the tar "
						 "stream", UNTAR_TRAILER_MAX);
				break;
			}
		}
	}
	/* Whatever gzip would still inflate is not wanted. */
	close(u.fd);
	if (ret < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	if (ret == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		/* gzip saw a broken stream, or trailing garbage. */
		ret = untar_fail(error_r, "gzip could not read %s to its end",
				 path);
	}
	if (ret == 0 &&
	    (size_t)snprintf(dir, dir_len, "%s/%s", into, u.top) >= dir_len)
		ret = untar_fail(error_r, "a path too long");
	return ret;
}
