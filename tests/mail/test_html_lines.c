/* test_html_lines.c -- HTML to text keeps the lines a browser shows
 * (src/mail/html.c): a clearsigned text pasted into an HTML-only webmail
 * comes back line for line, blank lines and kept blanks included, in the
 * HTML each client writes for it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mime.h"
#include "util/buf.h"
#include "../check_run.h"

static char *render(const char *html)
{
	struct buf b = BUF_INIT;

	mime_html_to_text(html, strlen(html), &b);
	return buf_steal(&b);
}

#define CHECK_HTML(html, want) do {				\
		char *got_ = render(html);			\
		ck_assert_str_eq(got_, want);			\
		free(got_);					\
	} while (0)

/* The clear text every client below carries. */
#define CLEAR "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" \
	"move 3 c3-e5\n\nmessage 3 good game\n" \
	"-----BEGIN PGP SIGNATURE-----\n\niHUEARYIAB0WIQ\n=ab12\n" \
	"-----END PGP SIGNATURE-----\n"

/* Gmail, typed or pasted line by line: a <div> a line, <div><br></div>
 * a blank one, all in its dir=ltr wrapper. */
START_TEST(test_gmail_divs)
{
	CHECK_HTML("<div dir=\"ltr\"><div>-----BEGIN PGP SIGNED MESSAGE-----</div>"
		   "<div>Hash: SHA256</div><div><br></div><div>move 3 c3-e5</div>"
		   "<div><br></div><div>message 3 good game</div>"
		   "<div>-----BEGIN PGP SIGNATURE-----</div><div><br></div>"
		   "<div>iHUEARYIAB0WIQ</div><div>=ab12</div>"
		   "<div>-----END PGP SIGNATURE-----</div></div>\n", CLEAR);
}
END_TEST

/* Gmail, a paste of plain text: <br> line ends in one block. */
START_TEST(test_gmail_br)
{
	CHECK_HTML("<div dir=\"ltr\">-----BEGIN PGP SIGNED MESSAGE-----<br>"
		   "Hash: SHA256<br><br>move 3 c3-e5<br><br>message 3 good game<br>"
		   "-----BEGIN PGP SIGNATURE-----<br><br>iHUEARYIAB0WIQ<br>=ab12<br>"
		   "-----END PGP SIGNATURE-----<br></div>\r\n", CLEAR);
}
END_TEST

/* Outlook on the web: each line its own styled div, a blank line a div
 * with a <br>, spans inside. */
#define OWA "<div class=\"elementToProof\" style=\"font-family: Aptos, " \
	"Aptos_EmbeddedFont, Calibri, Helvetica, sans-serif; font-size: 12pt; " \
	"color: rgb(0, 0, 0);\">"
START_TEST(test_outlook_web)
{
	CHECK_HTML("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; "
		   "charset=iso-8859-1\"><style type=\"text/css\" style=\"display:none;\"> "
		   "P {margin-top:0;margin-bottom:0;} </style></head><body dir=\"ltr\">\n"
		   OWA "-----BEGIN PGP SIGNED MESSAGE-----</div>\n"
		   OWA "Hash: SHA256</div>\n" OWA "<br></div>\n"
		   OWA "<span>move 3 c3-e5</span></div>\n" OWA "<br></div>\n"
		   OWA "message 3 good game</div>\n"
		   OWA "-----BEGIN PGP SIGNATURE-----</div>\n" OWA "<br></div>\n"
		   OWA "iHUEARYIAB0WIQ</div>\n" OWA "=ab12</div>\n"
		   OWA "-----END PGP SIGNATURE-----</div>\n</body></html>\n", CLEAR);
}
END_TEST

/* Proton Mail: styled divs, each line ending in a <br> inside its div,
 * and its signature block with the locked footer below. */
#define PM "<div style=\"font-family: Arial, sans-serif; font-size: 14px;\">"
START_TEST(test_proton)
{
	CHECK_HTML(PM "-----BEGIN PGP SIGNED MESSAGE-----<br></div>"
		   PM "Hash: SHA256<br></div>" PM "<br></div>"
		   PM "move 3 c3-e5<br></div>" PM "<br></div>"
		   PM "message 3 good game<br></div>"
		   PM "-----BEGIN PGP SIGNATURE-----<br></div>" PM "<br></div>"
		   PM "iHUEARYIAB0WIQ<br></div>" PM "=ab12<br></div>"
		   PM "-----END PGP SIGNATURE-----</div>" PM "<br></div>"
		   "<div class=\"protonmail_signature_block\" style=\"font-family: "
		   "Arial, sans-serif; font-size: 14px;\"><div class=\"protonmail_"
		   "signature_block-user protonmail_signature_block-empty\"></div>"
		   "<div class=\"protonmail_signature_block-proton\">Sent with "
		   "<a target=\"_blank\" href=\"https://proton.me/mail/home\">Proton "
		   "Mail</a> secure email.</div></div>\n",
		   CLEAR "\nSent with Proton Mail secure email.\n");
}
END_TEST

/* Thunderbird's HTML editor: one paragraph, <br> line ends with the
 * source's own line breaks after them. */
START_TEST(test_thunderbird_html)
{
	CHECK_HTML("<html>\n  <head>\n    <meta http-equiv=\"content-type\" "
		   "content=\"text/html; charset=UTF-8\">\n  </head>\n  <body>\n"
		   "    <p>-----BEGIN PGP SIGNED MESSAGE-----<br>\n      Hash: SHA256<br>\n"
		   "      <br>\n      move 3 c3-e5<br>\n      <br>\n"
		   "      message 3 good game<br>\n      -----BEGIN PGP SIGNATURE-----<br>\n"
		   "      <br>\n      iHUEARYIAB0WIQ<br>\n      =ab12<br>\n"
		   "      -----END PGP SIGNATURE-----</p>\n  </body>\n</html>\n", CLEAR);
}
END_TEST

/* Blanks a line starts with: kept where typed as &nbsp; or in <pre> or
 * under white-space: pre-wrap; collapsed elsewhere, as a browser does. */
START_TEST(test_kept_blanks)
{
	CHECK_HTML("<div>&nbsp; two</div><div>&nbsp;&nbsp;&nbsp;three</div>",
		   "  two\n   three\n");
	CHECK_HTML("<div>   collapsed    here   </div>", "collapsed here\n");
	CHECK_HTML("<pre>  a\n\n    b\n</pre>after", "  a\n\n    b\nafter\n");
	CHECK_HTML("<div style=\"white-space: pre-wrap\">  x\n  y</div> z",
		   "  x\n  y\nz\n");
	/* a U+00A0 typed as text is a space too */
	CHECK_HTML("<div>a\xc2\xa0\xc2\xa0" "b</div>", "a  b\n");
	/* the style ends with its element */
	CHECK_HTML("<div style=\"white-space:pre\"><b>  k</b></div><div>  l</div>",
		   "  k\nl\n");
}
END_TEST

/* Empty blocks add no line; blank lines at the start and end go. */
START_TEST(test_empty_blocks)
{
	CHECK_HTML("<div></div><div><div>a</div></div><p></p><div>b</div>",
		   "a\nb\n");
	CHECK_HTML("<br><br><div>a</div><br><br>", "a\n");
	CHECK_HTML("<p>a</p><p><br></p><p>b</p>", "a\n\nb\n");
	CHECK_HTML("", "");
}
END_TEST

TEST_MAIN("html_lines", "clients", NULL, NULL, 0, test_gmail_divs,
	  test_gmail_br, test_outlook_web, test_proton, test_thunderbird_html,
	  test_kept_blanks, test_empty_blocks)
