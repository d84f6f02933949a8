/* test_png.c -- the board picture as PNG (render_png.c), decoded back
 * with cairo and looked at pixel by pixel: the picture's own dark
 * background and no transparency, a White and a Black stack in their
 * colours, the last move's arrow on its path and its two cells lit, the
 * panel of the side to move outlined, the width asked for; its size
 * (bench/bench_picture prints the figures, with the whole mail); and
 * that the fonts it names cover the Korean labels. */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <strings.h>

#include "picture_test.h"
#include "render/picture.h"
#include "../check_run.h"

struct png_reader {
	const unsigned char *data;
	size_t len, at;
};

static cairo_status_t png_read(void *closure, unsigned char *data,
			       unsigned int len)
{
	struct png_reader *r = closure;

	if (r->len - r->at < len)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, r->data + r->at, len);
	r->at += len;
	return CAIRO_STATUS_SUCCESS;
}

/* Decode a PNG; the surface must be freed with cairo_surface_destroy. */
static cairo_surface_t *decode(const struct buf *png)
{
	struct png_reader r = { (const unsigned char *)png->data, png->len, 0 };
	cairo_surface_t *s = cairo_image_surface_create_from_png_stream(
		png_read, &r);

	ck_assert_msg(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "%s",
		      cairo_status_to_string(cairo_surface_status(s)));
	return s;
}

/* 0xRRGGBB at (x, y). */
static unsigned pixel(cairo_surface_t *s, double x, double y)
{
	const unsigned char *d = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	int ix = (int)x, iy = (int)y;

	ck_assert(ix >= 0 && iy >= 0 && ix < cairo_image_surface_get_width(s) &&
		  iy < cairo_image_surface_get_height(s));
	return ((const uint32_t *)(const void *)(d + (size_t)iy * stride))[ix] &
	       0xffffff;
}

#define ASSERT_PIXEL(s, x, y, want) do { \
		unsigned got_ = pixel(s, x, y); \
		ck_assert_msg(got_ == (want), "pixel (%d, %d) is #%06x, not #%06x", \
			      (int)(x), (int)(y), got_, (unsigned)(want)); \
	} while (0)

#define BG 0x1f2329
#define PANEL 0x2c323a
#define ACCENT 0xf2c14e
#define WHITE 0xfbfbf7
#define DARK 0x262626
#define ARROW 0xb3261e

static void render(const struct core_position *pos,
		   const struct core_move *last, int width, struct buf *svg,
		   struct buf *png)
{
	struct render_picture pic = { .templates = templates, .width = width };
	const char *error = NULL;

	ck_assert_msg(render_picture_svg(pos, last, &pic, svg, &error) == 0,
		      "%s", error);
	ck_assert_msg(render_board_png(pos, last, &pic, png, &error) == 0,
		      "%s", error);
}

