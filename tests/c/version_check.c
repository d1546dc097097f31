/* The library a program links and the header it was compiled with are the same release: prints
 * mcp_version() and fails unless it equals MCP_VERSION_STRING. Built by scripts/test.d/70-dist.sh
 * from the unpacked C bundle with pkg-config alone. */
#include <mcp.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *library = mcp_version();
    printf("%s\n", library);
    if (strcmp(library, MCP_VERSION_STRING) != 0) {
        fprintf(stderr, "libmcp %s loaded, but mcp.h is %s\n", library, MCP_VERSION_STRING);
        return 1;
    }
    return 0;
}
