#ifndef SR_TRUST_H
#define SR_TRUST_H
#endif
