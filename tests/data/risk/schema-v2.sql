-- An index.db as skills-radar wrote it at schema 2 (before the risk
-- columns), with one entry; tests/cli/risk.sh replaces @C@ by its root.
CREATE TABLE entries (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('skill','agent','command')),
  name TEXT NOT NULL,
  path TEXT NOT NULL UNIQUE,
  realpath TEXT NOT NULL,
  root TEXT NOT NULL,
  scope TEXT NOT NULL,
  is_project INTEGER NOT NULL DEFAULT 0,
  trust TEXT NOT NULL,
  description TEXT NOT NULL,
  when_to_use TEXT NOT NULL,
  tags TEXT NOT NULL,
  platforms TEXT NOT NULL,
  requires_tools TEXT NOT NULL,
  fallback_for_tools TEXT NOT NULL,
  disable_model_invocation INTEGER NOT NULL,
  user_invocable INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  hash TEXT NOT NULL,
  warnings INTEGER NOT NULL,
  flags INTEGER NOT NULL,
  max_flag_sev INTEGER NOT NULL,
  flag_ids TEXT,
  shadowed_by TEXT,
  frontmatter TEXT
);
CREATE INDEX entries_uid ON entries(uid);
CREATE TABLE rejected (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  hash TEXT NOT NULL,
  rule TEXT NOT NULL,
  reason TEXT NOT NULL,
  skipped INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
ALTER TABLE entries ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN rowhash TEXT;
CREATE INDEX entries_version ON entries(version);
CREATE TABLE tombstones (path TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE INDEX tombstones_version ON tombstones(version);
CREATE TABLE replicas (name TEXT PRIMARY KEY, counter INTEGER NOT NULL,
  seen INTEGER NOT NULL);
INSERT INTO entries (uid, kind, name, path, realpath, root, scope,
  is_project, trust, description, when_to_use, tags, platforms,
  requires_tools, fallback_for_tools, disable_model_invocation,
  user_invocable, size, mtime_ns, hash, warnings, flags, max_flag_sev,
  flag_ids, shadowed_by, frontmatter, version, rowhash)
VALUES ('hostile-desc', 'skill', 'hostile-desc', '@C@/hostile-desc/SKILL.md',
  '@C@/hostile-desc/SKILL.md', '@C@', 'other', 0, 'UNTRUSTED',
  'Summarises pull requests.', '', '[]', '[]', '[]', '[]', 0, 1, 1, 1,
  '0000000000000000', 0, 0, -1, NULL, NULL, '{}', 1, NULL);
INSERT INTO meta (key, value) VALUES ('schema', '2');
INSERT INTO meta (key, value) VALUES ('counter', '1');
INSERT INTO meta (key, value) VALUES ('fingerprint', 'from-schema-2');
PRAGMA user_version = 2;
