/*
 * Instructions or descriptions: the structure around a catalogue hit
 * (sanitize_frame.c).
 */
#ifndef SR_SANITIZE_FRAME_H
#define SR_SANITIZE_FRAME_H

#include <stddef.h>

/*
 * Nonzero when the line [line_start, line_end) of text, holding a hit
 * at offset hit (quoted: the hit is a "quotation" on its line), describes the hit
 * rather than orders it: a negation leads the line, the hit is a quoted
 * list item or table cell, or the section's heading (section: the
 * heading's offset + 1 from sanitize_frame_sections(), 0 none) is about detection, attacks, tests or refusal.
 */
int	 sanitize_frame_described(const char *text, size_t len,
	    size_t line_start, size_t line_end, size_t hit, int quoted,
	    size_t section);

/*
 * For each of the nlines lines of text (split at '\n'), the offset + 1 of
 * the heading of its section (0: none), read once from the top: only from
 * there is it known which lines are in a fence. A new array (free it).
 */
size_t	*sanitize_frame_sections(const char *text, size_t len,
	    size_t nlines);

/*
 * Whether the line p (n bytes, no newline) opens or closes a code fence
 * (``` or ~~~), and whether it is a Markdown heading ("## ...": its
 * level, 0 for none). The caller tracks the fences: a heading inside one
 * is a comment.
 */
int	 sanitize_frame_fence(const char *p, size_t n);
int	 sanitize_frame_heading(const char *p, size_t n);

/* Markdown has six heading levels; sanitize_frame_heading() returns 1..6. */
#define SANITIZE_FRAME_DEPTH	6

/*
 * Whether the heading line p (n bytes) names a section about detection,
 * patterns, attacks, tests or refusal: one whose catalogue phrases are
 * described, not ordered (sanitize_frame.c, cue 1). With code set, for a
 * code block: tests do not count (the commands of a test section run).
 */
int	 sanitize_frame_heading_described(const char *p, size_t n, int code);

/*
 * Whether the '"' at q (on the line of t starting at ls) opens a value
 * given to a key -- "key": "...", key="...", a YAML key: "..." at the
 * start of its line -- rather than a quotation (sanitize.c, is_quoted()).
 */
int	 sanitize_frame_value_quote(const char *t, size_t ls, size_t q);

#endif
