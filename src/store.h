#ifndef SR_STORE_H
#define SR_STORE_H
#endif
