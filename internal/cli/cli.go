// Package cli is the host's command line: bookings, approve, decline,
// cancel, deposit, user, apikey, ical, webhook and contact, run against
// the database of a staykit server. Run dispatches a command line to its
// subcommand; the program provides, as an Opener, how the database is
// opened (the store, the read model, the payment provider of its
// environment), so that the commands act as its server does.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/icalsync"
)

// DefaultDB is the SQLite file the commands open without -db, the
// server's default.
const DefaultDB = "staykit.db"

// ErrUsage is returned, after the flag package printed why, for bad flags
// or arguments.
var ErrUsage = errors.New("usage")

// Database is the server's database a command names: the SQLite file
// Path, or PostgreSQL at PostgresURL when it is set.
type Database struct {
	Path        string
	PostgresURL string
}

// exists reports a missing SQLite file, which the commands do not create.
func (db Database) exists() error {
	if _, err := os.Stat(db.Path); err != nil && db.PostgresURL == "" {
		return fmt.Errorf("no database at %s (start the server once, or pass -db): %w", db.Path, err)
	}
	return nil
}

// Stores are the seams of the server's database the commands read and
// write: db.HostStores() of a store/sqlite or store/postgres DB.
type Stores = host.Stores

// Opener opens the server's database for a command. Each method returns
// a func that closes what it opened.
type Opener interface {
	// Store opens the store alone.
	Store(ctx context.Context, db Database) (Stores, func(), error)
	// Bookings opens the booking use cases, with the payment provider
	// the environment names.
	Bookings(ctx context.Context, db Database) (*booking.Service, func(), error)
	// Host opens the host use cases.
	Host(ctx context.Context, db Database) (*host.Service, func(), error)
	// Calendars opens the calendar sync, whose feeds may also be fetched
	// from outboundAllow (comma-separated HOST:PORT targets, as the
	// server's -outbound-allow), and the store.
	Calendars(ctx context.Context, db Database, outboundAllow string) (*icalsync.Syncer, Stores, func(), error)
}

// Env is what the commands run with.
type Env struct {
	Getenv         func(string) string
	Stdin          io.Reader
	Terminal       Terminal
	Stdout, Stderr io.Writer
	Open           Opener
}

// Run runs the command args names and reports true, or reports false
// when args[0] names no command (the program then does what it does
// without one, such as serving).
func Run(ctx context.Context, args []string, env Env) (bool, error) {
	if len(args) == 0 {
		return false, nil
	}
	name, rest := args[0], args[1:]
	switch name {
	case "user":
		return true, runUserCommand(ctx, rest, env.Getenv, env.Stdin, env.Terminal, env.Stdout, env.Stderr, env.Open)
	case "apikey":
		return true, runAPIKeyCommand(ctx, rest, env.Open, env.Stdout, env.Stderr)
	case "ical":
		return true, runICal(ctx, rest, env.Open, env.Stdout, env.Stderr)
	case "deposit":
		return true, runDepositCommand(ctx, rest, env.Open, env.Stdout, env.Stderr)
	}
	if cmd, ok := hostCommands[name]; ok {
		return true, runHostCommand(ctx, name, cmd, rest, env.Open, env.Stdout, env.Stderr)
	}
	if _, ok := outboxCommands[name]; ok {
		return true, runOutboxCommand(ctx, name, rest, env.Open, env.Stdout, env.Stderr)
	}
	return false, nil
}

// openBookings checks that db exists and opens the booking use cases.
func openBookings(ctx context.Context, open Opener, db Database) (*booking.Service, func(), error) {
	if err := db.exists(); err != nil {
		return nil, nil, err
	}
	return open.Bookings(ctx, db)
}

// openHost checks that db exists and opens the host use cases.
func openHost(ctx context.Context, open Opener, db Database) (*host.Service, func(), error) {
	if err := db.exists(); err != nil {
		return nil, nil, err
	}
	return open.Host(ctx, db)
}

// databaseFlags adds the -db and -postgres flags to fs; the Database they
// name is read once fs is parsed.
func databaseFlags(fs *flag.FlagSet) func() Database {
	path := fs.String("db", DefaultDB, "SQLite database `file` of the server")
	url := fs.String("postgres", "", "PostgreSQL `URL` of the server, instead of -db")
	return func() Database { return Database{Path: *path, PostgresURL: *url} }
}

// parse parses args into fs: -h is flag.ErrHelp, anything else wrong
// ErrUsage (fs has printed why).
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	return nil
}

// usageError prints a usage error and the usage of fs.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), format+"\n", args...)
	fs.Usage()
	return ErrUsage
}

// cell is a guest's text as one table cell: runs of white space (new
// lines and tabs included) become one space, and what is left is made
// terminal-safe.
func cell(s string) string {
	return TermSafe(strings.Join(strings.Fields(s), " "))
}

// TermSafe escapes what could drive or mislead a terminal, the way
// strconv.Quote writes it: C0 and C1 control characters (Unicode Cc, among
// them ESC, which starts escape sequences) and format characters (Cf,
// among them the bidi overrides such as U+202E that reorder what the host
// reads) become \u202e; invalid UTF-8 bytes become \x9b; a backslash
// becomes \\ so that an escape in the output is always one of these.
func TermSafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case unicode.In(r, unicode.Cc, unicode.Cf):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// SplitList splits a comma-separated list, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
