package conversation_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// start is the tests' "now": Monday 1 June 2026, 10:00 in Paris.
var start = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// env is a booking Service and the thread's Service on one SQLite store,
// with the fake provider and a fake clock; "demo" speaks French and its
// host's contact address is host@example.com.
type env struct {
	svc    *booking.Service
	thread *conversation.Service
	store  *sqlite.DB
	pay    *paymenttest.Provider
	clock  *bookingtest.Clock
	org    *booking.Organization
	prop   int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(start)
	e := &env{store: db, pay: paymenttest.New(paymenttest.WithClock(clock.Now)), clock: clock}
	e.svc = booking.NewService(booking.Options{Stores: db.Stores(), Payments: e.pay, Clock: clock})
	money.New(e.svc, money.Options{Store: db.Stores(), Payments: e.pay, Clock: clock})
	e.thread = conversation.New(conversation.Options{Store: db, Catalog: db, Clock: clock})
	ctx := context.Background()
	org := booking.Organization{Slug: "demo", Name: "Gîtes du Lac", PaymentMode: pricing.ModeFull, PublicEngineEnabled: true,
		DefaultLocale: "fr", Timezone: "Europe/Paris"}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa Soleil", MaxGuests: 4, Bedrooms: 2, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(100)}}
	if err := db.CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	if err := db.SetContactEmail(ctx, org.ID, "host@example.com"); err != nil {
		t.Fatal(err)
	}
	e.org, e.prop = &org, p.ID
	return e
}

// worker is a fresh outbox worker sending through m (nil: the log).
func (e *env) worker(m notify.Mailer, log *bytes.Buffer) *notify.Worker {
	w := &notify.Worker{Store: e.store, Clock: e.clock, Mailer: m, Threads: e.thread,
		BookingURL: func(org *booking.Organization, b *booking.Booking) string {
			return "https://book.example.com/?org=" + org.Slug + "&booking=" + b.Token
		},
		HostBookingURL: func(_ *booking.Organization, b *booking.Booking) string {
			return "https://book.example.com/host/#bookings/1"
		}}
	if log != nil {
		w.Logger = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return w
}

// book checks out 8–11 June 2026 for a guest in locale and pays; it
// returns the booking, confirmed.
func (e *env) book(t *testing.T, locale string) *booking.Booking {
	t.Helper()
	ctx := context.Background()
	res, err := e.svc.Checkout(ctx, e.org.Slug, booking.CheckoutRequest{PropertyID: e.prop,
		Stay:      booking.Stay{CheckIn: civil.MustParse("2026-06-08"), CheckOut: civil.MustParse("2026-06-11"), Guests: 2},
		GuestName: "Camille Martin", GuestEmail: "camille@example.com", GuestPhone: "+33612345678", Locale: locale})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.Confirm(ctx, e.org.Slug, res.Booking.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return &d.Booking
}

// process runs w once.
func process(t *testing.T, w *notify.Worker) {
	t.Helper()
	if _, err := w.Process(context.Background()); err != nil {
		t.Logf("process: %v", err)
	}
}

// threadMails are the e-mails of the threads sent through m.
func threadMails(m *notifytest.Mailer) []notify.Mail {
	return m.Sent(func(mail notify.Mail) bool {
		return mail.Kind == outbox.KindGuestMessage || mail.Kind == outbox.KindHostMessage
	})
}

// TestThreadByEmail: the guest's message reaches the host's contact
// address once, in the organisation's language (French), the host's
// answer reaches the guest once, in theirs (English), with the link that
// opens their page at the thread; a retry of the guest's request stores
// and sends nothing twice, and the outbox's later runs send nothing again.
func TestThreadByEmail(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "en")
	mails := &notifytest.Mailer{}
	w := e.worker(mails, nil)
	org := e.svc.Org(e.org)
	process(t, w) // the booking's own e-mails

	m, created, err := e.thread.Post(context.Background(), org, b.Token, " Can we arrive <b>late</b>? ", "key-1")
	if err != nil || !created {
		t.Fatalf("Post = %v, %v", created, err)
	}
	if again, created, err := e.thread.Post(context.Background(), org, b.Token, " Can we arrive <b>late</b>? ", "key-1"); err != nil || created || again.ID != m.ID {
		t.Fatalf("a retry: %+v, %v, %v; want message %d again, not created", again, created, err, m.ID)
	}
	process(t, w)
	process(t, w)
	got := threadMails(mails)
	if len(got) != 1 {
		t.Fatalf("%d thread e-mails after the guest's message, want 1: %+v", len(got), got)
	}
	toHost := got[0]
	if toHost.To != "host@example.com" || toHost.Kind != outbox.KindGuestMessage ||
		toHost.Subject != "Message de Camille Martin — Villa Soleil, du 8 juin 2026 au 11 juin 2026" ||
		!strings.Contains(toHost.Text, "Can we arrive <b>late</b>?") || !strings.Contains(toHost.Text, "https://book.example.com/host/#bookings/1") ||
		strings.Contains(toHost.HTML, "<b>late") || !strings.Contains(toHost.HTML, "&lt;b&gt;late&lt;/b&gt;") {
		t.Errorf("the host's e-mail: %+v", toHost)
	}

	reply := &conversation.Message{BookingID: b.ID, From: conversation.FromHost, Author: "host@example.com", Body: "Of course, the key box is by the door.", CreatedAt: e.clock.Now()}
	if _, err := e.store.AddMessage(context.Background(), reply); err != nil {
		t.Fatal(err)
	}
	process(t, w)
	process(t, w)
	got = threadMails(mails)
	if len(got) != 2 {
		t.Fatalf("%d thread e-mails after the host's answer, want 2", len(got))
	}
	toGuest := got[1]
	if toGuest.To != "camille@example.com" || toGuest.Kind != outbox.KindHostMessage ||
		toGuest.Subject != "Gîtes du Lac wrote to you about your stay at Villa Soleil" ||
		!strings.Contains(toGuest.Text, reply.Body) ||
		!strings.Contains(toGuest.Text, "https://book.example.com/?org=demo&booking="+b.Token+"#messages") {
		t.Errorf("the guest's e-mail: %+v", toGuest)
	}
	if toHost.ID == toGuest.ID || !strings.HasSuffix(toHost.ID, ".host") || !strings.HasSuffix(toGuest.ID, ".guest") {
		t.Errorf("mail ids %q and %q: want one per message and recipient", toHost.ID, toGuest.ID)
	}
}

// flaky fails its first n sends, then records the rest.
type flaky struct {
	mu    sync.Mutex
	fails int
	ids   []string
	sent  []notify.Mail
}

func (f *flaky) Send(_ context.Context, m notify.Mail) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids = append(f.ids, m.ID)
	if f.fails > 0 {
		f.fails--
		return errors.New("421 try again later")
	}
	f.sent = append(f.sent, m)
	return nil
}

