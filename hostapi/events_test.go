package hostapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/outbox"
)

// eventSchema is eventfeed.Schema compiled.
var eventSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(eventfeed.Schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("events.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("events.schema.json")
})

// feedPage is GET /events decoded, each event kept raw.
type feedPage struct {
	Items      []json.RawMessage `json:"items"`
	NextCursor string            `json:"next_cursor"`
	HasMore    bool              `json:"has_more"`
}

// readEvents reads one page of org's feed and checks each event against
// the events' JSON Schema; it returns the page and the events' ids.
func (e *env) readEvents(org, query string) (feedPage, []string) {
	e.t.Helper()
	r := e.do(org, req{method: http.MethodGet, path: hostPath(org, "/events"+query)})
	want(e.t, r, http.StatusOK)
	var env struct {
		Data feedPage `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		e.t.Fatal(err)
	}
	sch, err := eventSchema()
	if err != nil {
		e.t.Fatal(err)
	}
	var ids []string
	for _, raw := range env.Data.Items {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			e.t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			e.t.Errorf("event %s does not match events.schema.json: %v", raw, err)
		}
		var ev struct {
			ID string `json:"id"`
		}
		json.Unmarshal(raw, &ev)
		ids = append(ids, ev.ID)
	}
	return env.Data, ids
}

// checkoutPaid checks out and pays a booking of the villa's property,
// without failing the test (it runs in goroutines).
func (e *env) checkoutPaid(in civil.Date) error {
	ctx := e.t.Context()
	svc := e.replicas[0].svc
	res, err := svc.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: e.props["soleil"],
		Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(2), Guests: 2},
		GuestName: "Ana Guest", GuestEmail: "ana@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		return err
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		return err
	}
	_, err = svc.Confirm(ctx, "villa", res.Booking.Token, booking.ConfirmRequest{})
	return err
}

// A receiver that was down for two days recovers every event from the
// feed, from the last cursor it saved, with no gap and no duplicate, even
// while new events are written as it reads; then it acknowledges them.
func TestEventFeedRecoversAfterTwoDaysDown(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t, 1))
			day := civil.MustParse("2026-06-01")
			for i := range 3 {
				if err := e.checkoutPaid(day.AddDays(3 * i)); err != nil {
					t.Fatal(err)
				}
			}
			e.requestBooking("2026-07-01", "2026-07-03")
			page, seenBefore := e.readEvents("villa", "?limit=2")
			cursor := page.NextCursor
			for page.HasMore {
				var more []string
				page, more = e.readEvents("villa", "?limit=2&after="+cursor)
				seenBefore = append(seenBefore, more...)
				cursor = page.NextCursor
			}
			if len(seenBefore) != 3 {
				t.Fatalf("before the outage: %v, want the 3 confirmations of villa only", seenBefore)
			}
			want(t, e.do("villa", req{method: http.MethodPost, path: hostPath("villa", "/events/ack"), body: map[string]string{"up_to": cursor}}), http.StatusOK)

			// Down for two days: bookings come in, some of them while the
			// receiver, back, pages through what it missed.
			e.clock.Advance(48 * time.Hour)
			const first, concurrent = 6, 6
			for i := range first {
				if err := e.checkoutPaid(day.AddDays(20 + 3*i)); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			errs := make(chan error, concurrent)
			start := make(chan struct{})
			for i := range concurrent {
				wg.Go(func() {
					<-start
					errs <- e.checkoutPaid(day.AddDays(60 + 3*i))
				})
			}
			close(start)
			var got []string
			for {
				page, ids := e.readEvents("villa", "?limit=3&after="+cursor)
				got = append(got, ids...)
				cursor = page.NextCursor
				if !page.HasMore && len(got) >= first {
					break
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			for {
				page, ids := e.readEvents("villa", "?limit=3&after="+cursor)
				got = append(got, ids...)
				cursor = page.NextCursor
				if len(ids) == 0 {
					break
				}
			}

			// Every event of the organisation after the saved cursor, once,
			// in order: what the store holds.
			all, err := e.replicas[0].store.Records.(eventfeed.Store).FeedEvents(t.Context(), e.orgs["villa"].ID, 0, 1000, false)
			if err != nil {
				t.Fatal(err)
			}
			var wantIDs []string
			for _, ev := range all[3:] {
				wantIDs = append(wantIDs, "evt_"+strconv.FormatInt(ev.ID, 10))
			}
			if fmt.Sprint(got) != fmt.Sprint(wantIDs) || len(got) != first+concurrent {
				t.Fatalf("recovered %v,\nwant %v (%d events)", got, wantIDs, first+concurrent)
			}

			_, unacked := e.readEvents("villa", "?unacknowledged=true&limit=1000")
			if fmt.Sprint(unacked) != fmt.Sprint(got) {
				t.Errorf("unacknowledged = %v, want the recovered ones", unacked)
			}
			want(t, e.do("villa", req{method: http.MethodPost, path: hostPath("villa", "/events/"+got[0]+"/ack")}), http.StatusOK)
			want(t, e.do("other", req{method: http.MethodPost, path: hostPath("other", "/events/"+got[1]+"/ack")}), http.StatusNotFound, booking.CodeNotFound)
			r := e.do("villa", req{method: http.MethodPost, path: hostPath("villa", "/events/ack"), body: map[string]string{"up_to": got[len(got)-1]}})
			want(t, r, http.StatusOK)
			if n := r.data(t)["acknowledged"]; n != float64(len(got)-1) {
				t.Errorf("acknowledged %v, want %d", n, len(got)-1)
			}
			if _, left := e.readEvents("villa", "?unacknowledged=true"); len(left) != 0 {
				t.Errorf("unacknowledged after acking all: %v", left)
			}
		})
	}
}

func TestEventFeedRequests(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	for _, tc := range []struct {
		name   string
		r      req
		status int
		code   string
	}{
		{"bad cursor", req{method: http.MethodGet, path: hostPath("villa", "/events?after=x")}, http.StatusUnprocessableEntity, booking.CodeInvalid},
		{"limit too large", req{method: http.MethodGet, path: hostPath("villa", "/events?limit=1001")}, http.StatusUnprocessableEntity, booking.CodeInvalid},
		{"bad filter", req{method: http.MethodGet, path: hostPath("villa", "/events?unacknowledged=yes")}, http.StatusUnprocessableEntity, booking.CodeInvalid},
		{"no key", req{method: http.MethodGet, path: hostPath("villa", "/events"), key: "-"}, http.StatusUnauthorized, ""},
		{"unknown event", req{method: http.MethodPost, path: hostPath("villa", "/events/evt_999/ack")}, http.StatusNotFound, booking.CodeNotFound},
		{"ack without cursor", req{method: http.MethodPost, path: hostPath("villa", "/events/ack"), body: map[string]string{}}, http.StatusUnprocessableEntity, booking.CodeInvalid},
		{"replay unknown endpoint", req{method: http.MethodPost, path: hostPath("villa", "/webhooks/999/replay"),
			body: map[string]string{"from": "2026-04-01T00:00:00Z", "to": "2026-05-01T00:00:00Z"}}, http.StatusNotFound, booking.CodeNotFound},
		{"replay backwards", req{method: http.MethodPost, path: hostPath("villa", "/webhooks/1/replay"),
			body: map[string]string{"from": "2026-05-01T00:00:00Z", "to": "2026-04-01T00:00:00Z"}}, http.StatusUnprocessableEntity, booking.CodeInvalid},
		{"schema", req{method: http.MethodGet, path: hostapi.Prefix + "events.schema.json", key: "-"}, http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("villa", tc.r)
			if tc.code == "" {
				want(t, r, tc.status)
			} else {
				want(t, r, tc.status, tc.code)
			}
		})
	}
}

// A replay of a time range sends an endpoint's deliveries of that range
// again, at once.
func TestWebhookReplayRange(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t, 1))
			st := e.replicas[0].store
			ctx := t.Context()
			ep := outbox.Endpoint{OrgID: e.orgs["villa"].ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true}
			if err := st.Records.(outbox.Store).SaveWebhookEndpoint(ctx, &ep); err != nil {
				t.Fatal(err)
			}
			if err := e.checkoutPaid(civil.MustParse("2026-06-01")); err != nil {
				t.Fatal(err)
			}
			evs, err := st.Records.(eventfeed.Store).FeedEvents(ctx, e.orgs["villa"].ID, 0, 10, false)
			if err != nil || len(evs) != 1 {
				t.Fatalf("events %v, %v", evs, err)
			}
			ob := st.Records.(outbox.Store)
			if err := ob.DispatchOutboxEvent(ctx, evs[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID,
				Status: outbox.StatusDelivered, Attempts: 1}}, e.clock.Now()); err != nil {
				t.Fatal(err)
			}
			path := hostPath("villa", "/webhooks/"+strconv.FormatInt(ep.ID, 10)+"/replay")
			r := e.do("villa", req{method: http.MethodPost, path: path, body: map[string]string{
				"from": e.clock.Now().Add(-time.Hour).Format(time.RFC3339), "to": e.clock.Now().Add(time.Hour).Format(time.RFC3339)}})
			want(t, r, http.StatusOK)
			if n := r.data(t)["replayed"]; n != float64(1) {
				t.Fatalf("replayed %v, want 1", n)
			}
			ds, err := ob.OutboxDeliveries(ctx, evs[0].ID, 0, 0, 0)
			if err != nil || len(ds) != 1 || ds[0].Status != outbox.StatusPending || ds[0].Attempts != 0 {
				t.Errorf("delivery after the replay: %+v, %v; want pending, no attempts", ds, err)
			}
			r = e.do("villa", req{method: http.MethodPost, path: path, body: map[string]string{
				"from": e.clock.Now().Add(time.Hour).Format(time.RFC3339), "to": e.clock.Now().Add(2 * time.Hour).Format(time.RFC3339)}})
			if want(t, r, http.StatusOK); r.data(t)["replayed"] != float64(0) {
				t.Errorf("a range without events replayed %v", r.data(t)["replayed"])
			}
		})
	}
}
