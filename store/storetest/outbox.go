package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

func outboxEvent(b *booking.Booking, key string) outbox.Event {
	return outbox.Event{Key: key, Kind: "booking.confirmed", OrgID: b.OrgID, BookingID: b.ID}
}

var outboxScenarios = []scenario{
	{"Outbox/RecordOnceAndClaimWithLease", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		first, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "e1")}, t0)
		must(t, err)
		again, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "e1")}, t0.Add(time.Minute))
		must(t, err)
		if first[0].ID == 0 || again[0].ID != first[0].ID || !again[0].CreatedAt.Equal(t0) {
			t.Fatalf("recorded %+v then %+v, want the same event stored once at %v", first[0], again[0], t0)
		}
		claimed, err := s.ClaimOutboxEvents(t.Context(), t0, t0.Add(time.Minute), 10)
		must(t, err)
		if len(claimed) != 1 || claimed[0].ID != first[0].ID || claimed[0].BookingID != b.ID {
			t.Fatalf("claimed %+v, want event %d", claimed, first[0].ID)
		}
		if got, _ := s.ClaimOutboxEvents(t.Context(), t0.Add(30*time.Second), t0.Add(time.Hour), 10); len(got) != 0 {
			t.Errorf("claimed again during the lease: %+v", got)
		}
		if got, _ := s.ClaimOutboxEvents(t.Context(), t0.Add(time.Minute), t0.Add(time.Hour), 10); len(got) != 1 {
			t.Errorf("after the lease: %d claimed, want 1", len(got))
		}
		_, err = s.RecordOutbox(t.Context(), []outbox.Event{{Key: "x", Kind: "k"}}, t0)
		wantCode(t, err, booking.CodeInvalid)
	}},
	{"Outbox/WrittenWithTransitionOrNotAtAll", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		_, err := s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusRequested},
			To: booking.StatusConfirmed, At: t0, Outbox: []outbox.Event{outboxEvent(b, "refused")}})
		wantCode(t, err, booking.CodeConflict)
		if got, _ := s.ClaimOutboxEvents(t.Context(), t0.Add(time.Hour), t0.Add(2*time.Hour), 10); len(got) != 0 {
			t.Fatalf("a refused transition left events %+v", got)
		}
		ev := outboxEvent(b, "ok")
		ev.BookingID = 0
		_, err = s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
			To: booking.StatusConfirmed, At: t0, Confirmed: true, Outbox: []outbox.Event{ev}})
		must(t, err)
		got, err := s.ClaimOutboxEvents(t.Context(), t0, t0.Add(time.Minute), 10)
		must(t, err)
		if len(got) != 1 || got[0].Key != "ok" || got[0].BookingID != b.ID || !got[0].CreatedAt.Equal(t0) {
			t.Fatalf("events = %+v, want the transition's, of booking %d at %v", got, b.ID, t0)
		}
	}},
	{"Outbox/DispatchDeliverRedeliver", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true,
			EventTypes: []string{"booking.confirmed", "booking.cancelled"}, CreatedAt: t0, UpdatedAt: t0}
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		evs, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "e1")}, t0)
		must(t, err)
		ds := []outbox.Delivery{{Channel: outbox.ChannelMail, To: outbox.ToGuest}, {Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}
		must(t, s.DispatchOutboxEvent(t.Context(), evs[0].ID, ds, t0))
		must(t, s.DispatchOutboxEvent(t.Context(), evs[0].ID, ds, t0)) // a second worker's late dispatch adds nothing
		if got, _ := s.ClaimOutboxEvents(t.Context(), t0.Add(time.Hour), t0.Add(2*time.Hour), 10); len(got) != 0 {
			t.Errorf("a dispatched event is claimed again: %+v", got)
		}
		claimed, err := s.ClaimOutboxDeliveries(t.Context(), t0, t0.Add(time.Minute), 10)
		must(t, err)
		if len(claimed) != 2 {
			t.Fatalf("claimed %d deliveries, want 2", len(claimed))
		}
		if got, _ := s.ClaimOutboxDeliveries(t.Context(), t0, t0.Add(time.Minute), 10); len(got) != 0 {
			t.Errorf("deliveries claimed twice: %+v", got)
		}
		for i := range claimed {
			d := &claimed[i]
			d.Status, d.Attempts, d.ResponseCode, d.UpdatedAt, d.DeliveredAt = outbox.StatusDelivered, 1, 200, t0, t0
			must(t, s.UpdateOutboxDelivery(t.Context(), d))
		}
		log, err := s.OutboxDeliveries(t.Context(), 0, ep.ID, 0, 0)
		must(t, err)
		if len(log) != 1 || log[0].Status != outbox.StatusDelivered || log[0].ResponseCode != 200 || !log[0].DeliveredAt.Equal(t0) {
			t.Fatalf("endpoint log = %+v", log)
		}
		must(t, s.RedeliverOutbox(t.Context(), log[0].ID, t0.Add(time.Hour)))
		again, err := s.ClaimOutboxDeliveries(t.Context(), t0.Add(time.Hour), t0.Add(2*time.Hour), 10)
		must(t, err)
		if len(again) != 1 || again[0].ID != log[0].ID || again[0].Attempts != 0 {
			t.Fatalf("after redelivery claimed %+v", again)
		}
		wantCode(t, s.RedeliverOutbox(t.Context(), 999_999, t0), booking.CodeNotFound)
		one, err := s.OutboxDelivery(t.Context(), log[0].ID)
		must(t, err)
		if one.ID != log[0].ID || one.EndpointID != ep.ID || one.EventID != evs[0].ID {
			t.Errorf("OutboxDelivery(%d) = %+v", log[0].ID, one)
		}
		_, err = s.OutboxDelivery(t.Context(), 999_999)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Outbox/DeliveriesPaged", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true, CreatedAt: t0, UpdatedAt: t0}
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		var ids []int64 // newest first, as listed
		for i := range 5 {
			evs, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, fmt.Sprintf("page%d", i))}, t0)
			must(t, err)
			must(t, s.DispatchOutboxEvent(t.Context(), evs[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, t0))
		}
		all, err := s.OutboxDeliveries(t.Context(), 0, ep.ID, 0, 0)
		must(t, err)
		for _, d := range all {
			ids = append(ids, d.ID)
		}
		if len(ids) != 5 {
			t.Fatalf("%d deliveries, want 5", len(ids))
		}
		for _, tt := range []struct {
			before int64
			limit  int
			want   []int64
		}{
			{0, 2, ids[:2]},
			{ids[1], 2, ids[2:4]},
			{ids[3], 2, ids[4:]},
			{ids[4], 2, nil},
			{ids[0], 0, ids[1:]},
		} {
			got, err := s.OutboxDeliveries(t.Context(), 0, ep.ID, tt.before, tt.limit)
			must(t, err)
			var gotIDs []int64
			for _, d := range got {
				gotIDs = append(gotIDs, d.ID)
			}
			if fmt.Sprint(gotIDs) != fmt.Sprint(tt.want) {
				t.Errorf("before %d limit %d: %v, want %v", tt.before, tt.limit, gotIDs, tt.want)
			}
		}
	}},
	{"Outbox/EndpointsAndContact", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: "whsec_AAAA", Active: true,
			EventTypes: []string{"booking.confirmed"}, CreatedAt: t0, UpdatedAt: t0}
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		ep.Active, ep.Failures = false, 5
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		list, err := s.WebhookEndpoints(t.Context(), w.org.ID)
		must(t, err)
		sameJSON(t, "endpoints", list, []outbox.Endpoint{ep})
		_, err = s.WebhookEndpoint(t.Context(), w.org.ID+1, ep.ID)
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, s.SaveWebhookEndpoint(t.Context(), &outbox.Endpoint{OrgID: w.org.ID}), booking.CodeInvalid)
		must(t, s.DeleteWebhookEndpoint(t.Context(), w.org.ID, ep.ID))
		wantCode(t, s.DeleteWebhookEndpoint(t.Context(), w.org.ID, ep.ID), booking.CodeNotFound)

		if got, err := s.ContactEmail(t.Context(), w.org.ID); err != nil || got != "" {
			t.Fatalf("contact = %q, %v; want none", got, err)
		}
		must(t, s.SetContactEmail(t.Context(), w.org.ID, "host@example.com"))
		must(t, s.SetContactEmail(t.Context(), w.org.ID, "owner@example.com"))
		if got, _ := s.ContactEmail(t.Context(), w.org.ID); got != "owner@example.com" {
			t.Errorf("contact = %q, want owner@example.com", got)
		}
		wantCode(t, s.SetContactEmail(t.Context(), 999_999, "x@example.com"), booking.CodeNotFound)
	}},
	{"Outbox/SettleLedgerEntryWithEvent", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		entries, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "r1", 500)}, t0)
		must(t, err)
		e := entries[0]
		e.ID = 999_999
		wantCode(t, s.SettleLedgerEntry(t.Context(), &e, []ledger.Entry{refundEntry(b, "r1-again", 500)},
			[]outbox.Event{outboxEvent(b, "lost")}, t0), booking.CodeNotFound)
		if got, _ := s.ClaimOutboxEvents(t.Context(), t0, t0.Add(time.Minute), 10); len(got) != 0 {
			t.Fatalf("a failed settle left events %+v", got)
		}
		if list, _ := s.LedgerEntries(t.Context(), b.ID); len(list) != 1 {
			t.Fatalf("a failed settle left entries %+v", list)
		}
		e = entries[0]
		e.Status, e.Attempts, e.UpdatedAt = ledger.StatusFailed, 1, t0.Add(time.Second)
		must(t, s.SettleLedgerEntry(t.Context(), &e, []ledger.Entry{refundEntry(b, "r1-again", 500)},
			[]outbox.Event{outboxEvent(b, "refunded")}, t0))
		list, err := s.LedgerEntries(t.Context(), b.ID)
		must(t, err)
		if len(list) != 2 || list[0].Status != ledger.StatusFailed || list[0].Attempts != 1 ||
			list[1].Key != "r1-again" || list[1].Status != ledger.StatusPending {
			t.Fatalf("entries = %+v, want the refund failed and owed again", list)
		}
		got, err := s.ClaimOutboxEvents(t.Context(), t0, t0.Add(time.Minute), 10)
		must(t, err)
		if len(got) != 1 || got[0].Key != "refunded" {
			t.Fatalf("events = %+v, want the settle's", got)
		}
	}},
	{"Outbox/WebhookAttemptsPauseAndResumeReplays", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true,
			CreatedAt: t0, UpdatedAt: t0}
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		old, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "before")}, t0)
		must(t, err)
		must(t, s.DispatchOutboxEvent(t.Context(), old[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, t0))
		failedBefore := claimOne(t, s, t0)
		failedBefore.Status, failedBefore.UpdatedAt = outbox.StatusFailed, t0
		must(t, s.UpdateOutboxDelivery(t.Context(), &failedBefore))

		// A success clears the count; failures count from the first.
		start := t0.Add(time.Minute)
		got, paused, err := s.RecordWebhookAttempt(t.Context(), ep.ID, false, start)
		must(t, err)
		if paused || got.Failures != 1 || !got.FailingSince.Equal(start) {
			t.Fatalf("after a failure: %+v, paused %v", got, paused)
		}
		got, _, err = s.RecordWebhookAttempt(t.Context(), ep.ID, true, start.Add(time.Second))
		must(t, err)
		if got.Failures != 0 || !got.FailingSince.IsZero() {
			t.Fatalf("after a success: %+v, want the failures cleared", got)
		}
		var pausedAt time.Time
		for i := range outbox.PauseFailures {
			at := start.Add(time.Duration(i) * outbox.PauseSpan / (outbox.PauseFailures - 1))
			got, paused, err = s.RecordWebhookAttempt(t.Context(), ep.ID, false, at)
			must(t, err)
			if paused != (i == outbox.PauseFailures-1) {
				t.Fatalf("attempt %d: paused %v (%+v)", i+1, paused, got)
			}
			pausedAt = at
		}
		stored, err := s.WebhookEndpoint(t.Context(), w.org.ID, ep.ID)
		must(t, err)
		if !stored.PausedAt.Equal(pausedAt) || stored.Failures != outbox.PauseFailures || !stored.FailingSince.Equal(start) || !stored.Active {
			t.Fatalf("stored endpoint %+v, want paused at %v after %d failures since %v", stored, pausedAt, outbox.PauseFailures, start)
		}
		told, err := s.ClaimOutboxEvents(t.Context(), pausedAt, pausedAt.Add(time.Minute), 10)
		must(t, err)
		if len(told) != 1 || told[0].Kind != outbox.KindEndpointPaused || told[0].OrgID != w.org.ID {
			t.Fatalf("events after the pause: %+v, want the pause's, recorded with it", told)
		}
		if id, ok := outbox.PausedEndpoint(told[0]); !ok || id != ep.ID {
			t.Errorf("the pause's event names endpoint %d, want %d", id, ep.ID)
		}
		if _, again, _ := s.RecordWebhookAttempt(t.Context(), ep.ID, false, pausedAt.Add(time.Hour)); again {
			t.Error("a paused endpoint paused again")
		}

		// Held while paused: failed since the failures began.
		held, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "during")}, pausedAt)
		must(t, err)
		must(t, s.DispatchOutboxEvent(t.Context(), held[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, pausedAt))
		d := claimOne(t, s, pausedAt)
		d.Status, d.Attempts, d.UpdatedAt = outbox.StatusFailed, 0, pausedAt
		must(t, s.UpdateOutboxDelivery(t.Context(), &d))

		// Two more pending: one waiting out a backoff, one under way (its
		// lease ends within MaxLease).
		now := pausedAt.Add(2 * time.Hour)
		more, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "waiting"), outboxEvent(b, "underway")}, pausedAt)
		must(t, err)
		must(t, s.DispatchOutboxEvent(t.Context(), more[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, pausedAt))
		waiting := claimOne(t, s, pausedAt)
		waiting.Attempts, waiting.NextAttemptAt, waiting.UpdatedAt = 3, now.Add(2*time.Hour), pausedAt
		must(t, s.UpdateOutboxDelivery(t.Context(), &waiting))
		must(t, s.DispatchOutboxEvent(t.Context(), more[1].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, pausedAt))
		underway, err := s.ClaimOutboxDeliveries(t.Context(), now, now.Add(30*time.Second), 10)
		must(t, err)
		if len(underway) != 1 {
			t.Fatalf("claimed %+v, want the delivery under way", underway)
		}

		_, _, err = s.ResumeWebhookEndpoint(t.Context(), w.org.ID+1, ep.ID, true, pausedAt)
		wantCode(t, err, booking.CodeNotFound)
		resumed, replayed, err := s.ResumeWebhookEndpoint(t.Context(), w.org.ID, ep.ID, true, now)
		must(t, err)
		if replayed != 2 || resumed.Paused() || resumed.Failures != 0 || !resumed.FailingSince.IsZero() {
			t.Fatalf("resume: %+v, %d made due; want the pause cleared, the held delivery replayed and the waiting one due", resumed, replayed)
		}
		due, err := s.ClaimOutboxDeliveries(t.Context(), now, now.Add(time.Minute), 10)
		must(t, err)
		ids := map[int64]bool{}
		for _, x := range due {
			ids[x.ID] = true
			if x.Status != outbox.StatusPending || x.Attempts != 0 {
				t.Errorf("after the resume claimed %+v, want pending with its attempts reset", x)
			}
		}
		if len(due) != 2 || !ids[d.ID] || !ids[waiting.ID] {
			t.Errorf("after the resume claimed %+v, want the held delivery %d and the waiting %d; not the one failed before the outage nor the one under way",
				due, d.ID, waiting.ID)
		}
		_, _, err = s.RecordWebhookAttempt(t.Context(), 999_999, false, now)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Race/WebhookAttemptsAllCounted", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ep := outbox.Endpoint{OrgID: w.org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true,
			CreatedAt: t0, UpdatedAt: t0}
		must(t, s.SaveWebhookEndpoint(t.Context(), &ep))
		const workers = 8
		counts := race(workers, func(int) error {
			_, _, err := s.RecordWebhookAttempt(t.Context(), ep.ID, false, t0)
			return err
		})
		wantCounts(t, counts, map[string]int{"": workers})
		got, err := s.WebhookEndpoint(t.Context(), w.org.ID, ep.ID)
		must(t, err)
		if got.Failures != workers {
			t.Errorf("failures = %d after %d concurrent failed attempts", got.Failures, workers)
		}
	}},
	{"Race/OutboxClaimsNeverOverlap", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		const events, workers = 40, 8
		var batch []outbox.Event
		for i := range events {
			batch = append(batch, outboxEvent(b, fmt.Sprintf("e%d", i)))
		}
		recorded, err := s.RecordOutbox(t.Context(), batch, t0)
		must(t, err)
		for _, ev := range recorded {
			must(t, s.DispatchOutboxEvent(t.Context(), ev.ID, []outbox.Delivery{{Channel: outbox.ChannelMail, To: outbox.ToGuest}}, t0))
		}
		var (
			mu      sync.Mutex
			claimed = map[int64]int{}
		)
		counts := race(workers, func(int) error {
			got, err := s.ClaimOutboxDeliveries(t.Context(), t0, t0.Add(time.Minute), 7)
			mu.Lock()
			defer mu.Unlock()
			for _, d := range got {
				claimed[d.ID]++
			}
			return err
		})
		wantCounts(t, counts, map[string]int{"": workers})
		for id, n := range claimed {
			if n != 1 {
				t.Errorf("delivery %d claimed %d times", id, n)
			}
		}
		if len(claimed) != events {
			t.Errorf("%d deliveries claimed, want all %d", len(claimed), events)
		}
	}},
}

// claimOne claims the one due delivery, or fails the test.
func claimOne(t *testing.T, s Stores, now time.Time) outbox.Delivery {
	t.Helper()
	ds, err := s.ClaimOutboxDeliveries(t.Context(), now, now.Add(time.Minute), 10)
	must(t, err)
	if len(ds) != 1 {
		t.Fatalf("claimed %+v, want one delivery", ds)
	}
	return ds[0]
}
