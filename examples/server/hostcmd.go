package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

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
// of approve, decline and cancel is simulated (see detachedFake); with
// Stripe keys in the environment it happens on Stripe.
func runHostCommand(ctx context.Context, name string, cmd hostCommand, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", defaultDB, "SQLite database `file` of the server")
	pgURL := fs.String("postgres", "", "PostgreSQL `URL` of the server, instead of -db")
	org := fs.String("org", "", "organisation `slug` (required)")
	token := fs.String("token", "", "booking `token`")
	statuses := fs.String("status", "", "only bookings with these comma-separated `statuses` (pending, requested, confirmed, declined, expired, cancelled)")
	var refund refundFlag
	fs.Var(&refund, "refund", "refund `policy`, full or none of what the guest paid (bare -refund: full)")
	amountText := fs.String("amount", "", "refund this `amount` of what the guest paid, instead of -refund")
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Usage: server %s\n", cmd.usage) }
	parse := func(args []string) error {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return errUsage
		}
		return nil
	}
	if err := parse(args); err != nil {
		return err
	}
	// "-refund policy": a bare -refund followed by its rule, then maybe
	// more flags.
	if refund.bare && fs.NArg() > 0 && refundRules[booking.RefundRule(fs.Arg(0))] {
		refund.rule, refund.bare = booking.RefundRule(fs.Arg(0)), false
		if err := parse(fs.Args()[1:]); err != nil {
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
	for _, st := range splitList(*statuses) {
		s := booking.Status(st)
		switch s {
		case booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed,
			booking.StatusDeclined, booking.StatusExpired, booking.StatusCancelled:
		default:
			return usageError(fs, "unknown status %q", st)
		}
		want = append(want, s)
	}

	svc, closeDB, err := cliService(ctx, *dbPath, *pgURL, getenv, stderr)
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
		fmt.Fprintf(stdout, "booking %s is now %s\n", termSafe(b.Token), termSafe(string(b.Status)))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), format+"\n", args...)
	fs.Usage()
	return errUsage
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

// cell is a guest's text as one table cell: runs of white space (new
// lines and tabs included) become one space, and what is left is made
// terminal-safe.
func cell(s string) string {
	return termSafe(strings.Join(strings.Fields(s), " "))
}

// termSafe escapes what could drive or mislead a terminal, the way
// strconv.Quote writes it: C0 and C1 control characters (Unicode Cc, among
// them ESC, which starts escape sequences) and format characters (Cf,
// among them the bidi overrides such as U+202E that reorder what the host
// reads) become \u202e; invalid UTF-8 bytes become \x9b; a backslash
// becomes \\ so that an escape in the output is always one of these.
func termSafe(s string) string {
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
