package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/sqlite"
)

// TestDepositClaimCommand claims part of a held security deposit from the
// command line: the terms record the claim, a second claim is refused.
func TestDepositClaimCommand(t *testing.T) {
	ts := startServer(t, nil)
	co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 2, 2)
	token := str(co, "booking_token")
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ts.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	org, err := db.OrganizationBySlug(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.BookingByToken(ctx, org.ID, token)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := db.Terms(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	// As if the guest had paid and the server's worker had placed the
	// hold.
	if _, err := db.Transition(ctx, b.ID, booking.Transition{From: []booking.Status{booking.StatusPending}, To: booking.StatusConfirmed,
		At: time.Now(), Confirmed: true}); err != nil {
		t.Fatal(err)
	}
	tm.Deposit, tm.DepositStatus, tm.DepositIntentID = decimalOf(t, "300.00"), booking.DepositHeld, "pi_held"
	if err := db.SaveTerms(ctx, tm); err != nil {
		t.Fatal(err)
	}
	none := func(string) string { return "" }
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"deposit", "claim", "-org", "demo", "-token", token, "-amount", "120", "-db", ts.dbPath}, none, &out, &errOut); err != nil {
		t.Fatalf("deposit claim: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "claimed 120") {
		t.Errorf("output %q, want the amount claimed", out.String())
	}
	got, err := db.Terms(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.DepositStatus != booking.DepositClaimed || !got.DepositClaimed.Equal(decimalOf(t, "120")) {
		t.Errorf("terms after the claim: %s %s, want claimed 120", got.DepositStatus, got.DepositClaimed)
	}
	errOut.Reset()
	err = run(ctx, []string{"deposit", "claim", "-org", "demo", "-token", token, "-amount", "10", "-db", ts.dbPath}, none, &out, &errOut)
	if err == nil || booking.ErrorCode(err) != booking.CodeBookingClosed {
		t.Errorf("second claim: %v, want booking_closed", err)
	}
	if err := run(ctx, []string{"deposit", "claim", "-org", "demo", "-token", token, "-amount", "-5", "-db", ts.dbPath}, none, &out, &errOut); err != errUsage {
		t.Errorf("negative amount: %v, want a usage error", err)
	}
}

func decimalOf(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
