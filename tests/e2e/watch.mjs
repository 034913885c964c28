// Hot reload, driven the way a user does it: a real `skills-radar serve
// --watch` over stdio with the official SDK client, and file operations on
// the skill roots. Each change must be searchable (or gone) within
// LIMIT_MS, nothing else may change, and the server must announce it with
// notifications/resources/list_changed. Searches keep running during the
// updates (the ASan build of make check runs this too). Prints TAP lines.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, renameSync, symlinkSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const SR = process.env.SR;
const LIMIT_MS = Number(process.env.WATCH_LIMIT_MS || 1000);
const BACKEND = process.env.WATCH_BACKEND || 'inotify';	/* or poll */

let failed = 0;
function ok(cond, desc, detail) {
  console.log(`${cond ? 'ok' : 'not ok'} - watch (${BACKEND}): ${desc}`);
  if (!cond) {
    failed++;
    if (detail !== undefined) console.log(`#   ${String(detail).split('\n').slice(0, 5).join('\n#   ')}`);
  }
}

const tmp = mkdtempSync(path.join(tmpdir(), 'sr-watch-'));
const deadline = setTimeout(() => {
  console.log('not ok - the watch run finished within 120 s');
  process.exit(1);
}, 120000);
let transport;
process.on('exit', () => {
  try { transport?.close(); } catch {}
  rmSync(tmp, { recursive: true, force: true });
});

const home = path.join(tmp, 'home');
const root = path.join(tmp, 'root');
const late = path.join(tmp, 'late');	// does not exist at start
const targets = path.join(tmp, 'targets');
mkdirSync(path.join(home, '.config/skills-radar'), { recursive: true });
mkdirSync(root, { recursive: true });

