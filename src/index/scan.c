#include "autoconfig.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/config.h"
#include "base/idset.h"
#include "index/scan.h"
#include "base/xmalloc.h"

struct walker {
	const struct config	*cfg;
	struct scan_result	*res;
	size_t			 root_index;
	const char		*root_base;	/* last component of the root */
	struct idset		 dirs;
	struct idset		*files;
	int			 depth_hit;
	int			 entries_hit;
};

void
scan_result_init(struct scan_result *res)
{
	memset(res, 0, sizeof *res);
	findings_init(&res->problems);
}

void
scan_result_done(struct scan_result *res)
{
	size_t	 i;

	for (i = 0; i < res->n_roots; i++) {
		free(res->roots[i].path);
		free(res->roots[i].problem);
	}
	free(res->roots);
	idset_done(&res->root_ids);
	for (i = 0; i < res->n_items; i++) {
		free(res->items[i].path);
		free(res->items[i].realpath);
		free(res->items[i].fallback);
		free(res->items[i].ns);
	}
	free(res->items);
	findings_done(&res->problems);
	scan_result_init(res);
}

static char *
strip_slashes(const char *p)
{
	char	*s;
	size_t	 n;

	s = xstrdup(p);
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	return s;
}

/*
 * Adds a root unless it is one already: the same directory (dev/ino, as
 * realpath() would tell, in a hash set: a SKILL_PATHS glob over 100k
 * folders must not compare them pairwise) or, for a root that does not
 * exist, the same path.
 */
void
scan_add_root(struct scan_result *res, const char *path, int is_project,
    int is_example)
{
	struct scan_root	*r;
	struct stat		 st;
	char			*p;
	size_t			 i;
	int			 exists, err = 0;

	p = strip_slashes(path);
	if ((exists = stat(p, &st) == 0) && S_ISDIR(st.st_mode)) {
		if (!idset_add(&res->root_ids, (uint64_t)st.st_dev,
		    (uint64_t)st.st_ino)) {
			free(p);
			return;
		}
	} else {
		err = errno;
		for (i = 0; i < res->n_roots; i++) {
			if (!res->roots[i].exists &&
			    strcmp(res->roots[i].path, p) == 0) {
				free(p);
				return;
			}
		}
	}
	res->roots = xreallocarray(res->roots, res->n_roots + 1,
	    sizeof *res->roots);
	r = &res->roots[res->n_roots++];
	memset(r, 0, sizeof *r);
	r->path = p;
	r->is_project = is_project;
	r->is_example = is_example;
	if (!exists) {
		r->exists = 0;
		xasprintf(&r->problem, "%s", strerror(err));
	} else if (!S_ISDIR(st.st_mode)) {
		r->exists = 0;
		r->problem = xstrdup("not a directory");
	} else
		r->exists = 1;
}

int
scan_complete(const struct scan_result *res)
{
	size_t	 i;

	if (res->capped)
		return 0;
	for (i = 0; i < res->n_roots; i++) {
		if (res->roots[i].required && !res->roots[i].exists)
			return 0;
	}
	return 1;
}

static void
add_project_dir(struct scan_result *res, const char *dir)
{
	static const char *subs[] = {
		".claude/skills", ".claude/agents", ".claude/commands",
		".agents/skills"
	};
	char	*p;
	size_t	 i;

	for (i = 0; i < sizeof subs / sizeof subs[0]; i++) {
		xasprintf(&p, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, subs[i]);
		scan_add_root(res, p, 1, 0);
		free(p);
	}
}

/*
 * The working directory and each parent up to the git root; outside a
 * repository only the working directory.
 */
static void
add_project_roots(struct scan_result *res)
{
	char		 cwd[PATH_MAX], probe[PATH_MAX + 8], *slash;
	struct strlist	 dirs;
	struct stat	 st;
	size_t		 i, n;
	int		 found_git = 0;

	if (getcwd(cwd, sizeof cwd) == NULL)
		return;
	strlist_init(&dirs);
	for (;;) {
		strlist_add(&dirs, cwd);
		snprintf(probe, sizeof probe, "%s/.git", cwd);
		if (stat(probe, &st) == 0) {
			found_git = 1;
			break;
		}
		if ((slash = strrchr(cwd, '/')) == NULL || slash == cwd)
			break;
		*slash = '\0';
	}
	n = found_git ? dirs.n : 1;
	for (i = 0; i < n && i < dirs.n; i++)
		add_project_dir(res, dirs.v[i]);
	strlist_done(&dirs);
}

