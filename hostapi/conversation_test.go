package hostapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/schedule"
)

// TestGuestHostThread: a guest writes from the public API, the host reads
// the thread and answers (by its key's name, e-mailed to the guest), a bad
// answer is refused naming the field, another organisation's or an
// unknown booking is not found, the audit log keeps the fact and not the
// words, a retry with the same Idempotency-Key answers once; the guest's
// data export carries the thread, and the guest's erasure deletes it and
// closes it to both sides.
func TestGuestHostThread(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		id := e.paidBooking("villa", "soleil", "2026-05-03", "2026-05-05")
		b, err := e.replicas[0].store.BookingByID(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		guestPath := "/api/v1/book/villa/booking/" + b.Token + "/messages"
		hostMessages := func(org string, id int64) string { return hostPath(org, fmt.Sprintf("/bookings/%d/messages", id)) }

		want(t, e.do("villa", req{method: "POST", path: guestPath, body: map[string]any{"body": "Bonjour, pouvons-nous arriver à 14 h ?"}}), http.StatusCreated)
		list := e.do("villa", req{method: "GET", path: hostMessages("villa", id)})
		want(t, list, http.StatusOK)
		items := list.data(t)["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["from"] != "guest" || items[0].(map[string]any)["author"] != nil {
			t.Fatalf("the host's view of the thread: %v", items)
		}

		key := map[string]string{"Idempotency-Key": "answer-1"}
		answer := e.do("villa", req{method: "POST", path: hostMessages("villa", id), header: key, body: map[string]any{"body": "  Oui, à partir de 14 h.\r\nÀ bientôt  "}})
		want(t, answer, http.StatusCreated)
		if got := answer.data(t); got["from"] != "host" || got["author"] != "test" || got["body"] != "Oui, à partir de 14 h.\nÀ bientôt" {
			t.Errorf("the host's answer = %v", got)
		}
		again := e.do("villa", req{method: "POST", path: hostMessages("villa", id), header: key, body: map[string]any{"body": "  Oui, à partir de 14 h.\r\nÀ bientôt  "}})
		if want(t, again, http.StatusCreated); !bytes.Equal(again.body, answer.body) {
			t.Errorf("a retry with the key: %s, want the first answer %s", again.body, answer.body)
		}

		for _, tt := range []struct {
			name, org string
			id        int64
			body      any
			status    int
			code      string
		}{
			{"Empty", "villa", id, map[string]any{"body": " \n "}, http.StatusUnprocessableEntity, "invalid"},
			{"TooLong", "villa", id, map[string]any{"body": strings.Repeat("a", conversation.MaxLength+1)}, http.StatusUnprocessableEntity, "invalid"},
			{"ControlCharacter", "villa", id, map[string]any{"body": "a\u0007b"}, http.StatusUnprocessableEntity, "invalid"},
			{"AnotherOrganisation", "other", id, map[string]any{"body": "x"}, http.StatusNotFound, "not_found"},
			{"UnknownBooking", "villa", id + 1000, map[string]any{"body": "x"}, http.StatusNotFound, "not_found"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				want(t, e.do(tt.org, req{method: "POST", path: hostMessages(tt.org, tt.id), body: tt.body}), tt.status, tt.code)
			})
		}
		want(t, e.do("other", req{method: "GET", path: hostMessages("other", id)}), http.StatusNotFound, "not_found")

		// The guest sees the answer, never who in the team wrote it.
		guest := e.do("villa", req{method: "GET", path: guestPath})
		want(t, guest, http.StatusOK)
		if !bytes.Contains(guest.body, []byte(`"from":"host"`)) || bytes.Contains(guest.body, []byte(`"test"`)) {
			t.Errorf("the guest's view: %s", guest.body)
		}
		evs, err := e.replicas[0].store.Records.(schedule.Store).MessageEvents(t.Context(), e.orgs["villa"].ID,
			[]string{outbox.KindGuestMessage, outbox.KindHostMessage}, testNow.AddDate(0, 0, -1))
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 2 || evs[0].Kind != outbox.KindGuestMessage || evs[1].Kind != outbox.KindHostMessage {
			t.Errorf("e-mails recorded: %+v, want the guest's to the host then the host's to the guest", evs)
		}

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		audited := 0
		for _, a := range log {
			if a.Action == "booking.message" {
				audited++
				var after struct {
					Length int `json:"length"`
				}
				if bytes.Contains(a.After, []byte("14 h")) || json.Unmarshal(a.After, &after) != nil || after.Length != 32 {
					t.Errorf("audit entry of the answer: %s, want its length and not its words", a.After)
				}
			}
		}
		if audited != 1 {
			t.Errorf("%d booking.message audit entries, want 1", audited)
		}

		export := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/guest-data", id))})
		want(t, export, http.StatusOK)
		msgs := export.data(t)["messages"].([]any)
		if len(msgs) != 2 || msgs[0].(map[string]any)["from"] != "guest" || msgs[1].(map[string]any)["body"] != "Oui, à partir de 14 h.\nÀ bientôt" {
			t.Errorf("the export's messages: %v", msgs)
		}

		// The stay is over: the guest may be erased, and the thread goes.
		e.clock.Set(testNow.AddDate(0, 0, 5))
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/erase-guest", id))}), http.StatusOK)
		if got := e.do("villa", req{method: "GET", path: hostMessages("villa", id)}).data(t)["items"].([]any); len(got) != 0 {
			t.Errorf("the erasure kept %d messages", len(got))
		}
		want(t, e.do("villa", req{method: "POST", path: hostMessages("villa", id), body: map[string]any{"body": "Encore un mot"}}),
			http.StatusUnprocessableEntity, "booking_closed")
		want(t, e.do("villa", req{method: "POST", path: guestPath, body: map[string]any{"body": "Et moi ?"}}),
			http.StatusUnprocessableEntity, "booking_closed")
		if got := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/guest-data", id))}).data(t)["messages"].([]any); len(got) != 0 {
			t.Errorf("the export after the erasure carries %d messages", len(got))
		}
	})
}

// TestThreadIsNotForHousekeeping: a housekeeping member neither reads nor
// writes a booking's messages (the guest's words, about their stay); a
// manager does both.
func TestThreadIsNotForHousekeeping(t *testing.T) {
	e, _, _ := memberEnv(t, backends(t)["sqlite"](t, 1))
	id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
	for _, tt := range []struct {
		role, method string
		body         any
		status       int
	}{
		{"housekeeping", "GET", nil, 403},
		{"housekeeping", "POST", map[string]any{"body": "Le ménage est fait."}, 403},
		{"manager", "POST", map[string]any{"body": "Bienvenue !"}, 201},
		{"manager", "GET", nil, 200},
	} {
		t.Run(tt.role+" "+tt.method, func(t *testing.T) {
			e.t = t
			want(t, e.do("villa", req{method: tt.method, path: hostPath("villa", fmt.Sprintf("/bookings/%d/messages", id)), body: tt.body, key: "-", replica: 1,
				header: map[string]string{"X-Test-Member": "7:" + tt.role}}), tt.status)
		})
	}
}
