package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// hufSeed writes the demo seed with its organisations in Hungarian forint,
// a two-decimal currency in ISO 4217 that browsers show without decimals.
func hufSeed(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("demo-seed.json")
	if err != nil {
		t.Fatal(err)
	}
	var seed map[string]any
	if err := json.Unmarshal(raw, &seed); err != nil {
		t.Fatal(err)
	}
	for _, o := range seed["organizations"].([]any) {
		o.(map[string]any)["currency"] = "HUF"
	}
	if raw, err = json.Marshal(seed); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "huf-seed.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserDashboardShowsExactAmounts: a booking in forints, paid and
// refunded in full, shows on its dashboard page the amounts the API holds,
// to the fillér: the total and the refund row, whose ledger amount is in
// minor units, are not re-scaled or rounded by the browser's own idea of
// the currency's decimals (none for HUF).
func TestBrowserDashboardShowsExactAmounts(t *testing.T) {
	ts := startServer(t, nil, "-seed", hufSeed(t))
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 30)
	pub := call(t, "GET", ts.URL+"/api/v1/book/demo/booking/"+token, nil, nil).data(t)
	if got := str(pub, "currency"); got != "HUF" {
		t.Fatalf("booking currency = %q, want HUF", got)
	}
	total := dec(t, num(pub, "total_amount"))
	if total.IsInteger() {
		t.Fatalf("total %s HUF has no fillér: the test cannot tell rounding apart", total)
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"cancel", "-org", "demo", "-token", token, "-refund", "-db", ts.dbPath},
		func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("cancel -refund: %v\n%s%s", err, out.String(), errOut.String())
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	b.do("the booking's page", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`tr[data-token=%q] button.details`, token))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`tr[data-token=%q] button.details`, token))),
		chromedp.WaitVisible(chromedp.CSS(`tr.payment[data-kind="refund"]`)))
	b.shot("huf-booking")

	// Written by the locale (Intl), exact: every digit the API sent, none
	// rounded away, and the currency.
	for name, sel := range map[string]string{"total": "#bk-total", "refund row": `tr.payment[data-kind="refund"] .amt`} {
		got, exact := b.text(sel), b.attr(sel+" .money", "data-amount")
		if !dec(t, exact).Equal(total) || digitsOf(got) != digitsOf(exact) || !strings.Contains(got, "HUF") {
			t.Errorf("%s shows %q (%s), want the whole %s HUF, every digit", name, got, exact, total)
		}
	}
	b.checkNoProblems()
}

// digitsOf is s without anything but its digits: "HUF 12,345.67" and
// "12 345,67 HUF" are both "1234567".
func digitsOf(s string) string {
	var out []rune
	for _, r := range s {
		if r >= '0' && r <= '9' {
			out = append(out, r)
		}
	}
	return string(out)
}
