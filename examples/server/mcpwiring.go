package main

import (
	"context"
	"net/http"
	"net/url"

	"github.com/staykit/staykit/mcpserver"
)

// mcpHandler is the MCP server (package mcpserver) over streamable HTTP,
// mounted at /mcp: its tools call apis, the public and host APIs' own
// handlers, in this process. Host tools use the Authorization header of
// each MCP request (a host API key). A request that reached a loopback
// address may name the public URL's host (a reverse proxy on the same
// machine) or a loopback one, no other (DNS rebinding).
func (s *server) mcpHandler(apis http.Handler, publicURL string) (http.Handler, error) {
	var hosts []string
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		hosts = append(hosts, u.Hostname())
	}
	m, err := mcpserver.New(context.Background(), mcpserver.Options{API: apis, Logger: s.log, Hosts: hosts})
	if err != nil {
		return nil, err
	}
	return m.Handler(), nil
}
