# src/render: position -> board text, legal-move list, move in words, why a
# move is refused, the board picture (SVG, and PNG through librsvg and
# cairo); and the template engine for every text players read.  Whatever
# links libashes_render.a links $(RSVG_LIBS) too.
noinst_LIBRARIES += libashes_render.a
libashes_render_a_CPPFLAGS = $(AM_CPPFLAGS) $(RSVG_CFLAGS)
libashes_render_a_SOURCES = \
	src/render/template.c src/render/template_ctx.c \
	src/render/template_parse.c src/render/template_lang.c \
	src/render/template_words.c \
	src/render/template.h \
	src/render/template_private.h \
	src/render/render.c src/render/render_text.c src/render/render_explain.c \
	src/render/render_date.c \
	src/render/render_svg.c src/render/render_png.c src/render/render.h \
	src/render/picture.h src/render/site.c src/render/site.h

# Templates for every text players read; operators may override them.
nobase_dist_pkgdata_DATA += \
	templates/caption.txt templates/help-cli.txt templates/move-words.txt \
	templates/moves.txt templates/play-help.txt templates/play-intro.txt \
	templates/play-over.txt templates/show.txt templates/board-key.txt \
	templates/rule.txt templates/explain.txt templates/calendar.txt \
	templates/words.txt
# The words in the board picture (src/render/render_svg.c).
nobase_dist_pkgdata_DATA += templates/picture.txt

# tests/render: Check tests, each one .c file of its name: the template
# engine (test_template_words: code words in the reader's language;
# test_template_width: the Korean and German board and move list stay
# aligned in display columns), the
# move lists and words, the text board read as a player reads it (every
# cell of every size, test_board), why a move is refused, and the board
# picture: the SVG's elements (test_svg) and the PNG made from
# it, decoded back and checked pixel by pixel (test_png).
render_tests = tests/render/test_template tests/render/test_render \
	tests/render/test_template_lang tests/render/test_template_words \
	tests/render/test_template_width tests/render/test_board tests/render/test_explain \
	tests/render/test_svg tests/render/test_png
check_PROGRAMS += $(render_tests)
TESTS += $(render_tests)
EXTRA_DIST += tests/render/picture_test.h
render_test_ldadd = libashes_render.a libashes_core.a libashes_util.a \
	$(RSVG_LIBS) $(CHECK_LIBS)
tests_render_test_template_LDADD = $(render_test_ldadd)
tests_render_test_template_lang_LDADD = $(render_test_ldadd)
tests_render_test_template_words_LDADD = $(render_test_ldadd)
tests_render_test_template_width_LDADD = $(render_test_ldadd)
tests_render_test_render_LDADD = $(render_test_ldadd)
tests_render_test_board_LDADD = $(render_test_ldadd)
tests_render_test_explain_LDADD = $(render_test_ldadd)
tests_render_test_svg_LDADD = $(render_test_ldadd)
tests_render_test_png_CPPFLAGS = $(AM_CPPFLAGS) $(RSVG_CFLAGS) \
	$(FONTCONFIG_CFLAGS)
tests_render_test_png_LDADD = $(render_test_ldadd) $(FONTCONFIG_LIBS)
