package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/internal/cli/clitest"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// testSeed is one organisation with one property.
const testSeed = `{"organizations": [{
  "slug": "lac", "name": "Gîtes du Lac", "payment_mode": "full", "default_locale": "fr",
  "currency": "EUR", "timezone": "Europe/Paris", "hold_minutes": 30, "public_engine_enabled": true,
  "properties": [{"name": "Gîte du Lac", "city": "Annecy", "country": "FR", "max_guests": 4,
    "rates": {"base_rate": 110}}]
}]}`

// newDatabase writes a seeded SQLite file with one pending booking, as a
// server would have left it, and returns its path and the booking's token.
func newDatabase(t *testing.T) (path, token string) {
	t.Helper()
	ctx := context.Background()
	path = sqlitetest.Path(t)
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := seed.Load(ctx, db, strings.NewReader(testSeed), time.Now()); err != nil {
		t.Fatal(err)
	}
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New()})
	props, err := svc.Properties(ctx, "lac")
	if err != nil || len(props) != 1 {
		t.Fatalf("properties = %v, %v", props, err)
	}
	in := civil.Today(time.Now(), time.UTC).AddDays(30)
	res, err := svc.Checkout(ctx, "lac", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
		Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2},
		GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		t.Fatal(err)
	}
	return path, res.Booking.Token
}

// staykit runs the command line as main does, with no environment.
func staykit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, cli.Env{Getenv: func(string) string { return "" },
		Stdin: clitest.Pipe(t, ""), Terminal: cli.Terminal{IsTerminal: (&clitest.Terminal{}).IsTerminal},
		Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), err
}

// TestBookingsAndCancel lists the pending booking, cancels it and sees it
// cancelled, in the database file as well as in the command's answer.
func TestBookingsAndCancel(t *testing.T) {
	path, token := newDatabase(t)
	out, errOut, err := staykit(t, "bookings", "-org", "lac", "-db", path)
	if err != nil || !strings.Contains(out, token) || !strings.Contains(out, "pending") {
		t.Fatalf("bookings = %v\n%s%s\nwant the pending booking %s", err, out, errOut, token)
	}
	if _, errOut, err := staykit(t, "cancel", "-org", "lac", "-token", token, "-db", path); err != nil {
		t.Fatalf("cancel = %v\n%s", err, errOut)
	}

	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New()})
	d, err := svc.Booking(context.Background(), "lac", token)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Booking.Status, booking.StatusCancelled; got != want {
		t.Errorf("status after cancel = %s, want %s", got, want)
	}
}

// TestAPIKeyCreateAndList creates a host API key, which list then shows
// by its name and prefix, without the secret.
func TestAPIKeyCreateAndList(t *testing.T) {
	path, _ := newDatabase(t)
	out, errOut, err := staykit(t, "apikey", "create", "-org", "lac", "-name", "my PMS", "-db", path)
	if err != nil {
		t.Fatalf("apikey create = %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	secret := lines[len(lines)-1]
	if len(secret) < 20 {
		t.Fatalf("apikey create printed %q, want the key on its last line", out)
	}
	list, errOut, err := staykit(t, "apikey", "list", "-org", "lac", "-db", path)
	if err != nil {
		t.Fatalf("apikey list = %v\n%s", err, errOut)
	}
	if !strings.Contains(list, "my PMS") || strings.Contains(list, secret) {
		t.Errorf("apikey list = %s\nwant the key's name and not its secret", list)
	}
}

// TestUsage: what the command line answers when no command can run.
func TestUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string // "" for none
		stdout  string
		stderr  string
	}{
		{"NoCommand", nil, "usage", "", "Usage: staykit COMMAND"},
		{"UnknownCommand", []string{"serve"}, "usage", "", `unknown command "serve"`},
		{"Help", []string{"-h"}, "", "Commands: bookings", ""},
		{"MissingDatabase", []string{"bookings", "-org", "lac", "-db", filepath.Join(t.TempDir(), "none.db")}, "no database at", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, err := staykit(t, tt.args...)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if (tt.wantErr == "") != (err == nil) || !strings.Contains(gotErr, tt.wantErr) ||
				!strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("run(%q) = %v, want %q\nstdout %q\nstderr %q", tt.args, err, tt.wantErr, out, errOut)
			}
		})
	}
}