/*
 * A configured root that is not one of the defaults was asked for: when
 * it is missing (a typo), the scan is not complete and must not be taken
 * for a list of what was deleted. A default root that does not exist is
 * normal.
 */
static void
add_configured_root(struct scan_result *res, const struct config *defaults,
    const char *path)
{
	struct scan_root	*r;
	size_t			 n = res->n_roots;
	char			*p;

	scan_add_root(res, path, 0, 0);
	if (res->n_roots == n)
		return;
	r = &res->roots[n];
	p = strip_slashes(path);
	r->required = !strlist_contains(&defaults->paths, p, 0) &&
	    !strlist_contains(&defaults->paths, path, 0);
	free(p);
}

void
scan_report_missing(struct scan_result *res)
{
	const struct scan_root	*r;
	size_t			 i;

	for (i = 0; i < res->n_roots; i++) {
		r = &res->roots[i];
		if (r->required && !r->exists)
			findings_add(&res->problems, "scan-root-missing",
			    SEV_WARN, 0, "%s: %s; until it is found or removed "
			    "from paths (or SKILL_PATHS), index entries the scan "
			    "did not see are kept while their files exist",
			    r->path, r->problem);
	}
}

void
scan_roots(const struct config *cfg, const struct strlist *extra,
    struct scan_result *res)
{
	struct config	*defaults;
	size_t		 i;

	defaults = config_defaults();
	for (i = 0; i < cfg->paths.n; i++)
		add_configured_root(res, defaults, cfg->paths.v[i]);
	config_free(defaults);
	if (cfg->project_roots)
		add_project_roots(res);
	if (extra != NULL) {
		for (i = 0; i < extra->n; i++)
			add_project_dir(res, extra->v[i]);
	}
}

static int
has_md_suffix(const char *name)
{
	size_t	 n = strlen(name);

	return n > 3 && strcasecmp(name + n - 3, ".md") == 0;
}

int
scan_classify(const char *relpath, char **fallback, char **ns)
{
	struct strlist	 c;
	const char	*file;
	char		*stem, *dot;
	size_t		 i, n, cmd = (size_t)-1;
	int		 kind = -1;

	*fallback = NULL;
	*ns = NULL;
	strlist_init(&c);
	strlist_split(&c, relpath, "/");
	if ((n = c.n) == 0)
		goto out;
	file = c.v[n - 1];
	if (strcmp(file, "SKILL.md") == 0) {
		kind = KIND_SKILL;
		*fallback = xstrdup(n >= 2 ? c.v[n - 2] : "");
		goto out;
	}
	if (!has_md_suffix(file))
		goto out;
	stem = xstrdup(file);
	if ((dot = strrchr(stem, '.')) != NULL)
		*dot = '\0';
	if (n >= 2 && strcmp(c.v[n - 2], "agents") == 0) {
		kind = KIND_AGENT;
		*fallback = stem;
		goto out;
	}
	for (i = 0; i + 1 < n; i++) {
		if (strcmp(c.v[i], "commands") == 0) {
			cmd = i;
			break;
		}
	}
	if (cmd == (size_t)-1) {
		free(stem);
		goto out;
	}
	kind = KIND_COMMAND;
	*fallback = stem;
	if (cmd + 2 < n) {
		struct strlist	 sub;

		sub.v = c.v + cmd + 1;
		sub.n = n - cmd - 2;
		sub.cap = sub.n;
		*ns = strlist_join(&sub, ":");
	}
out:
	strlist_done(&c);
	return kind;
}

static int
excluded(const struct config *cfg, const char *name)
{
	return strlist_contains(&cfg->exclude_dirs, name, 0);
}

