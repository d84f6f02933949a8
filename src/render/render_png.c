/* render_png.c -- the board picture as a PNG (see render_board_png() in
 * render.h): the SVG of render_svg.c, drawn by librsvg into a cairo image
 * surface, cut down to a small palette and written as an indexed PNG.
 * One drawing, two formats, so the pictures never disagree.
 *
 * Why a PNG at all: Gmail, Outlook and Yahoo show no SVG, inline or
 * attached.  Why librsvg: it is the SVG renderer of the GNOME stack, its
 * text through Pango and fontconfig (so the fonts the SVG names,
 * PICTURE_FONTS, are used: DejaVu, and NanumGothic for Hangul).  Why a palette: the picture is a dozen flat colours and the
 * blends of their smoothed edges, and cairo writes 24-bit colour; the
 * indexed PNG of the same pixels is a sixth of the size (about 18 KB at
 * size 7 instead of 115 KB), which is what keeps a "your move" mail
 * small.  The picture's own colours (picture.h) stay exact; the blends
 * are mapped to the nearest of the commonest ones. */
#include "render/render.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "render/picture.h"
#include "util/xalloc.h"

/* Palette entries: the picture's colours, then blends.  32 keeps the
 * smoothed text clean; 16 costs it visibly and saves a tenth. */
#define PNG_COLOURS 32
/* Blends are counted in buckets of 4 bits a channel; a bucket becomes an
 * entry only if its mean is this far (squared, weighted as png_distance)
 * from every entry so far. */
#define PNG_BUCKET_BITS 4
#define PNG_BUCKETS (1 << (3 * PNG_BUCKET_BITS))
#define PNG_MIN_DISTANCE (9 * 12 * 12)

/* zlib's level: 8 finds the repeats (the same cell, disc or name drawn
 * alike everywhere) almost as well as 9, in half the time; 6 leaves a
 * sixth more bytes.  See bench_picture. */
#define PNG_ZLIB_LEVEL 8

#if defined(__SANITIZE_ADDRESS__)
#define PNG_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PNG_LSAN 1
#endif
#endif
#ifdef PNG_LSAN
/* Under LeakSanitizer (--enable-sanitizers): fontconfig, loaded by Pango
 * for the picture's text, keeps its configuration and font list for the
 * life of the process and frees none of it at exit; that is not a leak
 * of ours, and would fail every program that draws a PNG.  The sanitizer
 * runtime calls this hook, when it is linked in, for its suppressions. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* ...and says nothing of having used it: a program's output (`ashes show
 * --png`, which the tests compare) stays its own. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif

/* Why the last call failed, when the reason comes from a GError (freed
 * before returning). */
static __thread char png_error[256];

static const char *png_gerror(const char *what, GError *gerr)
{
	snprintf(png_error, sizeof(png_error), "%s: %s", what,
		 gerr != NULL ? gerr->message : "unknown error");
	if (gerr != NULL)
		g_error_free(gerr);
	return png_error;
}

struct png_palette {
	uint32_t rgb[PNG_COLOURS];
	int count;
};

/* Squared distance of two 0xRRGGBB colours, weighted roughly as the eye
 * (green most, blue least). */
