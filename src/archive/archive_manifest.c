/* archive_manifest.c -- an archive's MANIFEST, in the format sha256sum
 * writes and `sha256sum -c` reads ("HASH  NAME", one file a line, sorted
 * by name), the names an archive's files may have, and verify's check of
 * MANIFEST and of the daemon's signature over it. */
#include "archive/archive_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/inbound.h"
#include "util/xalloc.h"
#include "util/xstr.h"

bool archive_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      c == '_'))
			return false;
	}
	return true;
}

void archive_manifest_free(struct archive_manifest *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->items[i].name);
	free(m->items);
	memset(m, 0, sizeof(*m));
}

static void manifest_push(struct archive_manifest *m, const char *sha,
			  const char *name, size_t name_len)
{
	struct archive_manifest_entry *e;

	if (m->count == m->cap) {
		m->cap = m->cap == 0 ? 32 : m->cap * 2;
		m->items = xrealloc(m->items, m->cap * sizeof(*m->items));
	}
	e = &m->items[m->count++];
	memcpy(e->sha256, sha, 64);
	e->sha256[64] = '\0';
	e->name = xzalloc(name_len + 1);
	memcpy(e->name, name, name_len);
}

void archive_manifest_add(struct archive_manifest *m, const char *name,
			  const void *data, size_t len)
{
	char hex[INBOUND_SHA256_HEX_LEN + 1];

	inbound_sha256_hex(data, len, hex);
	manifest_push(m, hex, name, strlen(name));
}

static int manifest_cmp(const void *a, const void *b)
{
	return strcmp(((const struct archive_manifest_entry *)a)->name,
		      ((const struct archive_manifest_entry *)b)->name);
}

void archive_manifest_format(struct archive_manifest *m, struct buf *out)
{
	if (m->count > 1) /* items is NULL without any */
		qsort(m->items, m->count, sizeof(*m->items), manifest_cmp);
	for (size_t i = 0; i < m->count; i++)
		buf_printf(out, "%s  %s\n", m->items[i].sha256,
			   m->items[i].name);
}

int archive_manifest_parse(const char *text, size_t len,
			   struct archive_manifest *m, size_t *line_r)
{
	return archive_manifest_parse_names(text, len, archive_name_ok, m,
					    line_r);
}

/* A name of m and its place (item k is line k + 1). */
struct manifest_name {
	const char *name;
	size_t index;
};

