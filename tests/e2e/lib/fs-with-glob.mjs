// node:fs plus a small globSync (patterns with *, ** and ?, option cwd),
// enough for the suites' tier-check, which the server scenarios never run.
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

function toRegExp(pattern) {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') { i++; out += '(?:[^/]*/)*'; } else out += '.*';
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[\\^$.+(){}[\]|]/g, '\\$&');
  }
  return new RegExp(out + '$');
}

export function globSync(patterns, options = {}) {
  const base = String(options.cwd ?? process.cwd());
  const tests = [].concat(patterns).map(toRegExp);
  const found = [];
  const visit = (rel) => {
    let list = [];
    try { list = fs.readdirSync(path.join(base, rel), { withFileTypes: true }); } catch { return; }
    for (const d of list) {
      const r = rel === '' ? d.name : `${rel}/${d.name}`;
      if (tests.some((t) => t.test(r))) found.push(r);
      if (d.isDirectory()) visit(r);
    }
  };
  visit('');
  return found;
}
