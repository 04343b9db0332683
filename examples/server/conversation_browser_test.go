package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/payment/paymenttest"
)

// paidBookingIn is paidBooking for a guest speaking locale.
func paidBookingIn(t *testing.T, ts *testServer, org string, daysAhead int, locale string) string {
	t.Helper()
	in, out := stayDates(daysAhead, 3)
	r := call(t, http.MethodPost, ts.URL+"/api/v1/book/"+org+"/checkout", map[string]any{
		"property_id": propertyIDs(t, ts, org)[0], "check_in": in, "check_out": out, "guests_count": 2, "locale": locale,
		"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678"}, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("checkout: %d %s", r.Status, r.Raw)
	}
	co := r.data(t)
	if r := call(t, http.MethodPost, ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != http.StatusOK {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	token := str(co, "booking_token")
	if r := call(t, http.MethodPost, ts.URL+"/api/v1/book/"+org+"/booking/"+token+"/confirm", map[string]string{}, nil); r.Status != http.StatusOK {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	return token
}

// threadMails counts the thread's e-mail deliveries of a booking by
// recipient and status ("host delivered": 1).
func threadMails(t *testing.T, db *sql.DB, token string) map[string]int {
	t.Helper()
	rows, err := db.Query(`SELECT d.recipient || ' ' || d.status FROM outbox_deliveries d
		JOIN outbox_events e ON e.id = d.event_id JOIN bookings b ON b.id = e.booking_id
		WHERE b.token = ? AND e.kind IN ('message.from_guest', 'message.from_host')`, token)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out[s]++
	}
	return out
}

// TestBrowserGuestAndHostMessages: in French and in English, the guest
// writes to the host from their booking page (markup stays text), the
// host finds the message in the dashboard's booking page and answers, and
// the guest sees the answer on their page; each message is e-mailed once
// to the other side (the organisation's contact address, the guest), and
// the log holds neither the guest's address nor the words. The page fits
// a 390 px screen.
func TestBrowserGuestAndHostMessages(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	if out, err := cli(t, "contact", "-org", "demo", "-email", "owner@example.com", "-db", ts.dbPath); err != nil {
		t.Fatalf("contact: %v\n%s", err, out)
	}
	db, err := sql.Open("sqlite", "file:"+ts.dbPath+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	for i, tc := range []struct {
		lang, empty, guestText, hostText, sent, dashboardGuest string
		daysAhead                                              int
	}{
		{"fr", "Aucun message pour l’instant.", "Bonjour ! Peut-on déposer nos <b>bagages</b> à 11 h ?\nMerci",
			"Oui, bien sûr : la boîte à clés est à gauche de la porte.", "Message envoyé à votre hôte.", "Voyageur (Ada Lovelace)", 5},
		{"en", "No messages yet.", "Hi! Can we leave our <b>bags</b> at 11 am?\nThanks",
			"Of course: the key box is left of the door.", "Message sent to your host.", "Guest (Ada Lovelace)", 12},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			token := paidBookingIn(t, ts, "demo", tc.daysAhead, tc.lang)
			b := newBrowser(t)
			guestPage := ts.URL + "/?org=demo&lang=" + tc.lang + "&booking=" + token
			b.do("open the booking page at its messages", chromedp.Navigate(guestPage+"#messages"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="thread-form"]`)))
			if got := b.text(`[data-testid="thread-empty"]`); got != tc.empty {
				t.Errorf("empty thread says %q, want %q", got, tc.empty)
			}
			// The panels above it load on their own: the thread stays in view.
			b.do("the e-mail's link (#messages) shows the thread", chromedp.Poll[chromedp.Void](`(() => {
				const r = document.querySelector('#thread').getBoundingClientRect();
				return r.top >= 0 && r.top < window.innerHeight / 2 && document.querySelector('[data-testid="cancel-preview"]') !== null;
			})()`))
			b.do("write to the host", chromedp.SendKeys(chromedp.CSS(`[data-testid="thread-body"]`), tc.guestText),
				chromedp.Click(chromedp.CSS(`[data-testid="thread-send"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="thread-message"][data-from="guest"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="thread-sent"]`)))
			if got := b.eval(`document.querySelector('[data-from="guest"] .msg-body').textContent`); got != tc.guestText {
				t.Errorf("message shown %q, want %q as typed", got, tc.guestText)
			}
			if got := b.eval(`String(document.querySelectorAll('#thread .msg-body b').length)`); got != "0" {
				t.Errorf("the guest's <b> became markup (%s elements)", got)
			}
			if got := b.text(`[data-testid="thread-sent"]`); got != tc.sent {
				t.Errorf("sent note %q, want %q", got, tc.sent)
			}
			if got := b.eval(`document.querySelector('[data-testid="thread-body"]').value`); got != "" {
				t.Errorf("the field keeps %q after sending", got)
			}
			b.shot("1280-guest-wrote")
			waitFor(t, func() bool { return threadMails(t, db, token)["host delivered"] == 1 })

			b.signIn(ts.URL+"/host/login?lang="+tc.lang, "host@example.com", "a long enough password", "#nav-bookings")
			row := fmt.Sprintf(`tr[data-token=%q]`, token)
			b.do("the booking's page", chromedp.Click(chromedp.CSS("#nav-bookings")),
				chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
				chromedp.Click(chromedp.CSS(row+" button.details")),
				chromedp.WaitVisible(chromedp.CSS(`#thread-list li[data-from="guest"]`)))
			if got := b.eval(`document.querySelector('#thread-list li[data-from="guest"] .note-body').textContent`); got != tc.guestText {
				t.Errorf("the dashboard shows %q, want %q", got, tc.guestText)
			}
			if got := b.text(`#thread-list li[data-from="guest"] small`); !strings.HasPrefix(got, tc.dashboardGuest+" — ") {
				t.Errorf("the dashboard's guest line %q, want it to start with %q", got, tc.dashboardGuest)
			}
			b.do("answer", chromedp.SendKeys(chromedp.CSS("#thread-body"), tc.hostText),
				chromedp.Click(chromedp.CSS("#thread-send")),
				chromedp.WaitVisible(chromedp.CSS(`#thread-list li[data-from="host"]`)))
			if got := b.text(`#thread-list li[data-from="host"] small`); !strings.HasPrefix(got, "host@example.com — ") {
				t.Errorf("the answer's author line %q, want the host's e-mail first", got)
			}
			b.shot("1280-dashboard-answered")
			b.do("the dashboard on a phone", chromedp.EmulateViewport(390, 844), chromedp.Reload(),
				chromedp.WaitVisible(chromedp.CSS(`#thread-list li[data-from="host"]`)))
			if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
				t.Errorf("390 px: the dashboard's booking page is %s px wider than the screen", got)
			}
			b.do("scroll to the messages", chromedp.ScrollIntoView(chromedp.CSS("#booking-messages")))
			b.shot("390-dashboard-thread")
			b.do("back to a wide screen", chromedp.EmulateViewport(1280, 1000))
			waitFor(t, func() bool { return threadMails(t, db, token)["guest delivered"] == 1 })

			b.do("the guest's page again", chromedp.Navigate(guestPage),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="thread-message"][data-from="host"]`)))
			if got := b.eval(`document.querySelector('[data-from="host"] .msg-body').textContent`); got != tc.hostText {
				t.Errorf("the guest sees %q, want the host's answer %q", got, tc.hostText)
			}
			if got, org := b.eval(`document.querySelector('[data-from="host"] .msg-meta').textContent`), b.text("#org-name"); !strings.HasPrefix(got, org+" · ") {
				t.Errorf("the answer's line %q does not start with the host's name %q", got, org)
			}
			if strings.Contains(b.text("#thread"), "host@example.com") {
				t.Errorf("the guest sees the host's team member")
			}
			b.shot("1280-guest-sees-the-answer")
			b.do("on a phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(guestPage),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="thread-message"][data-from="host"]`)))
			if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
				t.Errorf("390 px: the booking page is %s px wider than the screen", got)
			}
			if got := b.eval(`String(document.querySelector('#thread').getBoundingClientRect().right <= window.innerWidth)`); got != "true" {
				t.Errorf("390 px: the thread overflows the screen")
			}
			b.shot("390-thread")

			// Once each: one e-mail per message, to its one recipient.
			if got := threadMails(t, db, token); len(got) != 2 || got["host delivered"] != 1 || got["guest delivered"] != 1 {
				t.Errorf("the thread's e-mails: %v, want one to the host and one to the guest, delivered", got)
			}
			logs := ts.logs.String()
			// The server sends to the log (no SMTP): one line per e-mail,
			// the subtests before this one's included.
			for _, kind := range []string{"message.from_guest", "message.from_host"} {
				if n := strings.Count(logs, "kind="+kind); n != i+1 {
					t.Errorf("%d e-mails of %s in the log, want %d", n, kind, i+1)
				}
			}
			for _, private := range []string{"ada@example.com", "+33612345678", "bagages", "bags", "boîte à clés", "key box"} {
				if strings.Contains(logs, private) {
					t.Errorf("the log holds %q", private)
				}
			}
			b.checkNoProblems()
		})
	}
}
