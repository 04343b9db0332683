package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/notes"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
)

var privacyScenarios = []scenario{
	{"Privacy/RegistrationNumberKept", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		p := propertyFixture(w.org.ID)
		p.RegistrationNumber = "75056123456AB"
		must(t, s.CreateProperty(t.Context(), p))
		got, err := s.Property(t.Context(), w.org.ID, p.ID)
		must(t, err)
		if got.RegistrationNumber != "75056123456AB" {
			t.Errorf("after create: RegistrationNumber = %q", got.RegistrationNumber)
		}
		got.RegistrationNumber = ""
		must(t, s.UpdatePropertyFields(t.Context(), got))
		again, err := s.Property(t.Context(), w.org.ID, p.ID)
		must(t, err)
		if again.RegistrationNumber != "" {
			t.Errorf("after removal: RegistrationNumber = %q", again.RegistrationNumber)
		}
	}},
	{"Privacy/EraseGuestKeepsMoneyAndDropsGuestMail", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))
		evs, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "erase-1"), outboxEvent(other, "erase-2")}, t0)
		must(t, err)
		mails := []outbox.Delivery{{Channel: outbox.ChannelMail, To: outbox.ToGuest}, {Channel: outbox.ChannelMail, To: outbox.ToHost}}
		for _, ev := range evs {
			must(t, s.DispatchOutboxEvent(t.Context(), ev.ID, mails, t0))
		}
		at := t0.Add(2 * time.Hour)
		for _, tt := range []struct {
			name string
			id   int64
			code string
		}{
			{"Erased", b.ID, ""},
			{"AgainNoChange", b.ID, ""},
			{"UnknownBooking", b.ID + other.ID + 1000, booking.CodeNotFound},
		} {
			t.Run(tt.name, func(t *testing.T) {
				err := records(t, s).EraseGuest(t.Context(), tt.id, privacy.Anonymous(at))
				if tt.code != "" {
					wantCode(t, err, tt.code)
					return
				}
				must(t, err)
			})
		}
		got, err := s.BookingByID(t.Context(), b.ID)
		must(t, err)
		if got.GuestName != privacy.ErasedName || got.GuestEmail != "" || got.GuestPhone != "" || got.Message != "" ||
			!got.UpdatedAt.Equal(at) {
			t.Errorf("erased booking: %q %q %q %q at %v", got.GuestName, got.GuestEmail, got.GuestPhone, got.Message, got.UpdatedAt)
		}
		if !privacy.Erased(*got) {
			t.Errorf("privacy.Erased = false after the erasure")
		}
		if !got.TotalAmount.Equal(b.TotalAmount) || got.Status != b.Status || got.CheckIn != b.CheckIn || got.CheckOut != b.CheckOut {
			t.Errorf("erasure changed the stay or its money: %+v, was %+v", got, b)
		}
		kept, err := s.BookingByID(t.Context(), other.ID)
		must(t, err)
		if kept.GuestEmail != other.GuestEmail || kept.GuestName != other.GuestName || kept.GuestEmail == "" {
			t.Errorf("another booking's guest changed: %q %q", kept.GuestName, kept.GuestEmail)
		}
		for i, ev := range evs {
			ds, err := s.OutboxDeliveries(t.Context(), ev.ID, 0, 0, 10)
			must(t, err)
			for _, d := range ds {
				wantFailed := i == 0 && d.To == outbox.ToGuest
				if wantFailed && (d.Status != outbox.StatusFailed || !strings.Contains(d.LastError, privacy.ErasedDeliveryError)) ||
					!wantFailed && d.Status != outbox.StatusPending {
					t.Errorf("event %d delivery to %s: %s %q, want failed %v", i, d.To, d.Status, d.LastError, wantFailed)
				}
			}
			if len(ds) != 2 {
				t.Errorf("event %d: %d deliveries, want 2", i, len(ds))
			}
		}
	}},
	{"Privacy/EraseGuestErasesTheHostsReasonsOfChanges", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		feed := capabilityOf[eventfeed.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		c := changeOf(b, datechange.StatusRequested, "2026-06-10", "2026-06-14")
		c.ExpiresAt = t0.Add(48 * time.Hour)
		must(t, dc.SaveDateChange(ctx, c, nil, nil, nil, t0))
		const words = "Sorry Zélie, the house is not ready"
		_, err := dc.CloseDateChange(ctx, datechange.Close{ID: c.ID, From: []datechange.Status{datechange.StatusRequested}, To: datechange.StatusDeclined,
			Reason: words, At: t0, Outbox: []outbox.Event{{Key: "booking.change_declined:x", Kind: "booking.change_declined", OrgID: w.org.ID,
				Data: []byte(`{"status":"declined","check_in":"2026-06-10","host_reason":"` + words + `"}`)}}})
		must(t, err)
		data := func() string {
			t.Helper()
			list, _ := readFeed(t, feed, w.org.ID, 0, 100, false)
			for _, e := range list {
				if e.Key == "booking.change_declined:x" {
					return string(e.Data)
				}
			}
			t.Fatal("the change's event is gone")
			return ""
		}
		if !strings.Contains(data(), words) {
			t.Fatalf("the event keeps %s before the erasure: the test proves nothing", data())
		}
		must(t, records(t, s).EraseGuest(ctx, b.ID, privacy.Anonymous(t0.Add(time.Hour))))
		got, err := dc.DateChange(ctx, w.org.ID, c.ID)
		must(t, err)
		if got.Reason != "" || got.Status != datechange.StatusDeclined {
			t.Errorf("the change after the erasure: %s, reason %q", got.Status, got.Reason)
		}
		if d := data(); strings.Contains(d, "Zélie") || !strings.Contains(d, `"check_in"`) || !strings.Contains(d, "2026-06-10") {
			t.Errorf("the event's data after the erasure: %s, want the host's words gone and the rest kept", d)
		}
	}},
	{"Privacy/EraseGuestErasesKeptHostAnswers", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))
		r := records(t, s)
		// Three kept answers: about the erased booking, about another,
		// about none.
		for _, k := range []struct {
			key     string
			booking int64
		}{{"about-b", b.ID}, {"about-other", other.ID}, {"about-none", 0}} {
			_, err := r.ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: k.key, RequestHash: "h", CreatedAt: t0}, t0.Add(-time.Hour))
			must(t, err)
			must(t, r.CompleteHostRequest(t.Context(), w.org.ID, k.key, 201, []byte(`{"guest_name":"`+k.key+`"}`), k.booking))
		}
		must(t, r.EraseGuest(t.Context(), b.ID, privacy.Anonymous(t0.Add(2*time.Hour))))
		kept := func(key string) *host.Request {
			t.Helper()
			got, err := r.ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: key, RequestHash: "h", CreatedAt: t0.Add(3 * time.Hour)}, t0.Add(-time.Hour))
			wantCode(t, err, booking.CodeConflict)
			if got == nil {
				t.Fatalf("the record of %s is gone", key)
			}
			return got
		}
		if got := kept("about-b"); !got.Erased || got.Body != nil || got.Status != 201 || got.BookingID != b.ID {
			t.Errorf("the answer about the erased booking: %+v, want erased, no body, still recorded", got)
		}
		for _, k := range []struct {
			key     string
			booking int64
		}{{"about-other", other.ID}, {"about-none", 0}} {
			if got := kept(k.key); got.Erased || string(got.Body) != `{"guest_name":"`+k.key+`"}` || got.BookingID != k.booking {
				t.Errorf("another answer after the erasure: %+v", got)
			}
		}
		// Past its window, an erased record's key is free again, and the
		// new record is neither erased nor tied to the booking.
		_, err := r.ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: "about-b", RequestHash: "h2", CreatedAt: t0.Add(48 * time.Hour)}, t0.Add(24*time.Hour))
		must(t, err)
		got, err := r.ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: "about-b", RequestHash: "h2", CreatedAt: t0.Add(49 * time.Hour)}, t0.Add(24*time.Hour))
		wantCode(t, err, booking.CodeConflict)
		if got == nil || got.Erased || got.BookingID != 0 || got.Status != 0 {
			t.Errorf("the key reserved again: %+v, want a fresh record", got)
		}
	}},
	{"Notes/InOrderAndErasedWithTheGuest", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))
		r := records(t, s)
		n := capabilityOf[notes.Store](t, s)
		add := func(id int64, body string, at time.Time) *notes.Note {
			note := &notes.Note{BookingID: id, Author: "host@example.com", Body: body, CreatedAt: at}
			must(t, n.AddNote(t.Context(), note))
			if note.ID == 0 {
				t.Fatalf("AddNote left the ID 0")
			}
			return note
		}
		first := add(b.ID, "late arrival", t0.Add(2*time.Hour))
		add(other.ID, "other stay", t0.Add(2*time.Hour))
		second := add(b.ID, "cot\nfor the baby", t0.Add(3*time.Hour))
		wantCode(t, n.AddNote(t.Context(), &notes.Note{BookingID: b.ID + other.ID + 1000, Author: "x", Body: "x", CreatedAt: t0}),
			booking.CodeNotFound)

		got, err := n.BookingNotes(t.Context(), b.ID)
		must(t, err)
		if len(got) != 2 || got[0] != *first || got[1] != *second {
			t.Fatalf("BookingNotes = %+v, want %+v then %+v", got, *first, *second)
		}
		must(t, r.EraseGuest(t.Context(), b.ID, privacy.Anonymous(t0.Add(4*time.Hour))))
		if got, err := n.BookingNotes(t.Context(), b.ID); err != nil || len(got) != 0 {
			t.Errorf("after the erasure: %d notes, %v", len(got), err)
		}
		if got, err := n.BookingNotes(t.Context(), other.ID); err != nil || len(got) != 1 || got[0].Body != "other stay" {
			t.Errorf("another booking's notes after the erasure: %+v, %v", got, err)
		}
	}},
}
