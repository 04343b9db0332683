package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/payment/paymenttest/fakepay"
)

// The browser tests drive the booking page in headless Chromium, found in
// $STAYKIT_TEST_CHROMIUM or as "chromium" on the PATH; they are skipped
// only when there is none. With $STAYKIT_SCREENSHOT_DIR set they save a
// PNG of each step there.

// browser is a headless Chromium tab and what the page reported.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // uncaught exceptions, console and CSP errors
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := testenv.Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// This machine may have no internet: nothing may reach out.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1000),
	}
	b := &browser{t: t}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithListener(b.listen))
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	// The first run starts the browser and the tab, which live as long as
	// the context it gets: this one, not a step's.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	b.ctx = ctx
	return b
}

// listen records what the page would show in its console as an error.
// Failed HTTP answers (a declined card is a 402) are the page's business
// and are not problems.
func (b *browser) listen(ev any) {
	var problem string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		problem = "exception: " + e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			problem += " " + e.ExceptionDetails.Exception.Description
		}
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError && e.Entry.Source != log.EntrySourceNetwork {
			problem = fmt.Sprintf("console %s: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	}
	if problem != "" {
		b.mu.Lock()
		b.problems = append(b.problems, problem)
		b.mu.Unlock()
	}
}

// stepTimeout bounds one step, so that a stuck step leaves time for a
// screenshot of what went wrong.
const stepTimeout = 20 * time.Second

// do runs actions, failing the test with step in the message.
func (b *browser) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.shot("failed-" + step)
		b.t.Fatalf("%s: %v", step, err)
	}
}

// signIn opens the dashboard's sign-in page at loginURL, signs in with
// email and password, and waits until the selector after is visible.
func (b *browser) signIn(loginURL, email, password, after string) {
	b.t.Helper()
	b.do("sign in", chromedp.Navigate(loginURL),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS(after)))
}

// text returns the visible text of the element sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// attr returns an attribute of the element sel.
func (b *browser) attr(sel, name string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).getAttribute(%q) || ""`, sel, name)))
	if err != nil {
		b.t.Fatalf("attribute %s of %s: %v", name, sel, err)
	}
	return v
}

// eval evaluates a JavaScript expression to a string.
func (b *browser) eval(js string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// shot saves a full-page screenshot when $STAYKIT_SCREENSHOT_DIR is set.
func (b *browser) shot(name string) {
	dir := os.Getenv("STAYKIT_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	file := filepath.Join(dir, strings.ReplaceAll(b.t.Name(), "/", "_")+"-"+name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// checkNoProblems fails the test if the page threw or logged an error.
func (b *browser) checkNoProblems() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("page problem: %s", p)
	}
}

// pickStay opens a property and clicks a check-in at least daysAhead days
// from today and a check-out nights later, as a guest would; it returns
// the dates.
func (b *browser) pickStay(propertyID, daysAhead, nights int) (string, string) {
	b.t.Helper()
	b.do("open property",
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, propertyID))),
		chromedp.WaitVisible(chromedp.CSS(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)),
	)
	paris, _ := time.LoadLocation("Europe/Paris")
	earliest := civil.Today(time.Now(), paris).AddDays(daysAhead).String()
	findCheckIn := fmt.Sprintf(`(() => {
		const day = [...document.querySelectorAll('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])')].find((d) => d.dataset.date >= %q);
		return day ? day.dataset.date : '';
	})()`, earliest)
	checkIn := b.eval(findCheckIn)
	for months := 0; checkIn == "" && months < 12; months++ {
		b.do("next month", chromedp.Click(chromedp.CSS("#cal-next")))
		checkIn = b.eval(findCheckIn)
	}
	if checkIn == "" {
		b.shot("no-check-in")
		b.t.Fatalf("no check-in day on or after %s in the calendar", earliest)
	}
	checkOut := civil.MustParse(checkIn).AddDays(nights).String()
	b.do("pick the check-in", chromedp.Click(chromedp.CSS(`[data-testid="day-`+checkIn+`"]`)))
	if b.eval(`String(!!document.querySelector('[data-testid="day-`+checkOut+`"]'))`) != "true" {
		b.do("show the check-out month", chromedp.Click(chromedp.CSS("#cal-next")))
	}
	b.do("pick the check-out",
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-`+checkOut+`"][data-check-out-ok="true"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="day-`+checkOut+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="quote-total"]`)),
	)
	return checkIn, checkOut
}

// clearInput empties a text field, as selecting its text and deleting it
// would (chromedp.Clear only resets the value attribute).
func clearInput(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).value = ''`, sel))
}

