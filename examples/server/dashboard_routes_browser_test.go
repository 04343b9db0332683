package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDashboardRoutes: the dashboard's address names what it shows.
// A link to a booking (as the host's e-mails carry) opens it after signing
// in; a reload keeps the view; the back button returns to the one before.
func TestBrowserDashboardRoutes(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	property := propertyIDs(t, ts, "demo-request")[0]
	token := requestedBooking(t, ts, property, 30, 2)
	b := newBrowser(t)

	// Signed out, a booking's link goes through the sign-in and lands on
	// the booking. Its id is read off the bookings list afterwards.
	b.do("open a booking's link signed out", chromedp.Navigate(ts.URL+"/host/#bookings/1"),
		chromedp.WaitVisible(chromedp.CSS("#email")))
	b.do("sign in",
		chromedp.SendKeys(chromedp.CSS("#email"), "host@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "a long enough password"),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#booking-title")))
	if got := b.eval(`location.hash`); got != "#bookings/1" {
		t.Errorf("address after signing in = %q, want #bookings/1", got)
	}
	if got := b.attr("#booking-title", "data-id"); got != "1" {
		t.Errorf("booking shown after signing in = %q, want 1", got)
	}

	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("the bookings", chromedp.Click(chromedp.CSS("#nav-bookings")), chromedp.WaitVisible(chromedp.CSS(row+" button.details")))
	if got := b.eval(`location.hash`); got != "#bookings" {
		t.Errorf("address of the bookings = %q", got)
	}
	id := b.attr(row, "data-id")
	b.do("a booking's details", chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#booking-title[data-id=%q]`, id))))
	if got := b.eval(`location.hash`); got != "#bookings/"+id {
		t.Errorf("address of booking %s = %q", id, got)
	}
	if got := b.text("#bk-message"); got != "Arriving by train at 18:00." {
		t.Errorf("the guest's message on the booking = %q", got)
	}
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#booking-title[data-id=%q]`, id))))
	b.do("approve the request on its page", chromedp.Click(chromedp.CSS("#bk-approve")),
		chromedp.WaitVisible(chromedp.CSS(`#bk-status[data-status="confirmed"]`)))
	if b.visible("#request-actions") {
		t.Error("a confirmed booking still offers approve and decline")
	}
	b.do("back", chromedp.NavigateBack(), chromedp.WaitVisible(chromedp.CSS(row+" button.details")))
	if got := b.eval(`location.hash + ' ' + document.querySelector('#nav-bookings').classList.contains('current')`); got != "#bookings true" {
		t.Errorf("after back: %q, want the bookings list, its menu entry current", got)
	}
	b.do("a property by its address", chromedp.Navigate(fmt.Sprintf("%s/host/#properties/%d", ts.URL, property)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#property-title[data-id="%d"]`, property))))
	b.do("an unknown view: the home screen", chromedp.Navigate(ts.URL+"/host/#nowhere"), chromedp.WaitVisible(chromedp.CSS("#nav-planning.current")))
	b.checkNoProblems()
}