static long png_distance(uint32_t a, uint32_t b)
{
	long dr = (long)((a >> 16) & 255) - (long)((b >> 16) & 255);
	long dg = (long)((a >> 8) & 255) - (long)((b >> 8) & 255);
	long db = (long)(a & 255) - (long)(b & 255);

	return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static int png_nearest(const struct png_palette *pal, uint32_t rgb)
{
	long best = -1;
	int i, at = 0;

	for (i = 0; i < pal->count; i++) {
		long d = png_distance(pal->rgb[i], rgb);

		if (best < 0 || d < best) {
			best = d;
			at = i;
		}
	}
	return at;
}

static uint32_t png_pixel(const unsigned char *data, int stride, int x,
			  int y)
{
	return ((const uint32_t *)(const void *)(data + (size_t)y * stride))[x] &
	       0xffffff;
}

/* The palette of the picture: its own colours, then the means of the
 * commonest buckets of the other pixels that are not near an entry. */
static void png_palette(const unsigned char *data, int w, int h, int stride,
			struct png_palette *pal)
{
	struct bucket {
		uint64_t n, r, g, b;
	} *bk = xzalloc(PNG_BUCKETS * sizeof(*bk));
	const int shift = 8 - PNG_BUCKET_BITS;
	uint32_t prev = 0xffffffff;
	bool prev_own = false;
	int x, y, i;

	pal->count = 0;
	for (i = 0; i < PIC_NCOLOURS; i++)
		pal->rgb[pal->count++] = picture_rgb[i];
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			uint32_t p = png_pixel(data, stride, x, y);
			struct bucket *b;

			if (p != prev) {
				prev = p;
				prev_own = false;
				for (i = 0; i < PIC_NCOLOURS && !prev_own; i++)
					prev_own = p == picture_rgb[i];
			}
			if (prev_own)
				continue;
			b = &bk[((p >> (16 + shift)) << (2 * PNG_BUCKET_BITS)) |
				(((p >> (8 + shift)) & ((1 << PNG_BUCKET_BITS) - 1))
				 << PNG_BUCKET_BITS) |
				((p & 255) >> shift)];
			b->n++;
			b->r += (p >> 16) & 255;
			b->g += (p >> 8) & 255;
			b->b += p & 255;
		}
	}
	while (pal->count < PNG_COLOURS) {
		uint64_t most = 0;
		int pick = -1;

		for (i = 0; i < PNG_BUCKETS; i++)
			if (bk[i].n > most) {
				most = bk[i].n;
				pick = i;
			}
		if (pick < 0)
			break;
		{
			struct bucket *b = &bk[pick];
			uint32_t mean = (uint32_t)((b->r + b->n / 2) / b->n) << 16 |
				(uint32_t)((b->g + b->n / 2) / b->n) << 8 |
				(uint32_t)((b->b + b->n / 2) / b->n);

			b->n = 0;
			if (png_distance(pal->rgb[png_nearest(pal, mean)],
					 mean) >= PNG_MIN_DISTANCE)
				pal->rgb[pal->count++] = mean;
		}
	}
	free(bk);
}

/* Append one PNG chunk. */
static void png_chunk(struct buf *out, const char *type,
		      const unsigned char *data, size_t len)
{
	unsigned char be[4];
	uLong crc = crc32(0L, (const Bytef *)type, 4);

	if (len > 0)
		crc = crc32(crc, data, (uInt)len);
	be[0] = (unsigned char)(len >> 24);
	be[1] = (unsigned char)(len >> 16);
	be[2] = (unsigned char)(len >> 8);
	be[3] = (unsigned char)len;
	buf_append(out, be, 4);
	buf_append(out, type, 4);
	if (len > 0)
		buf_append(out, data, len);
	be[0] = (unsigned char)(crc >> 24);
	be[1] = (unsigned char)(crc >> 16);
	be[2] = (unsigned char)(crc >> 8);
	be[3] = (unsigned char)crc;
	buf_append(out, be, 4);
}

/* The surface as an 8-bit indexed PNG (each row filter 0: for a palette
 * image the others only cost time). */
