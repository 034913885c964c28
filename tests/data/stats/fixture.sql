-- A telemetry log with fixed timestamps (2025-12-01 00:16:40 UTC onwards),
-- written in the public schema of DESIGN §10, for the golden stats tests.
-- Run after telemetry_schema_sql. Expected, with threshold 0.4 and a
-- 300 s window: 14 events (7 search, 6 load, 1 index); 3 misses (42.9 %,
-- red); searches converted: 3 (ranks 1, 1, 2; k8s-deploy, which no search
-- returned, counts under rank none); loaded after a miss:
-- pptx and k8s-deploy; search latency p50 15 ms, p95 30 ms.
INSERT INTO events (ts, kind, session, client, query, skill, top1_score,
    n_results, latency_ms, trust, found, detail) VALUES
 (1764548200.0, 'search', 'sa', 'claude-code', 'pdf forms', NULL, 0.82, 5, 12.0, NULL, NULL,
  '{"top":["pdf","docx","xlsx"],"miss":false,"rewritten":false,"reranked":false}'),
 (1764548210.0, 'load', 'sa', 'claude-code', NULL, 'pdf', NULL, NULL, 1.5, 'USER', 1,
  '{"requested":"pdf","resolved":"pdf","bytes":2048}'),
 (1764548300.0, 'search', 'sa', 'claude-code', 'make a slide deck', NULL, 0.35, 3, 20.0, NULL, NULL,
  '{"top":["pptx","canvas"],"scores":[0.35,0.2113],"miss":true,"rewritten":false,"reranked":false}'),
 (1764548330.0, 'load', 'sa', 'claude-code', NULL, 'pptx', NULL, NULL, 2.5, 'USER', 1,
  '{"requested":"pptx","resolved":"pptx","bytes":4096}'),
 (1764548400.0, 'search', 'sa', 'claude-code', 'pdf forms', NULL, 0.80, 5, 10.0, NULL, NULL,
  '{"top":["pdf","docx"],"miss":false,"rewritten":false,"reranked":false}'),
 (1764549100.0, 'load', 'sa', 'claude-code', NULL, 'pdf', NULL, NULL, 1.0, 'USER', 1,
  '{"requested":"pdf","resolved":"pdf","bytes":2048}'),
 (1764549200.0, 'search', 'sb', 'cursor', 'spreadsheet formulas', NULL, 0.55, 4, 15.0, NULL, NULL,
  '{"top":["xlsx","docx"],"miss":false,"rewritten":false,"reranked":false}'),
 (1764549250.0, 'load', 'sb', 'cursor', NULL, 'docx', NULL, NULL, 3.0, 'VERIFIED', 1,
  '{"requested":"docx","resolved":"docx","bytes":1024}'),
 (1764549300.0, 'search', 'sb', 'cursor', 'deploy kubernetes', NULL, 0.10, 1, 30.0, NULL, NULL,
  '{"top":["pptx"],"miss":true,"rewritten":false,"reranked":false}'),
 (1764549310.0, 'load', 'sb', 'cursor', NULL, 'nosuch', NULL, NULL, 0.4, NULL, 0,
  '{"requested":"nosuch","bytes":0}'),
 (1764549320.0, 'load', 'sb', 'cursor', NULL, 'k8s-deploy', NULL, NULL, 2.0, 'UNTRUSTED', 1,
  '{"requested":"k8s-deploy","resolved":"k8s-deploy","bytes":512}'),
 (1764549400.0, 'search', 'sb', 'cursor', 'deploy kubernetes', NULL, 0.12, 1, 25.0, NULL, NULL,
  'not json: the reader must survive it'),
 (1764549500.0, 'index', 'sb', NULL, NULL, NULL, NULL, 42, 300.0, NULL, NULL,
  '{"count":42,"trigger":"cli"}'),
 (1764550200.0, 'search', 'sc', NULL, NULL, NULL, 0.90, 2, 8.0, NULL, NULL,
  '{"top":["xlsx","pdf"],"miss":false,"rewritten":false,"reranked":false}');
