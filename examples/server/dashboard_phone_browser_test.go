package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDashboardOnAPhone walks every view of the dashboard at 390 px
// and at 1280 px: nothing runs off the screen sideways, the menu is one
// row, lists become cards on the phone with their actions in reach, and
// statuses, amounts and dates are written for people (badges, Intl).
func TestBrowserDashboardOnAPhone(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	property := propertyIDs(t, ts, "demo-request")[0]
	token := requestedBooking(t, ts, property, 3, 2)
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	views := strings.Fields(b.eval(`[...document.querySelectorAll('#nav button')].map((b) => b.dataset.view).join(' ')`))
	if len(views) < 8 {
		t.Fatalf("menu = %v, want every view", views)
	}
	row := fmt.Sprintf(`tr[data-token=%q]`, token)

	for _, width := range []int64{390, 1280} {
		b.do(fmt.Sprint("viewport ", width), chromedp.EmulateViewport(width, 844))
		for _, v := range views {
			b.do("open "+v, chromedp.Click(chromedp.CSS("#nav-"+v)),
				chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#nav-%s.current`, v))),
				chromedp.WaitReady(chromedp.CSS("#main > *")))
			if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
				t.Errorf("%d px, %s: the page is %s px wider than the screen", width, v, got)
			}
			b.shot(fmt.Sprintf("%d-%s", width, v))
		}
		// One row of menu: as high as one of its buttons.
		if got := b.eval(`String(document.querySelector('#nav').getBoundingClientRect().height <= document.querySelector('#nav button').getBoundingClientRect().height + 8)`); got != "true" {
			t.Errorf("%d px: the menu takes more than one row", width)
		}
		b.do("bookings", chromedp.Click(chromedp.CSS("#nav-bookings")), chromedp.WaitVisible(chromedp.CSS(row+" button.approve")))
		// The approve button is on the screen, not behind a sideways scroll.
		if got := b.eval(`(() => { const r = document.querySelector('` + row + ` button.approve').getBoundingClientRect(); return String(r.left >= 0 && r.right <= window.innerWidth); })()`); got != "true" {
			t.Errorf("%d px: the request's approve button is off the screen", width)
		}
		cards := b.eval(`getComputedStyle(document.querySelector('table.cards thead')).display`)
		if (width < 600) != (cards == "none") {
			t.Errorf("%d px: the list's head shows as %q; want rows as cards under 600 px only", width, cards)
		}
	}

	// Statuses are badges; amounts and dates are written for people, the
	// exact values kept in the markup.
	if got := b.text(row + " .status .badge.st-requested"); got != "request" {
		t.Errorf("status badge = %q", got)
	}
	total := b.attr(row+" .money", "data-amount")
	if shown := b.text(row + " .money"); !strings.HasPrefix(shown, "€") || !dec(t, strings.NewReplacer("€", "", ",", "").Replace(shown)).Equal(dec(t, total)) {
		t.Errorf("total shown %q, want %s written as euros", shown, total)
	}
	checkIn := b.attr(row+" time", "datetime")
	if shown := b.text(row + " time"); shown == checkIn || !strings.Contains(shown, checkIn[:4]) {
		t.Errorf("check-in shown %q, want %s written as a date", shown, checkIn)
	}
	b.checkNoProblems()
}