START_TEST(test_png_pixels)
{
	struct core_position pos;
	struct core_move last;
	struct buf svg = BUF_INIT, png = BUF_INIT;
	cairo_surface_t *s;
	double x, y, ex, ey, w, h;
	const char *p;

	pt_position(&pos, &last);
	render(&pos, &last, 0, &svg, &png);
	ck_assert_int_eq(memcmp(png.data, "\x89PNG\r\n\x1a\n", 8), 0);
	/* opaque: no alpha channel and no transparent palette entry */
	ck_assert_int_eq((unsigned char)png.data[25], 3);
	for (size_t i = 0; i + 4 <= png.len; i++)
		ck_assert(memcmp(png.data + i, "tRNS", 4) != 0);
	ck_assert_uint_lt(png.len, 12000);

	s = decode(&png);
	ck_assert_int_eq(cairo_image_surface_get_format(s), CAIRO_FORMAT_RGB24);
	/* the natural size is the SVG's */
	p = strstr(buf_str(&svg), "width=\"");
	ck_assert_int_eq(sscanf(p, "width=\"%lf\" height=\"%lf\"", &w, &h), 2);
	ck_assert_int_eq(cairo_image_surface_get_width(s), (int)w);
	ck_assert_int_eq(cairo_image_surface_get_height(s), (int)h);

	/* its own background, to every corner */
	ASSERT_PIXEL(s, 0, 0, BG);
	ASSERT_PIXEL(s, w - 1, 0, BG);
	ASSERT_PIXEL(s, 0, h - 1, BG);
	ASSERT_PIXEL(s, w - 1, h - 1, BG);

	/* White's stack on a1, Black's on c1: the disc beside its digits */
	pt_centre(buf_str(&svg), "a1", &x, &y);
	ASSERT_PIXEL(s, x - 8, y - 6, WHITE);
	pt_centre(buf_str(&svg), "c1", &x, &y);
	ASSERT_PIXEL(s, x - 8, y - 6, DARK);
	/* an empty cell is a board colour, not a disc's */
	pt_centre(buf_str(&svg), "c3", &x, &y);
	ck_assert(pixel(s, x, y - 6) != WHITE && pixel(s, x, y - 6) != DARK);

	/* e5-c5: the arrow over d5, between them; both cells lit on the
	 * side away from the arrow */
	pt_centre(buf_str(&svg), "d5", &x, &y);
	ASSERT_PIXEL(s, x, y - 6, ARROW);
	ASSERT_PIXEL(s, x, y - 11, pixel(s, x, y - 20)); /* 4 px wide */
	pt_centre(buf_str(&svg), "e5", &ex, &ey);
	ASSERT_PIXEL(s, ex - 4, ey - 6, ARROW);
	ASSERT_PIXEL(s, ex + 18, ey, ACCENT);
	pt_centre(buf_str(&svg), "c5", &x, &y);
	ASSERT_PIXEL(s, x - 18, y, ACCENT);
	ASSERT_PIXEL(s, x + 17, y - 6, ARROW); /* the head, at c5's disc */
	ASSERT_PIXEL(s, x - 8, y - 6, WHITE);  /* the W2 on c5 */

	/* Black to move: its panel (right) outlined, White's not */
	ASSERT_PIXEL(s, w * 3 / 4, 10, ACCENT);
	ASSERT_PIXEL(s, w / 4, 10, PANEL);
	cairo_surface_destroy(s);
	buf_free(&svg);
	buf_free(&png);
}
END_TEST

/* The width asked for, the height in proportion; out of range refused. */
START_TEST(test_png_width)
{
	struct core_position pos;
	struct core_move last;
	struct render_picture pic = { .templates = templates };
	struct buf svg = BUF_INIT, png = BUF_INIT;
	const char *error = NULL;
	cairo_surface_t *s;
	double w, h;

	pt_midgame(&pos, 7, 20, &last);
	render(&pos, &last, 320, &svg, &png);
	ck_assert_int_eq(sscanf(strstr(buf_str(&svg), "width=\""),
				"width=\"%lf\" height=\"%lf\"", &w, &h), 2);
	s = decode(&png);
	ck_assert_int_eq(cairo_image_surface_get_width(s), 320);
	ck_assert_int_eq(cairo_image_surface_get_height(s), (int)(h * 320 / w + 0.5));
	ASSERT_PIXEL(s, 0, 0, BG);
	cairo_surface_destroy(s);

	pic.width = -1;
	ck_assert_int_eq(render_board_png(&pos, &last, &pic, &png, &error), -1);
	ck_assert_ptr_nonnull(error);
	pic.width = RENDER_PNG_MAX_SIDE + 1;
	error = NULL;
	ck_assert_int_eq(render_board_png(&pos, &last, &pic, &png, &error), -1);
	ck_assert_ptr_nonnull(error);
	buf_free(&svg);
	buf_free(&png);
}
END_TEST

/* Small for a mail: a mid-game at size 7 well under the 40 KB a whole
 * "your move" mail may take, the biggest board within reason. */
START_TEST(test_png_size)
{
	static const int sizes[] = { 5, 7, 13 };
	static const size_t max[] = { 16000, 28000, 80000 };

	for (size_t i = 0; i < 3; i++) {
		struct core_position pos;
		struct core_move last;
		struct buf svg = BUF_INIT, png = BUF_INIT;

		pt_midgame(&pos, sizes[i], 4 * sizes[i], &last);
		render(&pos, &last, 0, &svg, &png);
		ck_assert_msg(png.len < max[i], "size %d: %zu bytes", sizes[i],
			      png.len);
		buf_free(&svg);
		buf_free(&png);
	}
}
END_TEST

/* The PNG of a kept SVG is the PNG of the position; what is not an SVG
 * is an error. */
