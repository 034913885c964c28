-- wrk script for tests/bench/run: POSTs tools/call search_skills with a
-- rotating query mix to the MCP endpoint given on the wrk command line.
-- wrk reports non-2xx answers itself ("Non-2xx or 3xx responses").
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
local q = {
  "design a poster for our meetup", "my playwright tests flake on CI",
  "sql query plans", "extract tables from a pdf", "review this pull request",
  "deploy to kubernetes with helm", "summarise a research paper",
}
local i = 0
request = function()
  i = i + 1
  local body = string.format('{"jsonrpc":"2.0","id":%d,"method":"tools/call",' ..
    '"params":{"name":"search_skills","arguments":{"query":"%s"}}}', i, q[(i % #q) + 1])
  return wrk.format(nil, nil, nil, body)
end
