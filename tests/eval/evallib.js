// What tests/eval/run and tests/eval/fit-calibration share: reading a
// queries file, indexing a corpus into a throwaway HOME, running the
// built skills-radar, matching a result to the ground truth, the metrics,
// and a plain BM25 engine to compare against.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const cp = require('child_process');

// The queries of a .jsonl file; throws with FILE:LINE on a bad line.
function readQueries(file) {
	return fs.readFileSync(file, 'utf8').split('\n')
		.map((l, n) => [l, n])
		.filter(([l]) => l.trim())
		.map(([l, n]) => {
			try { return JSON.parse(l); } catch (e) {
				throw new Error(`${file}:${n + 1}: ${e.message}`);
			}
		});
}

// The skills-radar binary: $SR, else src/skills-radar here, else PATH's.
function binary() {
	if (process.env.SR) return process.env.SR;
	return fs.existsSync('src/skills-radar') ? path.resolve('src/skills-radar') :
		'skills-radar';
}

// Indexes corpus into a fresh HOME; returns { env, sr, close() }.
// large: index files over limits.max_skill_size_kb too.
function openCorpus(corpus, large) {
	const sr = binary();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-eval.'));
	const env = Object.assign({}, process.env, {
		HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, '.config'),
		XDG_DATA_HOME: path.join(tmp, '.local/share'), SKILL_PATHS: corpus,
	});
	delete env.SKILLS_RADAR_CONFIG;
	if (large) {
		fs.mkdirSync(path.join(tmp, '.config/skills-radar'), { recursive: true });
		fs.writeFileSync(path.join(tmp, '.config/skills-radar/config.yaml'),
			'limits:\n  allow_large: true\n');
	}
	const close = () => fs.rmSync(tmp, { recursive: true, force: true });
	const r = cp.spawnSync(sr, ['index'], { env, encoding: 'utf8' });
	if (r.status !== 0) {
		close();
		throw new Error(`${sr} index failed (${r.status}):\n${r.stderr}`);
	}
	return { env, sr, close };
}

// The parsed JSON of `search --json ARGS QUERY`, or null (reason on stderr).
function search(c, query, args) {
	const r = cp.spawnSync(c.sr, ['search', '--json', ...args, query],
		{ env: c.env, encoding: 'utf8' });
	try { return JSON.parse(r.stdout); } catch (e) {
		process.stderr.write(`eval: ${JSON.stringify(query)}: bad output ` +
			`(exit ${r.status}): ${r.stderr}\n`);
		return null;
	}
}

// p relative to the first of bases it lies under (after realpath), else p.
function rel(p, bases) {
	let real = p;
	try { real = fs.realpathSync(p); } catch (e) { /* keep */ }
	for (const base of bases)
		for (const b of [base, fs.realpathSync(base)])
			if (real.startsWith(b + '/')) return real.slice(b.length + 1);
	return p;
}

// 1-based rank of the first match that answers q (path first, then
// name), 0 when none does. matches: [{ name, path, display_name }]. A
// name in the queries is the frontmatter name as the author wrote it: the
// id, its bare form, or display_name for a name indexed under a
// normalised id.
function rankOf(q, matches, bases) {
	const epaths = new Set(q.expected_paths || []);
	const enames = new Set(q.expected || []);
	const names = x => [x.name, String(x.name).replace(/^(agent|cmd):(.*:)?/, ''),
		x.display_name].filter(n => n !== undefined);
	if (epaths.size)
		for (let i = 0; i < matches.length; i++)
			if (epaths.has(rel(matches[i].path, bases))) return i + 1;
	for (let i = 0; i < matches.length; i++)
		if (names(matches[i]).some(n => enames.has(n))) return i + 1;
	return 0;
}

// The share of q's expected names in the top 5 of matches, null for a
// negative.
function all5(q, matches) {
	const enames = q.expected || [];
	if (!enames.length) return null;
	const top = matches.slice(0, 5);
	return enames.filter(w => top.some(x => x.name === w ||
		x.display_name === w)).length / enames.length;
}

function isNegative(q) {
	return !(q.expected || []).length && !(q.expected_paths || []).length;
}

