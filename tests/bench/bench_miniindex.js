#!/usr/bin/env node
// tests/bench/bench_miniindex.js CORPUS_DIR
//
// The Tier-1 mini-index measured with the real Claude tokenizer
// (@anthropic-ai/tokenizer, found through NODE_PATH; tests/e2e installs
// it). Indexes CORPUS_DIR into a temporary HOME with $SR, takes the first
// 80 eligible skills by name (copies of their SKILL.md), and prints:
//   - the mini-index of those 80 at the default budget (1000), at 800 and
//     unbounded (full 80-character gists), with skills named and gisted;
//   - on the same 80: bare names, Claude Code's native listing
//     ("- name: description - when_to_use", 1,536 characters each) and
//     the Python anchor's format ("- **id** - first sentence");
//   - the whole corpus at the default budget;
//   - random subsets of 10, 80 and 500 skills at 300, 1000 and 3000
//     tokens: the worst real count against its budget;
//   - the estimator's error (tokens_estimate() by $BENCH_TOKENS against
//     the real count) on the descriptions of 200 skills and on every
//     mini-index text above.
// BENCH_KEEP=1 keeps the temporary texts.
// Exits 1 when a mini-index text is over its budget by the real count.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const cp = require('child_process');
const { countTokens } = require('@anthropic-ai/tokenizer');

const corpus = process.argv[2] && path.resolve(process.argv[2]);
if (!corpus || !fs.existsSync(corpus)) {
	process.stderr.write('usage: bench_miniindex.js CORPUS_DIR\n');
	process.exit(2);
}
const sr = process.env.SR || 'src/skills-radar';
const tokbin = process.env.BENCH_TOKENS || 'tests/bench/bench_tokens';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-bench-mi.'));
// BENCH_KEEP=1 keeps the texts (for calibrating src/tokens.c).
if (!process.env.BENCH_KEEP)
	process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
else
	process.stderr.write(`keeping ${tmp}\n`);