// amount reads the data-amount of a quote line.
func (b *browser) amount(testid string) decimal.Decimal {
	b.t.Helper()
	s := b.attr(`[data-testid="`+testid+`"] .amt`, "data-amount")
	d, err := decimal.NewFromString(s)
	if err != nil {
		b.t.Fatalf("amount of %s = %q: %v", testid, s, err)
	}
	return d
}

func dec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("decimal %q: %v", s, err)
	}
	return d
}

// TestBrowserBooksAndPaysWithTheTestCard is a guest's whole visit: dates on
// the calendar, guests and a coupon, the live quote, their details, the
// fake card, and the status page; the API then shows the booking confirmed
// at the amounts the page quoted.
func TestBrowserBooksAndPaysWithTheTestCard(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	const property = 2 // Appartement Vieux-Port: 2 guests included, up to 4

	b.do("open the page",
		chromedp.Navigate(ts.URL+"/?org=demo"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-2"]`)),
	)
	if got := b.text("#h-properties"); got != "Choisissez votre logement" {
		t.Errorf("heading = %q, want the demo's default French", got)
	}
	if got := b.text(`[data-testid="org-name"]`); got != "Riviera Stays" {
		t.Errorf("organisation = %q, want Riviera Stays", got)
	}
	b.shot("1-properties")

	checkIn, checkOut := b.pickStay(property, 10, 3)
	if got := b.attr(`[data-testid="day-`+checkIn+`"]`, "aria-pressed"); got != "true" {
		t.Errorf("check-in day aria-pressed = %q, want true", got)
	}
	b.do("three guests and a coupon",
		chromedp.SetValue(chromedp.CSS("#guests"), "3"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#guests').dispatchEvent(new Event('change'))`),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="quote-fee-extra_guest_fee"]`)),
		chromedp.SendKeys(chromedp.CSS("#coupon"), "welcome10"),
		chromedp.Click(chromedp.CSS("#coupon-apply")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="quote-discount-coupon"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#coupon-msg.good`)),
	)
	b.shot("2-quote")

	// The page shows what the API quotes.
	q := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/book/demo/properties/%d/price?check_in=%s&check_out=%s&guests_count=3&coupon_code=WELCOME10",
		ts.URL, property, checkIn, checkOut), nil, nil).data(t)
	quoteTotal, quoteCharge := dec(t, num(q, "total_amount")), dec(t, num(q, "charge_amount"))
	for testid, want := range map[string]decimal.Decimal{
		"quote-total": quoteTotal, "quote-charge": quoteCharge, "quote-accommodation": dec(t, num(q, "accommodation")),
	} {
		if got := b.amount(testid); !got.Equal(want) {
			t.Errorf("%s on the page = %s, API quote = %s", testid, got, want)
		}
	}

	b.do("switch to English", chromedp.Click(chromedp.CSS("#lang-toggle")))
	if got := b.text("#to-details"); got != "Continue" {
		t.Errorf("button after the language toggle = %q, want Continue", got)
	}
	if got := b.text("#coupon-msg"); got != "Code WELCOME10 applied." {
		t.Errorf("coupon message after the language toggle = %q, want it in English", got)
	}
	if got := b.text(`[data-testid="quote-fee-cleaning_fee"] td`); got != "Cleaning fee" {
		t.Errorf("fee label after the language toggle = %q, want Cleaning fee", got)
	}
	if got := b.eval(`document.documentElement.lang`); got != "en" {
		t.Errorf("html lang = %q, want en", got)
	}

	b.do("guest details",
		chromedp.Click(chromedp.CSS("#to-details:not([disabled])")),
		chromedp.WaitVisible(chromedp.CSS("#guest-name")),
		chromedp.SendKeys(chromedp.CSS("#guest-name"), "Ada Lovelace"),
		chromedp.SendKeys(chromedp.CSS("#guest-email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#guest-phone"), "not a phone"),
		chromedp.Click(chromedp.CSS("#checkout-submit")),
		chromedp.WaitVisible(chromedp.CSS("#error-guest_phone")),
	)
	if got := b.attr("#guest-phone", "aria-invalid"); got != "true" {
		t.Errorf("phone aria-invalid = %q, want true after the API refused it", got)
	}
	if got := b.text("#error-guest_phone"); got == "" || strings.Contains(got, "invalid_phone") {
		t.Errorf("phone error = %q, want the API's English sentence", got)
	}
	b.shot("3-details-error")
	b.do("checkout",
		clearInput("#guest-phone"),
		// A French guest types the national format; the API reads it in the
		// organisation's country and stores +33612345678.
		chromedp.SendKeys(chromedp.CSS("#guest-phone"), "06 12 34 56 78"),
		chromedp.Click(chromedp.CSS("#checkout-submit")),
		chromedp.WaitVisible(chromedp.CSS("#card-number")),
	)
	if got := dec(t, b.attr(`[data-testid="pay-summary"]`, "data-amount")); !got.Equal(quoteCharge) {
		t.Errorf("amount on the card step = %s, want the quoted charge %s", got, quoteCharge)
	}
	b.shot("4-card")

	b.do("pay",
		chromedp.SendKeys(chromedp.CSS("#card-number"), "4242 4242 4242 4242"),
		chromedp.SendKeys(chromedp.CSS("#card-expiry"), "12/34"),
		chromedp.SendKeys(chromedp.CSS("#card-cvc"), "123"),
		chromedp.Click(chromedp.CSS("#pay-submit")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="booking-status"][data-status="confirmed"]`)),
	)
	b.shot("5-confirmed")
	if got := b.text(`[data-testid="booking-status"]`); got != "Confirmed" {
		t.Errorf("status badge = %q, want Confirmed", got)
	}

	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("booking")
	if u.Query().Get("org") != "demo" || token == "" {
		t.Fatalf("status page URL = %s, want ?org=demo&booking=TOKEN", loc)
	}
	if got := b.text(`[data-testid="booking-link"]`); got != loc {
		t.Errorf("booking link = %q, want the page URL %q", got, loc)
	}

	// The API agrees with the page.
	bk := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/booking/"+token, nil, nil).data(t)
	got := []string{str(bk, "status"), str(bk, "check_in"), str(bk, "check_out"), num(bk, "guests_count"), str(bk, "guest_name")}
	want := []string{"confirmed", checkIn, checkOut, "3", "Ada Lovelace"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("booking = %v, want %v", got, want)
	}
	if total, paid := dec(t, num(bk, "total_amount")), dec(t, num(bk, "paid_amount")); !total.Equal(quoteTotal) || !paid.Equal(quoteCharge) {
		t.Errorf("booking total %s paid %s, want the quoted %s and %s", total, paid, quoteTotal, quoteCharge)
	}

	// The status page also opens from #/booking/TOKEN, after a reload.
	b.do("status by hash",
		chromedp.Navigate(ts.URL+"/#/booking/"+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="booking-status"][data-status="confirmed"]`)),
	)
	if got := b.text(`[data-testid="status-property"]`); got != "Appartement Vieux-Port" {
		t.Errorf("status page property = %q", got)
	}
	if got := b.text(`[data-testid="status-guests"]`); got != "3" {
		t.Errorf("status page guests = %q, want 3", got)
	}

	// A phone-sized screen: nothing overflows sideways.
	b.do("phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.URL+"/?org=demo&lang=fr"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-1"]`)))
	if w := b.eval(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("page width on a phone = %s px, want 390 (no horizontal scrolling)", w)
	}
	b.shot("6-phone-properties")
	b.do("phone calendar", chromedp.Click(chromedp.CSS(`[data-testid="property-1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)))
	if w := b.eval(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("calendar width on a phone = %s px, want 390", w)
	}
	b.shot("7-phone-calendar")
	b.checkNoProblems()
}