// TestThreadMailRetried: an SMTP server that refuses the first attempt
// gets the message again after the outbox's backoff, with the same
// Message-ID, and once it accepts it, never again.
func TestThreadMailRetried(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "fr")
	process(t, e.worker(&notifytest.Mailer{}, nil)) // the booking's own e-mails
	f := &flaky{fails: 1}
	w := e.worker(f, nil)
	if _, _, err := e.thread.Post(context.Background(), e.svc.Org(e.org), b.Token, "Bonjour !", ""); err != nil {
		t.Fatal(err)
	}
	process(t, w)
	if len(f.sent) != 0 || len(f.ids) != 1 {
		t.Fatalf("after a refused attempt: %d sent, %d attempts", len(f.sent), len(f.ids))
	}
	process(t, w) // not due yet
	e.clock.Advance(outbox.Backoff(1))
	process(t, w)
	process(t, w)
	e.clock.Advance(time.Hour)
	process(t, w)
	if len(f.sent) != 1 || len(f.ids) != 2 || f.ids[0] != f.ids[1] {
		t.Fatalf("attempts %v, %d sent; want two attempts of one id and one e-mail", f.ids, len(f.sent))
	}
}

// TestThreadMailLogsNoGuestDetails: without SMTP the e-mails go to the
// log, which names their kind and never the guest's address, phone number
// or words.
func TestThreadMailLogsNoGuestDetails(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "fr")
	var log bytes.Buffer
	w := e.worker(nil, &log)
	if _, _, err := e.thread.Post(context.Background(), e.svc.Org(e.org), b.Token, "Mon code d'immeuble est 4242B", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.AddMessage(context.Background(), &conversation.Message{BookingID: b.ID, From: conversation.FromHost,
		Author: "host@example.com", Body: "La boîte à clés est à gauche", CreatedAt: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	process(t, w)
	out := log.String()
	if !strings.Contains(out, "kind=message.from_guest") || !strings.Contains(out, "kind=message.from_host") {
		t.Fatalf("the log does not name the thread's e-mails:\n%s", out)
	}
	for _, secret := range []string{"camille@example.com", "+33612345678", "4242B", "boîte à clés"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q:\n%s", secret, out)
		}
	}
}

// TestErasedBeforeTheMail: a guest erased before their message's e-mail
// went out: the message is deleted with them, the e-mail is never sent
// (its delivery fails for good), and the thread is closed to the guest.
func TestErasedBeforeTheMail(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "fr")
	mails := &notifytest.Mailer{}
	process(t, e.worker(mails, nil))
	org := e.svc.Org(e.org)
	if _, _, err := e.thread.Post(context.Background(), org, b.Token, "Je m'appelle Camille Martin", ""); err != nil {
		t.Fatal(err)
	}
	if err := e.store.EraseGuest(context.Background(), b.ID, privacy.Anonymous(e.clock.Now())); err != nil {
		t.Fatal(err)
	}
	process(t, e.worker(mails, nil))
	if got := threadMails(mails); len(got) != 0 {
		t.Fatalf("an erased guest's message was e-mailed: %+v", got)
	}
	th, err := e.thread.ForGuest(context.Background(), org, b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if th.CanWrite || len(th.Messages) != 0 {
		t.Errorf("the erased guest's thread: %+v", th)
	}
	_, _, err = e.thread.Post(context.Background(), org, b.Token, "Encore moi", "")
	if booking.ErrorCode(err) != booking.CodeBookingClosed || reasonOf(err) != conversation.ReasonGuestErased {
		t.Errorf("a message after the erasure: %v, want booking_closed %s", err, conversation.ReasonGuestErased)
	}
}
