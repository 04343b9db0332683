package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserScheduledMessages: the host creates a scheduled message on
// the Messages page, previews it with a real booking (the placeholders
// filled in, in the language chosen), saves it, finds it in the list and
// disables it; the review request's switch is on by default.
func TestBrowserScheduledMessages(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	paidBooking(t, ts, "demo", 5)

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-messages")
	b.do("open Messages", chromedp.Click(chromedp.CSS("#nav-messages")), chromedp.WaitVisible(chromedp.CSS("#message-new")))
	if got := b.eval(`String(document.querySelector("#review-request").checked)`); got != "true" {
		t.Errorf("review request switch = %s, want on by default", got)
	}
	b.do("new message", chromedp.Click(chromedp.CSS("#message-new")), chromedp.WaitVisible(chromedp.CSS("#message-form")))
	b.do("fill it in",
		chromedp.SendKeys(chromedp.CSS("#message-name"), "Welcome"),
		chromedp.SetValue(chromedp.CSS("#message-days"), "3"),
		chromedp.SendKeys(chromedp.CSS("#message-subject-en"), "Welcome to {{property}}"),
		chromedp.SetValue(chromedp.CSS("#message-body-en"), "Hello {{guest_name}}, see you on {{check_in}}.\n\nYour booking: {{booking_link}}"),
		chromedp.SendKeys(chromedp.CSS("#message-subject-fr"), "Bienvenue à {{property}}"),
		chromedp.SetValue(chromedp.CSS("#message-body-fr"), "Bonjour {{guest_name}}, à bientôt le {{check_in}}."),
		chromedp.SetValue(chromedp.CSS("#message-preview-locale"), "en"))
	b.do("preview", chromedp.Click(chromedp.CSS("#message-preview-show")), chromedp.WaitVisible(chromedp.CSS("#message-preview")))
	b.shot("message-preview")
	subject, text := b.text("#message-preview-subject"), b.text("#message-preview-text")
	if !strings.HasPrefix(subject, "Subject: Welcome to ") || strings.Contains(subject, "{{") {
		t.Errorf("preview subject = %q, want the property's name filled in", subject)
	}
	if !strings.HasPrefix(text, "Hello ") || strings.Contains(text, "{{") || !strings.Contains(text, "/?booking=") && !strings.Contains(text, "&booking=") {
		t.Errorf("preview text = %q, want the guest's name, date and booking link filled in", text)
	}
	if got := b.eval(`document.querySelector("#message-preview-frame").getAttribute("sandbox")`); got != "" {
		t.Errorf("preview frame sandbox = %q, want \"\" (no script, no navigation)", got)
	}
	b.do("preview in French", chromedp.SetValue(chromedp.CSS("#message-preview-locale"), "fr"), chromedp.Click(chromedp.CSS("#message-preview-show")),
		chromedp.Poll[chromedp.Void](`document.querySelector("#message-preview-text").textContent.startsWith("Bonjour ")`))
	b.do("save", chromedp.Click(chromedp.CSS("#message-save")), chromedp.WaitVisible(chromedp.CSS(`tr[data-active="true"] button.toggle`)))
	b.shot("messages-list")
	if got := b.text(`tr[data-active="true"] td`); got != "Welcome" {
		t.Errorf("listed name = %q", got)
	}
	if got := b.text(`tr[data-active="true"] td:nth-child(2)`); got != "3 days before arrival, at 10:00" {
		t.Errorf("listed trigger = %q", got)
	}
	b.do("disable", chromedp.Click(chromedp.CSS(`tr[data-active="true"] button.toggle`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-active="false"]`)))
	b.do("edit", chromedp.Click(chromedp.CSS(`tr[data-active="false"] button.edit`)), chromedp.WaitVisible(chromedp.CSS("#message-form")))
	if got := b.eval(`document.querySelector("#message-body-en").value`); !strings.HasPrefix(got, "Hello {{guest_name}}") {
		t.Errorf("edit form body = %q, want the saved text", got)
	}

	// The property page's check-in instructions, saved on their own.
	id := fmt.Sprint(propertyIDs(t, ts, "demo")[0])
	b.do("open the property", chromedp.Navigate(ts.URL+"/host/#properties/"+id), chromedp.WaitVisible(chromedp.CSS("#checkin-save")))
	b.do("check-in instructions",
		chromedp.SetValue(chromedp.CSS("#checkin-instructions"), "The key box is left of the blue door."),
		chromedp.SendKeys(chromedp.CSS("#checkin-door-code"), "4711"),
		chromedp.Click(chromedp.CSS("#checkin-save")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")))
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#checkin-save")))
	if got := b.eval(`document.querySelector("#checkin-door-code").value`); got != "4711" {
		t.Errorf("door code after a reload = %q, want 4711", got)
	}
	if r := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/properties", nil, nil); strings.Contains(string(r.Raw), "4711") || strings.Contains(string(r.Raw), "blue door") {
		t.Errorf("the public API shows the check-in instructions: %s", r.Raw)
	}
	b.checkNoProblems()
}

// TestSandboxSendsTheReviewRequest: the reference server's job engine
// queues and sends the built-in review request the day after departure
// (the sandbox's clock moved over HTTP runs the due work), once, with the
// star links to the booking page.
func TestSandboxSendsTheReviewRequest(t *testing.T) {
	ts := startServer(t, nil, "-sandbox")
	token := paidBooking(t, ts, "demo", 5) // 3 nights from 5 days ahead
	for _, step := range []string{"P9D", "P1D", "P1D"} {
		if r := sandboxCall(t, ts, http.MethodPost, "/api/v1/sandbox/clock", map[string]string{"advance": step}); r.Status != http.StatusOK {
			t.Fatalf("advance the clock %s: %d %s", step, r.Status, r.Raw)
		}
	}
	logs := ts.logs.String()
	if n := strings.Count(logs, "kind=message.scheduled"); n != 1 {
		t.Fatalf("%d scheduled messages in the log, want the one review request:\n%s", n, logs)
	}
	if !strings.Contains(logs, "booking="+token+"&org=demo&rate=5") || !strings.Contains(logs, "&org=demo&rate=1") {
		t.Errorf("the review request lacks its five-star link to the booking page:\n%s", logs)
	}
}
