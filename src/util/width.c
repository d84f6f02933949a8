/* width.c -- display columns of UTF-8 text; see width.h. */
#include "util/width.h"

#include <string.h>

struct width_range {
	uint32_t from, to;
};

/* East_Asian_Width W or F (Unicode 15.0, merged into runs). */
static const struct width_range width_wide[] = {
	{ 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A },
	{ 0x23E9, 0x23EC }, { 0x23F0, 0x23F0 }, { 0x23F3, 0x23F3 },
	{ 0x25FD, 0x25FE }, { 0x2614, 0x2615 }, { 0x2648, 0x2653 },
	{ 0x267F, 0x267F }, { 0x2693, 0x2693 }, { 0x26A1, 0x26A1 },
	{ 0x26AA, 0x26AB }, { 0x26BD, 0x26BE }, { 0x26C4, 0x26C5 },
	{ 0x26CE, 0x26CE }, { 0x26D4, 0x26D4 }, { 0x26EA, 0x26EA },
	{ 0x26F2, 0x26F3 }, { 0x26F5, 0x26F5 }, { 0x26FA, 0x26FA },
	{ 0x26FD, 0x26FD }, { 0x2705, 0x2705 }, { 0x270A, 0x270B },
	{ 0x2728, 0x2728 }, { 0x274C, 0x274C }, { 0x274E, 0x274E },
	{ 0x2753, 0x2755 }, { 0x2757, 0x2757 }, { 0x2795, 0x2797 },
	{ 0x27B0, 0x27B0 }, { 0x27BF, 0x27BF }, { 0x2B1B, 0x2B1C },
	{ 0x2B50, 0x2B50 }, { 0x2B55, 0x2B55 }, { 0x2E80, 0x303E },
	{ 0x3041, 0x33FF }, { 0x3400, 0x4DBF }, { 0x4E00, 0x9FFF },
	{ 0xA000, 0xA4CF }, { 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 },
	{ 0xF900, 0xFAFF }, { 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6F },
	{ 0xFF00, 0xFF60 }, { 0xFFE0, 0xFFE6 }, { 0x16FE0, 0x16FE4 },
	{ 0x17000, 0x18CD5 }, { 0x1B000, 0x1B2FB }, { 0x1F004, 0x1F004 },
	{ 0x1F0CF, 0x1F0CF }, { 0x1F18E, 0x1F18E }, { 0x1F191, 0x1F19A },
	{ 0x1F200, 0x1F251 }, { 0x1F260, 0x1F265 }, { 0x1F300, 0x1F64F },
	{ 0x1F680, 0x1F6FF }, { 0x1F7E0, 0x1F7EB }, { 0x1F90C, 0x1F9FF },
	{ 0x1FA70, 0x1FAFF }, { 0x20000, 0x2FFFD }, { 0x30000, 0x3FFFD },
};

/* Nonspacing and enclosing marks, zero-width characters, and the Hangul
 * jamo that join a syllable (medial vowels, final consonants). */
static const struct width_range width_zero[] = {
	{ 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD },
	{ 0x0610, 0x061A }, { 0x064B, 0x065F }, { 0x0E31, 0x0E31 },
	{ 0x0E34, 0x0E3A }, { 0x0E47, 0x0E4E }, { 0x1160, 0x11FF },
	{ 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x200B, 0x200F },
	{ 0x2028, 0x202E }, { 0x2060, 0x2064 }, { 0x20D0, 0x20FF },
	{ 0x302A, 0x302D }, { 0x3099, 0x309A }, { 0xD7B0, 0xD7FF },
	{ 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF },
	{ 0xE0100, 0xE01EF },
};

static bool width_in(const struct width_range *r, size_t n, uint32_t c)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c < r[mid].from)
			hi = mid;
		else if (c > r[mid].to)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

int width_char(uint32_t c)
{
	if (c < 0x20 || (c >= 0x7F && c < 0xA0))
		return 0;
	if (c < 0x300)
		return 1;
	if (width_in(width_zero, sizeof(width_zero) / sizeof(width_zero[0]),
		     c))
		return 0;
	if (width_in(width_wide, sizeof(width_wide) / sizeof(width_wide[0]),
		     c))
		return 2;
	return 1;
}

/* The code point at s (at most len bytes); *n_r its length.  A byte that
 * starts no well-formed sequence is one U+FFFD of one byte. */
static uint32_t width_decode(const unsigned char *s, size_t len, size_t *n_r)
{
	uint32_t c;
	size_t n, k;

	if (s[0] < 0x80) {
		*n_r = 1;
		return s[0];
	}
	if ((s[0] & 0xE0) == 0xC0) {
		c = s[0] & 0x1F;
		n = 2;
	} else if ((s[0] & 0xF0) == 0xE0) {
		c = s[0] & 0x0F;
		n = 3;
	} else if ((s[0] & 0xF8) == 0xF0) {
		c = s[0] & 0x07;
		n = 4;
	} else {
		*n_r = 1;
		return 0xFFFD;
	}
	if (n > len) {
		*n_r = 1;
		return 0xFFFD;
	}
	for (k = 1; k < n; k++) {
		if ((s[k] & 0xC0) != 0x80) {
			*n_r = 1;
			return 0xFFFD;
		}
		c = (c << 6) | (s[k] & 0x3F);
	}
	*n_r = n;
	return c;
}

size_t width_textn(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0;

	while (len > 0 && *p != '\0') {
		size_t n;
		uint32_t c = width_decode(p, len, &n);

		cols += (size_t)width_char(c);
		p += n;
		len -= n;
	}
	return cols;
}

size_t width_text(const char *s)
{
	return width_textn(s, strlen(s));
}

void width_pad(struct buf *out, const char *s, size_t columns)
{
	size_t w = width_text(s);

	buf_puts(out, s);
	for (; w < columns; w++)
		buf_putc(out, ' ');
}
