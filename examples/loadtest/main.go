// Command loadtest measures the reference server (examples/server) against
// a bare net/http server answering a fixed JSON body of the same size, on
// the public routes of the booking API:
//
//	go run ./examples/loadtest [-duration 5s] [-conns 64] [-rounds 3] [-routes checkout] [-postgres URL]
//
// It builds the reference server, starts it on a fresh SQLite file in a
// temporary directory with fake payments and -no-rate-limits, starts
// itself with -bare as the bare server, both on free loopback ports, and
// loads them alternately (bare, then server, round after round) with the
// same load generator: keep-alive HTTP/1.1, -conns connections, -duration
// per round. Routes: config, properties, availability (12 months), price
// (7 nights) and checkout (a distinct stay per request, 16 connections, no
// bare twin; the stays are spread over -checkout-properties copies of the
// demo's first property, which the harness adds through the host API
// before the checkouts, so that a round never runs out of stays — one
// that does is an error, since it would measure a burst). It prints
// requests per second of each side, their ratio and the goal of issue
// #17, p50/p99 latencies, and the server's resident memory (VmRSS), then
// stops both servers. Linux only (/proc).
//
// -routes measures only the routes named (comma-separated: config,
// properties, availability, price, checkout). -postgres URL runs the
// server on PostgreSQL instead of SQLite (with -fake-payments): the
// harness creates a fresh database on that server, named
// staykit_loadtest_<pid>, and drops it at the end; the URL's user must be
// allowed to create databases.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// errUsage is returned, after the flag package printed why, for bad flags.
var errUsage = errors.New("usage")

// options are the harness's flags.
type options struct {
	duration           time.Duration
	conns              int
	checkoutConns      int
	checkoutProperties int
	rounds             int
	serverBin          string // empty: build ./examples/server
	bare               bool   // serve as the bare server on addr
	addr               string
	routes             string // comma-separated route names; empty: all
	postgres           string // PostgreSQL server URL; empty: SQLite
}

// run parses the flags and runs the harness, or the bare server with -bare.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "load `time` per side, route and round")
	fs.IntVar(&o.conns, "conns", 64, "connections of the read routes")
	fs.IntVar(&o.checkoutConns, "checkout-conns", 16, "connections (clients) of the checkout route")
	fs.IntVar(&o.checkoutProperties, "checkout-properties", 200, "properties the checkout route adds to the demo organisation and books, 345 two-night stays each")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds per route; bare and server alternate within each")
	fs.StringVar(&o.serverBin, "server", "", "reference server `binary` (default: go build ./examples/server)")
	fs.BoolVar(&o.bare, "bare", false, "serve as the bare net/http reference on -addr (started by the harness itself)")
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "listen `address` of -bare")
	fs.StringVar(&o.routes, "routes", "", "comma-separated `names` of the routes to measure (config, properties, availability, price, checkout; default all)")
	fs.StringVar(&o.postgres, "postgres", "", "run the server on a fresh database created on this PostgreSQL `URL` (dropped at the end)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 || o.duration <= 0 || o.conns < 1 || o.checkoutConns < 1 || o.checkoutProperties < 1 || o.rounds < 1 {
		fmt.Fprintln(stderr, "loadtest: -duration, -conns, -checkout-conns, -checkout-properties and -rounds must be positive, and no arguments")
		fs.Usage()
		return errUsage
	}
	if o.bare {
		return serveBare(ctx, o.addr)
	}
	return harness(ctx, o, stdout, stderr)
}
