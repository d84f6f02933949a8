/* admin_backup.c -- `ashes db backup FILE` and `ashes db restore FILE`:
 * the daemon's database and its GnuPG home, copied while it runs and put
 * back after a loss (store_backup.h does the database).
 *
 * FILE is the database (SQLite's online backup: one snapshot, taken
 * without stopping the daemon); FILE.gnupg.tar beside it holds what the
 * daemon's GNUPGHOME ([gpg] home) is for: public.asc (every public key
 * in it: the players' and its own, `gpg --export`), secret.asc (its own
 * signing key, `gpg --export-secret-keys`), ownertrust.txt, and the key
 * of its reply Message-IDs (REPLY_KEY_FILE, when there), each made by the
 * gpg program.  Exports rather than a copy of the folder: gpg writes
 * them consistently while its agent runs, and they import into any gpg
 * version.  The tar holds an unprotected secret key, so it is written
 * mode 0600, like GNUPGHOME's private-keys-v1.d itself; whoever can read
 * it can sign as the club.
 *
 * restore imports the keys into [gpg] home (created 0700 if missing;
 * gpg's import adds to what is there and never loses a key), then puts
 * the database back, refused while a daemon holds the database's lock.
 * The daemon, on its next start, reads again the mails its archive
 * folder received since the backup (ashesd(8)).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/admin.h"
#include "cli/cli.h"
#include "config/club_config.h"
#include "store/store.h"
#include "store/store_backup.h"
#include "util/run.h"

/* The file in GNUPGHOME holding the key of the daemon's reply
 * Message-IDs (src/daemon/reply_id.c makes it). */
#define REPLY_KEY_FILE "ashesd-reply-id.key"

/* Run argv with stdout into out_path (NULL: stderr), stdin from
 * /dev/null.  0 if it exited 0, else -1 (said on stderr). */
static int backup_run(char *const argv[], const char *out_path)
{
	if (run_program(argv, out_path) == 0)
		return 0;
	fprintf(stderr, "ashes: %s %s failed\n", argv[0],
		argv[1] != NULL ? argv[1] : "");
	return -1;
}

