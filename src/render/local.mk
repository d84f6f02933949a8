# src/render: position -> board text, legal-move list, move in words, why a
# move is refused, SVG picture; and the template engine for every text
# players read.
noinst_LIBRARIES += libashes_render.a
libashes_render_a_SOURCES = \
	src/render/template.c src/render/template_ctx.c \
	src/render/template_parse.c src/render/template.h \
	src/render/template_private.h \
	src/render/render.c src/render/render_explain.c \
	src/render/render_svg.c src/render/render.h

render_test_ldadd = libashes_render.a libashes_core.a libashes_util.a \
	$(CHECK_LIBS)

check_PROGRAMS += tests/render/test_template
TESTS += tests/render/test_template
tests_render_test_template_SOURCES = tests/render/test_template.c
tests_render_test_template_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_test_template_LDADD = $(render_test_ldadd)

# Templates for every text players read; operators may override them.
nobase_dist_pkgdata_DATA += \
	templates/caption.txt templates/help-cli.txt templates/move-words.txt \
	templates/moves.txt templates/play-help.txt templates/play-intro.txt \
	templates/play-over.txt templates/show.txt \
	templates/rule.txt templates/explain.txt

check_PROGRAMS += tests/render/test_render
TESTS += tests/render/test_render
tests_render_test_render_SOURCES = tests/render/test_render.c
tests_render_test_render_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_test_render_LDADD = $(render_test_ldadd)

check_PROGRAMS += tests/render/test_explain
TESTS += tests/render/test_explain
tests_render_test_explain_SOURCES = tests/render/test_explain.c
tests_render_test_explain_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_render_test_explain_LDADD = $(render_test_ldadd)
