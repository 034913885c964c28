// Hot-reload benchmark (make bench): on a generated tree of N skills
// (default 10000), a real `serve --watch -v` driven by the SDK client.
// Prints: time from the last write to searchable over EDITS edits (p50,
// p95), the server's own update cost (its "reloaded ... (X ms)" lines),
// the CPU used in the 5 s after the last edit (the search index's
// background compaction) and by the idle watcher over the 5 s after that.
// Usage: SR=... NODE_PATH=tests/e2e/node_modules node tests/bench/bench_watch.mjs [N] [EDITS]
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const sdk = process.env.NODE_PATH ? `${process.env.NODE_PATH}/@modelcontextprotocol/sdk` : '@modelcontextprotocol/sdk';
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${sdk}/dist/esm/client/stdio.js`);

const N = Number(process.argv[2] || 10000), EDITS = Number(process.argv[3] || 100);
const tmp = mkdtempSync(path.join(tmpdir(), 'sr-bench-watch-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const root = path.join(tmp, 'root'), home = path.join(tmp, 'home');
mkdirSync(home, { recursive: true });
for (let i = 0; i < N; i++) {
  mkdirSync(path.join(root, `s${i}`), { recursive: true });
  writeFileSync(path.join(root, `s${i}`, 'SKILL.md'), `---\nname: gen-${i}\ndescription: Generated skill ${i} about topic${i % 97} and area${i % 13}.\n---\nBody.\n`);
}
const env = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: path.join(home, 'data'),
  XDG_CONFIG_HOME: path.join(home, 'cfg'), SKILL_PATHS: root };
execFileSync(process.env.SR, ['index'], { env, stdio: 'ignore' });
const transport = new StdioClientTransport({ command: process.env.SR, args: ['-v', 'serve', '--watch'], env, stderr: 'pipe' });
let stderr = '';
transport.stderr.on('data', (d) => { stderr += d; });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
const search = async (q) => (await client.callTool({ name: 'search_skills', arguments: { query: q, top_k: 1 } })).structuredContent;

const pct = (v, p) => v[Math.min(v.length - 1, Math.floor(v.length * p))];
const lat = [];
for (let k = 0; k < EDITS; k++) {
  const word = `zq${k}x${Date.now() % 100000}`;
  const i = k % N;
  const t0 = Date.now();
  writeFileSync(path.join(root, `s${i}`, 'SKILL.md'), `---\nname: gen-${i}\ndescription: Edited ${word} skill.\n---\nBody.\n`);
  for (;;) {
    const r = await search(word);
    if (r.matches.length && r.matches[0].name === `gen-${i}`) break;
    if (Date.now() - t0 > 20000) { console.log(`edit ${k}: not searchable after 20 s`); break; }
    await new Promise((r) => setTimeout(r, 5));
  }
  lat.push(Date.now() - t0);
}
lat.sort((a, b) => a - b);
const costs = [...stderr.matchAll(/reloaded: \d+ skills \(([\d.]+) ms[;)]/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
const pid = transport.pid;
const ticks = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
// 0-5 s after the last edit the search index's background compaction
// may still run; 5-10 s after it the watcher only waits.
const t1 = ticks();
await new Promise((r) => setTimeout(r, 5000));
const settle = (ticks() - t1) / 100 / 5 * 100;
const t2 = ticks();
await new Promise((r) => setTimeout(r, 5000));
const idle = (ticks() - t2) / 100 / 5 * 100;
console.log(`skills ${N}, edits ${EDITS}, debounce 250 ms (default)`);
console.log(`  write -> searchable   p50 ${pct(lat, 0.5)} ms   p95 ${pct(lat, 0.95)} ms   max ${lat[lat.length - 1]} ms`);
if (costs.length) console.log(`  server update cost   p50 ${pct(costs, 0.5)} ms   p95 ${pct(costs, 0.95)} ms   (incremental rescan + swap, debounce excluded)`);
console.log(`  CPU after the edits  ${settle.toFixed(2)} % of one core over 5 s (background compaction)`);
console.log(`  idle watcher CPU     ${idle.toFixed(2)} % of one core over the next 5 s`);
await client.close();
process.exit(0);
