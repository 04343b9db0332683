package hostapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestReviews: guests review their stays; the host lists every review,
// filters them, publishes and withdraws one (audited without the text),
// and the public API shows exactly the published ones; another
// organisation sees none of them.
func TestReviews(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		ctx := t.Context()
		r0 := e.replicas[0]
		first := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		second := e.paidBooking("villa", "soleil", "2026-06-20", "2026-06-23")
		e.clock.Set(time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC))
		org, err := r0.svc.Organization(ctx, "villa")
		if err != nil {
			t.Fatal(err)
		}
		tokens := map[int64]string{}
		bs, err := r0.svc.Bookings(ctx, "villa")
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			tokens[b.ID] = b.Token
		}
		for _, w := range []struct {
			id     int64
			rating int
		}{{first, 5}, {second, 3}} {
			if _, err := r0.reviews.Submit(ctx, r0.svc.Org(org), tokens[w.id], w.rating, fmt.Sprintf("Stay %d", w.rating)); err != nil {
				t.Fatalf("review of booking %d: %v", w.id, err)
			}
		}

		path := hostPath("villa", "/reviews")
		all := e.do("villa", req{method: "GET", path: path})
		want(t, all, http.StatusOK)
		items := all.data(t)["items"].([]any)
		if len(items) != 2 || items[0].(map[string]any)["booking_id"] != float64(second) || items[1].(map[string]any)["rating"] != float64(5) ||
			items[0].(map[string]any)["author"] != "Ana" || items[0].(map[string]any)["published_at"] != nil {
			t.Fatalf("reviews = %v, want both, newest first, unpublished", items)
		}
		id := int64(items[1].(map[string]any)["id"].(float64))
		page := e.do("villa", req{method: "GET", path: path + "?limit=1"})
		want(t, page, http.StatusOK)
		if d := page.data(t); len(d["items"].([]any)) != 1 || d["next_cursor"] == nil {
			t.Errorf("page of 1 = %v", d)
		}
		want(t, e.do("villa", req{method: "GET", path: path + "?published=maybe"}), http.StatusUnprocessableEntity, "invalid")
		if got := e.do("other", req{method: "GET", path: hostPath("other", "/reviews")}).data(t)["items"].([]any); len(got) != 0 {
			t.Errorf("another organisation lists %v", got)
		}

		pub := e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%d/publish", path, id)})
		want(t, pub, http.StatusOK)
		if pub.data(t)["published_at"] != "2026-07-01T10:00:00Z" {
			t.Errorf("published = %v", pub.data(t))
		}
		want(t, e.do("other", req{method: "POST", path: fmt.Sprintf("%s/%d/publish", hostPath("other", "/reviews"), id)}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%d/publish", path, id+1000)}), http.StatusNotFound, "not_found")
		only := e.do("villa", req{method: "GET", path: path + "?published=true"}).data(t)["items"].([]any)
		if len(only) != 1 || only[0].(map[string]any)["id"] != float64(id) {
			t.Errorf("published only = %v", only)
		}
		public := func() string {
			rec := httptest.NewRecorder()
			r0.server.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/api/v1/book/villa/properties/%d/reviews", e.props["soleil"]), nil))
			return rec.Body.String()
		}
		if body := public(); !strings.Contains(body, `"rating":5.0,"reviews_count":1`) || !strings.Contains(body, `"comment":"Stay 5"`) ||
			strings.Contains(body, "Stay 3") || strings.Contains(body, "ana@example.com") {
			t.Errorf("public reviews after publishing one: %s", body)
		}

		want(t, e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%d/unpublish", path, id)}), http.StatusOK)
		if body := public(); !strings.Contains(body, `"rating":null,"reviews_count":0,"items":[]`) {
			t.Errorf("public reviews after the withdrawal: %s", body)
		}
		log, err := r0.store.Records.AuditLog(ctx, e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, a := range log {
			if strings.HasPrefix(a.Action, "review.") {
				actions = append(actions, a.Action+" "+a.Target)
				if strings.Contains(string(a.After)+string(a.Before), "Stay") {
					t.Errorf("the audit log keeps the review's text: %s %s", a.Before, a.After)
				}
			}
		}
		if len(actions) != 2 || actions[0] != fmt.Sprintf("review.unpublish review:%d", id) || actions[1] != fmt.Sprintf("review.publish review:%d", id) {
			t.Errorf("audit = %v", actions)
		}
	})
}
