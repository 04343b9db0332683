package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/payment/paymenttest"
)

// The guest's booking page offers the booking's invoice and, after a
// refund, its credit note, as PDF downloads that the booking's token
// alone opens: another booking's token gets a 404 for them.
func TestBrowserOffersTheInvoices(t *testing.T) {
	ts := startServer(t, nil)
	ctx := context.Background()
	book := func(daysAhead int) string {
		co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], daysAhead, 2, 2)
		if r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
			t.Fatalf("pay: %d %s", r.Status, r.Raw)
		}
		token := str(co, "booking_token")
		if r := call(t, "POST", ts.URL+"/api/v1/book/demo/booking/"+token+"/confirm", map[string]string{}, nil); r.Status != 200 {
			t.Fatalf("confirm: %d %s", r.Status, r.Raw)
		}
		return token
	}
	token, other := book(30), book(60)
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"cancel", "-org", "demo", "-token", token, "-refund", "-db", ts.dbPath}, func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("cancel -refund: %v\n%s%s", err, out.String(), errOut.String())
	}
	// The due work now, rather than when the workers get to it: the
	// refund is sent, then the invoices task issues what is owed.
	if err := ts.srv.jobs.RunDue(ctx); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t)
	b.do("open the cancelled booking",
		chromedp.Navigate(ts.URL+"/?org=demo&lang=fr&booking="+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="status-invoices"] a`)),
	)
	b.shot("invoices-fr")
	if got := b.eval(`[...document.querySelectorAll('[data-testid="status-invoices"] a')].map(a => a.textContent).join('|')`); got != "Facture n° 000001 (PDF)|Avoir n° 000003 (PDF)" {
		t.Errorf("invoice links %q", got)
	}
	href := b.attr(`[data-testid="status-invoices"] a`, "href")
	r := call(t, "GET", href, nil, nil)
	if r.Status != 200 || !strings.HasPrefix(r.Raw, "%PDF-") {
		t.Fatalf("the invoice link %s answers %d %.40q", href, r.Status, r.Raw)
	}
	// The same document through another booking's token: not found.
	if r := call(t, "GET", strings.Replace(href, token, other, 1), nil, nil); r.Status != 404 {
		t.Errorf("another booking's token opens the invoice: %d", r.Status)
	}
	if r := call(t, "GET", ts.URL+"/guest-invoices/demo/nope", nil, nil); r.Status != 404 {
		t.Errorf("an unknown token lists invoices: %d", r.Status)
	}
	b.checkNoProblems()
}

// The dashboard's booking page lists the booking's invoice with a link to
// its PDF, which the signed-in host's session downloads.
func TestBrowserDashboardListsTheInvoices(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 40)
	if _, err := ts.srv.back.Store.Invoices(ts.srv.clock).IssueDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=fr", "host@example.com", "a long enough password", "#nav-bookings")
	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("the booking's page", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS(`#invoices-list li.invoice a`)))
	b.shot("dashboard-invoices-fr")
	if got := b.text(`#invoices-list li.invoice`); !strings.Contains(got, "Facture n° 000001") || !strings.Contains(got, "€") {
		t.Errorf("invoice line %q", got)
	}
	// The link works with the session alone, as the CSV download does.
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch(document.querySelector('#invoices-list a').href, {credentials: 'same-origin'}).then(async (r) => r.status + ' ' + r.headers.get('Content-Type') + ' ' + (await r.text()).slice(0, 5))`, chromedp.EvalAwaitPromise))
	if err != nil || got != "200 application/pdf %PDF-" {
		t.Errorf("the PDF link answers %q (%v)", got, err)
	}
	b.checkNoProblems()
}

// An owner sets the legal details invoices print in Settings, and a
// property's commune on its page; the host API then says the same.
func TestBrowserInvoicingSettings(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	key := hostKey(t, ts, "demo")
	id := propertyIDs(t, ts, "demo")[0]
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=fr", "host@example.com", "a long enough password", "#nav-bookings")
	b.do("settings", chromedp.Navigate(ts.URL+"/host/?lang=fr#settings"), chromedp.WaitVisible(chromedp.CSS("#invoice-seller")))
	b.do("fill the seller", chromedp.SendKeys(chromedp.CSS("#seller-legal-name"), "SARL Riviera Séjours"),
		chromedp.SendKeys(chromedp.CSS("#seller-address"), "12 chemin des Pins\n06600 Antibes"),
		chromedp.SendKeys(chromedp.CSS("#seller-vat-id"), "FR12123456789"),
		chromedp.Click(chromedp.CSS("#seller-save")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")))
	b.shot("seller-fr")
	s := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/settings/invoicing", nil, key).data(t)
	if s["legal_name"] != "SARL Riviera Séjours" || s["address"] != "12 chemin des Pins\n06600 Antibes" || s["vat_id"] != "FR12123456789" {
		t.Errorf("saved seller: %v", s)
	}

	b.do("the property's page", chromedp.Navigate(ts.URL+fmt.Sprintf("/host/?lang=fr#properties/%d", id)),
		chromedp.WaitVisible(chromedp.CSS("#prop-municipality-code")))
	b.do("its commune", clearInput("#prop-country"), chromedp.SendKeys(chromedp.CSS("#prop-country"), "FR"),
		chromedp.SendKeys(chromedp.CSS("#prop-postal-code"), "06600"),
		chromedp.SendKeys(chromedp.CSS("#prop-municipality-code"), "06004"),
		chromedp.Click(chromedp.CSS("#property-save")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")))
	p := call(t, http.MethodGet, ts.URL+fmt.Sprintf("/api/v1/host/demo/properties/%d", id), nil, key).data(t)
	if p["postal_code"] != "06600" || p["municipality_code"] != "06004" {
		t.Errorf("saved property: postal code %v, municipality code %v", p["postal_code"], p["municipality_code"])
	}
	b.checkNoProblems()
}
