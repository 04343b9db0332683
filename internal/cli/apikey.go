package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/staykit/staykit/host"
)

// cliActor is who the audit log names for changes made from the command
// line.
var cliActor = host.Actor{Kind: "user", ID: 0, Name: "command line"}

// runAPIKeyCommand runs "apikey create|list|revoke": the host API keys of
// an organisation. create prints the new key alone on the last line of
// stdout; it is shown this once.
func runAPIKeyCommand(ctx context.Context, args []string, open Opener, stdout, stderr io.Writer) error {
	const usage = "Usage:\n  server apikey create -org SLUG -name NAME [-db FILE | -postgres URL]\n" +
		"  server apikey list -org SLUG [-db FILE | -postgres URL]\n" +
		"  server apikey revoke -org SLUG -id ID [-db FILE | -postgres URL]\n"
	if len(args) == 0 || (args[0] != "create" && args[0] != "list" && args[0] != "revoke") {
		fmt.Fprint(stderr, usage)
		return ErrUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("apikey "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	name := fs.String("name", "", "what the key is for (create)")
	id := fs.Int64("id", 0, "key `id` (revoke; see list)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage) }
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	case *org == "":
		return usageError(fs, "-org is required")
	case sub == "create" && *name == "":
		return usageError(fs, "-name is required")
	case sub == "revoke" && *id <= 0:
		return usageError(fs, "-id is required")
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
	switch sub {
	case "create":
		secret, k, err := hs.CreateAPIKey(ctx, o, *name, cliActor)
		if err != nil {
			return fmt.Errorf("create key: %w", err)
		}
		fmt.Fprintf(stdout, "API key %d %q of %s (shown once; keep it secret):\n%s\n", k.ID, TermSafe(k.Name), o.Slug, secret)
	case "list":
		keys, err := hs.APIKeys(ctx, o)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPREFIX\tCREATED\tLAST USED\tREVOKED")
		when := func(t time.Time) string {
			if t.IsZero() {
				return "-"
			}
			return t.UTC().Format("2006-01-02 15:04Z")
		}
		for _, k := range keys {
			fmt.Fprintf(tw, "%d\t%s\t%s…\t%s\t%s\t%s\n", k.ID, cell(k.Name), cell(k.Prefix), when(k.CreatedAt), when(k.LastUsedAt), when(k.RevokedAt))
		}
		if len(keys) == 0 {
			fmt.Fprintln(tw, "(no keys)")
		}
		return tw.Flush()
	case "revoke":
		k, err := hs.RevokeAPIKey(ctx, o, *id, cliActor)
		if err != nil {
			return fmt.Errorf("revoke key %s: %w", strconv.FormatInt(*id, 10), err)
		}
		fmt.Fprintf(stdout, "API key %d %q revoked\n", k.ID, TermSafe(k.Name))
	}
	return nil
}
