// Command server is staykit's reference server: the booking API v1, the
// plant store, a booking page and, without Stripe keys, fake card payments,
// on one SQLite file. It needs no flags, no network and no Stripe account:
//
//	go run ./examples/server
//
// serves http://127.0.0.1:8080/ with the demo organisations of
// demo-seed.json (loaded on first start into staykit.db). A host describes
// its own business in a copy of that file and starts with -seed.
//
// Flags: -addr (listen address, default 127.0.0.1:8080), -db (SQLite file,
// default staykit.db), -seed (seed file loaded when the database has no
// organisation yet; default the demo), -public-url (the URL browsers use,
// default http://{addr}; always an allowed origin), -trusted-proxies
// (comma-separated CIDRs whose X-Forwarded-For is believed),
// -service-domain and -preview-domains (their https subdomains are allowed
// origins for every organisation), -postgres and -redis (shared state for
// several replicas; -postgres needs the Stripe keys, or -fake-payments to
// say fake payments are intended), -max-conns and -max-conns-per-addr
// (open connections overall and per client, default 1024 and 64).
//
// Environment: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and
// STRIPE_WEBHOOK_SECRET switch from fake payments to Stripe (test or live
// keys; the webhook is POST /api/v1/webhooks/stripe); PLANTSTORE_TOKENS is
// the comma-separated list of bearer tokens the plant store accepts.
//
// Host commands work on the same database (they are cmd/staykit's, run by
// the same code):
//
//	go run ./examples/server bookings -org demo [-status requested]
//	go run ./examples/server approve -org demo-request -token T
//	go run ./examples/server decline -org demo-request -token T
//	go run ./examples/server cancel -org demo -token T [-refund]
//	go run ./examples/server ical feeds|add-feed|remove-feed|sync-now|export-url|rotate-token ...
//	go run ./examples/server user create -org demo -email E   # a dashboard user, an owner (password: prompt or STAYKIT_PASSWORD)
//	go run ./examples/server apikey create -org demo -name NAME   # a host API key
//	go run ./examples/server apikey list -org demo
//	go run ./examples/server apikey revoke -org demo -id ID
//	go run ./examples/server deposit claim -org demo -token T -amount 120
//	go run ./examples/server webhook add|list|remove|redeliver|deliveries|resume|replay -org demo ...
//	go run ./examples/server contact -org demo [-email host@example.com]
//	go run ./examples/server mcp [-url http://127.0.0.1:8080] [-org demo]   # MCP over stdio (STAYKIT_HOST_API_KEY for host tools)
//
// It is also an MCP server for AI assistants (package mcpserver) at /mcp
// (streamable HTTP), and over stdio with the mcp command.
//
// E-mails and webhooks (package notify) are delivered from the outbox as
// soon as they are due, by the jobs of package jobs (-outbox-every is
// accepted and ignored); SMTP is set with -smtp-host, -smtp-port, -smtp-tls,
// -smtp-user, -mail-from (or SMTP_HOST, SMTP_PORT, SMTP_TLS, SMTP_USER,
// MAIL_FROM) and SMTP_PASSWORD; without SMTP mails are written to the log.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/internal/gcpace"
	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/internal/serverenv"
)

// defaultMemoryLimit is the server's soft memory limit (GOMEMLIMIT) when
// the environment sets none: the collector runs at Go's default pace
// (GOGC=100; the live heap is a few megabytes: the read model, the pools)
// and, should the heap near this limit (a burst of large lists), more
// often, rather than letting the resident memory grow with a GOGC
// multiplier (issue #31). GOGC and GOMEMLIMIT in the environment take
// precedence, as usual.
const defaultMemoryLimit = 256 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "server:", hostcli.TermSafe(err.Error()))
		os.Exit(1)
	}
}

// errUsage is returned, after the flag package printed why, for bad flags.
var errUsage = serverenv.ErrUsage

// run is the whole program: a host command (package internal/cli) when the
// first argument names one, else the server until ctx is cancelled
// (SIGINT, SIGTERM).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return runWith(ctx, args, getenv, os.Stdin, hostcli.OSTerminal(), stdout, stderr)
}

// runWith is run with the command line's stdin and terminal given.
func runWith(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, tty hostcli.Terminal, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(ctx, args[1:], getenv, stdin, stdout, stderr)
	}
	if ok, err := serverenv.RunCommand(ctx, args, hostcli.Env{Getenv: getenv, Stdin: stdin, Terminal: tty, Stdout: stdout, Stderr: stderr}); ok {
		return err
	}
	cfg, err := serverenv.Parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	logger, sink := httpserve.NewBatchedLogger(stderr)
	defer sink.Close()
	srv, err := newServer(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer srv.Close()
	// Started now, after the start-up's work: while the server is busy
	// the collector runs every 32 MiB allocated rather than every time
	// the small live heap doubles (package gcpace). A GOGC in the
	// environment is the operator's choice and stands.
	if getenv("GOGC") == "" {
		pacer := gcpace.Start(gcpace.Options{})
		defer pacer.Stop()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	return srv.Serve(ctx, ln)
}
