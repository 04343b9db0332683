package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/review"
)

// stayOver books soleil 2026-06-10 → 13 for guestName, pays and confirms
// it, and returns its token.
func confirmedStay(t *testing.T, e *testEnv, checkIn, checkOut string) string {
	t.Helper()
	base := "/api/v1/book/villa"
	c := e.do(call{method: "POST", path: base + "/checkout", body: checkoutBody(e.Props["soleil"], checkIn, checkOut)})
	if c.Status != 201 {
		t.Fatalf("checkout: %d %s", c.Status, c.Body)
	}
	token := c.obj(t)["booking_token"].(string)
	payBooking(t, e, "villa", token)
	if r := e.do(call{method: "POST", path: base + "/booking/" + token + "/confirm", body: `{"payment_intent_id":"` + intentOf(t, e, "villa", token) + `"}`}); r.Status != 200 {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	return token
}

func TestReviewOfAStay(t *testing.T) {
	e := newTestEnv(t)
	base := "/api/v1/book/villa"
	token := confirmedStay(t, e, "2026-06-10", "2026-06-13")
	reviewPath := base + "/booking/" + token + "/review"

	// Before the stay is over: not reviewable, and a review is refused.
	var g struct {
		Reviewable bool `json:"reviewable"`
		Review     *struct {
			Rating    int    `json:"rating"`
			Comment   string `json:"comment"`
			Published bool   `json:"published"`
		} `json:"review"`
	}
	e.do(call{method: "GET", path: reviewPath}).data(t, &g)
	if g.Reviewable || g.Review != nil {
		t.Fatalf("before the stay: %+v, want not reviewable", g)
	}
	early := e.do(call{method: "POST", path: reviewPath, body: `{"rating":5}`})
	if early.Status != 422 || early.Env.Code != booking.CodeBookingClosed || !strings.Contains(early.Env.Message, "terminé") {
		t.Fatalf("review before the stay is over: %d %s", early.Status, early.Body)
	}

	// The morning of the check-out day in Paris, the stay is over.
	e.Clock.Set(time.Date(2026, 6, 12, 22, 30, 0, 0, time.UTC)) // 00:30 on 13 June in Paris
	e.do(call{method: "GET", path: reviewPath}).data(t, &g)
	if !g.Reviewable {
		t.Fatalf("on the check-out day: not reviewable")
	}
	for _, c := range []struct{ body, field, reason string }{
		{`{"rating":0}`, "rating", "out_of_range"},
		{`{"rating":6}`, "rating", "out_of_range"},
		{`{"rating":4.5}`, "rating", "invalid_type"},
		{`{"comment":"nice"}`, "rating", "required"},
		{`{"rating":4,"comment":"` + strings.Repeat("a", review.MaxComment+1) + `"}`, "comment", "too_long"},
		{`{"rating":4,"comment":"a\u0000b"}`, "comment", booking.ReasonInvalidCharacters},
	} {
		r := e.do(call{method: "POST", path: reviewPath, body: c.body})
		if r.Status != 422 || len(r.Env.FieldCodes[c.field]) != 1 || r.Env.FieldCodes[c.field][0] != c.reason {
			t.Errorf("%.40s: %d %s, want 422 %s %s", c.body, r.Status, r.Body, c.field, c.reason)
		}
	}

	// Two submissions at once: one is stored, the other is a conflict.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	start := make(chan struct{})
	for i := range statuses {
		wg.Go(func() {
			<-start
			statuses[i] = e.do(call{method: "POST", path: reviewPath, remote: fmt.Sprintf("192.0.2.%d:1", 10+i),
				body: `{"rating":5,"comment":"  Maison superbe,\r\ncalme.  "}`}).Status
		})
	}
	close(start)
	wg.Wait()
	if !(statuses[0] == 201 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 201) {
		t.Fatalf("two reviews at once: %v, want one 201 and one 409", statuses)
	}
	e.do(call{method: "GET", path: reviewPath}).data(t, &g)
	if g.Reviewable || g.Review == nil || g.Review.Rating != 5 || g.Review.Comment != "Maison superbe,\ncalme." || g.Review.Published {
		t.Fatalf("after the review: %+v", g)
	}
	again := e.do(call{method: "POST", path: reviewPath, body: `{"rating":1}`})
	if again.Status != 409 || !strings.Contains(again.Env.Message, "déjà") {
		t.Errorf("second review: %d %s", again.Status, again.Body)
	}

	// Nothing is public until the host publishes it.
	reviewsPath := base + "/properties/" + itoa(e.Props["soleil"]) + "/reviews"
	var pub struct {
		Rating *float64 `json:"rating"`
		Count  int      `json:"reviews_count"`
		Items  []struct {
			Rating    int    `json:"rating"`
			Comment   string `json:"comment"`
			Author    string `json:"author"`
			StayMonth string `json:"stay_month"`
		} `json:"items"`
		Next *string `json:"next_cursor"`
	}
	e.do(call{method: "GET", path: reviewsPath}).data(t, &pub)
	if pub.Rating != nil || pub.Count != 0 || len(pub.Items) != 0 {
		t.Fatalf("before publication: %+v", pub)
	}
	rs := review.New(review.Options{Store: e.Store.DB, Records: e.Store.DB, Clock: e.Clock})
	org, err := e.Service.Organization(t.Context(), "villa")
	if err != nil {
		t.Fatal(err)
	}
	list, err := rs.List(t.Context(), org, review.Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("host's list: %v, %v", list, err)
	}
	if _, err := rs.Publish(t.Context(), org, list[0].ID, true, host.Actor{Name: "host@example.com"}); err != nil {
		t.Fatal(err)
	}
	r := e.do(call{method: "GET", path: reviewsPath})
	r.data(t, &pub)
	if pub.Rating == nil || *pub.Rating != 5 || pub.Count != 1 || len(pub.Items) != 1 || pub.Next != nil {
		t.Fatalf("after publication: %s", r.Body)
	}
	if it := pub.Items[0]; it.Author != "Ada" || it.StayMonth != "2026-06" || it.Comment != "Maison superbe,\ncalme." {
		t.Errorf("published review: %+v", it)
	}
	if strings.Contains(string(r.Body), "Lovelace") || strings.Contains(string(r.Body), "@") {
		t.Errorf("the public review tells more of the guest than the first name: %s", r.Body)
	}
	if nf := e.do(call{method: "GET", path: base + "/properties/999999/reviews"}); nf.Status != http.StatusNotFound {
		t.Errorf("unknown property: %d", nf.Status)
	}
	if bad := e.do(call{method: "GET", path: reviewsPath + "?limit=0"}); bad.Status != 422 {
		t.Errorf("limit=0: %d", bad.Status)
	}
}

func TestReviewRefusedForACancelledStay(t *testing.T) {
	e := newTestEnv(t)
	token := confirmedStay(t, e, "2026-06-10", "2026-06-13")
	if r := e.do(call{method: "POST", path: "/api/v1/book/villa/booking/" + token + "/cancel"}); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	e.Clock.Set(time.Date(2026, 6, 20, 10, 0, 0, 0, time.UTC))
	r := e.do(call{method: "POST", path: "/api/v1/book/villa/booking/" + token + "/review", body: `{"rating":1}`})
	if r.Status != 422 || r.Env.Code != booking.CodeBookingClosed {
		t.Fatalf("review of a cancelled stay: %d %s", r.Status, r.Body)
	}
	if r := e.do(call{method: "GET", path: "/api/v1/book/villa/booking/unknown-token/review"}); r.Status != 404 {
		t.Errorf("unknown booking: %d", r.Status)
	}
}
