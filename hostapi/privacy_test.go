package hostapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/staykit/staykit/privacy"
)

// TestGuestDataAndErasure: a host exports a booking's guest data, cannot
// erase the guest while the stay is ahead, and erases them once it is
// cancelled or over; afterwards the guest's name, e-mail address and
// phone number appear nowhere in the booking, its host view, its export
// or the audit log, while the revenue report is unchanged.
func TestGuestDataAndErasure(t *testing.T) {
	personal := [][]byte{[]byte("ana@example.com"), []byte("+33612345678"), []byte("Ana Guest")}
	holds := func(body []byte) []string {
		var found []string
		for _, p := range personal {
			if bytes.Contains(body, p) {
				found = append(found, string(p))
			}
		}
		return found
	}
	forEachStore(t, func(t *testing.T, e *env) {
		cancelled := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		ended := e.paidBooking("villa", "soleil", "2026-05-03", "2026-05-05")
		bookingPath := func(id int64, rest string) string { return hostPath("villa", fmt.Sprintf("/bookings/%d%s", id, rest)) }
		report := func() []byte {
			r := e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/monthly?from=2026-05&to=2026-06")})
			return r.body
		}

		export := e.do("villa", req{method: "GET", path: bookingPath(cancelled, "/guest-data")})
		want(t, export, http.StatusOK)
		if got := holds(export.body); len(got) != len(personal) {
			t.Errorf("export before the erasure holds %v, want all of %q", got, personal)
		}
		for _, tt := range []struct {
			name   string
			org    string
			id     int64
			status int
			code   string
		}{
			{"ConfirmedStayAhead", "villa", cancelled, http.StatusConflict, "conflict"},
			{"AnotherOrganisation", "other", cancelled, http.StatusNotFound, "not_found"},
			{"UnknownBooking", "villa", cancelled + ended + 100, http.StatusNotFound, "not_found"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := e.do(tt.org, req{method: "POST", path: hostPath(tt.org, fmt.Sprintf("/bookings/%d/erase-guest", tt.id))})
				want(t, r, tt.status, tt.code)
				if tt.status == http.StatusConflict && !bytes.Contains(r.body, []byte("effacées une fois")) {
					t.Errorf("409 without its reason's message: %s", r.body)
				}
			})
		}
		want(t, e.do("villa", req{method: "POST", path: bookingPath(cancelled, "/cancel"), body: map[string]any{"refund": "none"}}), http.StatusOK)
		// Both stays were confirmed: each has its invoice, naming the guest.
		if _, err := e.replicas[0].invoices.IssueDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{cancelled, ended} {
			if got := holds(e.do("villa", req{method: "GET", path: bookingPath(id, "/invoices")}).body); len(got) != 1 {
				t.Fatalf("booking %d's invoices before the erasure name %v, want the guest", id, got)
			}
		}
		// The clock passes the other stay's check-out: over, it may be erased.
		e.clock.Set(testNow.AddDate(0, 0, 5))
		revenue := report()
		// A note made with an Idempotency-Key: its answer, kept for a
		// retry, names the guest.
		note := req{method: "POST", path: bookingPath(ended, "/notes"), body: map[string]any{"body": "Call Ana Guest"},
			header: map[string]string{"Idempotency-Key": "note-ended"}}
		want(t, e.do("villa", note), http.StatusCreated)
		if r := e.do("villa", note); r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("the note's retry before the erasure was not replayed: %v", r.header)
		}

		for _, id := range []int64{cancelled, ended} {
			r := e.do("villa", req{method: "POST", path: bookingPath(id, "/erase-guest")})
			want(t, r, http.StatusOK)
			d := r.data(t)
			if d["guest_name"] != privacy.ErasedName || d["guest_email"] != "" || d["guest_phone"] != "" {
				t.Errorf("booking %d after the erasure: %v %v %v", id, d["guest_name"], d["guest_email"], d["guest_phone"])
			}
			for what, body := range map[string][]byte{
				"erase answer": r.body,
				"host view":    e.do("villa", req{method: "GET", path: bookingPath(id, "")}).body,
				"export":       e.do("villa", req{method: "GET", path: bookingPath(id, "/guest-data")}).body,
				"invoices":     e.do("villa", req{method: "GET", path: bookingPath(id, "/invoices")}).body,
			} {
				if got := holds(body); len(got) > 0 {
					t.Errorf("booking %d, %s after the erasure holds %v: %s", id, what, got, body)
				}
			}
			if ex := e.do("villa", req{method: "GET", path: bookingPath(id, "/guest-data")}).data(t)["booking"].(map[string]any); ex["erased"] != true {
				t.Errorf("export of booking %d: erased = %v", id, ex["erased"])
			}
			b, err := e.replicas[0].store.BookingByID(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if !privacy.Erased(*b) || b.GuestEmail != "" || b.Message != "" {
				t.Errorf("stored booking %d: %q %q %q", id, b.GuestName, b.GuestEmail, b.GuestPhone)
			}
			// The invoice keeps its number and amount, not the guest.
			invs, err := e.replicas[0].invoices.BookingInvoices(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(invs) != 1 || invs[0].Number == 0 || !invs[0].Total.Equal(b.TotalAmount) || invs[0].Snapshot.Buyer.Name != privacy.ErasedName {
				t.Errorf("stored invoices of booking %d after the erasure: %+v", id, invs)
			}
		}
		// The kept answer went with the guest: the retry is refused.
		retry := e.do("villa", note)
		want(t, retry, http.StatusConflict, "conflict")
		if !bytes.Contains(retry.body, []byte("effacées depuis")) || len(holds(retry.body)) > 0 {
			t.Errorf("retry of the note after the erasure: %s, want the answer_erased conflict", retry.body)
		}
		if got := holds(e.do("villa", req{method: "GET", path: hostPath("villa", "/invoices")}).body); len(got) > 0 {
			t.Errorf("the invoice list after the erasures holds %v", got)
		}
		if got := report(); !bytes.Equal(got, revenue) {
			t.Errorf("revenue report changed by the erasures:\nbefore %s\nafter  %s", revenue, got)
		}

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		actions := map[string]int{}
		for _, a := range log {
			actions[a.Action]++
			if got := append(holds(a.Before), holds(a.After)...); len(got) > 0 {
				t.Errorf("audit entry %s %s holds %v", a.Action, a.Target, got)
			}
		}
		// One export before, two after; two erasures (the refused ones are
		// not audited: nothing changed).
		if actions["guest.export"] != 5 || actions["guest.erase"] != 2 {
			t.Errorf("audit log actions %v, want 5 guest.export and 2 guest.erase", actions)
		}
		if got := holds(e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=100")}).body); len(got) > 0 {
			t.Errorf("audit log answer holds %v", got)
		}
	})
}
