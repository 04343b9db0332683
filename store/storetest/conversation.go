package storetest

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/schedule"
)

// threadEvents are the outbox events of the messages of an organisation's
// threads, by ID.
func threadEvents(t *testing.T, s Stores, orgID int64) []outbox.Event {
	t.Helper()
	evs, err := capabilityOf[schedule.Store](t, s).MessageEvents(t.Context(), orgID,
		[]string{outbox.KindGuestMessage, outbox.KindHostMessage}, t0.Add(-24*time.Hour))
	must(t, err)
	return evs
}

// post adds a message to a booking's thread and fails the test unless it
// is created.
func post(t *testing.T, st conversation.Store, b *booking.Booking, from, body string, at time.Time) *conversation.Message {
	t.Helper()
	m := &conversation.Message{BookingID: b.ID, From: from, Body: body, CreatedAt: at}
	if from == conversation.FromHost {
		m.Author = "host@example.com"
	}
	created, err := st.AddMessage(t.Context(), m)
	must(t, err)
	if !created || m.ID == 0 || m.OrgID != b.OrgID {
		t.Fatalf("AddMessage: created %v, ID %d, OrgID %d (booking's %d)", created, m.ID, m.OrgID, b.OrgID)
	}
	return m
}

var conversationScenarios = []scenario{
	{"Conversation/ThreadEventsAndLimits", func(t *testing.T, s Stores) {
		ctx := t.Context()
		w := newWorld(t, s)
		st := capabilityOf[conversation.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))

		first := post(t, st, b, conversation.FromGuest, "Bonjour, <b>un lit bébé</b> ?\nMerci", t0.Add(time.Minute))
		reply := post(t, st, b, conversation.FromHost, "Oui, il sera prêt.", t0.Add(2*time.Minute))
		elsewhere := post(t, st, other, conversation.FromGuest, "Autre séjour", t0.Add(3*time.Minute))
		_, err := st.AddMessage(ctx, &conversation.Message{BookingID: b.ID + other.ID + 1000, From: conversation.FromGuest,
			Body: "x", CreatedAt: t0})
		wantCode(t, err, booking.CodeNotFound)

		t.Run("ReadBack", func(t *testing.T) {
			got, err := st.BookingMessages(ctx, b.ID)
			must(t, err)
			if len(got) != 2 || got[0] != *first || got[1] != *reply {
				t.Fatalf("BookingMessages = %+v, want %+v then %+v", got, *first, *reply)
			}
			one, err := st.Message(ctx, elsewhere.ID)
			must(t, err)
			if *one != *elsewhere {
				t.Errorf("Message = %+v, want %+v", *one, *elsewhere)
			}
			_, err = st.Message(ctx, first.ID+reply.ID+elsewhere.ID+1000)
			wantCode(t, err, booking.CodeNotFound)
		})
		t.Run("EventPerMessage", func(t *testing.T) {
			evs := threadEvents(t, s, w.org.ID)
			want := []*conversation.Message{first, reply, elsewhere}
			if len(evs) != len(want) {
				t.Fatalf("%d events, want one per message (%d)", len(evs), len(want))
			}
			for i, m := range want {
				ev := conversation.Event(m)
				if evs[i].Key != ev.Key || evs[i].Kind != ev.Kind || evs[i].BookingID != m.BookingID || !evs[i].CreatedAt.Equal(m.CreatedAt) {
					t.Errorf("event %d = %+v, want %+v", i, evs[i], ev)
				}
			}
			if evs[0].Kind != outbox.KindGuestMessage || evs[1].Kind != outbox.KindHostMessage {
				t.Errorf("kinds %s, %s: want the guest's then the host's", evs[0].Kind, evs[1].Kind)
			}
			feed, _ := readFeed(t, s.eventStore(t), w.org.ID, 0, 100, false)
			if len(feed) != 0 {
				t.Errorf("the event feed carries the thread's events: %v", keysOf(feed))
			}
		})
		t.Run("IdempotencyKey", func(t *testing.T) {
			m := &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "Arrivée à 18 h", Key: "k-1", CreatedAt: t0.Add(4 * time.Minute)}
			created, err := st.AddMessage(ctx, m)
			must(t, err)
			if !created || m.Key != "k-1" {
				t.Fatalf("first with a key: created %v, %+v", created, m)
			}
			again := &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "Arrivée à 18 h", Key: "k-1", CreatedAt: t0.Add(5 * time.Minute)}
			created, err = st.AddMessage(ctx, again)
			must(t, err)
			if created || *again != *m {
				t.Fatalf("retry: created %v, %+v; want the stored %+v", created, *again, *m)
			}
			_, err = st.AddMessage(ctx, &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "Autre chose", Key: "k-1", CreatedAt: t0})
			wantReason(t, "a reused key", err, booking.CodeConflict, conversation.ReasonKeyReused)
			// The key is the booking's: another booking's guest may use it.
			post2 := &conversation.Message{BookingID: other.ID, From: conversation.FromGuest, Body: "Arrivée à 18 h", Key: "k-1", CreatedAt: t0}
			if created, err := st.AddMessage(ctx, post2); err != nil || !created {
				t.Fatalf("the key on another booking: created %v, %v", created, err)
			}
			if n := len(threadEvents(t, s, w.org.ID)); n != 5 {
				t.Errorf("%d events after a retry, want 5 (one per stored message)", n)
			}
		})
		t.Run("Unanswered", func(t *testing.T) {
			// One guest message after the host's reply already (k-1).
			for i := 1; i < conversation.MaxUnanswered; i++ {
				post(t, st, b, conversation.FromGuest, fmt.Sprintf("relance %d", i), t0.Add(time.Hour))
			}
			_, err := st.AddMessage(ctx, &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "encore", CreatedAt: t0.Add(time.Hour)})
			wantReason(t, "one message too many", err, booking.CodeConflict, conversation.ReasonAwaitingReply)
			// A retry of a stored message is still answered.
			retry := &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "Arrivée à 18 h", Key: "k-1", CreatedAt: t0.Add(time.Hour)}
			if created, err := st.AddMessage(ctx, retry); err != nil || created {
				t.Fatalf("a retry while awaiting a reply: created %v, %v", created, err)
			}
			post(t, st, b, conversation.FromHost, "Bien reçu.", t0.Add(2*time.Hour))
			post(t, st, b, conversation.FromHost, "Autre chose ?", t0.Add(2*time.Hour))
			post(t, st, b, conversation.FromGuest, "Merci !", t0.Add(3*time.Hour))
		})
	}},
	{"Conversation/ErasedWithTheGuest", func(t *testing.T, s Stores) {
		ctx := t.Context()
		w := newWorld(t, s)
		st := capabilityOf[conversation.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusCancelled)
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))
		gone := post(t, st, b, conversation.FromGuest, "Je suis Ada Lovelace", t0)
		post(t, st, b, conversation.FromHost, "Bonjour Ada", t0)
		kept := post(t, st, other, conversation.FromGuest, "Autre séjour", t0)

		must(t, records(t, s).EraseGuest(ctx, b.ID, privacy.Anonymous(t0.Add(time.Hour))))
		if ms, err := st.BookingMessages(ctx, b.ID); err != nil || len(ms) != 0 {
			t.Errorf("after the erasure: %d messages, %v", len(ms), err)
		}
		_, err := st.Message(ctx, gone.ID)
		wantCode(t, err, booking.CodeNotFound)
		if ms, err := st.BookingMessages(ctx, other.ID); err != nil || len(ms) != 1 || ms[0] != *kept {
			t.Errorf("another booking's thread after the erasure: %+v, %v", ms, err)
		}
		for _, from := range []string{conversation.FromGuest, conversation.FromHost} {
			_, err := st.AddMessage(ctx, &conversation.Message{BookingID: b.ID, From: from, Body: "encore", CreatedAt: t0.Add(2 * time.Hour)})
			wantReason(t, "a message of "+from+" after the erasure", err, booking.CodeBookingClosed, conversation.ReasonGuestErased)
		}
	}},
	{"Conversation/RaceForTheLastUnanswered", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[conversation.Store](t, s)
		const n = 12
		for round := range rounds {
			in := day("2026-05-01").AddDays(3 * round)
			b := moveTo(t, s, newPending(t, s, w.prop, in.String(), in.AddDays(2).String(), t0.Add(time.Hour)), booking.StatusConfirmed)
			for i := 1; i < conversation.MaxUnanswered; i++ {
				post(t, st, b, conversation.FromGuest, fmt.Sprintf("message %d", i), t0)
			}
			counts := race(n, func(i int) error {
				_, err := st.AddMessage(t.Context(), &conversation.Message{BookingID: b.ID, From: conversation.FromGuest,
					Body: fmt.Sprintf("at once %d", i), CreatedAt: t0.Add(time.Minute)})
				return err
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeConflict: n - 1})
			ms, err := st.BookingMessages(t.Context(), b.ID)
			must(t, err)
			if len(ms) != conversation.MaxUnanswered {
				t.Fatalf("round %d: %d messages stored, want %d", round, len(ms), conversation.MaxUnanswered)
			}
		}
		if got, want := len(threadEvents(t, s, w.org.ID)), rounds*conversation.MaxUnanswered; got != want {
			t.Errorf("%d events, want one per stored message (%d)", got, want)
		}
	}},
	{"Conversation/RaceSameKeyStoresOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[conversation.Store](t, s)
		const n = 12
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-05-01", "2026-05-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		var created atomic.Int32
		ids := make([]int64, n)
		counts := race(n, func(i int) error {
			m := &conversation.Message{BookingID: b.ID, From: conversation.FromGuest, Body: "Une question", Key: "double-click", CreatedAt: t0}
			c, err := st.AddMessage(t.Context(), m)
			if c {
				created.Add(1)
			}
			ids[i] = m.ID
			return err
		})
		wantCounts(t, counts, map[string]int{"": n})
		if created.Load() != 1 {
			t.Errorf("%d calls created the message, want 1", created.Load())
		}
		for i := range ids {
			if ids[i] != ids[0] || ids[i] == 0 {
				t.Fatalf("message IDs %v, want one message", ids)
			}
		}
		if evs := threadEvents(t, s, w.org.ID); len(evs) != 1 {
			t.Errorf("%d events, want 1", len(evs))
		}
	}},
	{"Conversation/RaceWithTheErasure", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[conversation.Store](t, s)
		r := records(t, s)
		const n = 8
		for round := range rounds {
			in := day("2026-05-01").AddDays(3 * round)
			b := moveTo(t, s, newPending(t, s, w.prop, in.String(), in.AddDays(2).String(), t0.Add(time.Hour)), booking.StatusCancelled)
			post(t, st, b, conversation.FromGuest, "avant", t0)
			counts := race(n, func(i int) error {
				if i == n/2 {
					return r.EraseGuest(t.Context(), b.ID, privacy.Anonymous(t0.Add(time.Hour)))
				}
				from := conversation.FromGuest
				if i%2 == 1 {
					from = conversation.FromHost
				}
				_, err := st.AddMessage(t.Context(), &conversation.Message{BookingID: b.ID, From: from, Body: "pendant", CreatedAt: t0.Add(time.Minute)})
				var e *booking.Error
				if errors.As(err, &e) && e.Code == booking.CodeBookingClosed && e.Params[booking.ParamReason] != conversation.ReasonGuestErased {
					return fmt.Errorf("refused for another reason: %w", err)
				}
				return err
			})
			if counts[booking.CodeInternal] != 0 || counts[""]+counts[booking.CodeBookingClosed] != n {
				t.Fatalf("round %d: outcomes %v, want successes and refusals of an erased guest only", round, counts)
			}
			ms, err := st.BookingMessages(t.Context(), b.ID)
			must(t, err)
			if len(ms) != 0 {
				t.Fatalf("round %d: %d messages left on an erased guest's booking: %+v", round, len(ms), ms)
			}
		}
	}},
}
