package hostapi_test

import (
	"net/http"
	"strconv"
	"testing"
)

// TestHostApprovesAndDeclinesChanges: with approval on, a guest's change
// waits as requested; the host lists the booking's changes, approves one
// (the booking gets its new stay), declines another (the booking keeps
// it), and each answer is in the audit log; an answered change cannot be
// answered again. On both stores, every response checked against the host
// document.
func TestHostApprovesAndDeclinesChanges(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		r := e.do("villa", req{method: "GET", path: hostPath("villa", "/change-settings")})
		want(t, r, http.StatusOK)
		if r.data(t)["approval"] != false {
			t.Fatalf("approval is on by default: %s", r.body)
		}
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/change-settings"), body: map[string]any{}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/change-settings"), body: map[string]any{"approval": true}}), http.StatusOK)

		id := e.paidBooking("villa", "soleil", "2026-08-10", "2026-08-13")
		b := e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings/"+strconv.FormatInt(id, 10))})
		want(t, b, http.StatusOK)
		token := b.data(t)["token"].(string)
		change := func(out string) int64 {
			t.Helper()
			g := e.do("villa", req{method: "POST", path: "/api/v1/book/villa/booking/" + token + "/change",
				body: map[string]any{"check_in": "2026-08-10", "check_out": out, "guests_count": 2}})
			want(t, g, http.StatusOK)
			d := g.data(t)
			if d["status"] != "requested" {
				t.Fatalf("change is %v, want requested", d["status"])
			}
			return int64(d["id"].(float64))
		}
		first := change("2026-08-12")
		list := e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings/"+strconv.FormatInt(id, 10)+"/changes")})
		want(t, list, http.StatusOK)
		items := list.data(t)["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["status"] != "requested" || items[0].(map[string]any)["check_out"] != "2026-08-12" {
			t.Fatalf("changes = %s", list.body)
		}
		a := e.do("villa", req{method: "POST", path: hostPath("villa", "/changes/"+strconv.FormatInt(first, 10)+"/approve")})
		want(t, a, http.StatusOK)
		if a.data(t)["status"] != "applied" {
			t.Fatalf("approved change: %s", a.body)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/changes/"+strconv.FormatInt(first, 10)+"/approve")}), http.StatusConflict, "conflict")
		second := change("2026-08-14")
		d := e.do("villa", req{method: "POST", path: hostPath("villa", "/changes/"+strconv.FormatInt(second, 10)+"/decline"), body: map[string]any{"reason": "owner's visit"}})
		want(t, d, http.StatusOK)
		if d.data(t)["status"] != "declined" || d.data(t)["reason"] != "owner's visit" {
			t.Fatalf("declined change: %s", d.body)
		}
		b = e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings/"+strconv.FormatInt(id, 10))})
		if out := b.data(t)["check_out"]; out != "2026-08-12" {
			t.Fatalf("booking check-out %v, want the approved 2026-08-12", out)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/changes/999999/approve")}), http.StatusNotFound, "not_found")
		log := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log")})
		want(t, log, http.StatusOK)
		seen := map[string]bool{}
		for _, it := range log.data(t)["items"].([]any) {
			seen[it.(map[string]any)["action"].(string)] = true
		}
		for _, a := range []string{"date_change.settings", "date_change.approve", "date_change.decline"} {
			if !seen[a] {
				t.Errorf("audit log lacks %s: %s", a, log.body)
			}
		}
	})
}
