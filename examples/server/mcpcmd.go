package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http/httputil"
	"net/url"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/staykit/staykit/mcpserver"
)

// runMCP is the mcp command: the MCP server over stdin and stdout, for an
// assistant that starts its tools as commands (Claude Desktop). Its tools
// call a running server's APIs at -url (they need its database, its read
// model and its workers, which that server owns); -org fixes the
// organisation; the host tools send STAYKIT_HOST_API_KEY. It ends when the
// client closes stdin or ctx is done. Logs go to stderr: stdout is the
// protocol's.
func runMCP(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://127.0.0.1:8080", "the running server's URL")
	org := fs.String("org", "", "the organisation's slug (empty: every tool takes org_slug)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	u, err := url.Parse(*base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		fmt.Fprintf(stderr, "mcp: -url %q is not an http(s) URL\n", *base)
		return errUsage
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	m, err := mcpserver.New(ctx, mcpserver.Options{API: proxy, Org: *org, HostAPIKey: getenv("STAYKIT_HOST_API_KEY"), Logger: logger})
	if err != nil {
		return fmt.Errorf("mcp: the server at %s: %w", u, err)
	}
	err = m.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// nopWriteCloser leaves stdout open when the session ends.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
