// End-to-end tests of `skills-radar serve` with the official MCP SDK
// client (@modelcontextprotocol/sdk, pinned in package.json), over stdio,
// Streamable HTTP (stateless) and Streamable HTTP with sessions: every
// tool, every resource method, the SEP-2640 methods and their error
// paths; then the HTTP refusals (Origin, Host, token, body cap, protocol
// version, sessions) with plain fetch, a malformed-JSON storm, and the
// token cost of tools/list. Prints TAP lines without a plan (run.sh adds
// it). Environment: SR (the binary), TOP_SRCDIR (the source tree).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '@anthropic-ai/tokenizer';

const SR = process.env.SR;
const SRC = process.env.TOP_SRCDIR;
const TOKEN_LIMIT = 400;

let failed = 0;
function ok(cond, desc, detail) {
  console.log(`${cond ? 'ok' : 'not ok'} - ${desc}`);
  if (!cond) {
    failed++;
    if (detail !== undefined)
      for (const l of String(typeof detail === 'string' ? detail : JSON.stringify(detail)).split('\n').slice(0, 10))
        console.log(`#   ${l}`);
  }
}

const children = new Set();
const tmp = mkdtempSync(path.join(tmpdir(), 'sr-e2e-'));
function cleanup() {
  for (const c of children) { try { c.kill('SIGKILL'); } catch {} }
  rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
const deadline = setTimeout(() => {
  console.log('not ok - the e2e run finished within 240 s');
  process.exit(1);
}, 240000);

const fixtures = path.join(SRC, 'tests/data/mcp');
const home = path.join(tmp, 'home');
mkdirSync(path.join(home, '.config/skills-radar'), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_DATA_HOME: path.join(home, '.local/share'),
  SKILL_PATHS: ['skills', 'agents', 'commands'].map((d) => path.join(fixtures, d)).join(':'),
};
const plainCfg = path.join(tmp, 'plain.yaml');
writeFileSync(plainCfg, 'scan:\n  project_roots: false\n');
const hardCfg = path.join(tmp, 'hard.yaml');
writeFileSync(hardCfg, [
  'scan:', '  project_roots: false',
  'transport:', '  auth_token: s3cret-token', '  max_body_kb: 1',
  '  allowed_origins: [https://app.example.com]', '',
].join('\n'));

// Starts an HTTP server on a free port; resolves with its URL.
function startHttp(cfg, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(SR, ['--config', cfg, 'serve', '--transport', 'http', '--port', '0', ...extra],
      { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let err = '';
    const t = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20000);
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) { clearTimeout(t); resolve({ url: m[1], child }); }
    });
    child.on('exit', (code) => { clearTimeout(t); reject(new Error(`server exited ${code}: ${err}`)); });
  });
}

async function stop(child) {
  if (child.exitCode !== null) return child.exitCode;
  const done = new Promise((r) => child.on('exit', (code, sig) => r(code ?? sig)));
  child.kill('SIGTERM');
  const rv = await Promise.race([done, new Promise((r) => setTimeout(() => r('timeout'), 5000))]);
  children.delete(child);
  return rv;
}

async function rejects(p) {
  try { await p; return null; } catch (e) { return e; }
}

const text = (r) => (r.content && r.content[0] && r.content[0].text) || '';

