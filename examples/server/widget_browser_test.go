package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
)

// The widget's browser test: a plain page of another site embeds
// <staykit-booking> with the two lines of the README, and a guest books and
// pays a stay in it.

// shadow selects sel inside the first <staykit-booking>'s shadow root.
func shadow(sel string) chromedp.JSPath {
	return chromedp.JSPath(fmt.Sprintf(`document.querySelector('staykit-booking')?.shadowRoot?.querySelector(%q)`, sel))
}

// shadowJS is a JavaScript expression of the widget's shadow root.
const shadowJS = `document.querySelector('staykit-booking').shadowRoot`

// hostPage is a web developer's page: its own styles, meant to clash with
// the widget's (buttons, a .sk-* class, .primary, inherited font and
// colour), and the two lines that embed the widget.
const hostPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Les Gîtes du Lac</title>
  <style>
    body { font-family: serif; color: rgb(0, 128, 0); }
    button { color: rgb(255, 0, 0); }
    .sk-root, .primary, .card { background: rgb(0, 0, 255); }
  </style>
</head>
<body>
  <h1>Les Gîtes du Lac</h1>
  <button type="button" id="host-button" class="primary">Newsletter</button>
  <div id="host-box" class="card">Our region</div>
  <script src="%[1]s/widget.js" defer></script>
  <staykit-booking org="demo" locale="en"></staykit-booking>
