-- Fixture events for tests/tui (fed to tests/tui/mkstats, which creates
-- the schema): 2026-01-15 UTC. 5 searches, 1 a miss (20 %: a yellow badge).
INSERT INTO events(ts, kind, session, client, query, skill, top1_score,
  n_results, latency_ms, trust, found) VALUES
(1768471200, 'index', NULL, 'cli', NULL, NULL, NULL, 6, 1234.5, NULL, NULL),
(1768471260, 'search', 's1', 'claude-code', 'wcag accessibility audit', NULL, 0.79, 5, 0.4, NULL, NULL),
(1768471270, 'load', 's1', 'claude-code', NULL, 'a11y-orchestrator', NULL, NULL, 0.2, 'USER', 1),
(1768471280, 'search', 's1', 'claude-code', 'wcag accessibility audit', NULL, 0.81, 5, 0.5, NULL, NULL),
(1768471290, 'search', 's2', 'claude-code', 'vue perf', NULL, 0.45, 3, 0.3, NULL, NULL),
(1768471300, 'load', 's2', 'claude-code', NULL, 'perf-vue-runtime', NULL, NULL, 0.2, 'UNTRUSTED', 1),
(1768471310, 'search', 's2', 'claude-code', 'kubernetes helm chart', NULL, 0.21, 2, 0.6, NULL, NULL),
(1768471320, 'load', 's2', 'claude-code', NULL, 'no-such-skill', NULL, NULL, 0.1, NULL, 0),
(1768471330, 'search', 's3', 'cursor', '数据库 迁移 工具', NULL, 0.62, 4, 0.7, NULL, NULL);
