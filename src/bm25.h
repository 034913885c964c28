#ifndef SR_BM25_H
#define SR_BM25_H
#endif