// TestBrowserShowsTheDeclinedCard pays a deposit with the card that is
// always declined: the guest reads why in their language, the booking
// stays pending, and another card then pays it.
func TestBrowserShowsTheDeclinedCard(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	const property = 4 // demo-deposit's Gîte du Lac

	b.do("open the page",
		chromedp.Navigate(ts.URL+"/?org=demo-deposit"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-4"]`)),
	)
	if got := b.text(`[data-testid="org-name"]`); got != "Alpine Lodges" {
		t.Errorf("organisation = %q, want Alpine Lodges", got)
	}
	b.pickStay(property, 45, 2) // beyond the 30 balance days: a 30 % deposit
	b.do("expired coupon",
		chromedp.SendKeys(chromedp.CSS("#coupon"), "EXPIRED10"),
		chromedp.Click(chromedp.CSS("#coupon-apply")),
		chromedp.WaitVisible(chromedp.CSS(`#coupon-msg.bad`)),
	)
	if got := b.text("#coupon-msg"); !strings.Contains(got, "expir") {
		t.Errorf("expired coupon message = %q, want the API's French message about expiry", got)
	}
	if present := b.eval(`String(!!document.querySelector('[data-testid="quote-discount-coupon"]'))`); present != "false" {
		t.Error("the expired coupon was applied to the quote")
	}
	charge, total := b.amount("quote-charge"), b.amount("quote-total")
	if want := total.Mul(decimal.NewFromInt(30)).Div(decimal.NewFromInt(100)).Round(2); !charge.Equal(want) {
		t.Errorf("deposit on the page = %s, want 30 %% of %s = %s", charge, total, want)
	}
	if balance := b.amount("quote-balance"); !balance.Equal(total.Sub(charge)) {
		t.Errorf("balance on the page = %s, want %s", balance, total.Sub(charge))
	}
	b.shot("1-expired-coupon")

	b.do("details",
		chromedp.Click(chromedp.CSS("#to-details:not([disabled])")),
		chromedp.WaitVisible(chromedp.CSS("#guest-name")),
		chromedp.SendKeys(chromedp.CSS("#guest-name"), "Grace Hopper"),
		chromedp.SendKeys(chromedp.CSS("#guest-email"), "grace@example.com"),
		chromedp.SendKeys(chromedp.CSS("#guest-phone"), "+33698765432"),
		chromedp.Click(chromedp.CSS("#checkout-submit")),
		chromedp.WaitVisible(chromedp.CSS("#card-number")),
		chromedp.SendKeys(chromedp.CSS("#card-number"), paymenttest.CardDeclined),
		chromedp.Click(chromedp.CSS("#pay-submit")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="pay-error"]`)),
	)
	b.shot("2-declined")
	if got, want := b.text(`[data-testid="pay-error"]`), fakepay.Message("card_declined", "fr"); got != want {
		t.Errorf("error shown = %q, want %q", got, want)
	}
	if got := b.attr(`[data-testid="pay-error"]`, "role"); got != "alert" {
		t.Errorf("error role = %q, want alert so screen readers announce it", got)
	}

	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(loc)
	token := u.Query().Get("booking")
	bk := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo-deposit/booking/"+token, nil, nil)
	if bk.Status != http.StatusOK || str(bk.data(t), "status") != "pending" || num(bk.data(t), "paid_amount") != "0.00" {
		t.Fatalf("booking after the declined card = %s, want pending with nothing paid", bk.Raw)
	}

	b.do("another card",
		clearInput("#card-number"),
		chromedp.SendKeys(chromedp.CSS("#card-number"), paymenttest.CardSucceeds),
		chromedp.Click(chromedp.CSS("#pay-submit")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="booking-status"][data-status="confirmed"]`)),
	)
	b.shot("3-paid")
	if got := b.text(`[data-testid="booking-status"]`); got != "Confirmée" {
		t.Errorf("status badge = %q, want Confirmée", got)
	}
	d := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo-deposit/booking/"+token, nil, nil).data(t)
	if paid := dec(t, num(d, "paid_amount")); str(d, "status") != "confirmed" || !paid.Equal(charge) {
		t.Errorf("booking = %s paid %s, want confirmed with the quoted deposit %s", str(d, "status"), paid, charge)
	}
	if got := b.text(`[data-testid="status-balance"]`); got == "" {
		t.Error("the status page does not show the balance due")
	}
	b.checkNoProblems()
}

