package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/outbox"
)

var mailSettingsScenarios = []scenario{
	{"MailSettings/SaveReplaceDelete", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		_, err := mailStore(t, s).SMTPSettings(t.Context(), w.org.ID)
		wantCode(t, err, booking.CodeNotFound)
		in := &mailsettings.Settings{OrgID: w.org.ID, Host: "smtp.example.com", Port: 587, TLS: "starttls",
			Username: "u", SealedPassword: []byte{1, 2, 0, 255}, From: "Villa <a@example.com>", UpdatedAt: t0}
		must(t, mailStore(t, s).SaveSMTPSettings(t.Context(), in))
		got, err := mailStore(t, s).SMTPSettings(t.Context(), w.org.ID)
		must(t, err)
		if got.Host != in.Host || got.Port != 587 || got.TLS != "starttls" || got.Username != "u" || got.From != in.From ||
			!bytes.Equal(got.SealedPassword, in.SealedPassword) || !got.UpdatedAt.Equal(t0) || got.OrgID != w.org.ID {
			t.Fatalf("read back %+v, want %+v", got, in)
		}
		_, err = mailStore(t, s).SMTPSettings(t.Context(), other.ID)
		wantCode(t, err, booking.CodeNotFound)
		// Replaced whole, the password removed.
		must(t, mailStore(t, s).SaveSMTPSettings(t.Context(), &mailsettings.Settings{OrgID: w.org.ID, Host: "mail.example.org",
			Port: 465, TLS: "tls", From: "b@example.org", UpdatedAt: t0.Add(time.Hour)}))
		got, err = mailStore(t, s).SMTPSettings(t.Context(), w.org.ID)
		must(t, err)
		if got.Host != "mail.example.org" || got.Port != 465 || got.Username != "" || got.PasswordSet() || !got.UpdatedAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("after replacing: %+v", got)
		}
		wantCode(t, mailStore(t, s).SaveSMTPSettings(t.Context(), &mailsettings.Settings{OrgID: 999_999, Host: "h", Port: 25,
			TLS: "none", From: "c@example.com", UpdatedAt: t0}), booking.CodeNotFound)
		must(t, mailStore(t, s).DeleteSMTPSettings(t.Context(), w.org.ID))
		must(t, mailStore(t, s).DeleteSMTPSettings(t.Context(), w.org.ID))
		_, err = mailStore(t, s).SMTPSettings(t.Context(), w.org.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"MailSettings/LatestGuestMail", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour))
		_, err := mailStore(t, s).LatestGuestMail(t.Context(), b.ID)
		wantCode(t, err, booking.CodeNotFound)
		evs, err := s.RecordOutbox(t.Context(), []outbox.Event{outboxEvent(b, "g-1"), outboxEvent(b, "g-2"),
			outboxEvent(b, "g-3"), outboxEvent(other, "g-4")}, t0)
		must(t, err)
		guest := outbox.Delivery{Channel: outbox.ChannelMail, To: outbox.ToGuest}
		hostMail := outbox.Delivery{Channel: outbox.ChannelMail, To: outbox.ToHost}
		// g-1 and g-4 mail the guest; g-2 only the host (a payment
		// failure); g-3 is not dispatched yet.
		must(t, s.DispatchOutboxEvent(t.Context(), evs[0].ID, []outbox.Delivery{guest, hostMail}, t0))
		must(t, s.DispatchOutboxEvent(t.Context(), evs[1].ID, []outbox.Delivery{hostMail}, t0))
		must(t, s.DispatchOutboxEvent(t.Context(), evs[3].ID, []outbox.Delivery{guest}, t0))
		d, err := mailStore(t, s).LatestGuestMail(t.Context(), b.ID)
		must(t, err)
		if d.EventID != evs[0].ID || d.Channel != outbox.ChannelMail || d.To != outbox.ToGuest {
			t.Fatalf("latest guest mail = %+v, want the guest's of event %d", d, evs[0].ID)
		}
		must(t, s.DispatchOutboxEvent(t.Context(), evs[2].ID, []outbox.Delivery{hostMail, guest}, t0))
		if d, err = mailStore(t, s).LatestGuestMail(t.Context(), b.ID); err != nil || d.EventID != evs[2].ID || d.To != outbox.ToGuest {
			t.Fatalf("after a later event: %+v, %v; want the guest's of event %d", d, err, evs[2].ID)
		}
		// A scheduled message (package schedule) is not "the guest's
		// e-mail" a host resends.
		msg, err := s.RecordOutbox(t.Context(), []outbox.Event{{Key: "message.scheduled:review:1:x", Kind: outbox.KindMessage,
			OrgID: w.org.ID, BookingID: b.ID}}, t0)
		must(t, err)
		must(t, s.DispatchOutboxEvent(t.Context(), msg[0].ID, []outbox.Delivery{guest}, t0))
		if d, err = mailStore(t, s).LatestGuestMail(t.Context(), b.ID); err != nil || d.EventID != evs[2].ID {
			t.Fatalf("after a scheduled message: %+v, %v; want still the guest's of event %d", d, err, evs[2].ID)
		}
		// Nor is the host's message to the guest (package conversation).
		reply, err := s.RecordOutbox(t.Context(), []outbox.Event{{Key: "message.from_host:1", Kind: outbox.KindHostMessage,
			OrgID: w.org.ID, BookingID: b.ID}}, t0)
		must(t, err)
		must(t, s.DispatchOutboxEvent(t.Context(), reply[0].ID, []outbox.Delivery{guest}, t0))
		if d, err = mailStore(t, s).LatestGuestMail(t.Context(), b.ID); err != nil || d.EventID != evs[2].ID {
			t.Fatalf("after a host's message: %+v, %v; want still the guest's of event %d", d, err, evs[2].ID)
		}
	}},
}

// mailStore is the store under test as mailsettings.Store.
func mailStore(t *testing.T, s Stores) mailsettings.Store {
	return capabilityOf[mailsettings.Store](t, s)
}
