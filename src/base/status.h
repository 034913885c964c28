/*
 * Status codes shared by every module and the process exit status.
 * The numbers are the documented exit codes (skills-radar(1), EXIT STATUS):
 * never renumber them.
 */
#ifndef SR_STATUS_H
#define SR_STATUS_H

enum sr_status {
	SR_OK = 0,		/* success */
	SR_ERR = 1,		/* generic failure; validate: something rejected */
	SR_USAGE = 2,		/* bad command line */
	SR_CONFIG = 3,		/* bad configuration file or value */
	SR_NOTFOUND = 4,	/* no such skill or file */
	SR_IO = 5,		/* I/O or database failure */
	SR_REFUSED = 6		/* refused by policy (trust, limits, traversal) */
};

#endif
