#ifndef SR_SCAN_H
#define SR_SCAN_H
#endif
