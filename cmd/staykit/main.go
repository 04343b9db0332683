// Command staykit is the host's command line for the database of a staykit
// server (examples/server, or a server built the same way): it reads and
// changes bookings, users, API keys, calendar feeds, webhooks and deposits
// as the running server would, with the same flags and environment
// (package internal/serverenv). Without -db it opens ./staykit.db; with
// -postgres the server's PostgreSQL database.
//
//	go run ./cmd/staykit bookings -org demo [-status requested]
//	go run ./cmd/staykit approve|decline -org demo-request -token T
//	go run ./cmd/staykit cancel -org demo -token T [-refund]
//	go run ./cmd/staykit deposit claim -org demo -token T -amount 120
//	go run ./cmd/staykit user create -org demo -email E    # password: prompt or STAYKIT_PASSWORD
//	go run ./cmd/staykit apikey create|list|revoke -org demo ...
//	go run ./cmd/staykit ical feeds|add-feed|remove-feed|sync-now|export-url|rotate-token ...
//	go run ./cmd/staykit webhook add|list|remove|redeliver|deliveries -org demo ...
//	go run ./cmd/staykit contact -org demo [-email host@example.com]
//
// Each command prints its flags with -h. STRIPE_SECRET_KEY (and
// STRIPE_CONNECT for a Connect platform) make approve, decline, cancel
// and deposit call Stripe; without them fake payments are recorded as
// the server's fake provider would settle them. `go run ./examples/server
// COMMAND ...` runs the same commands.
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

	"github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/internal/serverenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], cli.Env{Getenv: os.Getenv, Stdin: os.Stdin, Terminal: cli.OSTerminal(), Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, cli.ErrUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "staykit:", cli.TermSafe(err.Error()))
		os.Exit(1)
	}
}

// usage lists the commands.
const usage = `Usage: staykit COMMAND [flags]   (staykit COMMAND -h for its flags)

Commands: bookings, approve, decline, cancel, deposit, user, apikey, ical,
webhook, contact. They open the server's SQLite file (-db, default
staykit.db) or its PostgreSQL database (-postgres URL).
`

// run runs the command args names with env, its database opened as the
// server opens it (serverenv.RunCommand, which examples/server runs too).
func run(ctx context.Context, args []string, env cli.Env) error {
	ok, err := serverenv.RunCommand(ctx, args, env)
	if ok {
		return err
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		io.WriteString(env.Stdout, usage)
		return nil
	}
	if len(args) > 0 {
		fmt.Fprintf(env.Stderr, "unknown command %q\n", cli.TermSafe(args[0]))
	}
	io.WriteString(env.Stderr, usage)
	return cli.ErrUsage
}