</body>
</html>`

// serveHostPage serves the host page on a free port of 127.0.0.1 and
// returns the port; api is read when the page is asked for.
func serveHostPage(t *testing.T, api *string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, hostPage, *api)
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// widgetRegistration is the French registration number (Code du tourisme
// art. D324-1-1: commune 13055, Marseille) the widget's property shows,
// as entered; the API stores and shows it compact.
const widgetRegistration = "13055 123456 vp"

// seedAllowing writes the demo seed with origin added to the demo
// organisation's allowed origins, and its second property (Marseille)
// given the registration number widgetRegistration, and returns its path.
func seedAllowing(t *testing.T, origin string) string {
	t.Helper()
	raw, err := os.ReadFile("demo-seed.json")
	if err != nil {
		t.Fatal(err)
	}
	var seed map[string]any
	if err := json.Unmarshal(raw, &seed); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range seed["organizations"].([]any) {
		org := o.(map[string]any)
		if org["slug"] == "demo" {
			origins, _ := org["allowed_origins"].([]any)
			org["allowed_origins"] = append(origins, origin)
			org["properties"].([]any)[1].(map[string]any)["registration_number"] = widgetRegistration
			found = true
		}
	}
	if !found {
		t.Fatal("the demo seed has no organisation demo")
	}
	out, err := json.Marshal(seed)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserWidgetOnAnotherSite embeds the widget in a page of an allowed
// origin (http://localhost:PORT), books and pays a stay in it, checks that
// neither the page's styles nor the widget's crossed the shadow root, then
// opens the same page from an origin the organisation does not allow
// (http://127.0.0.1:PORT) and finds the widget's error inside it.
func TestBrowserWidgetOnAnotherSite(t *testing.T) {
	var api string
	port := serveHostPage(t, &api)
	allowed := fmt.Sprintf("http://localhost:%d", port)
	refused := fmt.Sprintf("http://127.0.0.1:%d", port)
	ts := startServer(t, nil, "-seed", seedAllowing(t, allowed))
	api = ts.URL
	b := newBrowser(t)

	b.do("open the host page",
		chromedp.Navigate(allowed+"/"),
		chromedp.WaitVisible(shadow(`[data-testid="property-2"]`)),
	)
	if got := b.eval(shadowJS + `.querySelector('#h-properties').textContent`); got != "Choose your stay" {
		t.Errorf("heading = %q, want the English of locale=\"en\"", got)
	}
	b.shot("1-widget")

	// Styles: the host page's stop at the shadow root, and the widget's
	// stay inside it.
	styles := map[string]string{
		// Inside: the widget's own look, whatever the page says.
		`getComputedStyle(` + shadowJS + `.querySelector('#org-name')).color`:                                     "rgb(31, 41, 51)",
		`getComputedStyle(document.querySelector('staykit-booking')).backgroundColor`:                             "rgb(247, 248, 250)",
		`getComputedStyle(` + shadowJS + `.querySelector('.sk-root')).backgroundColor`:                            "rgba(0, 0, 0, 0)",
		`getComputedStyle(` + shadowJS + `.querySelector('#lang-toggle')).color`:                                  "rgb(31, 41, 51)",
		`getComputedStyle(` + shadowJS + `.querySelector('.card')).backgroundColor`:                               "rgb(255, 255, 255)",
		`String(getComputedStyle(` + shadowJS + `.querySelector('.sk-root')).fontFamily.startsWith('system-ui'))`: "true",
		// Outside: the page as its author styled it.
		`getComputedStyle(document.querySelector('#host-button')).color`:                    "rgb(255, 0, 0)",
		`getComputedStyle(document.querySelector('#host-button')).backgroundColor`:          "rgb(0, 0, 255)",
		`getComputedStyle(document.querySelector('#host-box')).boxSizing`:                   "content-box",
		`getComputedStyle(document.body).margin`:                                            "8px",
		`getComputedStyle(document.body).fontFamily`:                                        "serif",
		`String(document.styleSheets.length)`:                                               "1",
		`String(document.querySelectorAll('#step-properties, .sk-root, #calendar').length)`: "0",
	}
	for js, want := range styles {
		if got := b.eval(js); got != want {
			t.Errorf("%s = %q, want %q", js, got, want)
		}
	}

	// The registration number the law asks every listing to show
	// (Regulation (EU) 2024/1028): on the property's card, then on its
	// page; none on a property without one.
	if got := b.eval(shadowJS + `.querySelector('[data-testid="property-2"]').textContent`); !strings.Contains(got, "Registration number: 13055123456VP") {
		t.Errorf("property 2's card = %q, want its registration number", got)
	}
	if got := b.eval(shadowJS + `.querySelector('[data-testid="property-1"]').textContent`); strings.Contains(got, "Registration") {
		t.Errorf("property 1, which has no number, shows one: %q", got)
	}

	// A stay: ten days ahead at least, three nights.
	b.do("open the property",
		chromedp.Click(shadow(`[data-testid="property-2"]`)),
		chromedp.WaitVisible(shadow(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)),
	)
	if got := b.eval(shadowJS + `.querySelector('[data-testid="property-registration"]').textContent`); got != "Registration number: 13055123456VP" {
		t.Errorf("the property's page in the widget shows %q, want its registration number", got)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	earliest := civil.Today(time.Now(), paris).AddDays(10).String()
	findCheckIn := fmt.Sprintf(`(() => {
		const day = [...%s.querySelectorAll('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])')].find((d) => d.dataset.date >= %q);
		return day ? day.dataset.date : '';
	})()`, shadowJS, earliest)
	checkIn := b.eval(findCheckIn)
	for months := 0; checkIn == "" && months < 12; months++ {
		b.do("next month", chromedp.Click(shadow("#cal-next")))
		checkIn = b.eval(findCheckIn)
	}
	if checkIn == "" {
		t.Fatalf("no check-in day on or after %s in the widget's calendar", earliest)
	}
	checkOut := civil.MustParse(checkIn).AddDays(3).String()
	b.do("pick the check-in", chromedp.Click(shadow(`[data-testid="day-`+checkIn+`"]`)))
	if b.eval(`String(!!`+shadowJS+`.querySelector('[data-testid="day-`+checkOut+`"]'))`) != "true" {
		b.do("show the check-out month", chromedp.Click(shadow("#cal-next")))
	}
	b.do("pick the check-out",
		chromedp.WaitVisible(shadow(`[data-testid="day-`+checkOut+`"][data-check-out-ok="true"]`)),
		chromedp.Click(shadow(`[data-testid="day-`+checkOut+`"]`)),
		chromedp.WaitVisible(shadow(`[data-testid="quote-total"]`)),
	)
	q := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/book/demo/properties/2/price?check_in=%s&check_out=%s&guests_count=2", ts.URL, checkIn, checkOut), nil, nil).data(t)
	// The client keeps amounts exact: the page shows the API's text.
	if got, want := b.eval(shadowJS+`.querySelector('[data-testid="quote-charge"] .amt').dataset.amount`), num(q, "charge_amount"); got != want {
		t.Errorf("charge in the widget = %q, API quote = %q", got, want)
	}
	b.shot("2-quote")

	b.do("guest details and checkout",
		chromedp.Click(shadow("#to-details:not([disabled])")),
		chromedp.WaitVisible(shadow("#guest-name")),
		chromedp.SendKeys(shadow("#guest-name"), "Grace Hopper"),
		chromedp.SendKeys(shadow("#guest-email"), "grace@example.com"),
		chromedp.SendKeys(shadow("#guest-phone"), "+33612345678"),
		chromedp.Click(shadow("#checkout-submit")),
		chromedp.WaitVisible(shadow("#card-number")),
	)
	b.shot("3-card")
	b.do("pay",
		chromedp.SendKeys(shadow("#card-number"), "4242 4242 4242 4242"),
		chromedp.Click(shadow("#pay-submit")),
		chromedp.WaitVisible(shadow(`[data-testid="booking-status"][data-status="confirmed"]`)),
	)
	b.shot("4-confirmed")
	if got := b.eval(`location.href`); got != allowed+"/" {
		t.Errorf("host page address = %q, want it untouched (%s/)", got, allowed)
	}
	link := b.eval(shadowJS + `.querySelector('[data-testid="booking-link"]').href`)
	token, ok := strings.CutPrefix(link, ts.URL+"/?org=demo&booking=")
	if !ok || token == "" {
		t.Fatalf("booking link = %q, want the server's status page %s/?org=demo&booking=TOKEN", link, ts.URL)
	}
	bk := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/booking/"+token, nil, nil).data(t)
	if str(bk, "status") != "confirmed" || str(bk, "guest_name") != "Grace Hopper" || str(bk, "check_in") != checkIn || num(bk, "paid_amount") != num(q, "charge_amount") {
		t.Errorf("booking = %s %s %s paid %s; want confirmed, Grace Hopper, %s, paid %s", str(bk, "status"), str(bk, "guest_name"), str(bk, "check_in"), num(bk, "paid_amount"), checkIn, num(q, "charge_amount"))
	}
	b.checkNoProblems()

	// The same page from an origin the organisation does not allow.
	b.do("open the page from a refused origin",
		chromedp.Navigate(refused+"/"),
		chromedp.WaitVisible(shadow(`[data-testid="global-error"]`)),
	)
	b.shot("5-refused")
	msg := b.eval(shadowJS + `.querySelector('[data-testid="global-error"]').textContent`)
	if !strings.Contains(msg, refused) || !(strings.Contains(msg, "not allowed") || strings.Contains(msg, "does not allow")) {
		t.Errorf("error in the widget = %q, want it to say that %s is not allowed", msg, refused)
	}
	if got := b.eval(`String(` + shadowJS + `.querySelector('#step-properties').hidden && ` + shadowJS + `.querySelector('#loading').hidden)`); got != "true" {
		t.Errorf("properties or loading shown beside the error (%s)", got)
	}
}
