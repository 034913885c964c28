/*
 * Private to the MCP layer's files: mcp.c (JSON-RPC, dispatch, views,
 * sessions, initialize and the tool methods) and mcp_skills.c (the
 * skills as resources and the SEP-2640 extension). Everything else goes
 * through mcp.h (and mcp_tools.h for the tool table).
 */
#ifndef SR_MCP_IMPL_H
#define SR_MCP_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include <cjson/cJSON.h>

struct config;
struct engine;
struct engine_snap;
struct mcp_session;
struct skill;

#define INDEX_URI		"skills-radar://index"
#define SKILL_SCHEME		"skill://"
#define SKILL_MD		"SKILL.md"
#define LIST_PAGE		100	/* resources/list */
#define SKILLS_PAGE		50	/* skills/list (reads every file) */
#define SKILL_MAX_FILES		511	/* SEP-2640: 512 resources per skill */
#define SKILL_MAX_BYTES		(16 * 1024 * 1024)


/* A skill served through the SEP-2640 extension and as skill:// resources. */
struct mcp_skill {
	const struct skill	*s;
	cJSON			*frontmatter;	/* the file's frontmatter (owned) */
};

/*
 * What the server derives from one engine snapshot: the instructions and
 * the skills served as resources, which point into the snapshot's
 * entries. After a reload the next message builds a new view; messages in
 * flight keep theirs (a reference each) until they are answered.
 */
struct mcp_view {
	const struct engine_snap *snap;		/* holds a reference */
	unsigned long		 gen;
	char			*instructions;
	/*
	 * skills and nskills are collected on first use (view_skills()):
	 * initialize needs none of them. Once collected is set, under
	 * skills_lock, they never change.
	 */
	struct mcp_skill	*skills;	/* sorted by name */
	size_t			 nskills;
	int			 collected;
	pthread_mutex_t		 skills_lock;
	int			 refs;		/* under mcp_server.view_lock */
};

struct mcp_server {
	struct engine		*engine;
	const struct config	*cfg;
	cJSON			*tools;		/* the tools/list array */
	struct mcp_view		*view;		/* the newest; holds a reference */
	pthread_mutex_t		 view_lock;
	int			 watching;	/* hot reload on: resources change */
	/*
	 * ready: 0 while a follower has not loaded its store (read on every
	 * tool call, without the lock). The rest, for /healthz, is under
	 * health_lock.
	 */
	atomic_int		 ready;
	pthread_mutex_t		 health_lock;
	int			 follower, connected;
	long long		 counter;
	char			*store_error;
};

/* One request being answered. */
struct mcp_req {
	struct mcp_server	*srv;
	struct mcp_session	*sess;
	struct mcp_view		*view;		/* of the message (view_acquire()) */
	const cJSON		*params;	/* an object, or NULL */
	cJSON			*result;	/* set by the handler */
	int			 code;		/* set by req_error() */
	char			*message;
};

/* Sets the request's error (code and message); returns -1. */
int	 mcp_req_error(struct mcp_req *, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* A parameter (borrowed from the request), NULL when absent. */
const cJSON *mcp_param(const struct mcp_req *, const char *name);
/* A required string parameter, or NULL after mcp_req_error(). */
const char *mcp_param_string(struct mcp_req *, const char *name);
/*
 * An optional pagination cursor (a decimal offset we handed out) into a
 * list of total items: 0 with *off set, or -1 after mcp_req_error().
 */
int	 mcp_param_cursor(struct mcp_req *, size_t total, size_t *off);

/* The method handlers of mcp_skills.c, for mcp.c's method table. */
int	 mcp_resources_list(struct mcp_req *);
int	 mcp_resources_templates(struct mcp_req *);
int	 mcp_resources_read(struct mcp_req *);
int	 mcp_skills_list(struct mcp_req *);
int	 mcp_skills_get(struct mcp_req *);
int	 mcp_directory_read(struct mcp_req *);

#endif