// TestBrowserRequestModeWaitsForTheHost authorises the card of a request:
// the booking is requested, nothing is taken until the host approves.
func TestBrowserRequestModeWaitsForTheHost(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	const property = 6 // demo-request's Loft Canal Saint-Martin

	b.do("open the page",
		chromedp.Navigate(ts.URL+"/?org=demo-request&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-6"]`)),
	)
	b.pickStay(property, 15, 2)
	charge := b.amount("quote-charge")
	if got := b.text(`[data-testid="quote-charge"] td`); got != "To authorise now" {
		t.Errorf("charge line = %q, want To authorise now", got)
	}
	b.do("details and card",
		chromedp.Click(chromedp.CSS("#to-details:not([disabled])")),
		chromedp.WaitVisible(chromedp.CSS("#guest-name")),
		chromedp.SendKeys(chromedp.CSS("#guest-name"), "Alan Turing"),
		chromedp.SendKeys(chromedp.CSS("#guest-email"), "alan@example.com"),
		chromedp.SendKeys(chromedp.CSS("#guest-phone"), "+447700900123"),
		chromedp.SendKeys(chromedp.CSS("#guest-message"), "Arriving late, around 22:00."),
		chromedp.Click(chromedp.CSS("#checkout-submit")),
		chromedp.WaitVisible(chromedp.CSS("#card-number")),
	)
	if got := b.text("#pay-submit"); got != "Authorise payment" {
		t.Errorf("pay button = %q, want Authorise payment", got)
	}
	b.do("authorise",
		chromedp.SendKeys(chromedp.CSS("#card-number"), paymenttest.CardSucceeds),
		chromedp.Click(chromedp.CSS("#pay-submit")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="booking-status"][data-status="requested"]`)),
	)
	b.shot("requested")
	if got := b.text(`[data-testid="status-text"]`); !strings.Contains(got, "charged only if they accept") {
		t.Errorf("status text = %q, want it to say the card is charged on approval", got)
	}
	loc, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(loc)
	d := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo-request/booking/"+u.Query().Get("booking"), nil, nil).data(t)
	if str(d, "status") != "requested" || num(d, "paid_amount") != "0.00" || !dec(t, num(d, "charge_amount")).Equal(charge) {
		t.Errorf("booking = %s paid %s charge %s; want requested, nothing paid, %s authorised", str(d, "status"), num(d, "paid_amount"), num(d, "charge_amount"), charge)
	}
	b.checkNoProblems()
}

