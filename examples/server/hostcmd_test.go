package main

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"
	"unicode"
)

// TestHostCommandsEscapeControlCharacters stores a booking whose guest
// fields carry terminal escapes and bidi overrides directly in the
// database, as a bug or an older version could have, and lists it.
func TestHostCommandsEscapeControlCharacters(t *testing.T) {
	ts := startServer(t, nil)
	co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 2, 2)
	token := str(co, "booking_token")

	db, err := sql.Open("sqlite", rawDSN(ts.dbPath))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.ExecContext(context.Background(),
		`UPDATE bookings SET guest_name = ?, guest_email = ?, guest_phone = ?, message = ? WHERE token = ?`,
		"Ada\x1b[31m RED\u202etxt.exe", "ada@example.com\x1b]0;owned\x07", "+336\u200b12\u0085", "hi\x1b[2J\r\nclear\u2067", token)
	if err != nil {
		t.Fatal(err)
	}

	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"bookings", "-org", "demo", "-db", ts.dbPath}, func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("bookings: %v\n%s", err, errOut.String())
	}
	for _, r := range out.String() {
		if r != '\n' && unicode.In(r, unicode.Cc, unicode.Cf) {
			t.Errorf("bookings printed %U raw:\n%q", r, out.String())
		}
	}
	for _, want := range []string{`Ada\u001b[31m RED\u202etxt.exe`, `ada@example.com\u001b]0;owned\u0007`, `+336\u200b12`, `hi\u001b[2J clear\u2067`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("bookings output lacks %s:\n%s", want, out.String())
		}
	}
	if got := strings.Count(out.String(), "\n"); got != 2 {
		t.Errorf("bookings printed %d lines, want a header and one booking:\n%s", got, out.String())
	}
}

// TestBookingsCommandShowsTheBalance: the bookings command lists a
// deposit booking's balance, its due date and its state, as the guest's
// status page shows them.
func TestBookingsCommandShowsTheBalance(t *testing.T) {
	ts := startServer(t, nil)
	token := paidBooking(t, ts, "demo-deposit", 60)
	balance, _ := call(t, "GET", ts.URL+"/api/v1/book/demo-deposit/booking/"+token, nil, nil).data(t)["balance"].(map[string]any)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"bookings", "-org", "demo-deposit", "-db", ts.dbPath}, func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("bookings: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "BALANCE  ") || !strings.Contains(lines[0], "BALANCE DUE") || !strings.Contains(lines[0], "BALANCE STATUS") {
		t.Fatalf("bookings printed:\n%s", out.String())
	}
	amount := dec(t, num(balance, "amount")).StringFixed(2)
	for _, want := range []string{token, "  " + amount + "  ", "  " + str(balance, "due_date") + "  ", "  scheduled  "} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("the booking's line lacks %q:\n%s", want, out.String())
		}
	}
}
