package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/outbox"
)

// threadData is the data of GET /booking/{token}/messages.
type threadData struct {
	CanWrite      bool    `json:"can_write"`
	WriteUntil    *string `json:"write_until"`
	AwaitingReply bool    `json:"awaiting_reply"`
	MaxLength     int     `json:"max_length"`
	Items         []struct {
		ID        int64  `json:"id"`
		From      string `json:"from"`
		Body      string `json:"body"`
		CreatedAt string `json:"created_at"`
	} `json:"items"`
}

// guestMessageEvents counts the outbox events that e-mail the host a
// guest's message.
func guestMessageEvents(t *testing.T, e *testEnv, slug string) int {
	t.Helper()
	org, err := e.Service.Organization(t.Context(), slug)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := e.Store.DB.MessageEvents(t.Context(), org.ID, []string{outbox.KindGuestMessage}, testNow.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

// TestGuestMessages: the guest of a confirmed stay reads an empty thread
// they may write on until 14 days after check-out, writes (the text
// trimmed, kept as text, HTML included), and each stored message records
// one e-mail to the host; bad messages are refused naming the field; a
// retry with its Idempotency-Key stores nothing twice; after five
// unanswered messages the guest waits for the host's answer; a pending
// booking and a stay long over are closed to messages.
func TestGuestMessages(t *testing.T) {
	e := newTestEnv(t)
	base := "/api/v1/book/villa"
	token := confirmedStay(t, e, "2026-06-10", "2026-06-13")
	path := base + "/booking/" + token + "/messages"
	// Each POST from its own address: the rate limit is another test's.
	posts := 0
	post := func(c call) response {
		t.Helper()
		posts++
		c.method, c.remote = "POST", fmt.Sprintf("203.0.113.%d:1", posts)
		return e.do(c)
	}
	read := func() threadData {
		t.Helper()
		var th threadData
		r := e.do(call{method: "GET", path: path})
		if got := r.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET messages: Cache-Control %q, want no-store", got)
		}
		r.data(t, &th)
		return th
	}

	th := read()
	if !th.CanWrite || th.WriteUntil == nil || *th.WriteUntil != "2026-06-27" || th.AwaitingReply || th.MaxLength != conversation.MaxLength || len(th.Items) != 0 {
		t.Fatalf("a new thread: %+v, want writable until 2026-06-27 and empty", th)
	}

	first := post(call{path: path, body: `{"body":"  <script>alert(1)</script>\r\nArrivée vers 23 h ?  "}`})
	if first.Status != 201 {
		t.Fatalf("post: %d %s", first.Status, first.Body)
	}
	if got := first.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("POST messages: Cache-Control %q, want no-store", got)
	}
	var m struct {
		ID   int64  `json:"id"`
		From string `json:"from"`
		Body string `json:"body"`
	}
	first.data(t, &m)
	if m.From != "guest" || m.Body != "<script>alert(1)</script>\nArrivée vers 23 h ?" || m.ID == 0 {
		t.Fatalf("stored message: %+v", m)
	}
	if n := guestMessageEvents(t, e, "villa"); n != 1 {
		t.Fatalf("%d e-mails to the host recorded, want 1", n)
	}

	for _, c := range []struct {
		name, body, field, reason string
	}{
		{"Blank", `{"body":"   "}`, "body", "required"},
		{"Missing", `{}`, "body", "required"},
		{"TooLong", `{"body":"` + strings.Repeat("é", conversation.MaxLength+1) + `"}`, "body", "too_long"},
		{"ControlCharacter", `{"body":"a\u0000b"}`, "body", booking.ReasonInvalidCharacters},
		{"BidiOverride", `{"body":"a\u202eb"}`, "body", booking.ReasonInvalidCharacters},
		{"NotAString", `{"body":42}`, "body", "invalid_type"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := post(call{path: path, body: c.body})
			if r.Status != 422 || len(r.Env.FieldCodes[c.field]) != 1 || r.Env.FieldCodes[c.field][0] != c.reason {
				t.Errorf("%d %s, want 422 %s %s", r.Status, r.Body, c.field, c.reason)
			}
		})
	}
	if r := post(call{path: path, body: `{"body":`}); r.Status != 400 {
		t.Errorf("malformed JSON: %d %s", r.Status, r.Body)
	}
	if r := post(call{path: path, body: `{"body":"x"}`, header: map[string]string{"Content-Type": "text/plain"}}); r.Status != 415 {
		t.Errorf("not JSON: %d %s", r.Status, r.Body)
	}
	if r := post(call{path: base + "/booking/unknown-token/messages", body: `{"body":"x"}`}); r.Status != 404 {
		t.Errorf("unknown token: %d %s", r.Status, r.Body)
	}

	t.Run("IdempotencyKey", func(t *testing.T) {
		key := map[string]string{"Idempotency-Key": "7c1f-retry"}
		a := post(call{path: path, header: key, body: `{"body":"Un lit bébé ?"}`})
		b := post(call{path: path, header: key, body: `{"body":"Un lit bébé ?"}`})
		if a.Status != 201 || b.Status != 201 || string(a.Env.Data) != string(b.Env.Data) {
			t.Fatalf("a retry: %d %s then %d %s, want the same message twice", a.Status, a.Body, b.Status, b.Body)
		}
		other := post(call{path: path, header: key, body: `{"body":"Autre chose"}`})
		if other.Status != 409 || other.Env.Code != booking.CodeConflict {
			t.Errorf("the key with another text: %d %s, want 409", other.Status, other.Body)
		}
		bad := post(call{path: path, header: map[string]string{"Idempotency-Key": "with space"}, body: `{"body":"x"}`})
		if bad.Status != 422 {
			t.Errorf("a key with a space: %d %s, want 422", bad.Status, bad.Body)
		}
		if n := guestMessageEvents(t, e, "villa"); n != 2 {
			t.Errorf("%d e-mails to the host recorded, want 2 (one per stored message)", n)
		}
	})

	t.Run("AwaitingReply", func(t *testing.T) {
		for i := len(read().Items); i < conversation.MaxUnanswered; i++ {
			if r := post(call{path: path, body: fmt.Sprintf(`{"body":"relance %d"}`, i)}); r.Status != 201 {
				t.Fatalf("message %d: %d %s", i, r.Status, r.Body)
			}
		}
		if th := read(); !th.AwaitingReply || !th.CanWrite || len(th.Items) != conversation.MaxUnanswered {
			t.Fatalf("after %d messages: %+v", conversation.MaxUnanswered, th)
		}
		r := post(call{path: path, body: `{"body":"encore"}`})
		if r.Status != 409 || !strings.Contains(r.Env.Message, "attendez sa réponse") {
			t.Fatalf("one message too many: %d %s", r.Status, r.Body)
		}
		// The host answers: the guest may write again.
		b, err := e.Store.DB.BookingByToken(t.Context(), e.bookings("villa")[0].OrgID, token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Store.DB.AddMessage(t.Context(), &conversation.Message{BookingID: b.ID, From: conversation.FromHost,
			Author: "host@example.com", Body: "Bien reçu !", CreatedAt: e.Clock.Now()}); err != nil {
			t.Fatal(err)
		}
		th := read()
		if th.AwaitingReply || len(th.Items) != conversation.MaxUnanswered+1 || th.Items[len(th.Items)-1].From != "host" {
			t.Fatalf("after the host's answer: %+v", th)
		}
		if strings.Contains(string(e.do(call{method: "GET", path: path}).Body), "host@example.com") {
			t.Errorf("the guest sees who in the host's team wrote")
		}
		if r := post(call{path: path, body: `{"body":"Merci !"}`}); r.Status != 201 {
			t.Errorf("after the host's answer: %d %s", r.Status, r.Body)
		}
	})

	t.Run("Closed", func(t *testing.T) {
		pending := base + "/booking/" + e.Tokens["pending"] + "/messages"
		var th threadData
		e.do(call{method: "GET", path: pending}).data(t, &th)
		if th.CanWrite || th.WriteUntil != nil {
			t.Errorf("a pending booking's thread: %+v, want closed", th)
		}
		r := post(call{path: pending, body: `{"body":"x"}`, header: map[string]string{"Accept-Language": "en"}})
		if r.Status != 422 || r.Env.Code != booking.CodeBookingClosed || r.Env.Message != "Messages on this booking are closed." {
			t.Errorf("a message on a pending booking: %d %s", r.Status, r.Body)
		}
		// 27 June is the last day in Paris; 28 June at 00:30 there is too late.
		e.Clock.Set(time.Date(2026, 6, 27, 21, 30, 0, 0, time.UTC))
		if th := read(); !th.CanWrite {
			t.Errorf("on the last day: %+v, want writable", th)
		}
		e.Clock.Set(time.Date(2026, 6, 27, 22, 30, 0, 0, time.UTC))
		if th := read(); th.CanWrite || len(th.Items) == 0 {
			t.Errorf("the day after the last: %+v, want closed, the thread still shown", th)
		}
		if r := post(call{path: path, body: `{"body":"trop tard"}`}); r.Status != 422 || !strings.Contains(r.Env.Message, "fermés") {
			t.Errorf("a message after the window: %d %s", r.Status, r.Body)
		}
		// A retry of a message stored in time still gets its answer.
		retry := post(call{path: path, header: map[string]string{"Idempotency-Key": "7c1f-retry"}, body: `{"body":"Un lit bébé ?"}`})
		if retry.Status != 201 || !strings.Contains(string(retry.Env.Data), "Un lit bébé ?") {
			t.Errorf("a retry after the window: %d %s, want the stored message", retry.Status, retry.Body)
		}
		if r := post(call{path: path, header: map[string]string{"Idempotency-Key": "late-key"}, body: `{"body":"Un lit bébé ?"}`}); r.Status != 422 {
			t.Errorf("a new key after the window: %d %s, want 422", r.Status, r.Body)
		}
	})
}

// TestGuestMessagesRateLimited: a guest's messages are limited like the
// other POSTs under a booking token: 10 a minute per client address.
func TestGuestMessagesRateLimited(t *testing.T) {
	e := newTestEnv(t)
	path := "/api/v1/book/villa/booking/" + confirmedStay(t, e, "2026-06-10", "2026-06-13") + "/messages"
	statuses := map[int]int{}
	for range 11 {
		statuses[e.do(call{method: "POST", path: path, body: `{"body":"   "}`, remote: "198.51.100.7:1"}).Status]++
	}
	if statuses[422] != 10 || statuses[429] != 1 {
		t.Errorf("11 posts from one address: %v, want 10 answered and 1 refused with 429", statuses)
	}
	if r := e.do(call{method: "POST", path: path, body: `{"body":"Bonjour"}`, remote: "198.51.100.8:1"}); r.Status != 201 {
		t.Errorf("another address: %d %s", r.Status, r.Body)
	}
}
