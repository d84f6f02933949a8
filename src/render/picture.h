/* picture.h -- private to src/render: the colours of the board picture,
 * one list for the SVG that paints with them (render_svg.c) and for the
 * PNG encoder, which keeps each of them exact when it cuts the picture
 * down to a small palette (render_png.c).  Contrast ratios (WCAG) are
 * those of text or lines against what they sit on: text at least 4.5:1,
 * the arrow at least 3:1 against every cell it can cross. */
#ifndef ASHES_RENDER_PICTURE_H
#define ASHES_RENDER_PICTURE_H

#include <stdint.h>

/* The fonts the picture's text asks for, in order (the SVG's
 * font-family): DejaVu for Latin letters and digits, NanumGothic
 * (fonts-nanum) for the Korean labels of templates/ko/picture.txt, which
 * DejaVu lacks (without it Pango draws a box for each Hangul
 * syllable). */
#define PICTURE_FONTS "DejaVu Sans, NanumGothic, sans-serif"

enum picture_colour {
	PIC_BG,        /* the picture's own background, dark */
	PIC_PANEL,     /* a player's panel */
	PIC_PANEL_ON,  /* the panel of the side to move, or of the winner */
	PIC_ACCENT,    /* its outline; the last move's cells */
	PIC_LIGHT,     /* titles (12.5:1 on PANEL, 9.7:1 on PANEL_ON), white
			* discs, sizes on black discs (14.6:1) */
	PIC_DETAIL,    /* counts (8.2:1 on PANEL, 6.4:1 on PANEL_ON); a black
			* disc's outline on a panel */
	PIC_RING_EVEN, /* cells at an even distance from the centre */
	PIC_RING_ODD,  /* and at an odd one: rings read at a glance */
	PIC_HEX_LINE,
	PIC_NAME,      /* cell names: 8.2:1 on EVEN, 6.8:1 on ODD, 6.5:1 on
			* ACCENT */
	PIC_DARK,      /* black discs, sizes on white discs (14.6:1), disc
			* outlines */
	PIC_ARROW,     /* the last move: 4.8:1 on EVEN, 4.1:1 on ODD, 3.9:1 on
			* ACCENT */
	PIC_NCOLOURS
};

/* 0xRRGGBB of each colour. */
extern const uint32_t picture_rgb[PIC_NCOLOURS];

#endif
