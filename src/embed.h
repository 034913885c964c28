#ifndef SR_EMBED_H
#define SR_EMBED_H
#endif
