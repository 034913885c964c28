/*
 * A portable read-only query layer over SQLite and PostgreSQL, for the
 * stats reader: one statement API (prepare, bind, step, columns) whose
 * SQL is written once in the dialect both accept. Parameters are written
 * ?1, ?2, ... (rewritten to $1, $2 for PostgreSQL); "INDEXED BY name" hints
 * are dropped on PostgreSQL (its planner picks the indexes). Columns read
 * like sqlite3_column_*: NULL reads as 0 or a NULL string.
 *
 * A struct sqlq owns its connection; a statement borrows its sqlq and
 * its text columns are valid until the next step, reset or finalize.
 */
#ifndef SR_SQLQ_H
#define SR_SQLQ_H

struct sqlq;
struct sqlq_stmt;

#define SQLQ_ROW	1
#define SQLQ_DONE	0
#define SQLQ_ERROR	(-1)
#define SQLQ_MAXPARAM	16

/* Opens a SQLite file read-only; SR_IO with *cause. */
int	 sqlq_open_sqlite(const char *path, struct sqlq **out, char **cause);
/* Connects to PostgreSQL; SR_IO with *cause (the DSN redacted). */
int	 sqlq_open_pg(const char *dsn, struct sqlq **out, char **cause);
void	 sqlq_close(struct sqlq *);
int	 sqlq_is_pg(const struct sqlq *);

/* The last error of the connection, one line. */
const char *sqlq_errmsg(struct sqlq *);

/* Starts and ends a consistent read (one snapshot for many statements). */
int	 sqlq_begin_read(struct sqlq *);
void	 sqlq_end_read(struct sqlq *);

int	 sqlq_prepare(struct sqlq *, const char *sql, struct sqlq_stmt **out);
/* The highest ?N the statement uses. */
int	 sqlq_param_count(const struct sqlq_stmt *);
void	 sqlq_bind_double(struct sqlq_stmt *, int i, double v);
void	 sqlq_bind_int64(struct sqlq_stmt *, int i, long long v);
void	 sqlq_bind_text(struct sqlq_stmt *, int i, const char *v);
int	 sqlq_step(struct sqlq_stmt *);
void	 sqlq_reset(struct sqlq_stmt *);
void	 sqlq_finalize(struct sqlq_stmt *);

int	 sqlq_is_null(struct sqlq_stmt *, int col);
double	 sqlq_double(struct sqlq_stmt *, int col);
long long sqlq_int64(struct sqlq_stmt *, int col);
const char *sqlq_text(struct sqlq_stmt *, int col);

/* 1 when table has column (both backends); 0 when not or on error. */
int	 sqlq_has_column(struct sqlq *, const char *table, const char *col);
/* 1 when the table exists. */
int	 sqlq_has_table(struct sqlq *, const char *table);

#endif