// visible reports whether the element sel is laid out and not hidden.
func (b *browser) visible(sel string) bool {
	b.t.Helper()
	return b.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return String(!!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'); })()`, sel)) == "true"
}

// TestBrowserUnknownBookingToken opens a status link whose token the
// server does not know: the page says so, in the page's language, with no
// empty badge and no link to the same nothing, and leads back to the
// properties.
func TestBrowserUnknownBookingToken(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	tests := []struct {
		lang, title, text, back string
	}{
		{"fr", "Réservation introuvable", "Aucune réservation ne correspond à ce lien", "Voir les logements"},
		{"en", "Booking not found", "No booking matches this link", "See the properties"},
	}
	for _, tt := range tests {
		b.do("open an unknown token in "+tt.lang,
			chromedp.Navigate(ts.URL+"/?org=demo&lang="+tt.lang+"&booking=NoSuchBooking0123456789abcdefgh"),
			chromedp.WaitVisible(chromedp.CSS("#step-status")),
		)
		b.shot("unknown-token-" + tt.lang)
		if got := b.text("#h-status"); got != tt.title {
			t.Errorf("%s: heading = %q, want %q", tt.lang, got, tt.title)
		}
		if got := b.text(`[data-testid="status-text"]`); !strings.Contains(got, tt.text) {
			t.Errorf("%s: status text = %q, want %q", tt.lang, got, tt.text)
		}
		if b.visible(`[data-testid="booking-status"]`) {
			t.Errorf("%s: the status badge is shown for a booking that does not exist", tt.lang)
		}
		if b.visible(`[data-testid="booking-link"]`) {
			t.Errorf("%s: the page offers to keep a link to a booking that does not exist", tt.lang)
		}
		if got := b.text(`[data-testid="new-booking"]`); got != tt.back {
			t.Errorf("%s: way back = %q, want %q", tt.lang, got, tt.back)
		}
	}
	b.do("go back to the properties",
		chromedp.Click(chromedp.CSS(`[data-testid="new-booking"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-1"]`)),
	)
	b.checkNoProblems()
}

// TestBrowserUnknownOrganisation opens the page for an organisation that
// does not exist: a clear message, a dropdown that is not blank, and links
// to the organisations that do exist.
func TestBrowserUnknownOrganisation(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	tests := []struct {
		lang, message, placeholder string
	}{
		{"fr", "L'organisation « nope » n'existe pas", "Choisissez…"},
		{"en", "The organisation “nope” does not exist", "Choose…"},
	}
	for _, tt := range tests {
		b.do("open an unknown organisation in "+tt.lang,
			chromedp.Navigate(ts.URL+"/?org=nope&lang="+tt.lang),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="global-error"]`)),
		)
		b.shot("unknown-org-" + tt.lang)
		if got := b.text(`[data-testid="global-error"]`); !strings.Contains(got, tt.message) {
			t.Errorf("%s: message = %q, want %q", tt.lang, got, tt.message)
		}
		if got := b.eval(`(() => { const s = document.querySelector('#org-select'); return s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text; })()`); got != tt.placeholder {
			t.Errorf("%s: the dropdown shows %q, want %q", tt.lang, got, tt.placeholder)
		}
		if !b.visible(`[data-testid="org-choice-demo"]`) || !b.visible(`[data-testid="org-choice-demo-request"]`) {
			t.Errorf("%s: no links to the existing organisations", tt.lang)
		}
		if b.visible("#loading") {
			t.Errorf("%s: still loading", tt.lang)
		}
	}
	b.do("follow the link to an existing organisation",
		chromedp.Click(chromedp.CSS(`[data-testid="org-choice-demo-deposit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-4"]`)),
	)
	if got := b.text(`[data-testid="org-name"]`); got != "Alpine Lodges" {
		t.Errorf("organisation after the link = %q, want Alpine Lodges", got)
	}
	b.do("choose from the dropdown instead",
		chromedp.Navigate(ts.URL+"/?org=nope"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="global-error"]`)),
		chromedp.SetValue(chromedp.CSS("#org-select"), "demo"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#org-select').dispatchEvent(new Event('change'))`),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-1"]`)),
	)
	if b.visible(`[data-testid="global-error"]`) || b.visible(`[data-testid="org-choices"]`) {
		t.Error("the unknown-organisation message stays after choosing one")
	}
	b.checkNoProblems()
}

