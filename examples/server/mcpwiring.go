package main

import (
	"context"
	"net/http"

	"github.com/staykit/staykit/mcpserver"
)

// mcpHandler is the MCP server (package mcpserver) over streamable HTTP,
// mounted at /mcp: its tools call apis, the public and host APIs' own
// handlers, in this process. Host tools use the Authorization header of
// each MCP request (a host API key).
func (s *server) mcpHandler(apis http.Handler) (http.Handler, error) {
	m, err := mcpserver.New(context.Background(), mcpserver.Options{API: apis, Logger: s.log})
	if err != nil {
		return nil, err
	}
	return m.Handler(), nil
}
