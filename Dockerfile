# skills-radar as a container: the MCP server over Streamable HTTP.
# Untested here (no Docker engine on the build machine); the installed tree
# it copies is checked by tests/image/image.sh, which runs the same
# tests/image/install-tree.sh. See docker-compose.yml for the mounts.
#
#   docker build -t skills-radar .
#   docker run --rm -p 127.0.0.1:6580:6580 \
#       -v ~/.claude/skills:/skills/claude:ro skills-radar

# ---- build stage ---------------------------------------------------------
FROM debian:12-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential autoconf automake pkg-config mandoc \
      libyaml-dev libsqlite3-dev libcjson-dev libpcre2-dev libutf8proc-dev \
      libstemmer-dev libmicrohttpd-dev libncurses-dev libsodium-dev \
      libcurl4-openssl-dev libpq-dev \
 && rm -rf /var/lib/apt/lists/*
COPY . /src
RUN sh /src/tests/image/install-tree.sh /src /build /out \
 && /out/usr/bin/skills-radar version

# ---- runtime stage -------------------------------------------------------
FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libyaml-0-2 libsqlite3-0 libcjson1 libpcre2-8-0 libutf8proc2 \
      libstemmer0d libmicrohttpd12 libncursesw6 libtinfo6 \
      libpq5 libsodium23 \
      libcurl4 curl ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /
# A non-root user; its data directory (index.db, stats.db) is the volume.
RUN groupadd --system --gid 10001 radar \
 && useradd --system --uid 10001 --gid radar --home-dir /home/radar \
      --create-home --shell /usr/sbin/nologin radar \
 && mkdir -p /data /skills \
 && chown radar:radar /data
USER radar
WORKDIR /home/radar
# Skills are mounted read-only below /skills (one directory per root);
# SKILL_PATHS replaces the default roots. A config file can be mounted and
# named with SKILLS_RADAR_CONFIG; SKILLS_RADAR_TOKEN sets a bearer token.
ENV SKILL_PATHS=/skills/* \
    XDG_DATA_HOME=/data \
    XDG_CONFIG_HOME=/home/radar/.config
VOLUME ["/data"]
EXPOSE 6580
# Healthy means the MCP endpoint answers a real initialize.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS --max-time 4 -X POST http://127.0.0.1:6580/mcp \
        -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' \
        -H "Authorization: Bearer ${SKILLS_RADAR_TOKEN:-none}" \
        -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"docker-healthcheck","version":"1"}}}' \
      | grep -q '"serverInfo"' || exit 1
# 0.0.0.0 inside the container only; publish the port on the host's
# loopback (127.0.0.1:6580:6580) or set a token.
ENTRYPOINT ["/usr/bin/skills-radar"]
CMD ["serve", "--transport", "http", "--host", "0.0.0.0", "--watch"]
