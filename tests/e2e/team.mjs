// The official MCP SDK client through nginx in front of two skills-radar
// replicas (tests/e2e/team.sh starts them): connect, list the tools,
// search, load, several times over fresh connections so both replicas
// answer. Prints TAP lines without a plan. Environment: TEAM_URL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.env.TEAM_URL);
let failed = 0;
function ok(cond, desc, detail) {
  console.log(`${cond ? 'ok' : 'not ok'} - ${desc}`);
  if (!cond) {
    failed++;
    if (detail !== undefined) console.log(`#   ${String(detail).split('\n').slice(0, 5).join('\n#   ')}`);
  }
}
const deadline = setTimeout(() => { console.log('not ok - finished within 60 s'); process.exit(1); }, 60000);

function text(res) {
  return JSON.parse(res.content.find((c) => c.type === 'text').text);
}

let searches = 0, loads = 0, errors = [];
for (let i = 0; i < 8; i++) {
  const client = new Client({ name: 'team-e2e', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const tools = await client.listTools();
    if (i === 0)
      ok(tools.tools.some((t) => t.name === 'search_skills') &&
         tools.tools.some((t) => t.name === 'load_skill'), 'through nginx: tools/list has search_skills and load_skill');
    const s = text(await client.callTool({ name: 'search_skills', arguments: { query: 'fill pdf forms' } }));
    if (s.matches.length > 0 && s.matches[0].name === 'pdf-forms') searches++;
    else errors.push(JSON.stringify(s).slice(0, 200));
    const l = text(await client.callTool({ name: 'load_skill', arguments: { name: 'pdf-forms' } }));
    if (typeof l.content === 'string' && l.content.includes('Fill and flatten')) loads++;
    else errors.push(JSON.stringify(l).slice(0, 200));
  } catch (e) {
    errors.push(String(e && e.stack || e));
  } finally {
    await client.close().catch(() => {});
  }
}
ok(searches === 8, `through nginx: 8 of 8 connections search and find pdf-forms (${searches})`, errors.join('\n'));
ok(loads === 8, `through nginx: 8 of 8 connections load pdf-forms (${loads})`, errors.join('\n'));
clearTimeout(deadline);
process.exit(failed ? 1 : 0);