// TestBrowserCalendarHintDoesNotOverlapTheArrows lays the stay step out on
// a 390 px wide phone and compares the boxes of the date hint and the
// month arrows, before and after a check-in is picked (the hint grows).
func TestBrowserCalendarHintDoesNotOverlapTheArrows(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	b.do("open a property on a phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(ts.URL+"/?org=demo&property=1"),
		chromedp.WaitVisible(chromedp.CSS(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)),
	)
	overlaps := func(step string) {
		t.Helper()
		b.shot("390px-" + step)
		got := b.eval(`(() => {
			const box = (sel) => document.querySelector(sel).getBoundingClientRect();
			const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
			const hint = box('#date-hint');
			if (hint.width === 0 || hint.height === 0) return 'no hint';
			if (document.documentElement.clientWidth > 390) return 'viewport ' + document.documentElement.clientWidth;
			const out = [];
			for (const sel of ['#cal-prev', '#cal-next']) {
				const b = box(sel);
				if (hit(hint, b)) out.push(sel + ' ' + JSON.stringify(b) + ' overlaps the hint ' + JSON.stringify(hint));
			}
			return out.join('; ');
		})()`)
		if got != "" {
			t.Errorf("%s: %s", step, got)
		}
	}
	overlaps("no-date")
	checkIn := b.eval(`document.querySelector('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])').dataset.date`)
	b.do("pick a check-in", chromedp.Click(chromedp.CSS(`[data-testid="day-`+checkIn+`"]`)))
	overlaps("check-in")
	b.do("in English", chromedp.Click(chromedp.CSS("#lang-toggle")))
	overlaps("check-in-en")
	b.checkNoProblems()
}