const char *
scan_special(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

static void
add_item(struct walker *w, const char *full, const char *real,
    const char *rel, const struct stat *st)
{
	struct scan_result	*res = w->res;
	struct scan_item	*it;
	char			*fallback, *ns;
	int			 kind;

	if ((kind = scan_classify(rel, &fallback, &ns)) == -1)
		return;
	if (!idset_add(w->files, (uint64_t)st->st_dev, (uint64_t)st->st_ino)) {
		free(fallback);
		free(ns);
		return;
	}
	/*
	 * limits.max_entries counts what a user counts: skills, agents and
	 * commands kept, not the files and folders walked past. The walk
	 * goes on past the cap only to count what it skips.
	 */
	if (res->n_items >= (size_t)w->cfg->max_entries) {
		free(fallback);
		free(ns);
		res->skipped++;
		w->entries_hit = 1;
		return;
	}
	if (res->n_items == res->items_cap) {
		res->items_cap = res->items_cap ? res->items_cap * 2 : 64;
		res->items = xreallocarray(res->items, res->items_cap,
		    sizeof *res->items);
	}
	it = &res->items[res->n_items++];
	it->path = xstrdup(full);
	it->realpath = xstrdup(real);
	it->kind = (enum skill_kind)kind;
	it->fallback = fallback;
	it->ns = ns;
	it->size = (int64_t)st->st_size;
	it->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000LL +
	    st->st_mtim.tv_nsec;
	it->special = scan_special(st->st_mode);
	/* Remember the root by index until the array stops growing. */
	it->root = (const struct scan_root *)(uintptr_t)(w->root_index + 1);
	res->roots[w->root_index].n_found++;
}

struct dent {
	char	*name;
	char	 type;
};

static int
cmp_dent(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name,
	    ((const struct dent *)b)->name);
}

/* A cheap test before any system call: could this name be an entry? */
static int
maybe_entry(const char *name)
{
	return strcmp(name, "SKILL.md") == 0 || has_md_suffix(name);
}

/*
 * Walks dir, whose canonical path is real. Only entries reached through a
 * symbolic link need realpath(3); everything else is real + "/" + name,
 * and only files that may be entries are stat(2)ed, so a walk costs about
 * one system call per directory and per candidate file.
 */
