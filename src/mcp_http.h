#ifndef SR_MCP_HTTP_H
#define SR_MCP_HTTP_H
#endif
