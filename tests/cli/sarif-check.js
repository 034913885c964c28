// Checks a SARIF 2.1.0 log (file argv[2]) for the properties the format
// requires and code-scanning services read; prints "ok" or the problems,
// one per line. No network: the structure is checked by hand.
//   node sarif-check.js LOG.sarif
const fs = require("fs");
const path = require("path");
const url = require("url");
const bad = [];
const need = (c, what) => { if (!c) bad.push(what); };
const isStr = (s) => typeof s === "string" && s.length > 0;
let log;
try {
	log = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
} catch (e) {
	console.log("not JSON: " + e.message);
	process.exit(0);
}
need(log.version === "2.1.0", "version is not 2.1.0");
need(isStr(log.$schema) && /sarif.*2\.1\.0/.test(log.$schema), "$schema does not name SARIF 2.1.0");
need(Array.isArray(log.runs) && log.runs.length === 1, "runs is not one run");
const run = (log.runs || [])[0] || {};
const drv = ((run.tool || {}).driver) || {};
need(isStr(drv.name), "tool.driver.name missing");
need(isStr(drv.version), "tool.driver.version missing");
need(isStr(drv.informationUri) && /^[a-z][a-z0-9+.-]*:/.test(drv.informationUri), "tool.driver.informationUri is not an absolute URI");
need(Array.isArray(drv.rules), "tool.driver.rules missing");
const levels = ["none", "note", "warning", "error"];
const ids = new Set();
for (const r of drv.rules || []) {
	need(isStr(r.id), "a rule without id");
	need(!ids.has(r.id), "rule " + r.id + " twice");
	ids.add(r.id);
	need(isStr((r.shortDescription || {}).text), "rule " + r.id + ": shortDescription.text");
	need(isStr((r.fullDescription || {}).text) || isStr((r.help || {}).text), "rule " + r.id + ": fullDescription or help");
	need(levels.includes((r.defaultConfiguration || {}).level), "rule " + r.id + ": defaultConfiguration.level");
}
need(Array.isArray(run.results), "results missing");
const bases = run.originalUriBaseIds || {};
for (const [i, res] of (run.results || []).entries()) {
	const w = "result " + i + ": ";
	need(ids.has(res.ruleId), w + "ruleId " + res.ruleId + " is not a driver rule");
	if (res.ruleIndex !== undefined)
		need((drv.rules[res.ruleIndex] || {}).id === res.ruleId, w + "ruleIndex does not point at ruleId");
	need(levels.includes(res.level), w + "level");
	need(isStr((res.message || {}).text), w + "message.text");
	need(Array.isArray(res.locations) && res.locations.length > 0, w + "locations");
	for (const loc of res.locations || []) {
		const a = ((loc.physicalLocation || {}).artifactLocation) || {};
		need(isStr(a.uri), w + "artifactLocation.uri");
		let file = null;
		if (a.uriBaseId !== undefined) {
			need(!/^[a-z]+:/.test(a.uri), w + "a uri with a uriBaseId must be relative");
			const base = (bases[a.uriBaseId] || {}).uri;
			need(isStr(base) && base.endsWith("/"), w + "uriBaseId " + a.uriBaseId + " is not in originalUriBaseIds with a trailing /");
			if (isStr(base))
				file = url.fileURLToPath(new URL(a.uri, base));
		} else {
			need(/^file:\/\//.test(a.uri || ""), w + "an absolute uri must be file://");
			if (/^file:/.test(a.uri || ""))
				file = url.fileURLToPath(a.uri);
		}
		need(file !== null && fs.existsSync(file), w + "the location's file does not exist: " + file);
		const reg = (loc.physicalLocation || {}).region;
		if (reg !== undefined)
			need(Number.isInteger(reg.startLine) && reg.startLine >= 1, w + "region.startLine");
	}
}
console.log(bad.length ? bad.join("\n") : "ok");
