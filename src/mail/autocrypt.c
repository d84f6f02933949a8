/* autocrypt.c -- the Autocrypt header, read and written (see
 * autocrypt.h). */
#include "config.h"

#include "mail/autocrypt.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/pgp.h"

/* The most a header's value may be: the largest key in base64, folded,
 * and the other attributes. */
#define AUTOCRYPT_MAX_VALUE (PGP_KEY_MAX_BYTES / 3 * 4 * 80 / 76 + 4096)

static const char autocrypt_b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int autocrypt_b64_value(unsigned char c)
{
	const char *p = c ? strchr(autocrypt_b64, c) : NULL;

	return p != NULL ? (int)(p - autocrypt_b64) : -1;
}

/* Base64 with white space anywhere (the folding) into *out. */
static int autocrypt_unbase64(const char *s, size_t n, struct buf *out,
			      char *why, size_t whylen)
{
	unsigned int acc = 0, bits = 0, pad = 0;
	size_t i, digits = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int v;

		if (isspace(c))
			continue;
		if (c == '=') {
			pad++;
			continue;
		}
		if (pad > 0 || (v = autocrypt_b64_value(c)) < 0) {
			snprintf(why, whylen, "the Autocrypt header's keydata "
				 "is not base64 (at character %zu)", i + 1);
			return -1;
		}
		digits++;
		acc = acc << 6 | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_putc(out, (char)((acc >> bits) & 0xff));
		}
		if (out->len > PGP_KEY_MAX_BYTES) {
			snprintf(why, whylen, "the key in the Autocrypt header "
				 "is over the limit of %u bytes",
				 (unsigned int)PGP_KEY_MAX_BYTES);
			return -1;
		}
	}
	if (pad > 2 || digits % 4 == 1 || (pad > 0 && (digits + pad) % 4)) {
		snprintf(why, whylen, "the Autocrypt header's keydata is not "
			 "base64 (cut short)");
		return -1;
	}
	return 0;
}

void autocrypt_free(struct autocrypt *ac)
{
	buf_free(&ac->keydata);
	memset(ac, 0, sizeof(*ac));
}

static void autocrypt_trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

int autocrypt_parse(const char *value, size_t len, struct autocrypt *ac,
		    char *why, size_t whylen)
{
	const char *p = value, *end = value + len;
	bool have_addr = false, have_key = false;

	memset(ac, 0, sizeof(*ac));
	if (len > AUTOCRYPT_MAX_VALUE) {
		snprintf(why, whylen, "the Autocrypt header is %zu bytes, over "
			 "the limit of %u", len, (unsigned int)AUTOCRYPT_MAX_VALUE);
		return -1;
	}
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *ae = semi != NULL ? semi : end, *eq, *ns, *ne, *vs, *ve;

		eq = memchr(p, '=', (size_t)(ae - p));
		ns = p;
		p = semi != NULL ? semi + 1 : end;
		if (eq == NULL) {
			ne = ae;
			autocrypt_trim(&ns, &ne);
			if (ne == ns)
				continue;	/* an empty attribute: "a; ;b" */
			snprintf(why, whylen, "the Autocrypt header has an "
				 "attribute without a value");
			goto fail;
		}
		ne = eq;
		vs = eq + 1;
		ve = ae;
		autocrypt_trim(&ns, &ne);
		autocrypt_trim(&vs, &ve);
		if ((size_t)(ne - ns) == 4 && strncasecmp(ns, "addr", 4) == 0) {
			if (have_addr || (size_t)(ve - vs) >= sizeof(ac->addr) ||
			    ve == vs) {
				snprintf(why, whylen, "the Autocrypt header's "
					 "addr is repeated, empty or too long");
				goto fail;
			}
			memcpy(ac->addr, vs, (size_t)(ve - vs));
			ac->addr[ve - vs] = '\0';
			have_addr = true;
		} else if ((size_t)(ne - ns) == 7 &&
			   strncasecmp(ns, "keydata", 7) == 0) {
			if (have_key) {
				snprintf(why, whylen, "the Autocrypt header's "
					 "keydata is repeated");
				goto fail;
			}
			if (autocrypt_unbase64(vs, (size_t)(ve - vs),
					       &ac->keydata, why, whylen) < 0)
				goto fail;
			have_key = true;
		} else if ((size_t)(ne - ns) == 14 &&
			   strncasecmp(ns, "prefer-encrypt", 14) == 0) {
			ac->prefer_mutual = (size_t)(ve - vs) == 6 &&
					    strncasecmp(vs, "mutual", 6) == 0;
		} else if (ne > ns && *ns == '_') {
			continue;	/* non-critical: ignored */
		} else {
			snprintf(why, whylen, "the Autocrypt header has the "
				 "unknown attribute \"%.*s\"",
				 (int)(ne - ns > 40 ? 40 : ne - ns), ns);
			goto fail;
		}
	}
	if (!have_addr || !have_key || ac->keydata.len == 0) {
		snprintf(why, whylen, "the Autocrypt header lacks %s",
			 !have_addr ? "addr" : "keydata");
		goto fail;
	}
	return 0;
