package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserBookingHistoryAndNotes: a deposit booking's page shows its
// history in order — made, the first payment, confirmed — with the balance
// still to come on its due date; the host writes a note of two lines,
// which is listed with its author, kept across a reload, and fits a
// 390 px screen.
func TestBrowserBookingHistoryAndNotes(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-deposit", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo-deposit", 90)
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("the booking's page", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS("#booking-history")),
		chromedp.WaitVisible(chromedp.CSS("#notes-list .hint")))

	kinds := b.eval(`[...document.querySelectorAll('#booking-history li')].map((li) => li.dataset.kind + (li.classList.contains('upcoming') ? '+' : '')).join(' ')`)
	if kinds != "created payment confirmed balance+" {
		t.Errorf("history = %q, want made, paid, confirmed, then the balance to come\n%s", kinds, b.text("#booking-history"))
	}
	if got := b.text(`#booking-history li[data-kind="balance"]`); !strings.Contains(got, "Balance charged to the card") || !strings.Contains(got, "€") {
		t.Errorf("balance to come = %q", got)
	}
	if got := b.text(`#booking-history li[data-kind="payment"]`); !strings.Contains(got, "payment") || !strings.Contains(got, "done") {
		t.Errorf("first payment = %q", got)
	}

	b.do("write a note", chromedp.SendKeys(chromedp.CSS("#note-body"), "Late arrival\nKeys in the box"),
		chromedp.Click(chromedp.CSS("#note-add")),
		chromedp.WaitVisible(chromedp.CSS("#notes-list li.note")))
	if got := b.eval(`document.querySelector('#notes-list .note-body').textContent`); got != "Late arrival\nKeys in the box" {
		t.Errorf("note shown = %q", got)
	}
	if got := b.text("#notes-list li.note small"); !strings.HasPrefix(got, "host@example.com — ") {
		t.Errorf("note's author line = %q, want the host's e-mail first", got)
	}
	if got := b.eval(`document.querySelector('#note-body').value`); got != "" {
		t.Errorf("the note's field keeps %q after saving", got)
	}
	b.do("reload on a phone", chromedp.EmulateViewport(390, 844), chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS("#notes-list li.note")))
	if got := b.eval(`String(document.querySelectorAll('#notes-list li.note').length)`); got != "1" {
		t.Errorf("%s notes after a reload, want 1", got)
	}
	if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
		t.Errorf("390 px: the booking page is %s px wider than the screen", got)
	}
	b.shot("390-booking-history-notes")
	b.checkNoProblems()
}
