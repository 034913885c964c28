// Runs the official MCP conformance suites (server scenarios) against
// `skills-radar serve --transport http` and prints one TAP line per check:
// SUCCESS is ok, FAILURE is not ok, SKIPPED is ok # SKIP, WARNING is ok
// with a note. No plan (run.sh adds it). Two servers on free loopback
// ports: the default stateless one and one with sessions (--stateful).
//   stable 0.1.16:         server-initialize ping tools-list
//                          dns-rebinding-protection resources-list (stateless)
//                          server-sse-multiple-streams (sessions)
//   next 0.2.0-alpha.12:   the same, plus server-session-lifecycle
//                          (sessions) and sep-2640-skills-{enumeration,
//                          manifest,directory} (stateless, --force)
// The other scenarios call the suite's own fixture tools and resources
// (test_simple_text, test://...) and do not apply to this server.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODULES = process.env.E2E_MODULES || path.join(HERE, 'node_modules');
const SR = process.env.SR;
const SRC = process.env.TOP_SRCDIR;
const SUITES = {
  stable: path.join(MODULES, '@modelcontextprotocol/conformance/dist/index.js'),
  next: path.join(MODULES, 'conformance-next/dist/index.js'),
};
const PLAN = [
  ['stable', 'stateless', ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list']],
  ['stable', 'sessions', ['server-sse-multiple-streams']],
  ['next', 'stateless', ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list',
    'sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory']],
  ['next', 'sessions', ['server-session-lifecycle', 'server-sse-multiple-streams']],
];

let failed = 0;
const children = new Set();
const tmp = mkdtempSync(path.join(tmpdir(), 'sr-conf-'));
process.on('exit', () => {
  for (const c of children) { try { c.kill('SIGKILL'); } catch {} }
  rmSync(tmp, { recursive: true, force: true });
});

const fixtures = path.join(SRC, 'tests/data/mcp');
const home = path.join(tmp, 'home');
mkdirSync(home, { recursive: true });
const env = {
  PATH: process.env.PATH, HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'),
  SKILL_PATHS: ['skills', 'agents', 'commands'].map((d) => path.join(fixtures, d)).join(':'),
};
const cfg = path.join(tmp, 'config.yaml');
writeFileSync(cfg, 'scan:\n  project_roots: false\n');

function startHttp(extra) {
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

function runScenario(suite, url, scenario) {
  const out = path.join(tmp, `${suite}-${scenario}`);
  mkdirSync(out, { recursive: true });
  const args = ['--import', path.join(HERE, 'lib/glob-register.mjs'), SUITES[suite], 'server',
    '--url', url, '--scenario', scenario, '-o', out];
  if (suite === 'next') args.push('--spec-version', '2025-11-25');
  if (scenario.startsWith('sep-')) args.push('--force');
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120000, cwd: tmp });
  let checks = [];
  for (const d of readdirSync(out, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    try { checks = checks.concat(JSON.parse(readFileSync(path.join(out, d.name, 'checks.json'), 'utf8'))); } catch {}
  }
  const label = `conformance ${suite} ${scenario}`;
  if (checks.length === 0) {
    failed++;
    console.log(`not ok - ${label}: produced checks`);
    for (const l of `${r.stdout || ''}${r.stderr || ''}`.trim().split('\n').slice(-6)) console.log(`#   ${l}`);
    return;
  }
  for (const c of checks) {
    if (c.status === 'INFO') continue;
    const desc = `${label} / ${c.id}`;
    if (c.status === 'SUCCESS') console.log(`ok - ${desc}`);
    else if (c.status === 'SKIPPED') console.log(`ok - ${desc} # SKIP ${String(c.errorMessage || '').replace(/#/g, '').slice(0, 120)}`);
    else if (c.status === 'WARNING') console.log(`ok - ${desc} (warning: ${String(c.errorMessage || '').replace(/#/g, '').slice(0, 160)})`);
    else {
      failed++;
      console.log(`not ok - ${desc}`);
      console.log(`#   ${String(c.errorMessage || c.description || '').slice(0, 400)}`);
    }
  }
}

async function main() {
  const servers = {
    stateless: await startHttp([]),
    sessions: await startHttp(['--stateful']),
  };
  for (const [suite, mode, scenarios] of PLAN)
    for (const s of scenarios)
      runScenario(suite, servers[mode].url, s);
}

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log(`not ok - conformance servers started`);
  console.log(`#   ${String(e && e.message || e)}`);
  process.exit(1);
});
