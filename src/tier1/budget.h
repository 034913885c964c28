/*
 * What the user pays today: doctor's report on Claude Code's native skill
 * listing against its character budget, the descriptions it would drop,
 * the mini-index's cost, the saving, and the skillOverrides setting that
 * hands descriptions over to the server.
 *
 * Claude Code (peers.md §3.2) lists every skill the model may invoke as
 * "- name: description - when_to_use", each description part capped at
 * 1,536 characters, within SLASH_COMMAND_TOOL_CHAR_BUDGET characters when
 * that is set above 0, else context tokens x 4 x 1 %. Over budget, entries
 * ranked by recent use keep their descriptions and the rest are listed by
 * name; with no usage data every skill ranks 0, so the report keeps
 * descriptions in name order until the budget is spent.
 *
 * budget_report() returns a new cJSON object the caller owns
 * (cJSON_Delete); the skill set and config are borrowed for the call.
 */
#ifndef SR_BUDGET_H
#define SR_BUDGET_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/skill.h"

struct sanitizer;

struct config;

/* Claude Code's per-entry cap on the description part, in characters. */
#define BUDGET_DESC_MAX		1536
/* skillListingBudgetFraction, in percent of context characters. */
#define BUDGET_FRACTION_PCT	1

/*
 * Builds the report for the entries of set. context_tokens 0 means
 * doctor.context_tokens; the environment variable
 * SLASH_COMMAND_TOOL_CHAR_BUDGET, when a number above 0, overrides the
 * character budget. Keys: context_tokens, budget_chars, budget_source
 * ("context" | "SLASH_COMMAND_TOOL_CHAR_BUDGET"), skills, listing_chars,
 * listing_tokens (everything with descriptions), fits, kept, dropped,
 * dropped_names[], sent_chars, sent_tokens (what the budget lets through),
 * names_only_tokens, mini_index {tokens, budget, level, named, with_gist},
 * with_server_tokens (names-only listing + mini-index), saving_tokens,
 * off_saving_tokens (with "off": the mini-index alone), skill_overrides
 * {name: "name-only"}. Over budget, the report assumes Claude Code still
 * lists every name even when the names alone exceed the budget.
 */
cJSON	*budget_report(const struct skill_set *set, const struct config *cfg,
	    const struct sanitizer *san, long context_tokens);

/* Prints the report as text (a section of doctor's output). */
void	 budget_print(FILE *fp, const cJSON *report);

#endif