// Every tool, resource and SEP-2640 method, and their error paths.
async function exercise(client, label) {
  const L = (s) => `${label}: ${s}`;
  ok(client.getServerVersion()?.name === 'skills-radar', L('serverInfo.name is skills-radar'));
  const caps = client.getServerCapabilities() || {};
  ok(caps.tools && caps.resources, L('tools and resources capabilities'), caps);
  ok(caps.extensions?.['io.modelcontextprotocol/skills']?.directoryRead === true,
    L('declares the skills extension with directoryRead'), caps);
  const instr = client.getInstructions() || '';
  ok(/search_skills/.test(instr) && /api-design/.test(instr) && !/user-only/.test(instr),
    L('instructions say which tool when and list the model-invocable skills'), instr);
  ok(Object.keys(await client.ping()).length === 0, L('ping returns {}'));

  const { tools } = await client.listTools();
  ok(tools.map((t) => t.name).join() === 'search_skills,load_skill,read_skill_file,list_skills',
    L('tools/list has the four tools'), tools.map((t) => t.name));
  ok(tools.every((t) => t.description.length <= 200 && t.inputSchema.additionalProperties === false
    && t.outputSchema?.type === 'object'), L('descriptions <= 200 chars, closed input schemas, output schemas'));

  let r = await client.callTool({ name: 'search_skills', arguments: { query: 'fill pdf forms', top_k: 3 } });
  ok(!r.isError && r.structuredContent?.matches?.[0]?.name === 'pdf-tools', L('search_skills finds pdf-tools'), r);
  ok(JSON.stringify(JSON.parse(text(r))) === JSON.stringify(r.structuredContent),
    L('search text content is the structuredContent JSON'));
  r = await client.callTool({ name: 'search_skills', arguments: { query: 'review', kind: 'agent' } });
  ok(!r.isError && r.structuredContent.matches.every((m) => m.kind === 'agent'), L('search_skills kind filter'), r);
  r = await client.callTool({ name: 'search_skills', arguments: { query: 'api', tags: ['git'] } });
  ok(!r.isError && r.structuredContent.matches.every((m) => m.tags.includes('git')), L('search_skills tags filter'), r);
  r = await client.callTool({ name: 'load_skill', arguments: { name: 'api-design' } });
  ok(!r.isError && /plural nouns/.test(r.structuredContent.content) && r.structuredContent.trust,
    L('load_skill returns content and trust'), r);
  ok(r.structuredContent.files?.some((f) => f.path === 'references/rest.md'), L('load_skill lists bundled files'), r);
  r = await client.callTool({ name: 'load_skill', arguments: { name: 'api-design', offset: 5, max_bytes: 20 } });
  ok(!r.isError && r.structuredContent.content.length <= 20 && r.structuredContent.truncated === true,
    L('load_skill pages with offset/max_bytes'), r);
  r = await client.callTool({ name: 'load_skill', arguments: { name: 'pdf-tools' } });
  ok(!r.isError && !/ignore all previous/.test(r.structuredContent.content) && r.structuredContent.warnings.length > 0,
    L('load_skill sanitises and warns'), r);
  r = await client.callTool({ name: 'read_skill_file', arguments: { name: 'api-design', path: 'references/rest.md' } });
  ok(!r.isError && /409 Conflict/.test(r.structuredContent.content), L('read_skill_file reads a bundled file'), r);
  r = await client.callTool({ name: 'list_skills', arguments: {} });
  ok(!r.isError && r.structuredContent.skills.length >= 5, L('list_skills lists the entries'), r);
  r = await client.callTool({ name: 'list_skills', arguments: { kind: 'command' } });
  ok(!r.isError && r.structuredContent.skills.length === 1, L('list_skills kind=command'), r);

  // Tool errors: isError with a message a model can act on.
  const bad = [
    ['load_skill', { name: 'pdf-tool' }, /did you mean.*pdf-tools/, 'a misspelt name suggests the right one'],
    ['load_skill', { name: 'user-only' }, /user/i, 'a user-only skill is refused'],
    ['load_skill', { name: 'api-design', offset: -3 }, /offset/, 'a negative offset'],
    ['search_skills', { query: 'x', top_k: 0 }, /1 to 50/, 'top_k 0'],
    ['search_skills', { query: 'x', top_k: 51 }, /1 to 50/, 'top_k 51'],
    ['search_skills', { query: 'x', kind: 'plugin' }, /skill, agent, command/, 'an unknown kind'],
    ['search_skills', { query: 7 }, /string/, 'a numeric query'],
    ['search_skills', { top_k: 3 }, /query/, 'a missing query'],
    ['search_skills', { query: 'x', color: 'red' }, /unknown argument 'color'/, 'an unknown argument'],
    ['read_skill_file', { name: 'api-design', path: '../pdf-tools/SKILL.md' }, /\.\./, 'path traversal'],
    ['read_skill_file', { name: 'api-design', path: '/etc/passwd' }, /absolute/i, 'an absolute path'],
    ['read_skill_file', { name: 'api-design', path: 'nope.md' }, /nope\.md/, 'a missing file'],
    ['list_skills', { tier: 'gold' }, /trusted/, 'an unknown tier'],
    ['list_skills', { cursor: 'abc' }, /cursor/, 'a bad cursor'],
  ];
  for (const [name, args, re, what] of bad) {
    r = await client.callTool({ name, arguments: args });
    ok(r.isError === true && re.test(text(r)), L(`${name}: ${what} is isError`), r);
  }
  let e = await rejects(client.callTool({ name: 'no_such_tool', arguments: {} }));
  ok(e && e.code === -32602, L('an unknown tool is JSON-RPC -32602'), e && e.message);

  // Resources.
  const { resources } = await client.listResources();
  const uris = resources.map((x) => x.uri);
  ok(uris.includes('skills-radar://index') && uris.includes('skill://api-design/SKILL.md')
    && !uris.includes('skill://user-only/SKILL.md'), L('resources/list: the index and the skills'), uris);
  let rr = await client.readResource({ uri: 'skills-radar://index' });
  ok(/git-workflow/.test(rr.contents[0].text), L('the index resource lists the skills'), rr);
  rr = await client.readResource({ uri: 'skill://pdf-tools/SKILL.md' });
  ok(rr.contents[0].mimeType === 'text/markdown' && !/ignore all previous/.test(rr.contents[0].text),
    L('SKILL.md resource: text/markdown, body sanitised'), rr);
  rr = await client.readResource({ uri: 'skill://api-design/scripts/check.sh' });
  ok(/OpenAPI/.test(rr.contents[0].text), L('a bundled file resource'), rr);
  const { resourceTemplates } = await client.listResourceTemplates();
  ok(resourceTemplates.some((t) => t.uriTemplate === 'skill://{name}/SKILL.md'), L('resource templates'), resourceTemplates);
  e = await rejects(client.readResource({ uri: 'skill://nope/SKILL.md' }));
  ok(e && e.code === -32602, L('an unknown resource is -32602'), e && e.message);
  e = await rejects(client.readResource({ uri: 'skill://api-design/../pdf-tools/SKILL.md' }));
  ok(e && e.code === -32602, L('a traversing resource URI is -32602'), e && e.message);

  // SEP-2640.
  const list = await client.request({ method: 'skills/list', params: {} }, ResultSchema);
  ok(Array.isArray(list.skills) && list.skills.length === 3, L('skills/list: three skills'), list);
  const entry = list.skills.find((s) => s.uri === 'skill://api-design/SKILL.md');
  ok(entry && entry.frontmatter.name === 'api-design' && entry.frontmatter.license === 'MIT',
    L('skills/list frontmatter is the file\'s'), entry);
  let digestsOk = !!entry;
  for (const res of entry?.resources || []) {
    const c = await client.readResource({ uri: res.uri });
    const bytes = Buffer.from(c.contents[0].text, 'utf8');
    const d = 'sha256:' + createHash('sha256').update(bytes).digest('hex');
    if (d !== res.digest || bytes.length !== res.size) digestsOk = false;
  }
  ok(digestsOk && entry.resources.length === 3, L('every listed file reads back with its digest and size'), entry);
  const got = await client.request({ method: 'skills/get', params: { uri: 'skill://git-workflow/SKILL.md' } }, ResultSchema);
  ok(got.skill?.frontmatter?.metadata?.version === '1.2', L('skills/get returns the entry'), got);
  e = await rejects(client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, ResultSchema));
  ok(e && e.code === -32602, L('skills/get of an unknown URI is -32602'), e && e.message);
  const dir = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://api-design' } }, ResultSchema);
  ok(dir.resources?.some((x) => x.uri === 'skill://api-design/references' && x.mimeType === 'inode/directory'),
    L('resources/directory/read lists subdirectories'), dir);
  e = await rejects(client.request({ method: 'resources/directory/read', params: { uri: 'skill://api-design/SKILL.md' } }, ResultSchema));
  ok(e && e.code === -32602, L('directory read of a file is -32602'), e && e.message);
  e = await rejects(client.request({ method: 'no/such/method', params: {} }, ResultSchema));
  ok(e && e.code === -32601, L('an unknown method is -32601'), e && e.message);
  return tools;
}

