"""unjargon as a Model Context Protocol server: `unjargon mcp` (stdio) and `/mcp` in `unjargon serve`."""
