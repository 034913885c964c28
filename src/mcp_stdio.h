#ifndef SR_MCP_STDIO_H
#define SR_MCP_STDIO_H
#endif
