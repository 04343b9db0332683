package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/shopspring/decimal"
)

const depositUsage = "deposit claim -org SLUG -token TOKEN -amount AMOUNT [-db FILE | -postgres URL]: take AMOUNT of a booking's held security deposit (damage); the rest is released"

// runDepositCommand runs "deposit claim". With fake payments the capture
// is simulated (see serverenv.DetachedFake); with Stripe keys it happens on Stripe.
func runDepositCommand(ctx context.Context, args []string, open Opener, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("deposit claim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	token := fs.String("token", "", "booking `token` (required)")
	amount := fs.String("amount", "", "`amount` to claim, in the organisation's currency (required)")
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Usage: server %s\n", depositUsage) }
	if len(args) == 0 || args[0] != "claim" {
		fs.Usage()
		return ErrUsage
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	claim, perr := decimal.NewFromString(*amount)
	switch {
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	case *org == "" || *token == "" || *amount == "":
		return usageError(fs, "-org, -token and -amount are required")
	case perr != nil || !claim.IsPositive():
		return usageError(fs, "-amount must be a positive amount such as 120.50")
	}
	svc, closeDB, err := openBookings(ctx, open, database())
	if err != nil {
		return err
	}
	defer closeDB()
	t, err := svc.ClaimDeposit(ctx, *org, *token, claim)
	if err != nil {
		return fmt.Errorf("deposit claim: %w", err)
	}
	fmt.Fprintf(stdout, "claimed %s of the %s security deposit of booking %s; the rest is released\n",
		t.DepositClaimed, t.Deposit, TermSafe(*token))
	return nil
}
