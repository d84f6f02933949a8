/* escape.c -- control and invisible characters escaped; see escape.h. */
#include "util/escape.h"

#include <stdbool.h>
#include <string.h>

#include "util/xstr.h"

size_t escape_utf8(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

/* Code points past ASCII that move, hide or reorder text on a screen. */
static bool escape_invisible(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) ||     /* C1, CSI U+009B */
	       c == 0xad ||                    /* soft hyphen */
	       (c >= 0x200b && c <= 0x200f) || /* zero widths, LRM, RLM */
	       (c >= 0x2028 && c <= 0x202e) || /* separators, bidi */
	       (c >= 0x2060 && c <= 0x2064) || /* word joiner... */
	       (c >= 0x2066 && c <= 0x2069) || /* bidi isolates */
	       c == 0xfeff;                    /* zero-width no-break */
}

void escape_append(struct buf *out, const char *s, size_t len,
		   unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t c;
		size_t n;

		if (p[i] < 0x20 || p[i] == 0x7f) {
			if ((flags & ESCAPE_KEEP_LINES) &&
			    (p[i] == '\n' || p[i] == '\t'))
				buf_putc(out, (char)p[i]);
			else
				buf_printf(out, "\\x%02x", p[i]);
			i++;
			continue;
		}
		n = escape_utf8(p + i, len - i, &c);
		if (n == 0) {
			buf_printf(out, "\\x%02x", p[i]);
			i++;
		} else if (escape_invisible(c)) {
			buf_printf(out, "\\u%04x", (unsigned)c);
			i += n;
		} else {
			buf_append(out, p + i, n);
			i += n;
		}
	}
}

char *escape_str(const char *s)
{
	struct buf b = BUF_INIT;

	if (s == NULL)
		return xstrdup("-");
	escape_append(&b, s, strlen(s), 0);
	if (b.data == NULL)
		return xstrdup("");
	return buf_steal(&b);
}