function skill(dir, name, description) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`);
}
skill(path.join(root, 'alpha'), 'alpha', 'Fill PDF forms and merge documents.');
skill(path.join(targets, 'a', 'linked-a'), 'linked-a', 'Brew espresso with a lever machine.');
skill(path.join(targets, 'b', 'linked-b'), 'linked-b', 'Tune a carburettor on an old motorbike.');
symlinkSync(path.join(targets, 'a'), path.join(root, 'linked'));

const cfg = path.join(tmp, 'config.yaml');
writeFileSync(cfg, `paths:\n  - ${root}\n  - ${late}\nscan:\n  project_roots: false\n` +
  (BACKEND === 'poll' ? 'watcher:\n  backend: poll\n  poll_interval_ms: 200\n' : ''));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_DATA_HOME: path.join(home, '.local/share'),
  SKILLS_RADAR_CONFIG: cfg,
};

transport = new StdioClientTransport({ command: SR, args: ['-v', 'serve', '--watch'], env, stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (d) => { stderr += d; });
const client = new Client({ name: 'watch-test', version: '1' });
let changes = 0;
client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { changes++; });
await client.connect(transport);
ok(client.getServerCapabilities()?.resources?.listChanged === true,
  'serve --watch declares resources.listChanged');

async function search(query) {
  const r = await client.callTool({ name: 'search_skills', arguments: { query, top_k: 5 } });
  return r.structuredContent;
}
async function names(query) {
  return (await search(query)).matches.map((m) => m.name);
}
async function total() {
  return (await search('anything at all')).total_skills;
}
// Polls until pred(result) holds; returns the milliseconds it took, or -1.
async function until(pred, limit = 4 * LIMIT_MS + 2000) {
  const t0 = Date.now();
  for (;;) {
    if (await pred()) return Date.now() - t0;
    if (Date.now() - t0 > limit) return -1;
    await new Promise((r) => setTimeout(r, 20));
  }
}
const lat = [];
async function step(desc, op, pred, expectTotal) {
  const before = changes;
  const t0 = Date.now();
  op();
  const ms = await until(pred);
  const took = ms < 0 ? -1 : Date.now() - t0;
  if (took >= 0) lat.push(took);
  ok(took >= 0 && took <= LIMIT_MS, `${desc}: searchable within ${LIMIT_MS} ms (${took} ms)`);
  if (expectTotal !== undefined) {
    const n = await total();
    ok(n === expectTotal, `${desc}: nothing else changed (${n} skills, want ${expectTotal})`);
  }
  await until(async () => changes > before, 2000);
  ok(changes > before, `${desc}: notifications/resources/list_changed sent`);
}

ok((await total()) === 2, 'two skills at start (alpha and the symlinked linked-a)');

await step('create', () => skill(path.join(root, 'new-one'), 'new-one', 'Prune bonsai trees in spring.'),
  async () => (await names('prune bonsai trees')).includes('new-one'), 3);

await step('edit in place (body)', () => appendFileSync(path.join(root, 'new-one', 'SKILL.md'), '\nMore steps.\n'),
  async () => (await names('prune bonsai trees')).includes('new-one'), 3);

await step('edit in place (description)', () => writeFileSync(path.join(root, 'new-one', 'SKILL.md'),
  '---\nname: new-one\ndescription: Repot succulents without hurting the roots.\n---\nBody.\n'),
  async () => (await names('repot succulents')).includes('new-one'), 3);

await step('atomic rename-over save', () => {
  const f = path.join(root, 'alpha', 'SKILL.md');
  writeFileSync(`${f}.tmp`, '---\nname: alpha\ndescription: Translate invoices into Esperanto.\n---\nBody.\n');
  renameSync(`${f}.tmp`, f);
}, async () => (await names('translate invoices esperanto')).includes('alpha'), 3);

await step('directory rename', () => renameSync(path.join(root, 'new-one'), path.join(root, 'renamed-dir')),
  async () => {
    // search_skills answers carry no path (issue 34): load_skill does.
    if (!(await names('repot succulents')).includes('new-one')) return false;
    const r = await client.callTool({ name: 'load_skill', arguments: { name: 'new-one' } });
    return !r.isError && r.structuredContent.path.includes('/renamed-dir/');
  }, 3);

await step('delete', () => rmSync(path.join(root, 'renamed-dir'), { recursive: true }),
  async () => !(await names('repot succulents')).includes('new-one'), 2);

await step('symlink swap', () => {
  const link = path.join(root, 'linked');
  symlinkSync(path.join(targets, 'b'), `${link}.new`);
  renameSync(`${link}.new`, link);
}, async () => {
  const n = await names('carburettor motorbike');
  return n.includes('linked-b') && !(await names('espresso lever machine')).includes('linked-a');
}, 2);

await step('root created late', () => skill(path.join(late, 'late-one'), 'late-one', 'Calibrate a telescope mount.'),
  async () => (await names('calibrate telescope mount')).includes('late-one'), 3);

await step('root deleted', () => rmSync(late, { recursive: true }),
  async () => !(await names('calibrate telescope mount')).includes('late-one'), 2);

await step('root recreated', () => skill(path.join(late, 'late-two'), 'late-two', 'Restring a violin bow.'),
  async () => (await names('restring violin bow')).includes('late-two'), 3);

// Edits go the per-path way (the -v log names the paths of each batch).
ok(/reloaded: \d+ skills \([\d.]+ ms; \d+ paths?\)/.test(stderr),
  'edits are applied per path, not by a full rescan', stderr.slice(0, 400));

// A burst of 500 new skills, while searches keep running.
let searching = true, searchErrors = 0, searches = 0;
const hammer = (async () => {
  while (searching) {
    try { await search('pdf forms'); searches++; } catch { searchErrors++; }
  }
})();
const tBurst = Date.now();
for (let i = 0; i < 500; i++)
  skill(path.join(root, 'burst', `b${i}`), `burst-${i}`, `Generated burst skill number ${i} about ceramics glaze ${i}.`);
const burstMs = await until(async () => (await total()) === 503, 20000);
searching = false;
await hammer;
ok(burstMs >= 0, `500 files in one burst are all indexed (${Date.now() - tBurst} ms after the first write)`);
ok(searchErrors === 0 && searches > 0, `searches during the updates never failed (${searches} searches)`);
ok((await names('ceramics glaze 499')).includes('burst-499'), 'the last file of the burst is searchable');

lat.sort((a, b) => a - b);
console.log(`# change-to-searchable ms: p50 ${lat[Math.floor(lat.length / 2)]}, max ${lat[lat.length - 1]}`);
ok(!/AddressSanitizer|runtime error/.test(stderr), 'no sanitizer report on the server\'s stderr', stderr.slice(0, 400));
clearTimeout(deadline);
await client.close();
process.exit(failed ? 1 : 0);
