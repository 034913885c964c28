#!/bin/sh
# Register skills-radar with Claude Code. Pick one.

# stdio (recommended): Claude Code starts the server itself.
claude mcp add --scope user skills-radar -- skills-radar serve

# Streamable HTTP: run `skills-radar serve --transport http` yourself first.
# claude mcp add --scope user --transport http skills-radar http://127.0.0.1:6580/mcp

# ... with a bearer token (transport.auth_token / SKILLS_RADAR_TOKEN):
# claude mcp add --scope user --transport http skills-radar http://127.0.0.1:6580/mcp \
#     --header "Authorization: Bearer $SKILLS_RADAR_TOKEN"