async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  let json = null;
  const t = await res.text();
  try { json = JSON.parse(t); } catch {}
  return { status: res.status, headers: res.headers, json, text: t };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fetch', version: '1' } } };
const PING = { jsonrpc: '2.0', id: 2, method: 'ping' };

async function main() {
  // 1. stdio with the SDK client.
  {
    const transport = new StdioClientTransport({ command: SR, args: ['--config', plainCfg, 'serve'], env, stderr: 'pipe' });
    const client = new Client({ name: 'sr-e2e', version: '1.0.0' });
    await client.connect(transport);
    const tools = await exercise(client, 'stdio');
    const { tools: again } = await client.listTools();
    const tokens = countTokens(JSON.stringify({ tools: again }));
    ok(tokens <= TOKEN_LIMIT, `tools/list costs ${tokens} tokens (<= ${TOKEN_LIMIT}, @anthropic-ai/tokenizer)`);
    ok(JSON.stringify(tools) === JSON.stringify(again), 'the tool list never changes');
    await client.close();
  }

  // 2. HTTP, stateless (the default).
  const plain = await startHttp(plainCfg);
  {
    const client = new Client({ name: 'sr-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(plain.url));
    await client.connect(transport);
    await exercise(client, 'http');
    ok(transport.sessionId === undefined, 'http: stateless mode issues no session id');
    await client.close();
  }
  const base = plain.url.replace(/\/mcp$/, '');
  let r = await fetch(plain.url);
  ok(r.status === 405 && /POST/.test(r.headers.get('allow') || ''), 'http: GET is 405 with Allow in stateless mode');
  r = await post(plain.url, INIT, { origin: 'http://evil.example.com' });
  ok(r.status === 403, 'http: a foreign Origin is 403', r);
  r = await post(plain.url, INIT, { origin: 'http://localhost:5173' });
  ok(r.status === 200, 'http: a localhost Origin is accepted', r);
  r = await post(plain.url, PING, { 'mcp-protocol-version': '1999-01-01' });
  ok(r.status === 400 && /MCP-Protocol-Version/.test(r.text), 'http: an unsupported MCP-Protocol-Version is 400', r);
  r = await post(plain.url, PING, { 'mcp-protocol-version': '2025-03-26' });
  ok(r.status === 200, 'http: any supported MCP-Protocol-Version is accepted', r);
  r = await post(plain.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
  ok(r.status === 202 && r.text === '', 'http: a notification is 202 without a body', r);
  r = await post(plain.url, '{"jsonrpc":"2.0","id":1,', {});
  ok(r.status === 400 && r.json?.error?.code === -32700, 'http: malformed JSON is 400 / -32700', r);
  r = await fetch(`${base}/healthz`);
  const hz = await r.json();
  ok(r.status === 200 && hz.status === 'ok' && hz.skills === 5, 'http: /healthz reports the skill count', hz);
  r = await fetch(`${base}/tools/skill_list`);
  const sl = await r.json();
  ok(r.status === 200 && sl.skills.length >= 5, 'rest: GET /tools/skill_list', sl);
  r = await post(`${base}/tools/skill_load`, { name: 'git-workflow' });
  ok(r.status === 200 && /imperative/.test(r.json?.content), 'rest: POST /tools/skill_load', r);
  r = await post(`${base}/tools/skill_load`, { name: 'nope' });
  ok(r.status === 404 && /nope/.test(r.json?.error), 'rest: skill_load of an unknown skill is 404', r);
  r = await post(`${base}/tools/skill_read`, { name: 'pdf-tools', path: 'references/forms.md' });
  ok(r.status === 200 && /fields/.test(r.json?.content), 'rest: POST /tools/skill_read', r);
  r = await post(`${base}/tools/search_skills`, { query: 'git commit messages', top_k: 2 });
  ok(r.status === 200 && r.json?.matches?.[0]?.name === 'git-workflow', 'rest: POST /tools/search_skills', r);
  r = await post(`${base}/tools/search_skills`, { query: 'x', top_k: 500 });
  ok(r.status === 400, 'rest: a bad argument is 400', r);

  // A malformed-JSON storm, 200 bad bodies in parallel; the server survives.
  const junk = ['{', 'null', '[]', '{"jsonrpc":"2.0","id":1}', '\u0000\u0001', '{"jsonrpc":"1.0","id":1,"method":"ping"}', 'x'.repeat(500)];
  const storm = await Promise.all(Array.from({ length: 200 }, (_, i) => post(plain.url, junk[i % junk.length]).catch((e) => ({ status: 0, e }))));
  ok(storm.every((s) => s.status === 400 || (s.status === 200 && s.json?.error)), 'http: 200 malformed bodies are all refused with errors',
    storm.filter((s) => !(s.status === 400 || (s.status === 200 && s.json?.error))).slice(0, 3));
  r = await post(plain.url, PING);
  ok(r.status === 200 && r.json?.result, 'http: the server answers after the storm', r);
  ok(plain.child.exitCode === null, 'http: the server process is still running');
  ok((await stop(plain.child)) === 0, 'http: SIGTERM ends the HTTP server with status 0');

  // 3. HTTP with sessions.
  const stateful = await startHttp(plainCfg, ['--stateful']);
  {
    const client = new Client({ name: 'sr-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(stateful.url));
    await client.connect(transport);
    await exercise(client, 'http-sessions');
    const sid = transport.sessionId;
    ok(typeof sid === 'string' && /^[\x21-\x7e]+$/.test(sid), 'sessions: a visible-ASCII Mcp-Session-Id is issued', sid);
    await transport.terminateSession();
    r = await post(stateful.url, PING, { 'mcp-session-id': sid });
    ok(r.status === 404, 'sessions: a terminated session is 404', r);
    await client.close().catch(() => {});
  }
  r = await post(stateful.url, PING);
  ok(r.status === 400 && /Mcp-Session-Id/.test(r.text), 'sessions: a request without a session is 400', r);
  r = await post(stateful.url, PING, { 'mcp-session-id': 'not-a-session' });
  ok(r.status === 404, 'sessions: an unknown session is 404', r);
  r = await post(stateful.url, INIT);
  const sid2 = r.headers.get('mcp-session-id');
  r = await post(stateful.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': sid2 });
  ok(r.status === 200 && r.json?.result?.tools?.length === 4, 'sessions: the issued id serves requests', r);
  r = await fetch(stateful.url, { method: 'DELETE', headers: { 'mcp-session-id': sid2 } });
  ok(r.status === 200, 'sessions: DELETE ends a session');
  ok((await stop(stateful.child)) === 0, 'sessions: SIGTERM ends the server with status 0');

  // 4. Hardened: bearer token, a 1 KiB body cap, an allowed origin.
  const hard = await startHttp(hardCfg);
  r = await post(hard.url, INIT);
  ok(r.status === 401 && /Bearer/.test(r.headers.get('www-authenticate') || ''), 'token: no token is 401 with WWW-Authenticate', r);
  r = await post(hard.url, INIT, { authorization: 'Bearer wrong' });
  ok(r.status === 401, 'token: a wrong token is 401', r);
  const auth = { authorization: 'Bearer s3cret-token' };
  r = await post(hard.url, INIT, auth);
  ok(r.status === 200 && r.json?.result?.protocolVersion === '2025-11-25', 'token: the right token is served', r);
  r = await post(hard.url, { ...PING, params: { pad: 'x'.repeat(4096) } }, auth);
  ok(r.status === 413, 'body cap: a body over transport.max_body_kb is 413', r);
  r = await post(hard.url, INIT, { ...auth, origin: 'https://app.example.com' });
  ok(r.status === 200, 'origin: a configured allowed origin is accepted', r);
  r = await post(hard.url, INIT, { ...auth, origin: 'https://other.example.com' });
  ok(r.status === 403, 'origin: any other origin is 403', r);
  {
    const client = new Client({ name: 'sr-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(hard.url), { requestInit: { headers: auth } });
    await client.connect(transport);
    const t = await client.callTool({ name: 'search_skills', arguments: { query: 'pdf' } });
    ok(!t.isError, 'token: the SDK client works with the bearer token');
    await client.close();
  }
  ok((await stop(hard.child)) === 0, 'token: SIGTERM ends the server with status 0');
}

main().then(() => {
  clearTimeout(deadline);
  process.exit(failed ? 1 : 0);
}, (e) => {
  console.log(`not ok - the e2e run completed without an exception`);
  console.log(`#   ${String(e && e.stack || e).split('\n').slice(0, 6).join('\n#   ')}`);
  clearTimeout(deadline);
  process.exit(1);
});
