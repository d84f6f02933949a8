/* core-test.h -- helpers shared by the rules-core tests: build a position
 * from a short text, play and check moves by their notation.
 */
#ifndef ASHES_TESTS_CORE_TEST_H
#define ASHES_TESTS_CORE_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/notation.h"

/* A position of size N with stacks "e5=W3 c3=B2 ..." and the given taxes,
 * `to_move` to play (ply 10, so no swap is pending). */
static inline void setup_pos(struct core_position *p, int size,
			     const char *stacks, int tax_w, int tax_b,
			     enum core_color to_move)
{
	struct core_variant v;
	enum core_error err;
	char buf[512], *save = NULL;

	core_variant_default(&v);
	v.size = size;
	ck_assert_int_eq(core_position_init(p, &v, &err), 0);
	snprintf(buf, sizeof(buf), "%s", stacks);
	for (char *tok = strtok_r(buf, " ", &save); tok != NULL;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		ck_assert_ptr_nonnull(eq);
		int c = core_cell_parse(p->geom, tok, (size_t)(eq - tok));
		ck_assert_msg(c >= 0, "bad cell in %s", tok);
		int n = atoi(eq + 2);
		p->stack[c] = eq[1] == 'W' ? n : -n;
	}
	p->tax[CORE_WHITE] = tax_w;
	p->tax[CORE_BLACK] = tax_b;
	p->to_move = (uint8_t)to_move;
	p->ply = 10;
	core_position_refresh(p);
}

/* Signed stack value on a named cell. */
static inline int32_t stack_at(const struct core_position *p, const char *name)
{
	int c = core_cell_parse(p->geom, name, strlen(name));

	ck_assert_msg(c >= 0, "bad cell %s", name);
	return p->stack[c];
}

/* Parse and play `text`, which must be legal; returns the forced passes. */
static inline int play_ok(struct core_position *p, const char *text)
{
	struct core_move m;
	enum core_error err = CORE_OK;
	int passes = -1;

	ck_assert_msg(notation_parse_move(p, text, strlen(text), &m, &err) == 0,
		      "%s: parse: %s", text, core_error_name(err));
	ck_assert_msg(core_play(p, &m, &passes, &err) == 0, "%s: %s", text,
		      core_error_name(err));
	return passes;
}

/* `text` must be refused with err, for the reason `why` (what
 * core_check_info() says; the sentence of each reason is tested in
 * tests/render/test_explain.c); the position must not change. */
static inline void play_refused(struct core_position *p, const char *text,
				enum core_error want, enum core_reason why)
{
	struct core_move m = { .kind = CORE_MOVE_WHOLE, .from = -1, .to = -1 };
	enum core_error err = CORE_OK;
	struct core_check_info info;
	uint64_t key = p->key;
	int ply = p->ply;

	if (notation_parse_move(p, text, strlen(text), &m, &err) == 0) {
		ck_assert_msg(core_play(p, &m, NULL, &err) == -1,
			      "%s was accepted", text);
	}
	ck_assert_msg(err == want, "%s: got '%s', want '%s'", text,
		      core_error_name(err), core_error_name(want));
	ck_assert_uint_eq(p->key, key);
	ck_assert_int_eq(p->ply, ply);
	core_check_info(p, &m, err, &info);
	ck_assert_int_eq(info.err, err);
	ck_assert_msg(info.reason == why, "%s: reason %s, want %s", text,
		      core_reason_name(info.reason), core_reason_name(why));
}

/* The source tree's file `rel` read whole into buf (NUL-terminated; the
 * test fails if it cannot be read); its length. */
static inline size_t read_source(const char *rel, char *buf, size_t size)
{
	const char *src = getenv("ASHES_SRCDIR");
	char path[4096];
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", src ? src : ".", rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	len = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[len] = '\0';
	return len;
}
/* A buffer of n bytes for a text a test is about to write. */
static inline char *ck_alloc(size_t n)
{
	char *buf = malloc(n);

	ck_assert_ptr_nonnull(buf);
	return buf;
}

/* A formatter that said it would write n bytes wrote (`got`) all n, and
 * nothing more: buf ends at n. */
static inline void ck_wrote(const char *buf, size_t got, size_t n)
{
	ck_assert_uint_eq(got, n);
	ck_assert_uint_eq(strlen(buf), n);
}

/* A version-1 record of four plies with a swap, as both record formats'
 * tests read and write it; its result line follows. */
#define V1_SWAP_GAME \
	"ashes-record 1\n" \
	"variant: size=5 tax=removed swap\n" \
	"1. e5-a1\n" \
	"2. swap\n" \
	"3. e5-i9\n" \
	"4. a1xi9\n"

#endif