static int png_write_indexed(cairo_surface_t *surface, struct buf *out,
			     const char **error_r)
{
	const unsigned char *data = cairo_image_surface_get_data(surface);
	int w = cairo_image_surface_get_width(surface);
	int h = cairo_image_surface_get_height(surface);
	int stride = cairo_image_surface_get_stride(surface);
	size_t raw_len = (size_t)(w + 1) * (size_t)h;
	unsigned char *raw = malloc(raw_len), *z = NULL;
	unsigned char ihdr[13], plte[3 * PNG_COLOURS];
	uLongf z_len = compressBound((uLong)raw_len);
	struct png_palette pal;
	uint32_t prev = 0xffffffff;
	int x, y, i, at = 0, ret = -1;

	if (raw == NULL || (z = malloc(z_len)) == NULL) {
		*error_r = "out of memory for the PNG";
		goto out;
	}
	png_palette(data, w, h, stride, &pal);
	for (y = 0; y < h; y++) {
		unsigned char *row = raw + (size_t)y * (size_t)(w + 1);

		row[0] = 0;
		for (x = 0; x < w; x++) {
			uint32_t p = png_pixel(data, stride, x, y);

			/* Runs of one colour are the rule. */
			if (p != prev) {
				prev = p;
				at = png_nearest(&pal, p);
			}
			row[1 + x] = (unsigned char)at;
		}
	}
	if (compress2(z, &z_len, raw, (uLong)raw_len, PNG_ZLIB_LEVEL) != Z_OK) {
		*error_r = "zlib cannot compress the PNG";
		goto out;
	}
	for (i = 0; i < 4; i++) {
		ihdr[i] = (unsigned char)((unsigned)w >> (24 - 8 * i));
		ihdr[4 + i] = (unsigned char)((unsigned)h >> (24 - 8 * i));
	}
	ihdr[8] = 8;  /* bits per index */
	ihdr[9] = 3;  /* colour type: indexed */
	ihdr[10] = 0; /* deflate */
	ihdr[11] = 0; /* adaptive filtering */
	ihdr[12] = 0; /* not interlaced */
	for (i = 0; i < pal.count; i++) {
		plte[3 * i] = (unsigned char)(pal.rgb[i] >> 16);
		plte[3 * i + 1] = (unsigned char)(pal.rgb[i] >> 8);
		plte[3 * i + 2] = (unsigned char)pal.rgb[i];
	}
	buf_append(out, "\x89PNG\r\n\x1a\n", 8);
	png_chunk(out, "IHDR", ihdr, sizeof(ihdr));
	png_chunk(out, "PLTE", plte, 3 * (size_t)pal.count);
	png_chunk(out, "IDAT", z, z_len);
	png_chunk(out, "IEND", NULL, 0);
	ret = 0;
out:
	free(raw);
	free(z);
	return ret;
}

int render_png_from_svg(const char *svg, size_t len, int width,
			struct buf *out, const char **error_r)
{
	RsvgHandle *handle = NULL;
	cairo_surface_t *surface = NULL;
	cairo_t *cr = NULL;
	GError *gerr = NULL;
	RsvgRectangle viewport;
	double w, h, scale = 1;
	int pw, ph, ret = -1;

	if (width < 0 || width > RENDER_PNG_MAX_SIDE) {
		*error_r = "picture width out of range";
		return -1;
	}
	handle = rsvg_handle_new_from_data((const guint8 *)svg, len, &gerr);
	if (handle == NULL) {
		*error_r = png_gerror("librsvg cannot read the picture", gerr);
		goto out;
	}
	if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) ||
	    w < 1 || h < 1) {
		*error_r = "the picture has no size in pixels";
		goto out;
	}
	if (width > 0)
		scale = width / w;
	pw = (int)lround(w * scale);
	ph = (int)lround(h * scale);
	if (pw < 1 || ph < 1 || pw > RENDER_PNG_MAX_SIDE ||
	    ph > RENDER_PNG_MAX_SIDE) {
		*error_r = "picture size out of range";
		goto out;
	}
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);
	cr = cairo_create(surface);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		*error_r = cairo_status_to_string(cairo_status(cr));
		goto out;
	}
	viewport.x = 0;
	viewport.y = 0;
	viewport.width = pw;
	viewport.height = ph;
	if (!rsvg_handle_render_document(handle, cr, &viewport, &gerr)) {
		*error_r = png_gerror("librsvg cannot draw the picture", gerr);
		goto out;
	}
	cairo_surface_flush(surface);
	ret = png_write_indexed(surface, out, error_r);
out:
	if (cr != NULL)
		cairo_destroy(cr);
	if (surface != NULL)
		cairo_surface_destroy(surface);
	if (handle != NULL)
		g_object_unref(handle);
	return ret;
}

int render_board_png(const struct core_position *pos,
		     const struct core_move *last,
		     const struct render_picture *pic, struct buf *out,
		     const char **error_r)
{
	struct buf svg = BUF_INIT;
	int ret = -1;

	if (render_picture_svg(pos, last, pic, &svg, error_r) == 0)
		ret = render_png_from_svg(svg.data, svg.len,
					  pic != NULL ? pic->width : 0, out,
					  error_r);
	buf_free(&svg);
	return ret;
}
