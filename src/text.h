#ifndef SR_TEXT_H
#define SR_TEXT_H
#endif
