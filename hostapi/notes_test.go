package hostapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestBookingNotes: a host writes notes on a booking and reads them back
// in order with their author; a bad note is refused naming the field; the
// notes of another organisation's or an unknown booking are not found; the
// audit log keeps the fact, not the text; the guest's data export carries
// the notes and the guest's erasure deletes them.
func TestBookingNotes(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		notesPath := func(org string, id int64) string { return hostPath(org, fmt.Sprintf("/bookings/%d/notes", id)) }

		empty := e.do("villa", req{method: "GET", path: notesPath("villa", id)})
		want(t, empty, http.StatusOK)
		if items := empty.data(t)["items"].([]any); len(items) != 0 {
			t.Fatalf("a new booking has notes: %v", items)
		}
		for _, body := range []string{"  Late arrival, keys in the box  ", "Guest asked for a cot.\r\nBring it Friday."} {
			r := e.do("villa", req{method: "POST", path: notesPath("villa", id), body: map[string]any{"body": body}})
			want(t, r, http.StatusCreated)
			if got := r.data(t); got["author"] != "test" || got["body"] != strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n")) {
				t.Errorf("note written = %v", got)
			}
		}
		list := e.do("villa", req{method: "GET", path: notesPath("villa", id)})
		want(t, list, http.StatusOK)
		items := list.data(t)["items"].([]any)
		if len(items) != 2 || items[0].(map[string]any)["body"] != "Late arrival, keys in the box" ||
			items[1].(map[string]any)["body"] != "Guest asked for a cot.\nBring it Friday." {
			t.Fatalf("notes = %v, want both in order", items)
		}

		for _, tt := range []struct {
			name, org string
			id        int64
			body      any
			status    int
			code      string
		}{
			{"Empty", "villa", id, map[string]any{"body": "  "}, http.StatusUnprocessableEntity, "invalid"},
			{"TooLong", "villa", id, map[string]any{"body": strings.Repeat("a", 2001)}, http.StatusUnprocessableEntity, "invalid"},
			{"ControlCharacter", "villa", id, map[string]any{"body": "a\u0000b"}, http.StatusUnprocessableEntity, "invalid"},
			{"UnknownField", "villa", id, map[string]any{"body": "x", "pinned": true}, http.StatusUnprocessableEntity, "invalid"},
			{"AnotherOrganisation", "other", id, map[string]any{"body": "x"}, http.StatusNotFound, "not_found"},
			{"UnknownBooking", "villa", id + 1000, map[string]any{"body": "x"}, http.StatusNotFound, "not_found"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				want(t, e.do(tt.org, req{method: "POST", path: notesPath(tt.org, tt.id), body: tt.body}), tt.status, tt.code)
			})
		}
		want(t, e.do("other", req{method: "GET", path: notesPath("other", id)}), http.StatusNotFound, "not_found")
		if got := e.do("villa", req{method: "GET", path: notesPath("villa", id)}).data(t)["items"].([]any); len(got) != 2 {
			t.Errorf("refused notes were written: %d notes", len(got))
		}

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		audited := 0
		for _, a := range log {
			if a.Action == "booking.note" {
				audited++
				if bytes.Contains(a.After, []byte("keys")) || bytes.Contains(a.After, []byte("cot")) {
					t.Errorf("audit entry holds the note's text: %s", a.After)
				}
			}
		}
		if audited != 2 {
			t.Errorf("%d booking.note audit entries, want 2", audited)
		}

		export := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/guest-data", id))})
		want(t, export, http.StatusOK)
		if got := export.data(t)["notes"].([]any); len(got) != 2 {
			t.Errorf("export carries %d notes, want 2", len(got))
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "none"}}), http.StatusOK)
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/erase-guest", id))}), http.StatusOK)
		if got := e.do("villa", req{method: "GET", path: notesPath("villa", id)}).data(t)["items"].([]any); len(got) != 0 {
			t.Errorf("the erasure kept %d notes", len(got))
		}
	})
}