/* dir/name into buf: 0, or -1 if too long. */
static int backup_join(char *buf, size_t len, const char *dir,
		       const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* gpg --homedir HOME --batch ARG [EXTRA], stdout into dir/out (NULL:
 * none).  0 or -1. */
static int backup_gpg(const char *home, const char *arg, const char *extra,
		      const char *dir, const char *out)
{
	char path[4096];
	char *argv[] = { "gpg", "--homedir", (char *)home, "--batch",
			 "--yes", "--quiet", "--armor", (char *)arg,
			 (char *)extra, NULL };

	if (out != NULL && backup_join(path, sizeof(path), dir, out) < 0)
		return -1;
	return backup_run(argv, out != NULL ? path : NULL);
}

/* Copy the file src to dst, mode 0600.  0, or -1 (said on stderr). */
static int backup_copy_file(const char *src, const char *dst)
{
	char buf[4096];
	ssize_t n;
	int in, out, ret = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return errno == ENOENT ? 1 : -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		fprintf(stderr, "ashes: %s: %s\n", dst, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	if (fchmod(out, 0600) < 0 || close(out) < 0)
		ret = -1;
	close(in);
	if (ret < 0)
		fprintf(stderr, "ashes: cannot copy %s to %s\n", src, dst);
	return ret;
}

/* A private folder beside file (FILE.gnupg.XXXXXX) into dir. */
static int backup_tmpdir(const char *file, char *dir, size_t len)
{
	if (snprintf(dir, len, "%s.gnupg.XXXXXX", file) >= (int)len ||
	    mkdtemp(dir) == NULL) {
		fprintf(stderr, "ashes: cannot make a folder beside %s: %s\n",
			file, strerror(errno));
		return -1;
	}
	return 0;
}

/* Remove the files backup_gnupg put in dir, and dir. */
static void backup_tmpdir_remove(const char *dir)
{
	static const char *const names[] = { "public.asc", "secret.asc",
		"ownertrust.txt", REPLY_KEY_FILE, NULL };
	char path[4096];

	for (size_t i = 0; names[i] != NULL; i++)
		if (backup_join(path, sizeof(path), dir, names[i]) == 0)
			unlink(path);
	rmdir(dir);
}

/* FILE.gnupg.tar from home: see the top of the file.  0 or -1. */
static int backup_gnupg(const char *home, const char *file)
{
	char dir[4096], tar[4096], tmp[4200], src[4096], dst[4096];
	char *argv[] = { "tar", "--format=gnu", "--sort=name", "--owner=0",
			 "--group=0", "--numeric-owner", "-cf", tmp, "-C", dir,
			 "public.asc", "secret.asc", "ownertrust.txt", NULL,
			 NULL };
	int ret = -1, r;

	if (snprintf(tar, sizeof(tar), "%s.gnupg.tar", file) >=
	    (int)sizeof(tar) || backup_tmpdir(file, dir, sizeof(dir)) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", tar);
	if (backup_gpg(home, "--export", NULL, dir, "public.asc") < 0 ||
	    backup_gpg(home, "--export-secret-keys", NULL, dir,
		       "secret.asc") < 0 ||
	    backup_gpg(home, "--export-ownertrust", NULL, dir,
		       "ownertrust.txt") < 0)
		goto out;
	if (backup_join(src, sizeof(src), home, REPLY_KEY_FILE) < 0 ||
	    backup_join(dst, sizeof(dst), dir, REPLY_KEY_FILE) < 0)
		goto out;
	r = backup_copy_file(src, dst);
	if (r < 0)
		goto out;
	if (r == 0)
		argv[13] = REPLY_KEY_FILE;
	/* created 0600 before tar writes into it */
	if (backup_copy_file("/dev/null", tmp) < 0 || backup_run(argv, NULL) < 0 ||
	    chmod(tmp, 0600) < 0 || rename(tmp, tar) < 0) {
		fprintf(stderr, "ashes: cannot write %s\n", tar);
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	backup_tmpdir_remove(dir);
	return ret;
}

/* Import FILE.gnupg.tar into home.  0, 1 if there is no such file, -1. */
static int restore_gnupg(const char *home, const char *file)
{
	char dir[4096], tar[4096], path[4096], dst[4096];
	char *argv[] = { "tar", "-xf", tar, "-C", dir, "--no-same-owner",
			 "--no-same-permissions", NULL };
	int ret = -1;

	if (snprintf(tar, sizeof(tar), "%s.gnupg.tar", file) >=
	    (int)sizeof(tar))
		return -1;
	if (access(tar, R_OK) < 0)
		return 1;
	if (mkdir(home, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "ashes: gpg home %s: %s\n", home,
			strerror(errno));
		return -1;
	}
	if (backup_tmpdir(file, dir, sizeof(dir)) < 0)
		return -1;
	if (backup_run(argv, NULL) < 0)
		goto out;
	if (backup_join(path, sizeof(path), dir, "public.asc") < 0 ||
	    backup_gpg(home, "--import", path, dir, NULL) < 0 ||
	    backup_join(path, sizeof(path), dir, "secret.asc") < 0 ||
	    backup_gpg(home, "--import", path, dir, NULL) < 0 ||
	    backup_join(path, sizeof(path), dir, "ownertrust.txt") < 0 ||
	    backup_gpg(home, "--import-ownertrust", path, dir, NULL) < 0)
		goto out;
	if (backup_join(path, sizeof(path), dir, REPLY_KEY_FILE) < 0 ||
	    backup_join(dst, sizeof(dst), home, REPLY_KEY_FILE) < 0 ||
	    backup_copy_file(path, dst) < 0)
		goto out;
	ret = 0;
out:
	backup_tmpdir_remove(dir);
	return ret;
}

int admin_db_backup(struct admin_opts *o, const char *file)
{
	struct store_backup_stats stats;
	struct store *st = NULL;
	const char *error, *home;
	int64_t now;
	int rc = CLI_EXIT_FAILURE;

	if (admin_now("ashes db backup", &now) < 0 ||
	    admin_open(o, false, &st) < 0)
		goto out;
	if (store_backup(st, file, now, NULL, &stats, &error) < 0) {
		fprintf(stderr, "ashes db backup: %s\n", error);
		goto out;
	}
	printf("database: %s (%" PRId64 " pages, %" PRId64 " steps)\n", file,
	       stats.pages, stats.steps);
	home = admin_config(o, NULL) ? o->cfg.gpg.home : NULL;
	if (home == NULL) {
		printf("gpg home: none configured, nothing to copy\n");
	} else {
		if (backup_gnupg(home, file) < 0)
			goto out;
		printf("gpg home: %s.gnupg.tar (from %s; mode 0600: it holds "
		       "the club's secret key)\n", file, home);
	}
	rc = CLI_EXIT_OK;
out:
	store_close(&st);
	return rc;
}

int admin_db_restore(struct admin_opts *o, const char *file)
{
	const char *error, *home, *db = admin_db_path(o);
	int64_t now, taken = 0;
	int lock = -1, r;
	char when[40];
	time_t t;

	if (admin_now("ashes db restore", &now) < 0)
		return CLI_EXIT_FAILURE;
	/* Not while the daemon runs: checked before the keys, and again by
	 * the store, which holds the lock while it puts the file back. */
	if (store_daemon_lock(db, &lock, &error) < 0) {
		fprintf(stderr, "ashes db restore: %s; stop it first\n", error);
		return CLI_EXIT_FAILURE;
	}
	store_daemon_unlock(&lock);
	home = admin_config(o, NULL) ? o->cfg.gpg.home : NULL;
	if (home != NULL) {
		r = restore_gnupg(home, file);
		if (r < 0)
			return CLI_EXIT_FAILURE;
		if (r == 1)
			printf("gpg home: no %s.gnupg.tar; %s left as it is\n",
			       file, home);
		else
			printf("gpg home: keys imported into %s\n", home);
	}
	if (store_restore(file, db, now, &taken, &error) < 0) {
		fprintf(stderr, "ashes db restore: %s\n", error);
		return CLI_EXIT_FAILURE;
	}
	t = (time_t)taken;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
	printf("database: %s restored from %s (taken %s); ashesd reads again "
	       "the mails received since when it starts\n", db, file, when);
	return CLI_EXIT_OK;
}