fail:
	autocrypt_free(ac);
	return -1;
}

int autocrypt_find(const char *hdrs, size_t len, const char *from_addr,
		   struct buf *keydata_r, char *why, size_t whylen)
{
	struct buf value = BUF_INIT, key = BUF_INIT;
	size_t i = 0;
	int found = 0, ret = -1;

	while (i < len) {
		size_t s = i, e;
		struct autocrypt ac;
		char w[200];

		/* one field, with its continuation lines */
		e = s;
		while (e < len) {
			while (e < len && hdrs[e] != '\n')
				e++;
			if (e < len)
				e++;
			if (e >= len || (hdrs[e] != ' ' && hdrs[e] != '\t'))
				break;
		}
		i = e;
		if (e - s <= 2 && (hdrs[s] == '\r' || hdrs[s] == '\n'))
			break;		/* the empty line: end of the header */
		if (e - s < 10 || strncasecmp(hdrs + s, "Autocrypt:", 10) != 0)
			continue;
		buf_reset(&value);
		buf_append(&value, hdrs + s + 10, e - s - 10);
		if (autocrypt_parse(value.data, value.len, &ac, w, sizeof(w)) < 0) {
			/* one we cannot read counts only if it is the
			 * sender's: a broken one for another address does
			 * not hide the sender's */
			if (from_addr != NULL && value.len < AUTOCRYPT_MAX_VALUE &&
			    strcasestr(buf_str(&value), from_addr) == NULL)
				continue;
			snprintf(why, whylen, "%s", w);
			goto out;
		}
		if (from_addr == NULL || strcasecmp(ac.addr, from_addr) != 0) {
			autocrypt_free(&ac);
			continue;
		}
		if (++found > 1) {
			autocrypt_free(&ac);
			snprintf(why, whylen, "the mail has more than one "
				 "Autocrypt header for %s", from_addr);
			goto out;
		}
		buf_append(&key, ac.keydata.data, ac.keydata.len);
		autocrypt_free(&ac);
	}
	if (found == 1)
		buf_append(keydata_r, key.data, key.len);
	ret = found;
out:
	buf_free(&value);
	buf_free(&key);
	return ret;
}

void autocrypt_format(const char *addr, const void *key, size_t len,
		      struct buf *out)
{
	const unsigned char *k = key;
	size_t i, col;
	char q[4];

	buf_printf(out, "Autocrypt: addr=%s; keydata=", addr);
	col = 78;	/* start the key data on a line of its own */
	for (i = 0; i < len; i += 3) {
		unsigned int v = (unsigned int)k[i] << 16;
		size_t n = len - i < 3 ? len - i : 3;

		if (n > 1)
			v |= (unsigned int)k[i + 1] << 8;
		if (n > 2)
			v |= k[i + 2];
		q[0] = autocrypt_b64[v >> 18 & 63];
		q[1] = autocrypt_b64[v >> 12 & 63];
		q[2] = n > 1 ? autocrypt_b64[v >> 6 & 63] : '=';
		q[3] = n > 2 ? autocrypt_b64[v & 63] : '=';
		if (col + 4 > 77) {
			buf_append(out, "\r\n ", 3);
			col = 1;
		}
		buf_append(out, q, 4);
		col += 4;
	}
	buf_append(out, "\r\n", 2);
}
