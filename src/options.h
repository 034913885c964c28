#ifndef SR_OPTIONS_H
#define SR_OPTIONS_H
#endif