static void
walk_dir(struct walker *w, const char *dir, const char *real, const char *rel,
    int depth, int in_skill)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	char		**names = NULL, *types = NULL, *full, *sub, *subreal;
	char		 resolved[PATH_MAX];
	size_t		 n = 0, cap = 0, i;
	int		 here_skill = in_skill, type, is_link;

	if ((d = opendir(dir)) == NULL) {
		findings_add(&w->res->problems, "scan-unreadable", SEV_WARN, 0,
		    "%s: %s", dir, strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xreallocarray(names, cap, sizeof *names);
			types = xreallocarray(types, cap, 1);
		}
		types[n] = (char)de->d_type;
		names[n++] = xstrdup(de->d_name);
		if (strcmp(de->d_name, "SKILL.md") == 0)
			here_skill = 1;
	}
	closedir(d);
	/* Sort names, carrying their types along. */
	if (n > 1) {
		struct dent	*v = xreallocarray(NULL, n, sizeof *v);

		for (i = 0; i < n; i++) {
			v[i].name = names[i];
			v[i].type = types[i];
		}
		qsort(v, n, sizeof *v, cmp_dent);
		for (i = 0; i < n; i++) {
			names[i] = v[i].name;
			types[i] = v[i].type;
		}
		free(v);
	}

	for (i = 0; i < n; i++) {
		w->res->entries_seen++;
		type = (unsigned char)types[i];
		if (type != DT_DIR && type != DT_LNK && type != DT_UNKNOWN &&
		    !maybe_entry(names[i]))
			continue;
		xasprintf(&full, "%s/%s", dir, names[i]);
		xasprintf(&sub, "%s/%s", rel, names[i]);
		subreal = NULL;
		is_link = type == DT_LNK;
		if (type == DT_UNKNOWN) {
			struct stat	 lst;

			is_link = lstat(full, &lst) == 0 && S_ISLNK(lst.st_mode);
		}
		if (is_link) {
			if (realpath(full, resolved) != NULL)
				subreal = xstrdup(resolved);
		} else
			xasprintf(&subreal, "%s/%s", strcmp(real, "/") == 0 ?
			    "" : real, names[i]);
		if (subreal == NULL || stat(full, &st) == -1) {
			if (is_link)
				findings_add(&w->res->problems,
				    "scan-broken-link", SEV_INFO, 0, "%s: %s",
				    full, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			if (excluded(w->cfg, names[i]))
				;
			else if (depth + 1 > w->cfg->max_depth) {
				if (!w->depth_hit)
					findings_add(&w->res->problems,
					    "scan-depth-limit", SEV_WARN, 0,
					    "%s: deeper than %d levels, not "
					    "walked (limits.max_depth)", full,
					    w->cfg->max_depth);
				w->depth_hit = 1;
			} else if (!idset_add(&w->dirs, (uint64_t)st.st_dev,
			    (uint64_t)st.st_ino)) {
				if (is_link)
					findings_add(&w->res->problems,
					    "scan-symlink-loop", SEV_INFO, 0,
					    "%s: directory already walked "
					    "(symlink cycle or second path)", full);
			} else
				walk_dir(w, full, subreal, sub, depth + 1,
				    here_skill);
		} else if (maybe_entry(names[i])) {
			char	*fb, *ns;
			int	 kind = scan_classify(sub, &fb, &ns);

			free(fb);
			free(ns);
			if (kind == KIND_SKILL ||
			    (kind != -1 && !here_skill))
				add_item(w, full, subreal, sub, &st);
		}
		free(subreal);
		free(full);
		free(sub);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(types);
}

/*
 * The finding of a walk that reached limits.max_entries: how many entries
 * it kept and how many it skipped (the first root that overflowed names
 * the place). One finding per result, updated by later walks into it.
 */
static void
report_cap(const struct config *cfg, struct scan_result *res)
{
	struct finding	*f;
	const char	*where = "";
	size_t		 i;
	char		*msg;

	if (res->skipped == 0)
		return;
	res->capped = 1;
	for (i = 0; i < res->n_roots; i++)
		if (res->roots[i].exists) {
			where = res->roots[i].path;
			break;
		}
	xasprintf(&msg, "%s: %zu entries indexed, %zu skipped: more skills, "
	    "agents and commands than limits.max_entries (%d)", where,
	    res->n_items, res->skipped, cfg->max_entries);
	for (i = 0; i < res->problems.n; i++) {
		f = &res->problems.v[i];
		if (strcmp(f->rule, "scan-entries-limit") == 0) {
			free(f->message);
			f->message = msg;
			return;
		}
	}
	findings_add(&res->problems, "scan-entries-limit", SEV_WARN, 0, "%s",
	    msg);
	free(msg);
}

/*
 * Sets up w to walk root number i of res: its canonical path goes to real
 * (PATH_MAX bytes). Returns the relative name of the root's top.
 */
/*
 * The real path of a root, as realpath(3) gives it, and its stat: a glob
 * over 100k folders gives roots that share their parent, so the parent
 * is resolved once (*parent, *parent_real keep the last one) and a root
 * that is no symlink is that + "/" + its name: one lstat() a root
 * instead of a readlink() per component.
 */
static void
root_real(const char *path, char *real, struct stat *st, char **parent,
    char *parent_real)
{
	const char	*slash = strrchr(path, '/');
	const char	*name = slash != NULL ? slash + 1 : NULL;
	size_t		 plen;

	if (lstat(path, st) == 0 && !S_ISLNK(st->st_mode) && name != NULL &&
	    slash != path && *name != '\0' && strcmp(name, ".") != 0 &&
	    strcmp(name, "..") != 0) {
		plen = (size_t)(slash - path);
		if (*parent == NULL || strlen(*parent) != plen ||
		    memcmp(*parent, path, plen) != 0) {
			free(*parent);
			*parent = xstrndup(path, plen);
			if (realpath(*parent, parent_real) == NULL)
				*parent_real = '\0';
		}
		if (*parent_real != '\0' && (size_t)snprintf(real, PATH_MAX,
		    "%s/%s", strcmp(parent_real, "/") == 0 ? "" : parent_real,
		    name) < PATH_MAX)
			return;
	}
	if (stat(path, st) == -1)
		st->st_ino = 0;
	if (realpath(path, real) == NULL)
		snprintf(real, PATH_MAX, "%s", path);
}

static const char *
walker_start(struct walker *w, const struct config *cfg,
    struct scan_result *res, size_t i, struct idset *files, char *real,
    char **parent, char *parent_real)
{
	struct scan_root	*r = &res->roots[i];
	struct stat		 st;
	const char		*base;

	memset(w, 0, sizeof *w);
	w->cfg = cfg;
	w->res = res;
	w->root_index = i;
	w->files = files;
	base = strrchr(r->path, '/');
	base = base != NULL ? base + 1 : r->path;
	w->root_base = base;
	root_real(r->path, real, &st, parent, parent_real);
	if (st.st_ino != 0)
		idset_add(&w->dirs, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	return *base != '\0' ? base : "root";
}

void
scan_walk(const struct config *cfg, struct scan_result *res)
{
	struct walker	 w;
	struct idset	 files;
	size_t		 i, idx;
	const char	*base;
	char		 real[PATH_MAX], parent_real[PATH_MAX], *parent = NULL;

	memset(&files, 0, sizeof files);
	for (i = 0; i < res->n_roots; i++) {
		struct scan_root	*r = &res->roots[i];

		if (!r->exists)
			continue;
		base = walker_start(&w, cfg, res, i, &files, real, &parent,
		    parent_real);
		walk_dir(&w, r->path, real, base, 0, 0);
		idset_done(&w.dirs);
		if (w.entries_hit || w.depth_hit)
			res->capped = 1;
	}
	idset_done(&files);
	free(parent);
	report_cap(cfg, res);
	for (i = 0; i < res->n_items; i++) {
		idx = (size_t)(uintptr_t)res->items[i].root - 1;
		res->items[i].root = &res->roots[idx];
	}
}

/*
 * Walks only the directory comps[0]/comps[1]/... below dir, and all of it:
 * the directories on the way are not listed (only the next component is
 * looked at, and whether they hold a SKILL.md), so the cost does not grow
 * with the size of the root. The rules are walk_dir()'s: excluded names,
 * depth, symlinks followed, cycles.
 */
static void
walk_focus(struct walker *w, const char *dir, const char *real,
    const char *rel, int depth, int in_skill, char **comps, size_t ncomp)
{
	struct stat	 st, lst;
	char		*full, *sub, *subreal = NULL, *skill;
	char		 resolved[PATH_MAX];

	if (ncomp == 0) {
		walk_dir(w, dir, real, rel, depth, in_skill);
		return;
	}
	xasprintf(&skill, "%s/SKILL.md", dir);
	if (stat(skill, &st) == 0 && S_ISREG(st.st_mode))
		in_skill = 1;
	free(skill);
	if (excluded(w->cfg, comps[0]) || depth + 1 > w->cfg->max_depth)
		return;
	xasprintf(&full, "%s/%s", dir, comps[0]);
	xasprintf(&sub, "%s/%s", rel, comps[0]);
	if (lstat(full, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		if (realpath(full, resolved) != NULL)
			subreal = xstrdup(resolved);
	} else
		xasprintf(&subreal, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
		    comps[0]);
	if (subreal != NULL && stat(full, &st) == 0 && S_ISDIR(st.st_mode) &&
	    idset_add(&w->dirs, (uint64_t)st.st_dev, (uint64_t)st.st_ino))
		walk_focus(w, full, subreal, sub, depth + 1, in_skill,
		    comps + 1, ncomp - 1);
	free(subreal);
	free(full);
	free(sub);
}

int
scan_walk_under(const struct config *cfg, struct scan_result *res,
    size_t root, const char *relsub)
{
	struct walker	 w;
	struct idset	 files;
	struct strlist	 comps;
	struct scan_root *r = &res->roots[root];
	size_t		 i, idx, first = res->n_items;
	const char	*base;
	char		 real[PATH_MAX], parent_real[PATH_MAX], *parent = NULL;

	if (!r->exists)
		return 0;
	memset(&files, 0, sizeof files);
	base = walker_start(&w, cfg, res, root, &files, real, &parent,
	    parent_real);
	free(parent);
	strlist_init(&comps);
	/* Split on '/' only: names may have spaces at either end. */
	for (const char *p = relsub != NULL ? relsub : "", *q; *p != '\0';
	    p = *q != '\0' ? q + 1 : q) {
		q = p + strcspn(p, "/");
		if (q > p)
			strlist_add_take(&comps, xstrndup(p, (size_t)(q - p)));
	}
	walk_focus(&w, r->path, real, base, 0, 0, comps.v, comps.n);
	strlist_done(&comps);
	report_cap(cfg, res);
	idset_done(&w.dirs);
	idset_done(&files);
	for (i = first; i < res->n_items; i++) {
		idx = (size_t)(uintptr_t)res->items[i].root - 1;
		res->items[i].root = &res->roots[idx];
	}
	return w.entries_hit || w.depth_hit ? -1 : 0;
}