START_TEST(test_png_from_svg)
{
	struct core_position pos;
	struct core_move last;
	struct buf svg = BUF_INIT, png = BUF_INIT, again = BUF_INIT;
	const char *error = NULL;

	pt_position(&pos, &last);
	render(&pos, &last, 0, &svg, &png);
	ck_assert_int_eq(render_png_from_svg(svg.data, svg.len, 0, &again,
					     &error), 0);
	ck_assert_uint_eq(again.len, png.len);
	ck_assert_int_eq(memcmp(again.data, png.data, png.len), 0);
	buf_reset(&again);
	ck_assert_int_eq(render_png_from_svg("<svg", 4, 0, &again, &error), -1);
	ck_assert_ptr_nonnull(strstr(error, "librsvg"));
	ck_assert_uint_eq(again.len, 0);
	buf_free(&svg);
	buf_free(&png);
	buf_free(&again);
}
END_TEST

/* Whether font covers every character of cs. */
static bool font_covers(FcPattern *font, FcCharSet *cs)
{
	FcCharSet *has = NULL;

	return FcPatternGetCharSet(font, FC_CHARSET, 0, &has) ==
		FcResultMatch && FcCharSetIsSubset(cs, has);
}

/* Whether family is one PICTURE_FONTS names (ASCII case aside). */
static bool picture_family(const char *family)
{
	char list[] = PICTURE_FONTS, *save = NULL;

	for (char *f = strtok_r(list, ",", &save); f != NULL;
	     f = strtok_r(NULL, ",", &save)) {
		while (*f == ' ')
			f++;
		if (strcasecmp(f, family) == 0)
			return true;
	}
	return false;
}

/* The Korean labels (templates/ko/picture.txt) in the picture's fonts,
 * as librsvg draws them: Pango takes, for each character, the first font
 * of fontconfig's sort for the SVG's font-family that has it.  That font
 * must be one the picture names (NanumGothic), not whatever else is
 * installed; and without any Hangul font (fonts-nanum) the boxes Pango
 * draws instead are all there is: said, and not checked. */
START_TEST(test_png_hangul_font)
{
	static const FcChar32 hangul[] = { 0xAC00, 0xD55C, 0xD654, 0xD2B8 };
	FcCharSet *cs = FcCharSetCreate();
	FcPattern *any = FcPatternCreate(), *want;
	FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_CHARSET, NULL);
	FcFontSet *covering, *sorted;
	FcResult res;
	FcChar8 *family = NULL;
	bool found = false;

	ck_assert(FcInit());
	for (size_t i = 0; i < sizeof(hangul) / sizeof(hangul[0]); i++)
		ck_assert(FcCharSetAddChar(cs, hangul[i]));
	FcPatternAddCharSet(any, FC_CHARSET, cs);
	covering = FcFontList(NULL, any, os);
	ck_assert_ptr_nonnull(covering);
	if (covering->nfont == 0) {
		fprintf(stderr, "test_png_hangul_font: no font covers Hangul "
			"(install fonts-nanum): not checked\n");
		goto out;
	}
	want = FcNameParse((const FcChar8 *)PICTURE_FONTS);
	ck_assert_ptr_nonnull(want);
	FcConfigSubstitute(NULL, want, FcMatchPattern);
	FcDefaultSubstitute(want);
	sorted = FcFontSort(NULL, want, FcTrue, NULL, &res);
	ck_assert_ptr_nonnull(sorted);
	for (int i = 0; i < sorted->nfont && !found; i++) {
		if (!font_covers(sorted->fonts[i], cs))
			continue;
		found = true;
		ck_assert(FcPatternGetString(sorted->fonts[i], FC_FAMILY, 0,
					     &family) == FcResultMatch);
		ck_assert_msg(picture_family((const char *)family),
			      "Hangul is drawn in %s, which \"%s\" does not "
			      "name", family, PICTURE_FONTS);
	}
	ck_assert_msg(found, "no font of the sort for \"%s\" covers Hangul",
		      PICTURE_FONTS);
	FcFontSetDestroy(sorted);
	FcPatternDestroy(want);
out:
	FcFontSetDestroy(covering);
	FcObjectSetDestroy(os);
	FcPatternDestroy(any);
	FcCharSetDestroy(cs);
}
END_TEST

TEST_MAIN("png", "png", pt_setup, pt_teardown, 60, test_png_pixels,
	  test_png_width, test_png_size, test_png_from_svg,
	  test_png_hangul_font)
