package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDashboardCheckin: on a French property's booking of two, the
// host sees the check-in empty, opens the form, fills in two foreign
// guests at arrival and saves: the section says complete; the fiche de
// police downloads; the server's log holds none of the guests' data.
func TestBrowserDashboardCheckin(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 60)
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("the booking's page", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS("#checkin-status[data-complete]")))
	if got := b.text("#checkin-status"); !strings.Contains(got, "0 of 2 guest(s) complete") || !strings.Contains(got, "Police forms (France)") {
		t.Errorf("status before = %q", got)
	}
	if b.visible("#checkin-code") {
		t.Errorf("the SES establishment code is asked on a French property")
	}
	b.do("open the form", chromedp.Click(chromedp.CSS("#checkin-open")), chromedp.WaitVisible(chromedp.CSS("#checkin-form")))
	if got := b.eval(`String(document.querySelectorAll('#checkin-guests fieldset').length)`); got != "2" {
		t.Fatalf("%s guest fieldsets, want one per guest of the booking (2)", got)
	}
	b.eval(`(() => {
		const guests = [
			{given_names: "Jonas", surname: "Müller", birth_date: "1980-11-20", birth_place: "Hamburg", birth_country: "DE", nationality: "DE",
			 address: "Unter den Linden 5", postal_code: "10117", city: "Berlin", address_country: "DE", phone: "+4915112345678", email: "jonas@example.com"},
			{given_names: "Lena", surname: "Müller", birth_date: "1982-02-03", birth_place: "Köln", birth_country: "DE", nationality: "DE",
			 address: "Unter den Linden 5", postal_code: "10117", city: "Berlin", address_country: "DE", phone: "+4915112345679", email: "lena@example.com"}];
		const sets = document.querySelectorAll('#checkin-guests fieldset');
		guests.forEach((g, i) => { for (const [k, v] of Object.entries(g)) sets[i].querySelector('[name="' + k + '"]').value = v; });
		return "";
	})()`)
	// The check-in's own words, not those of the property's arrival
	// instructions (another module once took over the same keys).
	if h, save := b.text("#checkin h3"), b.text("#checkin-save"); h != "Guest check-in" || save != "Save" {
		t.Errorf("section %q, save button %q; want Guest check-in and Save", h, save)
	}
	b.do("save", chromedp.Click(chromedp.CSS("#checkin-save")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")),
		chromedp.WaitVisible(chromedp.CSS(`#checkin-status[data-complete="true"]`)))
	if got := b.text("#flash"); got != "Check-in saved." {
		t.Errorf("flash after saving = %q", got)
	}
	if got := b.text("#checkin-status"); !strings.Contains(got, "2 of 2 guest(s) complete") {
		t.Errorf("status after = %q", got)
	}
	b.do("download the fiches", chromedp.Click(chromedp.CSS("#checkin-file")), chromedp.WaitVisible(chromedp.CSS("#checkin[data-downloaded]")))
	if got := b.attr("#checkin", "data-downloaded"); !strings.HasPrefix(got, "booking-") || !strings.HasSuffix(got, ".html") {
		t.Errorf("downloaded %q, want booking-N.html", got)
	}
	b.shot("checkin")
	b.checkNoProblems()
	for _, secret := range []string{"Müller", "jonas@example.com", "+4915112345678", "Unter den Linden"} {
		if strings.Contains(ts.logs.String(), secret) {
			t.Errorf("the server's log holds %q", secret)
		}
	}
}

// TestBrowserGuestCheckin: on the booking page of a confirmed French
// stay for two, the guest opens the online check-in, which asks France's
// fields; a guest sent without e-mail address is refused naming the guest
// and the field; both sent complete, the page says so, and the host's
// API reads the two guests (the guest's page never reads them back).
func TestBrowserGuestCheckin(t *testing.T) {
	ts := startServer(t, nil)
	token := paidBooking(t, ts, "demo", 45)
	b := newBrowser(t)
	b.do("the booking page", chromedp.Navigate(ts.URL+"/?org=demo&lang=en&booking="+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="checkin-summary"]`)))
	if got := b.text(`[data-testid="checkin-summary"]`); got != "0 of 2 guest(s) checked in" {
		t.Errorf("summary before = %q", got)
	}
	b.do("open the form", chromedp.Click(chromedp.CSS(`[data-testid="checkin-open"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="checkin-form"]`)))
	names := b.eval(`[...document.querySelectorAll('[data-testid="checkin-guest"]')[0].querySelectorAll('input, select')].map((i) => i.name).join(',')`)
	if names != "given_names,surname,birth_date,birth_place,birth_country,nationality,address,postal_code,city,address_country,phone,email" {
		t.Errorf("France's fields = %s", names)
	}
	fill := func(i int, email string) {
		b.eval(fmt.Sprintf(`(() => {
			const g = {given_names: "Guest%d", surname: "Müller", birth_date: "1980-11-20", birth_place: "Hamburg", birth_country: "de", nationality: "de",
			  address: "Unter den Linden 5", postal_code: "10117", city: "Berlin", address_country: "de", phone: "+4915112345678", email: %q};
			const fs = document.querySelectorAll('[data-testid="checkin-guest"]')[%d];
			for (const [k, v] of Object.entries(g)) fs.querySelector('[name="' + k + '"]').value = v;
			return "";
		})()`, i, email, i))
	}
	fill(0, "jonas@example.com")
	fill(1, "")
	b.do("send without an e-mail", chromedp.Click(chromedp.CSS(`[data-testid="checkin-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="checkin-error"]`)))
	if got := b.text(`[data-testid="checkin-error"]`); !strings.Contains(got, "Guest 2 — E-mail") {
		t.Errorf("error = %q, want it to name guest 2's e-mail", got)
	}
	fill(1, "lena@example.com")
	b.do("send", chromedp.Click(chromedp.CSS(`[data-testid="checkin-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="checkin-summary"][data-complete="true"]`)))
	if got := b.text(`[data-testid="checkin-summary"]`); !strings.Contains(got, "complete") {
		t.Errorf("summary after = %q", got)
	}
	b.shot("guest-checkin")
	b.checkNoProblems()

	key := hostKey(t, ts, "demo")
	var id string
	for _, bk := range call(t, "GET", ts.URL+"/api/v1/host/demo/bookings?limit=100", nil, key).data(t)["items"].([]any) {
		if m := bk.(map[string]any); m["token"] == token {
			id = fmt.Sprint(m["id"])
		}
	}
	r := call(t, "GET", ts.URL+"/api/v1/host/demo/bookings/"+id+"/checkin", nil, key).data(t)
	guests := r["guests"].([]any)
	if len(guests) != 2 || guests[1].(map[string]any)["email"] != "lena@example.com" || guests[0].(map[string]any)["nationality"] != "DE" {
		t.Errorf("the host reads %v", guests)
	}
	if r["updated_by"] != "guest" {
		t.Errorf("updated_by = %v, want guest", r["updated_by"])
	}
}