// R@1, R@5, MRR, false-miss and correct-miss of rows
// ({ negative, rank, miss }).
function metrics(rs) {
	const p = rs.filter(x => !x.negative), n = rs.filter(x => x.negative);
	const frac = (a, f) => a.length ? a.filter(f).length / a.length : null;
	return {
		queries: rs.length, positives: p.length, negatives: n.length,
		r1: frac(p, x => x.rank === 1), r5: frac(p, x => x.rank >= 1 && x.rank <= 5),
		mrr: p.length ? p.reduce((s, x) => s + (x.rank ? 1 / x.rank : 0), 0) / p.length : null,
		false_miss: frac(p, x => x.miss), correct_miss: frac(n, x => x.miss),
		all5: p.length && p.every(x => x.all5 !== undefined) ?
			p.reduce((s, x) => s + (x.all5 || 0), 0) / p.length : null,
	};
}

function group(rows, key) {
	const g = {};
	for (const x of rows) (g[x[key]] = g[x[key]] || []).push(x);
	const out = {};
	for (const k of Object.keys(g).sort()) out[k] = metrics(g[k]);
	return out;
}

// ---- plain BM25 -----------------------------------------------------------

// The value of a top-level key of a YAML frontmatter: plain, quoted or a
// block scalar (| or >). Enough for name, description and when_to_use.
function yamlKey(fm, key) {
	const lines = fm.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const m = lines[i].match(new RegExp(`^${key}:\\s*(.*)$`));
		if (!m) continue;
		let v = m[1].trim();
		if (/^[|>][-+]?$/.test(v)) {
			const out = [];
			for (i++; i < lines.length && (/^\s/.test(lines[i]) || !lines[i].trim()); i++)
				out.push(lines[i].trim());
			return out.join(' ').trim();
		}
		if (v.startsWith('"')) {
			try { return JSON.parse(v); } catch (e) { return v.slice(1, -1); }
		}
		if (v.startsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
		// a plain scalar may continue on more-indented lines
		for (i++; i < lines.length && /^\s+\S/.test(lines[i]); i++)
			v += ' ' + lines[i].trim();
		return v;
	}
	return '';
}

// Every SKILL.md under dir (following links), as { name, path, text }.
function corpusSkills(dir) {
	const out = [], seen = new Set();
	(function walk(d) {
		let ents;
		try { ents = fs.readdirSync(d, { withFileTypes: true }); } catch (e) { return; }
		for (const e of ents) {
			const p = path.join(d, e.name);
			let st;
			try { st = fs.statSync(p); } catch (err) { continue; }
			if (st.isDirectory()) {
				if (e.name.startsWith('.') || e.name === 'node_modules') continue;
				walk(p);
			} else if (e.name === 'SKILL.md' && st.isFile()) {
				const real = fs.realpathSync(p);
				if (seen.has(real)) continue;
				seen.add(real);
				const src = fs.readFileSync(p, 'utf8');
				const m = src.match(/^---\r?\n([\s\S]*?)\r?\n---/);
				const fm = m ? m[1].replace(/\r/g, '') : '';
				const name = yamlKey(fm, 'name') || path.basename(d);
				out.push({ name, path: p, text: [name, yamlKey(fm, 'description'),
					yamlKey(fm, 'when_to_use')].join(' ') });
			}
		}
	})(dir);
	return out;
}

function tokens(s) {
	return (s.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) || []);
}

// Okapi BM25 (k1 1.2, b 0.75) over name + description + when_to_use of
// every SKILL.md of dir, lowercased words, no stemming or stop-words.
// Returns search(query, k) -> [{ name, path, score }].
function bm25Engine(dir) {
	const docs = corpusSkills(dir), k1 = 1.2, b = 0.75;
	const tf = [], len = [], df = new Map();
	for (const d of docs) {
		const t = new Map();
		const w = tokens(d.text);
		for (const x of w) t.set(x, (t.get(x) || 0) + 1);
		for (const x of t.keys()) df.set(x, (df.get(x) || 0) + 1);
		tf.push(t);
		len.push(w.length);
	}
	const N = docs.length, avg = len.reduce((s, x) => s + x, 0) / (N || 1);
	return function (query, k) {
		const qt = [...new Set(tokens(query))];
		const sc = [];
		for (let i = 0; i < N; i++) {
			let s = 0;
			for (const t of qt) {
				const f = tf[i].get(t);
				if (!f) continue;
				const n = df.get(t);
				s += Math.log(1 + (N - n + 0.5) / (n + 0.5)) *
					f * (k1 + 1) / (f + k1 * (1 - b + b * len[i] / avg));
			}
			if (s > 0) sc.push({ name: docs[i].name, path: docs[i].path, score: s });
		}
		sc.sort((x, y) => y.score - x.score || (x.path < y.path ? -1 : 1));
		return sc.slice(0, k);
	};
}

module.exports = {
	readQueries, openCorpus, search, rankOf, all5, isNegative, metrics, group,
	bm25Engine,
};
