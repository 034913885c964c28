#ifndef SR_FILES_H
#define SR_FILES_H
#endif
