#ifndef SR_SHA256_H
#define SR_SHA256_H
#endif
