package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/privacy"
)

// TestBrowserDashboardGuestData: on the booking page of a stay ahead, the
// host may export the guest's data but not erase them (the button is off,
// the page says when it will be possible); once the booking is cancelled,
// the export downloads the guest's data as JSON, and the erasure, behind a
// second click, leaves the booking with its amounts and "Erased guest";
// the audit log has both, and the server's log names no guest.
func TestBrowserDashboardGuestData(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 60)
	key := hostKey(t, ts, "demo")
	var id int64
	for _, item := range call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/bookings", nil, key).data(t)["items"].([]any) {
		if b := item.(map[string]any); str(b, "token") == token {
			id, _ = b["id"].(json.Number).Int64()
		}
	}
	downloads := t.TempDir()
	b := newBrowser(t)
	if _, err := cdp.Call(b.ctx, chromedp.FromContext(b.ctx).Browser, cdpbrowser.SetDownloadBehavior,
		cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
		t.Fatalf("downloads to a directory: %v", err)
	}
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	open := func(step string) {
		b.do(step, chromedp.Click(chromedp.CSS("#nav-bookings")),
			chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
			chromedp.Click(chromedp.CSS(row+" button.details")),
			chromedp.WaitVisible(chromedp.CSS("#guest-privacy")))
	}
	open("the booking's page, the stay ahead")
	if b.eval(`String(document.querySelector('#guest-erase').disabled)`) != "true" ||
		!strings.Contains(b.text("#guest-privacy"), "once the stay has ended or been cancelled") {
		t.Errorf("a stay ahead may be erased: %q", b.text("#guest-privacy"))
	}
	b.shot("1-ahead")

	if r := call(t, http.MethodPost, fmt.Sprintf("%s/api/v1/host/demo/bookings/%d/cancel", ts.URL, id), map[string]any{"refund": "none"}, key); r.Status != http.StatusOK {
		t.Fatalf("cancel: %d %s", r.Status, r.Raw)
	}
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#nav-bookings")))
	open("the booking's page, cancelled")
	b.do("export", chromedp.Click(chromedp.CSS("#guest-export")))
	file := filepath.Join(downloads, fmt.Sprintf("guest-data-%d.json", id))
	var raw []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if raw, _ = os.ReadFile(file); len(raw) > 0 && json.Valid(raw) {
			break
		}
	}
	var export struct {
		Booking struct {
			ID         int64  `json:"id"`
			GuestName  string `json:"guest_name"`
			GuestEmail string `json:"guest_email"`
			GuestPhone string `json:"guest_phone"`
			Status     string `json:"status"`
		} `json:"booking"`
		Payments []map[string]any `json:"payments"`
	}
	if err := json.Unmarshal(raw, &export); err != nil {
		t.Fatalf("the downloaded export %s: %v (%q)", file, err, raw)
	}
	if e := export.Booking; e.ID != id || e.GuestName != "Ada Lovelace" || e.GuestEmail != "ada@example.com" || e.GuestPhone != "+33612345678" ||
		e.Status != "cancelled" || len(export.Payments) == 0 {
		t.Errorf("downloaded export = %+v, want the guest's booking with its payments", export)
	}

	if b.visible("#guest-erase-confirm") {
		t.Errorf("the erasure's confirmation shows before the first click")
	}
	b.do("erase: first click", chromedp.Click(chromedp.CSS("#guest-erase:not([disabled])")), chromedp.WaitVisible(chromedp.CSS("#guest-erase-confirm")))
	b.shot("2-confirm")
	b.do("erase: confirm", chromedp.Click(chromedp.CSS("#guest-erase-confirm")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")))
	if got := b.text("#flash"); !strings.Contains(got, "Guest erased") {
		t.Errorf("flash = %q", got)
	}
	b.shot("3-erased")
	if main := b.text("#main"); !strings.Contains(main, privacy.ErasedName) || strings.Contains(main, "Lovelace") || strings.Contains(main, "ada@example.com") {
		t.Errorf("the booking's page after the erasure: %q", main)
	}
	got := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/host/demo/bookings/%d", ts.URL, id), nil, key).data(t)
	if str(got, "guest_name") != privacy.ErasedName || str(got, "guest_email") != "" || num(got, "total_amount") == "0.00" {
		t.Errorf("the booking after the erasure: %v", got)
	}
	actions := map[string]int{}
	for _, item := range call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/audit-log?limit=100", nil, key).data(t)["items"].([]any) {
		e := item.(map[string]any)
		actions[str(e, "action")]++
		if e["actor"] != nil && strings.Contains(fmt.Sprint(e), "Lovelace") {
			t.Errorf("audit entry %v names the guest", e)
		}
	}
	if actions["guest.export"] != 1 || actions["guest.erase"] != 1 {
		t.Errorf("audit log %v, want one guest.export and one guest.erase", actions)
	}
	b.checkNoProblems()
	for _, secret := range []string{"Lovelace", "ada@example.com", "+33612345678"} {
		if strings.Contains(ts.logs.String(), secret) {
			t.Errorf("the server's log holds %q", secret)
		}
	}
}