// TestBrowserShowsFrenchDescriptions checks that the French-first demo
// describes its properties in French, on the cards and on the stay step.
func TestBrowserShowsFrenchDescriptions(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	b.do("open the page",
		chromedp.Navigate(ts.URL+"/?org=demo"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="property-1"]`)),
	)
	const want = "Une villa ensoleillée avec piscine et vue sur la mer"
	if got := b.text(`[data-testid="property-1"]`); !strings.Contains(got, want) {
		t.Errorf("property card = %q, want the French description %q", got, want)
	}
	b.do("open the villa",
		chromedp.Click(chromedp.CSS(`[data-testid="property-1"]`)),
		chromedp.WaitVisible(chromedp.CSS("#property-description")),
	)
	if got := b.text("#property-description"); !strings.HasPrefix(got, want) {
		t.Errorf("stay description = %q, want %q", got, want)
	}
	b.checkNoProblems()
}

// TestBrowserShowsTheRefund: a host cancels a paid booking with a refund;
// the guest's page says what came back.
func TestBrowserShowsTheRefund(t *testing.T) {
	ts := startServer(t, nil)
	ctx := context.Background()
	co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 2, 2)
	if r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	token := str(co, "booking_token")
	if r := call(t, "POST", ts.URL+"/api/v1/book/demo/booking/"+token+"/confirm", map[string]string{}, nil); r.Status != 200 {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"cancel", "-org", "demo", "-token", token, "-refund", "-db", ts.dbPath}, func(string) string { return "" }, &out, &errOut); err != nil {
		t.Fatalf("cancel -refund: %v\n%s%s", err, out.String(), errOut.String())
	}
	b := newBrowser(t)
	b.do("open the cancelled booking",
		chromedp.Navigate(ts.URL+"/?org=demo&lang=fr&booking="+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="status-refunded"]`)),
	)
	b.shot("refunded-fr")
	paid, refunded := b.text(`[data-testid="status-paid"]`), b.text(`[data-testid="status-refunded"]`)
	if paid == "" || refunded != paid {
		t.Errorf("page shows paid %q, refunded %q; want the whole payment refunded", paid, refunded)
	}
	if b.visible(`[data-testid="status-refund-pending"]`) {
		t.Error("page shows a pending refund although it went through")
	}
	b.checkNoProblems()
}
