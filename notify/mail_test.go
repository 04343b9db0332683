package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/notify"
)

// sunk is one e-mail as the SMTP sink received it, its MIME parts decoded.
type sunk struct {
	To, Subject, MessageID, Event string
	Text, HTML                    string
}

// sinkMails reads and parses every e-mail MailDev received for to.
func sinkMails(t *testing.T, api, to string) []sunk {
	t.Helper()
	var list []struct {
		ID string `json:"id"`
		To []struct {
			Address string `json:"address"`
		} `json:"to"`
	}
	getJSON(t, api+"/api/email", &list)
	var out []sunk
	for _, m := range list {
		if len(m.To) != 1 || m.To[0].Address != to {
			continue
		}
		resp, err := http.Get(api + "/api/email/" + m.ID + "/source")
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		s := sunk{To: msg.Header.Get("To"), MessageID: msg.Header.Get("Message-Id"), Event: msg.Header.Get("X-Staykit-Event")}
		s.Subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/alternative" {
			t.Fatalf("Content-Type = %q, want multipart/alternative", msg.Header.Get("Content-Type"))
		}
		r := multipart.NewReader(msg.Body, params["boundary"])
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var body io.Reader = p
			if p.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
				body = quotedprintable.NewReader(p)
			}
			b, _ := io.ReadAll(body)
			switch pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); pt {
			case "text/plain":
				s.Text = string(b)
			case "text/html":
				s.HTML = string(b)
			}
		}
		resp.Body.Close()
		out = append(out, s)
	}
	return out
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestMailsArriveAtSMTPSink(t *testing.T) {
	api, smtpAddr := testenv.MailSink(t)
	host, port, _ := strings.Cut(smtpAddr, ":")
	var portN int
	fmt.Sscan(port, &portN)
	m, err := notify.NewSMTPMailer(notify.SMTPConfig{Host: host, Port: portN, TLS: "none", From: "bookings@staykit.test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Each run has its own addresses, so runs and parallel packages do not
	// see each other's mails.
	run := fmt.Sprintf("%d", time.Now().UnixNano())
	for _, tc := range []struct {
		locale, total, paid, refund, checkIn, checkInLate, checkInExpired string
		subjects                                                          []string
	}{
		{"fr", "3\u202f059,00\u00a0€", "3\u202f059,00\u00a0€", "3\u202f059,00\u00a0€", "8 juin 2026", "15 juin 2026", "22 juin 2026",
			[]string{"Votre réservation est confirmée", "Votre réservation est annulée", "Vous avez été remboursé",
				"Votre demande de réservation est envoyée", "Votre demande de réservation n'a pas été acceptée", "Votre réservation est confirmée", "Votre séjour approche", "Votre réservation a expiré"}},
		{"en", "€3,059.00", "€3,059.00", "€3,059.00", "8 June 2026", "15 June 2026", "22 June 2026",
			[]string{"Your booking is confirmed", "Your booking is cancelled", "You have been refunded",
				"Your booking request is sent", "Your booking request was declined", "Your booking is confirmed", "Your stay is coming up", "Your booking expired"}},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			e := newEnv(t)
			e.worker.Mailer = m
			guest := "guest-" + tc.locale + "-" + run + "@example.com"
			hostAddr := "host-" + tc.locale + "-" + run + "@example.com"
			if err := e.store.SetContactEmail(ctx, e.orgs["demo"], hostAddr); err != nil {
				t.Fatal(err)
			}
			b := e.bookAs(t, "demo", tc.locale, guest)
			if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
				t.Fatal(err)
			}
			r := e.bookAs(t, "demo-request", tc.locale, guest)
			if _, err := e.svc.Decline(ctx, "demo-request", r.Token); err != nil {
				t.Fatal(err)
			}
			c := e.bookAsOn(t, "demo", tc.locale, guest, "2026-06-15", "2026-06-18")
			// A hold that lapses unpaid.
			x, err := e.svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: e.property["demo"],
				Stay:      booking.Stay{CheckIn: civil.MustParse("2026-06-22"), CheckOut: civil.MustParse("2026-06-25"), Guests: 2},
				GuestName: "Camille Martin", GuestEmail: guest, GuestPhone: "+33612345678", Locale: tc.locale,
				Message: "We arrive late, around 23:00 <tard>."})
			if err != nil {
				t.Fatal(err)
			}
			expired := &x.Booking
			e.clock.Advance(31 * time.Minute)
			if n, err := e.svc.ExpireHolds(ctx); err != nil || n != 1 {
				t.Fatalf("ExpireHolds = %d, %v; want 1", n, err)
			}
			e.clock.Set(time.Date(2026, 6, 11, 22, 30, 0, 0, time.UTC)) // 12 June 00:30 in Paris: 3 days before the 15th
			if n, err := e.svc.QueueReminders(ctx, 3); err != nil || n != 1 {
				t.Fatalf("QueueReminders = %d, %v; want 1", n, err)
			}
			e.process(t)

			mails := sinkMails(t, api, guest)
			var subjects []string
			for _, s := range mails {
				subjects = append(subjects, strings.TrimPrefix(s.Subject, "Gîtes demo – "))
				subjects[len(subjects)-1] = strings.TrimPrefix(subjects[len(subjects)-1], "Gîtes demo-request – ")
			}
			for _, want := range tc.subjects {
				if !contains(subjects, want) {
					t.Errorf("guest subjects = %q, missing %q", subjects, want)
				}
			}
			if len(mails) != len(tc.subjects) {
				t.Errorf("guest got %d mails, want %d: %q", len(mails), len(tc.subjects), subjects)
			}
			for _, s := range mails {
				// Each mail is about one of the bookings, named by its link.
				token, checkIn := "", ""
				for _, bk := range []*booking.Booking{b, r, c, expired} {
					if strings.Contains(s.Text, "booking="+bk.Token) {
						token, checkIn = bk.Token, bk.CheckIn.String()
					}
				}
				if token == "" {
					t.Fatalf("mail %q links to no booking of the test:\n%s", s.Subject, s.Text)
				}
				checkInText := map[string]string{"2026-06-08": tc.checkIn, "2026-06-15": tc.checkInLate, "2026-06-22": tc.checkInExpired}[checkIn]
				link := "https://book.example.com/?org="
				for _, part := range []string{s.Text, s.HTML} {
					for _, want := range []string{tc.total, checkInText, "Villa Soleil", link, token} {
						if !strings.Contains(part, want) {
							t.Errorf("%s mail %q: a part lacks %q:\n%s", tc.locale, s.Subject, want, part)
						}
					}
					if strings.Contains(part, "_secret_") || strings.Contains(part, "whsec_") {
						t.Errorf("mail %q carries a secret", s.Subject)
					}
				}
				if !strings.Contains(s.HTML, "#9a3412") || !strings.Contains(s.HTML, "https://cdn.example.com/") {
					t.Errorf("HTML of %q lacks the organisation's colour or logo", s.Subject)
				}
				if s.Event == booking.NotifyRefunded && !strings.Contains(s.Text, tc.refund) {
					t.Errorf("refund mail lacks the refunded amount %q:\n%s", tc.refund, s.Text)
				}
				if s.Event == booking.NotifyConfirmed && !strings.Contains(s.Text, tc.paid) {
					t.Errorf("confirmation lacks the paid amount %q", tc.paid)
				}
			}
			hostMails := sinkMails(t, api, hostAddr)
			if len(hostMails) == 0 {
				t.Fatal("the host got no e-mail")
			}
			for _, s := range hostMails {
				// The host reads the organisation's language (French): who
				// the guest is, how to reach them, what they wrote, and a
				// link to the booking in the dashboard, not the guest's page.
				for _, want := range []string{"Camille Martin", "Voyageur", guest, "+33612345678",
					"Message du voyageur", "We arrive late, around 23:00 <tard>.", "https://book.example.com/host/#bookings/"} {
					if !strings.Contains(s.Text, want) {
						t.Errorf("host mail %q lacks %q:\n%s", s.Subject, want, s.Text)
					}
				}
				for _, want := range []string{"mailto:" + guest, "We arrive late, around 23:00 &lt;tard&gt;.", "Ouvrir dans le tableau de bord"} {
					if !strings.Contains(s.HTML, want) {
						t.Errorf("host mail %q: HTML lacks %q", s.Subject, want)
					}
				}
				if strings.Contains(s.Text, "booking=") {
					t.Errorf("host mail %q links to the guest's page:\n%s", s.Subject, s.Text)
				}
			}
			// Nothing is sent twice.
			e.clock.Advance(time.Hour)
			e.process(t)
			if again := sinkMails(t, api, guest); len(again) != len(mails) {
				t.Errorf("guest got %d mails after another round, want %d", len(again), len(mails))
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
