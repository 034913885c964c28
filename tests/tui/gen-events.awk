# gen-events.awk: a day of plausible telemetry for the screenshots, as SQL
# inserts for tests/tui/mkstats. Deterministic for one NOW (the seed is
# fixed): awk -v now=EPOCH -f gen-events.awk. Skills are the tests/tui
# fixture's, so a load resolves against its index.
function pick(n) { return int(rand() * n) + 1 }
function q(s) { gsub(/'/, "''", s); return "'" s "'" }
BEGIN {
	srand(34)
	nq = split("wcag accessibility audit|a11y-orchestrator|0.80," \
	    "screen reader labels|a11y-orchestrator|0.66," \
	    "fill a pdf form|pdf-tools|0.84," \
	    "merge pdf files|pdf-tools|0.72," \
	    "vue perf|perf-vue-runtime|0.52," \
	    "why is my vue app slow|perf-vue-runtime|0.61," \
	    "kubernetes helm chart|k8s-helm|0.35," \
	    "helm values for staging|k8s-helm|0.58," \
	    "migrate postgres schema|db-migrate|0.74," \
	    "rollback a migration|db-migrate|0.47," \
	    "deploy to production|deploy-helper|0.69," \
	    "blue green deploy|deploy-helper|0.38," \
	    "write a good commit message|deploy-helper|0.18," \
	    "terraform state lock|k8s-helm|0.12", Q, ",")
	ns = split("a11y-orchestrator pdf-tools perf-vue-runtime k8s-helm " \
	    "db-migrate deploy-helper", S, " ")
	split("claude-code claude-code claude-code cursor codex gemini-cli", C, " ")
	split("USER UNTRUSTED UNTRUSTED UNTRUSTED UNTRUSTED TRUSTED", T, " ")
	for (i = 1; i <= ns; i++)
		trust[S[i]] = T[i]
	print "INSERT INTO events(ts, kind, session, client, query, skill," \
	    " top1_score, n_results, latency_ms, trust, found, detail) VALUES"
	sep = ""
	t = now - 86400 + 600
	for (k = 0; k < 3; k++) {
		printf "%s(%d, 'index', NULL, 'cli', NULL, NULL, NULL, 6, %.1f," \
		    " NULL, NULL, NULL)", sep, now - 86400 + 60 + k * 28800, \
		    800 + rand() * 900
		sep = ",\n"
	}
	session = 0
	while (t < now - 30) {
		if (rand() < 0.3 || session == 0) {
			session++
			client = C[pick(6)]
		}
		split(Q[pick(nq)], f, "|")
		top1 = f[3] + (rand() - 0.5) * 0.16
		if (top1 < 0.05) top1 = 0.05
		n = 2 + pick(4)
		top = "\"" f[2] "\""; scores = sprintf("%.4f", top1)
		s = top1
		for (i = 2; i <= n; i++) {
			s *= 0.55 + rand() * 0.3
			do o = S[pick(ns)]; while (index(top, "\"" o "\""))
			top = top ",\"" o "\""; scores = scores sprintf(",%.4f", s)
			if (i == ns) { n = i; break }
		}
		miss = top1 < 0.4 ? "true" : "false"
		lat = 0.3 + rand() * rand() * 24
		printf "%s(%.1f, 'search', 's%d', %s, %s, NULL, %.4f, %d, %.2f, NULL," \
		    " NULL, '{\"top\":[%s],\"scores\":[%s],\"miss\":%s,\"rewritten\":false," \
		    "\"reranked\":false}')", sep, t, session, q(client), q(f[1]), top1, \
		    n, lat, top, scores, miss
		if (rand() < (miss == "true" ? 0.35 : 0.75)) {
			sk = f[2]
			if (rand() < 0.15) { split(top, tt, ","); sk = tt[2]; gsub(/"/, "", sk) }
			found = rand() < 0.95
			if (!found) sk = "no-such-skill"
			printf ",\n(%.1f, 'load', 's%d', %s, NULL, %s, NULL, NULL, %.2f," \
			    " %s, %d, NULL)", t + 5 + rand() * 50, session, q(client), \
			    q(sk), 0.1 + rand() * 2, found ? q(trust[sk]) : "NULL", found
		}
		# busier in the working hours of the last day
		t += 120 + rand() * 1500 * ((int((now - t) / 3600) % 24) > 14 ? 3 : 1)
	}
	print ";"
}