static int manifest_name_cmp(const void *a, const void *b)
{
	const struct manifest_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* The first line (1..) whose name an earlier line has, or 0. */
static size_t manifest_repeat(const struct archive_manifest *m)
{
	struct manifest_name *t = xzalloc((m->count + 1) * sizeof(*t));
	size_t k, first = 0;

	for (k = 0; k < m->count; k++)
		t[k] = (struct manifest_name){ m->items[k].name, k };
	qsort(t, m->count, sizeof(*t), manifest_name_cmp);
	for (k = 1; k < m->count; k++)
		if (strcmp(t[k].name, t[k - 1].name) == 0 &&
		    (first == 0 || t[k].index + 1 < first))
			first = t[k].index + 1;
	free(t);
	return first;
}

int archive_manifest_parse_names(const char *text, size_t len,
				 bool (*name_ok)(const char *name),
				 struct archive_manifest *m, size_t *line_r)
{
	size_t i = 0, line = 0;

	memset(m, 0, sizeof(*m));
	while (i < len) {
		const char *s = text + i, *nl = memchr(s, '\n', len - i);
		size_t n = nl != NULL ? (size_t)(nl - s) : len - i;
		char name[128];
		bool hex = n > 66;

		line++;
		i += n + (nl != NULL ? 1 : 0);
		for (size_t k = 0; hex && k < 64; k++)
			hex = (s[k] >= '0' && s[k] <= '9') ||
			      (s[k] >= 'a' && s[k] <= 'f');
		if (!hex || s[64] != ' ' || s[65] != ' ' ||
		    n - 66 >= sizeof(name))
			goto fail;
		memcpy(name, s + 66, n - 66);
		name[n - 66] = '\0';
		if (!name_ok(name))
			goto fail;
		manifest_push(m, s, name, n - 66);
	}
	/* a name twice: the line where it comes again (sorted, not a scan
	 * per line: an event's MANIFEST may list 100000 files) */
	line = manifest_repeat(m);
	if (line > 0)
		goto fail;
	return 0;
fail:
	*line_r = line;
	archive_manifest_free(m);
	return -1;
}

/* ---- verify: MANIFEST and its signature ----------------------------- */

int verify_manifest(struct verify *v, const char *daemon_key,
		    const char **error_r)
{
	struct buf text = BUF_INIT, sig = BUF_INIT, file = BUF_INIT;
	struct archive_manifest man;
	struct pgp_sig s;
	char hex[INBOUND_SHA256_HEX_LEN + 1];
	size_t line;
	int ret = 1;

	memset(&man, 0, sizeof(man));
	if (archive_read_file(v->dir, "MANIFEST", 1024 * 1024, &text) < 0 ||
	    archive_read_file(v->dir, "MANIFEST.asc", 64 * 1024, &sig) < 0) {
		ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0, "MANIFEST "
				  "or MANIFEST.asc: %s", strerror(errno));
		goto out;
	}
	if (archive_manifest_parse(text.data, text.len, &man, &line) < 0) {
		ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
				  "MANIFEST:%zu: not a sum and a file name",
				  line);
		goto out;
	}
	for (size_t i = 0; i < man.count; i++) {
		buf_reset(&file);
		if (!verify_has(v, man.items[i].name) ||
		    archive_read_file(v->dir, man.items[i].name,
				      64 * 1024 * 1024, &file) < 0) {
			ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
					  "MANIFEST lists %s, which is not in "
					  "the archive", man.items[i].name);
			goto out;
		}
		inbound_sha256_hex(file.data, file.len, hex);
		if (strcmp(hex, man.items[i].sha256) != 0) {
			ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
					  "%s: its sha256 is not MANIFEST's",
					  man.items[i].name);
			goto out;
		}
	}
	for (size_t i = 0; i < v->nnames; i++) {
		bool listed = strcmp(v->names[i], "MANIFEST") == 0 ||
			      strcmp(v->names[i], "MANIFEST.asc") == 0;
		for (size_t k = 0; k < man.count && !listed; k++)
			listed = strcmp(man.items[k].name, v->names[i]) == 0;
		if (!listed) {
			ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
					  "%s is in the archive and not in "
					  "MANIFEST", v->names[i]);
			goto out;
		}
	}
	if (pgp_verify_detached(v->pgp, text.data, text.len, sig.data,
				sig.len, &s, error_r) < 0) {
		ret = -1;
		goto out;
	}
	if (s.status != PGP_SIG_GOOD && s.status != PGP_SIG_KEY_EXPIRED) {
		ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
				  "MANIFEST.asc: the daemon's signature does "
				  "not verify (%s)", s.why[0] != '\0' ? s.why :
				  pgp_sig_status_name(s.status));
		goto out;
	}
	if (daemon_key != NULL) {
		char want[PGP_FPR_MAX + 1];
		size_t k = 0;
		for (const char *p = daemon_key; *p != '\0' && k < PGP_FPR_MAX;
		     p++)
			if (*p != ' ')
				want[k++] = *p;
		want[k] = '\0';
		if (strcasecmp(want, s.fpr) != 0) {
			ret = verify_fail(v, ARCHIVE_TAMPERED_MANIFEST, 0,
					  "MANIFEST.asc is signed by %s, not "
					  "by the daemon's key %s", s.fpr,
					  daemon_key);
			goto out;
		}
	}
	snprintf(v->v->signer, sizeof(v->v->signer), "%s", s.fpr);
	fprintf(v->out, "manifest: %zu files, every sum right; signed by "
		"%s%s\n", man.count, s.fpr, daemon_key != NULL ?
		", the club's key as given" :
		", a key you did not pin (--daemon-key)");
	ret = 0;
out:
	archive_manifest_free(&man);
	buf_free(&text);
	buf_free(&sig);
	buf_free(&file);
	return ret;
}