function env(home, paths) {
	const e = Object.assign({}, process.env, {
		HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'),
		XDG_DATA_HOME: path.join(home, '.local/share'), SKILL_PATHS: paths,
	});
	delete e.SKILLS_RADAR_CONFIG;
	delete e.SLASH_COMMAND_TOOL_CHAR_BUDGET;
	return e;
}
function run(e, args) {
	return cp.execFileSync(sr, args, { env: e, encoding: 'utf8',
	    maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}
// A home indexed over paths; returns its environment.
function indexed(name, paths) {
	const home = path.join(tmp, name);
	fs.mkdirSync(home, { recursive: true });
	const e = env(home, paths);
	run(e, ['index']);
	return e;
}
const texts = [];	// every text measured: [label, file]
// mini-index into a file: { file, real, report }.
function mini(e, label, args) {
	const file = path.join(tmp, `mi-${texts.length}.md`);
	const report = run(e, ['mini-index', '--output', file].concat(args)).trim();
	texts.push([label, file]);
	return { file, real: countTokens(fs.readFileSync(file, 'utf8')), report };
}
function field(report, re) {
	const m = report.match(re);
	return m ? Number(m[1]) : NaN;
}
// A skill set of the given entries (copies of SKILL.md), indexed.
function subset(name, list) {
	const dir = path.join(tmp, name + '-skills');
	for (const s of list) {
		const d = path.join(dir, s.name);
		fs.mkdirSync(d, { recursive: true });
		fs.copyFileSync(s.path, path.join(d, 'SKILL.md'));
	}
	return indexed(name, dir);
}

const all = indexed('corpus', corpus);
const listed = JSON.parse(run(all, ['list', '--json']));
const eligible = listed.filter(s => s.shadowed_by === null && !s.user_only &&
    s.kind === 'skill').sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const first80 = eligible.slice(0, 80);
const e80 = subset('s80', first80);

const rows = [];
let over = 0;
function row(what, r, budget) {
	const named = field(r.report, /(\d+) named/);
	const gist = field(r.report, /(\d+) with a gist/);
	const est = field(r.report, /~(\d+) tokens/);
	if (budget && r.real > budget)
		over++;
	rows.push([what, r.real, budget || '-', est, `${named}`, `${gist}`,
	    (r.report.match(/\((\w+)\)$/) || [])[1] || '']);
}
row('80 skills, default budget', mini(e80, '80@1000', []), 1000);
row('80 skills, --budget 800', mini(e80, '80@800', ['--budget', '800']), 800);
row('80 skills, unbounded', mini(e80, '80@full', ['--budget', '100000']), 0);
row('whole corpus, default budget', mini(all, 'corpus@1000', []), 1000);

// Other formats of the same 80.
function cap(s, n) {
	const a = Array.from(s);
	return a.length > n ? a.slice(0, n - 1).join('') + '…' : s;
}
const native = first80.map(s => {
	const d = s.when_to_use ? `${s.description} - ${s.when_to_use}` : s.description;
	return `- ${s.name}: ${cap(d, 1536)}`;
}).join('\n');
function firstSentence(d) {
	d = d.trim().replace(/\s+/g, ' ');
	for (const delim of ['. ', '! ', '? ']) {
		const i = d.indexOf(delim);
		if (i > 0 && i < 80)
			return d.slice(0, i + 1);
	}
	return d.length > 80 ? d.slice(0, 79).replace(/[,.;: -]+$/, '') + '…' : d;
}
const anchor = '<!-- AUTO-GENERATED by skills-radar - do not edit by hand -->\n' +
    '# Skills available\n\nDiscovery is two-tier: this file is the surface map. ' +
    'Before acting on a task, scan it - if a skill matches or is even partially ' +
    'relevant, call `search_skills(query)` (fuzzy intent) or `load_skill(name)` ' +
    'from the `skills-radar` MCP server and follow what it returns. When unsure, ' +
    'err on the side of checking: one cheap search beats missing critical ' +
    `instructions.\n\n_Total: 80 skills indexed._\n\n## uncategorized\n\n` +
    first80.map(s => `- **${s.name}** - ${firstSentence(s.description) || '-'}`).join('\n') + '\n';
const formats = [
	['bare names (one a line)', first80.map(s => s.name).join('\n')],
	['Claude Code native listing', native],
	['Python anchor format', anchor],
];

// Random subsets: the budget holds by the real count.
let seed = 12345;
function rand() {
	seed = (seed * 1103515245 + 12345) % 2147483648;
	return seed / 2147483648;
}
function sample(n) {
	const a = eligible.slice();
	for (let i = a.length - 1; i > 0; i--) {
		const j = Math.floor(rand() * (i + 1));
		[a[i], a[j]] = [a[j], a[i]];
	}
	return a.slice(0, Math.min(n, a.length));
}
const subs = [];
for (const n of [10, 80, 500]) {
	for (let k = 0; k < 3; k++) {
		const e = subset(`r${n}-${k}`, sample(n));
		for (const b of [300, 1000, 3000]) {
			const r = mini(e, `random ${n}@${b}`, ['--budget', String(b)]);
			if (r.real > b)
				over++;
			subs.push([n, b, r.real, field(r.report, /(\d+) named/),
			    field(r.report, /(\d+) with a gist/)]);
		}
	}
}

// The estimator against the real count.
function estimates(files, raw) {
	const out = cp.execFileSync(tokbin, files, { encoding: 'utf8', maxBuffer: 1 << 26 });
	return out.trim().split('\n').map(l => raw ? Number(l.split('\t')[1]) / 1000 :
	    Number(l.split('\t')[0]));
}
// raw: the tables' sum without the safety margin (units / 1000).
function errstats(files, raw) {
	const est = estimates(files, raw);
	const err = files.map((f, i) => {
		const real = countTokens(fs.readFileSync(f, 'utf8'));
		return (est[i] - real) / real * 100;
	});
	const mean = err.reduce((a, b) => a + b, 0) / err.length;
	return [files.length, mean, Math.min(...err), Math.max(...err),
	    err.filter(x => x < 0).length];
}
const descs = [];
const step = Math.max(1, Math.floor(eligible.length / 200));
for (let i = 0; i < eligible.length && descs.length < 200; i += step) {
	const f = path.join(tmp, `desc-${descs.length}.txt`);
	fs.writeFileSync(f, eligible[i].description);
	descs.push(f);
}

function table(head, body) {
	const w = head.map((h, i) => Math.max(String(h).length,
	    ...body.map(r => String(r[i]).length)));
	const line = r => r.map((c, i) => i === 0 ? String(c).padEnd(w[i]) :
	    String(c).padStart(w[i])).join('  ');
	console.log(line(head));
	for (const r of body)
		console.log(line(r));
}
console.log(`corpus: ${corpus} (${eligible.length} eligible skills)`);
console.log('\nmini-index (real tokens by @anthropic-ai/tokenizer)');
table(['text', 'real', 'budget', 'estimate', 'named', 'gisted', 'level'], rows);
console.log('\nthe same 80 skills in other formats');
table(['format', 'real tokens'], formats.map(([n, t]) => [n, countTokens(t)]));
console.log('\nrandom subsets (3 draws each): worst real count');
const worst = [];
for (const n of [10, 80, 500])
	for (const b of [300, 1000, 3000]) {
		const r = subs.filter(s => s[0] === n && s[1] === b);
		worst.push([`${n} skills @ ${b}`, Math.max(...r.map(s => s[2])),
		    Math.min(...r.map(s => s[3])), Math.min(...r.map(s => s[4]))]);
	}
table(['set', 'max real', 'min named', 'min gisted'], worst);
console.log('\nestimator error, (estimate - real) / real');
const fmt = s => [s[0], s[1].toFixed(1) + ' %', s[2].toFixed(1) + ' %',
    s[3].toFixed(1) + ' %', s[4]];
table(['texts', 'n', 'mean', 'min', 'max', 'under'], [
	['skill descriptions'].concat(fmt(errstats(descs))),
	['mini-index texts'].concat(fmt(errstats(texts.map(t => t[1])))),
	['descriptions, no margin'].concat(fmt(errstats(descs, 1))),
	['mini-index, no margin'].concat(fmt(errstats(texts.map(t => t[1]), 1))),
]);
if (over > 0) {
	console.log(`\nFAIL: ${over} mini-index text(s) over budget by the real count`);
	process.exit(1);
}
