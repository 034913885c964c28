/*
 * A replica of a postgres store: a thread that keeps the engine's
 * in-memory index in step with the shared index its writer keeps
 * (store.h, change tracking). It LISTENs for the writer's notifications
 * and, when one comes (or every store.poll_ms without one, which also
 * covers a lost notification or a server without LISTEN), reads only the
 * rows changed since the counter it last applied and applies them to the
 * engine; when the tombstones no longer cover its counter it loads
 * everything instead. A lost connection is retried with a backoff
 * (store.poll_ms doubling up to ten times that); meanwhile the engine
 * keeps answering from memory, and the first successful reconnect
 * catches up from the counter.
 *
 * Each catch-up also records the replica's name and counter in the
 * store's replicas table, which doctor reads to show the fleet's lag.
 * replica_start() borrows the engine and cfg (they must outlive it) and
 * starts the thread; replica_stop() stops and frees it.
 */
#ifndef SR_REPLICA_H
#define SR_REPLICA_H

#include <stdint.h>

struct config;
struct engine;
struct replica;

struct replica_hooks {
	/* after a change was applied: full reload or delta sizes */
	void	(*updated)(void *arg, int full, size_t nup, size_t nrm,
		    int64_t counter, double ms);
	/* connection state: up 1 (connected, listening or not), 0 lost */
	void	(*state)(void *arg, int up, const char *why);
	void	*arg;
};

/*
 * since: the counter the engine's content is known to include (read
 * before the engine loaded; re-applying a change is harmless), -1 when
 * unknown (the first catch-up reloads everything). name identifies the
 * replica in the replicas table (borrowed, copied).
 */
int	 replica_start(struct engine *, const struct config *, int64_t since,
	    const char *name, const struct replica_hooks *,
	    struct replica **out, char **cause);
void	 replica_stop(struct replica *);

#endif
