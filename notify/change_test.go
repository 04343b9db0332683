package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
	"github.com/staykit/staykit/outbox"
)

// recordChange records the event of kind about change id of b, carrying
// c, as package datechange writes it with the change.
func (e *env) recordChange(t *testing.T, b *booking.Booking, kind string, id int64, c notify.ChangeData) outbox.Event {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := e.store.RecordOutbox(context.Background(), []outbox.Event{{Key: notify.ChangeEventKey(kind, id), Kind: kind,
		OrgID: b.OrgID, BookingID: b.ID, Data: data}}, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return evs[0]
}

// moved is the booking's change from 8–11 June to 8–12 June for 3 guests.
func moved(status, cause, reason string) notify.ChangeData {
	expires := start.Add(48 * time.Hour)
	c := notify.ChangeData{Status: status, OldCheckIn: "2026-06-08", OldCheckOut: "2026-06-11", OldGuests: 2,
		CheckIn: "2026-06-08", CheckOut: "2026-06-12", Guests: 3, Currency: "EUR", PreviousTotal: "3059.00", Total: "4113.50",
		Charge: "1054.50", Refund: "0.00", Balance: "1200.00", BalanceDueDate: "2026-06-05", Cause: cause, HostReason: reason}
	if status == "requested" {
		c.ExpiresAt = &expires
	}
	return c
}

// The e-mails of a change's events, in each locale: who gets them, and
// the stay before and after, the amounts and the dates written for the
// locale (the guest's for the guest, the organisation's for the host).
func TestChangeMails(t *testing.T) {
	type want struct {
		subject string
		has     []string
	}
	tests := []struct {
		name, locale, kind string
		change             notify.ChangeData
		guest, host        *want
	}{
		{"RequestedFR", "fr", booking.NotifyChangeRequested, moved("requested", "", ""), nil,
			&want{"Gîtes demo – Un changement de dates attend votre réponse", []string{"Séjour initial: 8 juin 2026 → 11 juin 2026 (3 nuits, Voyageurs: 2)",
				"Séjour demandé: 8 juin 2026 → 12 juin 2026 (4 nuits, Voyageurs: 3)", "Nouveau total: 4\u202f113,50\u00a0€",
				"À débiter si vous acceptez: 1\u202f054,50\u00a0€", "avant le 3 juin 2026, 10:00", "tableau de bord",
				"https://book.example.com/host/#bookings/"}}},
		{"RequestedEN", "en", booking.NotifyChangeRequested, moved("requested", "", ""), nil,
			&want{"Gîtes demo – A change of dates awaits your answer", []string{"Original stay: 8 June 2026 → 11 June 2026 (3 nights, Guests: 2)",
				"Requested stay: 8 June 2026 → 12 June 2026 (4 nights, Guests: 3)", "New total: €4,113.50", "To charge if you approve: €1,054.50",
				"before 3 June 2026, 10:00"}}},
		{"ChangedFR", "fr", booking.NotifyChanged, moved("applied", "", ""),
			&want{"Gîtes demo – Vos nouvelles dates sont confirmées", []string{"Votre changement est fait",
				"Nouveau séjour: 8 juin 2026 → 12 juin 2026 (4 nuits, Voyageurs: 3)", "Débité pour le changement: 1\u202f054,50\u00a0€",
				"Reste à payer: 1\u202f200,00\u00a0€, au plus tard le 5 juin 2026", "https://book.example.com/?org=demo&booking="}},
			&want{"Gîtes demo – Réservation modifiée par le voyageur", []string{"Rien à faire", "Séjour initial: 8 juin 2026 → 11 juin 2026",
				"Nouveau séjour: 8 juin 2026 → 12 juin 2026"}}},
		{"ChangedEN", "en", booking.NotifyChanged, moved("applied", "", ""),
			&want{"Gîtes demo – Your new dates are confirmed", []string{"Your change is done", "New stay: 8 June 2026 → 12 June 2026 (4 nights, Guests: 3)",
				"Charged for the change: €1,054.50", "Left to pay: €1,200.00, by 5 June 2026"}},
			&want{"Gîtes demo – Booking changed by the guest", []string{"Nothing for you to do"}}},
		{"DeclinedFR", "fr", booking.NotifyChangeDeclined, moved("declined", notify.CauseHostDeclined, "Les travaux ne sont pas finis"),
			&want{"Gîtes demo – Votre demande de changement n'a pas abouti", []string{"L'hôte n'a pas accepté votre changement",
				"Message de l'hôte: Les travaux ne sont pas finis", "Séjour demandé: 8 juin 2026 → 12 juin 2026"}}, nil},
		{"DeclinedEN", "en", booking.NotifyChangeDeclined, moved("declined", notify.CauseHostDeclined, ""),
			&want{"Gîtes demo – Your change request did not go through", []string{"The host did not accept your change"}}, nil},
		{"DatesTakenEN", "en", booking.NotifyChangeDeclined, func() notify.ChangeData {
			c := moved("refused", notify.CauseDatesTaken, "")
			c.Refund = c.Charge
			return c
		}(), &want{"Gîtes demo – Your change request did not go through", []string{"booked by someone else", "Charged for the change: €1,054.50",
			"Refunded: €1,054.50"}}, nil},
		{"LapsedFR", "fr", booking.NotifyChangeExpired, moved("expired", notify.CauseRequestLapsed, ""),
			&want{"Gîtes demo – Votre demande de changement a expiré", []string{"L'hôte n'a pas répondu à temps"}}, nil},
		{"AbandonedEN", "en", booking.NotifyChangeExpired, moved("expired", notify.CausePaymentAbandoned, ""),
			&want{"Gîtes demo – Your change request has expired", []string{"nothing was charged"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			org, err := e.store.OrganizationByID(ctx, e.orgs["demo"])
			if err != nil {
				t.Fatal(err)
			}
			org.DefaultLocale = tt.locale // the host's mails are in it
			if err := e.store.UpdateOrganization(ctx, org); err != nil {
				t.Fatal(err)
			}
			if err := e.store.SetContactEmail(ctx, org.ID, "host@example.com"); err != nil {
				t.Fatal(err)
			}
			b := e.book(t, "demo", tt.locale)
			e.process(t)
			m := &notifytest.Mailer{}
			e.worker.Mailer = m
			e.recordChange(t, b, tt.kind, 7, tt.change)
			e.process(t)
			for who, w := range map[string]*want{"camille@example.com": tt.guest, "host@example.com": tt.host} {
				got := m.To(who)
				if w == nil {
					if len(got) != 0 {
						t.Errorf("%s got %q, want no mail", who, got[0].Subject)
					}
					continue
				}
				if len(got) != 1 {
					t.Fatalf("%s got %d mails, want 1", who, len(got))
				}
				mail := got[0]
				if mail.Subject != w.subject || mail.Kind != tt.kind {
					t.Errorf("%s: subject %q (%s), want %q", who, mail.Subject, mail.Kind, w.subject)
				}
				for _, s := range w.has {
					if !strings.Contains(mail.Text, s) {
						t.Errorf("%s: text lacks %q:\n%s", who, s, mail.Text)
					}
					// The HTML body has the same values, in table cells.
					if _, value, ok := strings.Cut(s, ": "); ok && !strings.Contains(s, "://") && !strings.Contains(mail.HTML, value) {
						t.Errorf("%s: HTML lacks %q:\n%s", who, value, mail.HTML)
					}
				}
			}
		})
	}
}

// A change's event written twice (a retry, a second replica, a second
// path closing the change) is stored once, and dispatching it again sends
// nothing more: each recipient gets one mail, each endpoint one webhook,
// whose body carries the change.
func TestChangeEventSentOnce(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if err := e.store.SetContactEmail(ctx, e.orgs["demo"], "host@example.com"); err != nil {
		t.Fatal(err)
	}
	rec, _ := newReceiver(t, e, 0)
	b := e.book(t, "demo", "en")
	e.process(t)
	m := &notifytest.Mailer{}
	e.worker.Mailer = m
	rec.events = nil
	first := e.recordChange(t, b, booking.NotifyChanged, 7, moved("applied", "", ""))
	again := e.recordChange(t, b, booking.NotifyChanged, 7, moved("applied", "", ""))
	if again.ID != first.ID {
		t.Fatalf("the same change's event stored twice: %d and %d", first.ID, again.ID)
	}
	e.process(t)
	for range 2 {
		if err := e.worker.DispatchEvent(ctx, first.ID); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(time.Hour)
		e.process(t)
	}
	if got := len(m.OfKind(booking.NotifyChanged)); got != 2 {
		t.Fatalf("%d mails of booking.changed, want 2 (guest and host)", got)
	}
	var changed []notify.Event
	for _, ev := range rec.events {
		if ev.Type == booking.NotifyChanged {
			changed = append(changed, ev)
		}
	}
	if len(changed) != 1 {
		t.Fatalf("%d webhooks of booking.changed, want 1", len(changed))
	}
	c := changed[0].Data.Change
	if c == nil || c.ID != 7 || c.OldCheckOut != "2026-06-11" || c.CheckOut != "2026-06-12" || c.Guests != 3 || c.Charge != "1054.50" ||
		changed[0].Data.Booking == nil || changed[0].Data.Booking.Token != b.Token {
		t.Fatalf("webhook data %+v, change %+v", changed[0].Data, c)
	}
	if got := fmt.Sprint(notify.HostMailed(booking.NotifyChangeDeclined), notify.HostMailed(booking.NotifyChangeExpired),
		notify.GuestMailed(booking.NotifyChangeRequested)); got != "false false false" {
		t.Errorf("host mailed of declined, expired, guest of requested: %s, want none", got)
	}
}
