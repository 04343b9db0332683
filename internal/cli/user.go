package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// runUserCommand runs "user create -org SLUG -email E": a dashboard user.
// The password comes from $STAYKIT_PASSWORD, else from stdin after a prompt
// on stderr: read without echo when stdin is a terminal, else its first
// line (a script piping the password).
func runUserCommand(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, tty Terminal, stdout, stderr io.Writer, open Opener) error {
	const usage = "Usage:\n  server user create -org SLUG -email EMAIL [-db FILE | -postgres URL]\n" +
		"  (the password is read from STAYKIT_PASSWORD, else from a prompt)\n"
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprint(stderr, usage)
		return ErrUsage
	}
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	email := fs.String("email", "", "the user's e-mail `address`, to sign in with (required)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage) }
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	case *org == "":
		return usageError(fs, "-org is required")
	case *email == "":
		return usageError(fs, "-email is required")
	}
	password := getenv("STAYKIT_PASSWORD")
	if password == "" {
		fmt.Fprintf(stderr, "Password for %s: ", *email)
		p, err := readPassword(stdin, tty, stderr)
		if err != nil {
			return err
		}
		password = p
	}
	hs, closeFn, err := openHost(ctx, open, database())
	if err != nil {
		return err
	}
	defer closeFn()
	o, err := hs.Organization(ctx, *org)
	if err != nil {
		return fmt.Errorf("organisation %s: %w", *org, err)
	}
	u, err := hs.CreateUser(ctx, o, *email, password, cliActor)
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	fmt.Fprintf(stdout, "user %d %s of %s created; sign in at /host/\n", u.ID, TermSafe(u.Email), o.Slug)
	return nil
}

// Terminal is the seam between the user command and the terminal stdin may
// be: OSTerminal in the program, a fake in tests (which have no TTY).
type Terminal struct {
	// IsTerminal reports whether fd is a terminal.
	IsTerminal func(fd int) bool
	// ReadPassword reads a line from the terminal fd without echoing it.
	ReadPassword func(fd int) ([]byte, error)
}

// OSTerminal is the real terminal, through golang.org/x/term.
func OSTerminal() Terminal {
	return Terminal{IsTerminal: term.IsTerminal, ReadPassword: term.ReadPassword}
}

// readPassword reads the password from stdin. When stdin is a file that is
// a terminal, the password is read with echo off, so it does not stay on
// the screen or in a scrollback; the newline the user typed is not echoed
// either, so one is written to stderr after it. Otherwise (a pipe, a file,
// a test) the first line of stdin is the password.
func readPassword(stdin io.Reader, tty Terminal, stderr io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && tty.IsTerminal != nil && tty.IsTerminal(int(f.Fd())) {
		b, err := tty.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("read password from terminal: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("read password: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}
