#ifndef SR_INDEXER_H
#define SR_INDEXER_H
#endif
