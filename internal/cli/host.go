package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// hostCommand is one of the host's subcommands, run against the server's
// database.
type hostCommand struct {
	usage string
	// token: the command acts on one booking (-token required).
	token bool
	// refund: the command takes -refund.
	refund bool
}

var hostCommands = map[string]hostCommand{
	"bookings": {usage: "bookings -org SLUG [-status STATUS[,STATUS]] [-db FILE | -postgres URL]: list an organisation's bookings, newest first"},
	"approve":  {usage: "approve -org SLUG -token TOKEN [-db FILE | -postgres URL]: accept a requested booking (captures the card)", token: true},
	"decline":  {usage: "decline -org SLUG -token TOKEN [-db FILE | -postgres URL]: refuse a requested booking (releases the card)", token: true},
	"cancel":   {usage: "cancel -org SLUG -token TOKEN [-refund [policy|full|none] | -amount X] [-db FILE | -postgres URL]: cancel a booking; bare -refund refunds everything paid, -refund policy what its cancellation policy gives back, -amount X that amount", token: true, refund: true},
}

// runHostCommand runs a host subcommand. With fake payments the card side
// of approve, decline and cancel is simulated (see serverenv.DetachedFake); with
// Stripe keys in the environment it happens on Stripe.
func runHostCommand(ctx context.Context, name string, cmd hostCommand, args []string, open Opener, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	token := fs.String("token", "", "booking `token`")
	statuses := fs.String("status", "", "only bookings with these comma-separated `statuses` (pending, requested, confirmed, declined, expired, cancelled)")
	var refund refundFlag
	fs.Var(&refund, "refund", "refund `policy`, full or none of what the guest paid (bare -refund: full)")
	amountText := fs.String("amount", "", "refund this `amount` of what the guest paid, instead of -refund")
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Usage: server %s\n", cmd.usage) }
	if err := parse(fs, args); err != nil {
		return err
	}
	// "-refund policy": a bare -refund followed by its rule, then maybe
	// more flags.
	if refund.bare && fs.NArg() > 0 && refundRules[booking.RefundRule(fs.Arg(0))] {
		refund.rule, refund.bare = booking.RefundRule(fs.Arg(0)), false
		if err := parse(fs, fs.Args()[1:]); err != nil {
			return err
		}
	}
	var amount decimal.Decimal
	if *amountText != "" {
		var err error
		if amount, err = decimal.NewFromString(*amountText); err != nil || amount.IsNegative() {
			return usageError(fs, "-amount %q is not an amount", *amountText)
		}
	}
	switch {
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	case *org == "":
		return usageError(fs, "-org is required")
	case cmd.token && *token == "":
		return usageError(fs, "-token is required")
	case !cmd.token && *token != "":
		return usageError(fs, "-token does not apply to %s", name)
	case name != "bookings" && *statuses != "":
		return usageError(fs, "-status applies to bookings only")
	case !cmd.refund && refund.rule != "":
		return usageError(fs, "-refund applies to cancel only")
	case !cmd.refund && *amountText != "":
		return usageError(fs, "-amount applies to cancel only")
	case refund.rule != "" && *amountText != "":
		return usageError(fs, "-refund and -amount exclude each other")
	}
	var want []booking.Status
	for _, st := range SplitList(*statuses) {
		s := booking.Status(st)
		switch s {
		case booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed,
			booking.StatusDeclined, booking.StatusExpired, booking.StatusCancelled:
		default:
			return usageError(fs, "unknown status %q", st)
		}
		want = append(want, s)
	}

	svc, closeDB, err := openBookings(ctx, open, database())
	if err != nil {
		return err
	}
	defer closeDB()

	if name == "bookings" {
		list, err := svc.Bookings(ctx, *org, want...)
		if err != nil {
			return fmt.Errorf("bookings of %s: %w", *org, err)
		}
		payments := make([]ledger.Summary, len(list))
		balances := make([]*booking.BalanceState, len(list))
		for i := range list {
			entries, err := svc.Payments(ctx, &list[i])
			if err != nil {
				return err
			}
			payments[i] = ledger.Summarize(entries)
			t, err := svc.BookingTerms(ctx, &list[i])
			if err != nil {
				return err
			}
			balances[i] = booking.BalanceOf(&list[i], t)
		}
		return printBookings(stdout, list, payments, balances)
	}
	var b *booking.Booking
	switch name {
	case "approve":
		b, err = svc.Approve(ctx, *org, *token)
	case "decline":
		b, err = svc.Decline(ctx, *org, *token)
	case "cancel":
		switch {
		case *amountText != "":
			b, err = svc.CancelWithOptions(ctx, *org, *token, booking.CancelOptions{Refund: booking.RefundAmount, Amount: amount})
		case refund.rule == "" || refund.rule == booking.RefundFull:
			b, err = svc.Cancel(ctx, *org, *token, refund.rule == booking.RefundFull)
		default:
			b, err = svc.CancelWithOptions(ctx, *org, *token, booking.CancelOptions{Refund: refund.rule})
		}
	}
	if b != nil {
		fmt.Fprintf(stdout, "booking %s is now %s\n", TermSafe(b.Token), TermSafe(string(b.Status)))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// printBookings writes one line per booking, for the host's eyes, with
// its balance (a deposit booking's amount, due date and state). Every
// text that came from a guest (or the database) goes through cell, so it
// can neither break the table nor drive the host's terminal.
func printBookings(w io.Writer, list []booking.Booking, payments []ledger.Summary, balances []*booking.BalanceState) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tSTATUS\tPROPERTY\tCHECK-IN\tCHECK-OUT\tGUESTS\tGUEST\tE-MAIL\tPHONE\tTOTAL\tPAID\tREFUNDED\tREFUND PENDING\tDISPUTED\tBALANCE\tBALANCE DUE\tBALANCE STATUS\tCREATED\tMESSAGE")
	for i, b := range list {
		places := pricing.MinorUnits(b.Currency)
		minor := func(n int64) string { return pricing.FromMinor(n, b.Currency).StringFixed(places) }
		p, bal := payments[i], balances[i]
		due := "-"
		if !bal.DueDate.IsZero() {
			due = bal.DueDate.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			cell(b.Token), cell(string(b.Status)), b.PropertyID, b.CheckIn, b.CheckOut, b.Guests,
			cell(b.GuestName), cell(b.GuestEmail), cell(b.GuestPhone),
			b.TotalAmount.StringFixed(places), cell(b.Currency), b.PaidAmount.StringFixed(places),
			minor(p.Refunded), minor(p.RefundPending), minor(p.Disputed),
			bal.Amount.StringFixed(places), due, cell(string(bal.Status)),
			b.CreatedAt.UTC().Format("2006-01-02 15:04Z"), cell(b.Message))
	}
	if len(list) == 0 {
		fmt.Fprintln(tw, "(no bookings)")
	}
	return tw.Flush()
}

// refundRules are the values of -refund.
var refundRules = map[booking.RefundRule]bool{booking.RefundPolicy: true, booking.RefundFull: true, booking.RefundNone: true}

// refundFlag is -refund: bare (full, as before), or -refund=RULE; a rule
// after a bare -refund is read by runHostCommand.
type refundFlag struct {
	rule booking.RefundRule
	bare bool
}

func (f *refundFlag) String() string   { return string(f.rule) }
func (f *refundFlag) IsBoolFlag() bool { return true }

func (f *refundFlag) Set(s string) error {
	switch {
	case s == "true":
		f.rule, f.bare = booking.RefundFull, true
	case s == "false":
		f.rule, f.bare = "", false
	case refundRules[booking.RefundRule(s)]:
		f.rule, f.bare = booking.RefundRule(s), false
	default:
		return fmt.Errorf("want policy, full or none")
	}
	return nil
}
