/* command_signoff.c -- what mail programs and people put below the last
 * command: a client's footer ("Sent with Proton Mail secure email.",
 * K-9's "Sent from my Android device with K-9 Mail. Please excuse my
 * brevity.") and a bare name ("Tina").  command_text.c ends the text at
 * them, so a mail whose commands all ran is not refused for its
 * sign-off.  A line that could be a command or a slip of one is never
 * one of these. */
#include "server/command.h"
#include "server/command_private.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* How a client footer starts.  Those the mail programs write by default
 * and a player often cannot remove (Proton Mail Free's is locked). */
static const char *const footer_starts[] = {
	"Sent with ",	     /* Proton Mail: "Sent with Proton Mail secure email." */
	"Sent from ",	     /* K-9, iOS, Samsung, Proton for iOS/Android, ... */
	"Sent via ",
	"Sent using ",
	"Get Outlook for ",  /* Outlook mobile */
	"Download Outlook for ",
	"Envoy\xc3\xa9 avec ",
	"Gesendet mit ",
	"Gesendet von ",
	"Enviado desde ",
	"Inviato da ",
};

bool command_line_is_client_footer(const char *line, size_t len)
{
	command_trim(&line, &len);
	/* K-9's is 70 characters; Proton's with its link in Markdown, 66 */
	if (len == 0 || len > 120 || memchr(line, '=', len) != NULL)
		return false;
	for (size_t i = 0; i < sizeof(footer_starts) / sizeof(footer_starts[0]);
	     i++)
		if (command_starts_with_ci(line, len, footer_starts[i]))
			return true;
	return false;
}

/* A byte of a name: a letter (any UTF-8 sequence counts as one), or the
 * marks names have: "Mary-Jane", "O'Neill", "J. R.". */
static bool name_byte(unsigned char c)
{
	return isalpha(c) || c >= 0x80 || c == '-' || c == '\'' || c == '.';
}

bool command_line_is_name(const char *line, size_t len)
{
	size_t words = 0, i = 0;

	command_trim(&line, &len);
	if (len == 0 || len > 40)
		return false;
	while (i < len) {
		size_t start = i;

		if (!isalpha((unsigned char)line[i]) &&
		    (unsigned char)line[i] < 0x80)
			return false; /* a word starts with a letter */
		while (i < len && name_byte((unsigned char)line[i]))
			i++;
		/* the first word: no keyword, move, or slip of a keyword */
		if (words == 0 &&
		    (command_word_starts_command(line + start, i - start) ||
		     command_near_keyword(line + start, i - start, false) !=
			     NULL))
			return false;
		words++;
		if (i < len && !command_is_blank(line[i]))
			return false; /* a digit, '=', ':' ... */
		while (i < len && command_is_blank(line[i]))
			i++;
	}
	return words >= 1 && words <= 3;
}
