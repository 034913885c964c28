#ifndef SR_MCP_H
#define SR_MCP_H
#endif
