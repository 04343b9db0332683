package schedule_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/schedule"
)

var hostActor = host.Actor{Kind: "user", ID: 1, Name: "Host", Role: "owner"}

// twoDaysBefore is "2 days before arrival at 10:00", in English and French.
func twoDaysBefore() *schedule.Template {
	return &schedule.Template{Name: "Welcome", Active: true,
		Trigger: schedule.Trigger{When: schedule.BeforeArrival, Days: 2, At: 10 * 60},
		Texts: map[string]schedule.Text{
			"en": {Subject: "See you soon at {{property}}", Body: "Hello {{guest_name}}, you arrive on {{check_in}}: {{booking_link}}"},
			"fr": {Subject: "À bientôt à {{property}}", Body: "Bonjour {{guest_name}}, vous arrivez le {{check_in}} : {{booking_link}}"},
		}}
}

func TestInstantIsLocalTimeAcrossDST(t *testing.T) {
	loc, _ := time.LoadLocation("Europe/Paris")
	for _, c := range []struct {
		name   string
		tr     schedule.Trigger
		anchor string
		want   time.Time
	}{
		// Summer time ends on Sunday 25 October 2026 at 03:00.
		{"BeforeTheOctoberChange", schedule.Trigger{When: schedule.BeforeArrival, Days: 2, At: 600}, "2026-10-26",
			time.Date(2026, 10, 24, 8, 0, 0, 0, time.UTC)},
		{"OnTheOctoberChange", schedule.Trigger{When: schedule.BeforeArrival, Days: 2, At: 600}, "2026-10-27",
			time.Date(2026, 10, 25, 9, 0, 0, 0, time.UTC)},
		// Summer time starts on Sunday 29 March 2026 at 02:00.
		{"OnTheMarchChange", schedule.Trigger{When: schedule.BeforeArrival, Days: 2, At: 600}, "2026-03-31",
			time.Date(2026, 3, 29, 8, 0, 0, 0, time.UTC)},
		{"HoursAfterDepartureOverTheChange", schedule.Trigger{When: schedule.AfterDeparture, Hours: 3, At: 23 * 60}, "2026-03-28",
			time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)},
		{"DaysAfterDeparture", schedule.Trigger{When: schedule.AfterDeparture, Days: 1, At: 600}, "2026-10-24",
			time.Date(2026, 10, 25, 9, 0, 0, 0, time.UTC)},
		{"HoursBeforeTheBalance", schedule.Trigger{When: schedule.BalanceDue, Hours: 2, At: 9 * 60}, "2026-07-01",
			time.Date(2026, 7, 1, 5, 0, 0, 0, time.UTC)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.tr.Instant(civil.MustParse(c.anchor), loc); !got.Equal(c.want) {
				t.Errorf("Instant(%s) = %s, want %s", c.anchor, got.UTC(), c.want)
			}
		})
	}
}

// TestFiresAtLocalTimeAcrossDST: "2 days before arrival at 10:00" is sent at
// 10:00 in Paris on the day summer time ends and on the day it starts, not
// an hour early or late, with the fake clock stepping over it.
func TestFiresAtLocalTimeAcrossDST(t *testing.T) {
	for _, c := range []struct {
		name, start, in, out string
		fires                time.Time
	}{
		{"October", "2026-10-01 10:00", "2026-10-27", "2026-10-29", time.Date(2026, 10, 25, 9, 0, 0, 0, time.UTC)},
		{"March", "2026-03-01 10:00", "2026-03-31", "2026-04-02", time.Date(2026, 3, 29, 8, 0, 0, 0, time.UTC)},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, paris(c.start), pricing.ModeFull)
			e.save(t, twoDaysBefore())
			b := e.book(t, "en", "camille@example.com", c.in, c.out)
			for _, at := range []time.Time{c.fires.Add(-2 * time.Hour), c.fires.Add(-time.Hour), c.fires.Add(-time.Minute)} {
				e.clock.Set(at)
				if n := e.queue(t); n != 0 {
					t.Fatalf("at %s (%s in Paris): %d messages queued, want none before 10:00", at.UTC(), at.In(e.org.Location()), n)
				}
			}
			e.clock.Set(c.fires)
			if n := e.queue(t); n != 1 {
				t.Fatalf("at 10:00 in Paris: %d messages queued, want 1", n)
			}
			e.send(t)
			got := e.messages("camille@example.com")
			if len(got) != 1 {
				t.Fatalf("%d messages sent, want 1", len(got))
			}
			if got[0].Subject != "See you soon at Villa Soleil" || !strings.Contains(got[0].Text, "Hello Camille Martin, you arrive on") ||
				!strings.Contains(got[0].Text, "&booking="+b.Token) {
				t.Errorf("message = %q / %q, want the English template filled in with the booking link", got[0].Subject, got[0].Text)
			}
			// Later runs that day find it recorded.
			e.clock.Advance(3 * time.Hour)
			e.queue(t)
			e.send(t)
			if n := len(e.messages("camille@example.com")); n != 1 {
				t.Errorf("%d messages after later runs, want still 1", n)
			}
		})
	}
}

// TestExactlyOnceAcrossCrash: the periodic step run twice records one
// event; a process killed after recording it and before sending leaves it
// to the next process, which sends it once; the event's and the
// delivery's jobs run twice send nothing more.
func TestExactlyOnceAcrossCrash(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, paris("2026-06-01 10:00"), pricing.ModeFull)
	e.save(t, twoDaysBefore())
	e.book(t, "fr", "camille@example.com", "2026-06-20", "2026-06-23")
	e.clock.Set(paris("2026-06-18 10:05"))
	if a, b := e.queue(t), e.queue(t); a != 1 || b != 1 {
		t.Fatalf("queue twice: %d then %d, want the one message each time", a, b)
	}
	evs, err := e.store.MessageEvents(ctx, e.org.ID, []string{outbox.KindMessage}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("%d message events after two runs, want 1", len(evs))
	}
	// The process that recorded it is killed here; a new one starts and
	// the job of the event and of its delivery each run twice.
	w := e.worker()
	for range 2 {
		if err := w.DispatchEvent(ctx, evs[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := e.store.OutboxDeliveries(ctx, evs[0].ID, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].To != outbox.ToGuest {
		t.Fatalf("deliveries = %+v, want one to the guest (no webhook, no host copy)", ds)
	}
	for range 2 {
		if _, err := e.worker().Deliver(ctx, ds[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	e.queue(t)
	e.send(t)
	got := e.messages("camille@example.com")
	if len(got) != 1 {
		t.Fatalf("%d messages sent, want exactly 1", len(got))
	}
	if got[0].Subject != "À bientôt à Villa Soleil" || !strings.Contains(got[0].Text, "vous arrivez le 20 juin 2026") {
		t.Errorf("message = %q / %q, want the French text (the guest's locale)", got[0].Subject, got[0].Text)
	}
}

// TestReviewRequest: sent the day after departure at 10:00 to the guest
// whose stay ended, with a link per star in their locale; not to a
// cancelled booking; not at all once the host turns it off.
func TestReviewRequest(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, paris("2026-06-01 10:00"), pricing.ModeFull)
	stayed := e.book(t, "en", "stayed@example.com", "2026-06-10", "2026-06-13")
	cancelled := e.book(t, "en", "cancelled@example.com", "2026-06-13", "2026-06-15")
	french := e.book(t, "fr", "french@example.com", "2026-06-20", "2026-06-22")
	if _, err := e.svc.Cancel(ctx, e.org.Slug, cancelled.Token, false); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(paris("2026-06-14 09:59"))
	e.queue(t)
	e.send(t)
	if n := len(e.mails.OfKind(outbox.KindMessage)); n != 0 {
		t.Fatalf("%d mails before 10:00 the day after departure, want 0", n)
	}
	e.clock.Set(paris("2026-06-14 10:00"))
	e.queue(t)
	e.send(t)
	got := e.messages("stayed@example.com")
	if len(got) != 1 {
		t.Fatalf("%d review requests to the guest who stayed, want 1", len(got))
	}
	link := bookingURL(e.org, stayed)
	for n := 1; n <= 5; n++ {
		if !strings.Contains(got[0].Text, link+"&rate="+string(rune('0'+n))) {
			t.Errorf("the review request lacks the %d-star link:\n%s", n, got[0].Text)
		}
	}
	if got[0].Subject != "How was your stay at Villa Soleil?" {
		t.Errorf("subject = %q", got[0].Subject)
	}
	e.clock.Set(paris("2026-06-16 10:00"))
	e.queue(t)
	e.send(t)
	if n := len(e.messages("cancelled@example.com")); n != 0 {
		t.Errorf("%d review requests to the cancelled booking, want 0", n)
	}
	e.clock.Set(paris("2026-06-23 10:30"))
	e.queue(t)
	e.send(t)
	fr := e.messages(french.GuestEmail)
	if len(fr) != 1 || !strings.Contains(fr[0].Subject, "Comment s'est passé votre séjour") || !strings.Contains(fr[0].Text, "&rate=5") {
		t.Fatalf("French review request = %+v, want one in French with the star links", fr)
	}
	// Turned off: none for a later stay.
	if err := e.sched.SetSettings(ctx, e.org, schedule.Settings{ReviewRequest: false}, hostActor); err != nil {
		t.Fatal(err)
	}
	e.clock.Set(paris("2026-06-23 10:31"))
	late := e.book(t, "en", "late@example.com", "2026-06-25", "2026-06-27")
	e.clock.Set(paris("2026-06-28 10:00"))
	e.queue(t)
	e.send(t)
	if n := len(e.messages(late.GuestEmail)); n != 0 {
		t.Errorf("%d review requests once turned off, want 0", n)
	}
}

// TestCheckinInstructionsOnlyToConfirmedPaidGuests: the door code goes to
// the guest who paid in full, not to one who paid a deposit only, nor to
// one cancelled between the message's recording and its sending; it is
// never written to the log.
func TestCheckinInstructionsOnlyToConfirmedPaidGuests(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, paris("2026-06-01 10:00"), pricing.ModeDeposit)
	c := &schedule.ArrivalInfo{PropertyID: e.prop, Instructions: "The key box is left of the blue door.", DoorCode: "4711",
		DaysBefore: 1, At: 16 * 60}
	if err := e.sched.SetArrivalInfo(ctx, e.org, c, hostActor); err != nil {
		t.Fatal(err)
	}
	// Within the balance's 14 days: checkout charges the total.
	e.clock.Set(paris("2026-07-01 10:00"))
	paid := e.book(t, "en", "paid@example.com", "2026-07-10", "2026-07-12")
	// Further away: a 30 % deposit, the balance left to pay.
	deposit := e.book(t, "en", "deposit@example.com", "2026-08-10", "2026-08-12")
	late := e.book(t, "en", "late@example.com", "2026-07-12", "2026-07-14")
	if !paid.PaidAmount.Equal(paid.TotalAmount) || !deposit.PaidAmount.LessThan(deposit.TotalAmount) || !late.PaidAmount.Equal(late.TotalAmount) {
		t.Fatalf("fixtures: paid %s of %s, deposit %s of %s", paid.PaidAmount, paid.TotalAmount, deposit.PaidAmount, deposit.TotalAmount)
	}
	e.clock.Set(paris("2026-07-09 16:00"))
	e.queue(t)
	e.send(t)
	got := e.messages("paid@example.com")
	if len(got) != 1 || !strings.Contains(got[0].Text, "The key box is left of the blue door.") || !strings.Contains(got[0].Text, "Door code: 4711") {
		t.Fatalf("check-in message to the paid guest = %+v, want one with the instructions and door code", got)
	}
	// Recorded, then cancelled before it is sent: withdrawn.
	e.clock.Set(paris("2026-07-11 16:00"))
	if e.queue(t) == 0 {
		t.Fatal("no message queued for the late guest")
	}
	if _, err := e.svc.Cancel(ctx, e.org.Slug, late.Token, false); err != nil {
		t.Fatal(err)
	}
	e.send(t)
	if n := len(e.messages("late@example.com")); n != 0 {
		t.Errorf("%d check-in messages after the booking was cancelled, want 0", n)
	}
	e.clock.Set(paris("2026-08-09 16:00"))
	e.queue(t)
	e.send(t)
	if n := len(e.messages("deposit@example.com")); n != 0 {
		t.Errorf("%d check-in messages to a guest with a balance left, want 0", n)
	}
	if strings.Contains(e.log.String(), "4711") || strings.Contains(e.log.String(), "blue door") {
		t.Errorf("the door code or instructions reached the log:\n%s", e.log.String())
	}
}

// TestEventTrigger: a template on the cancellation goes once to the
// cancelled guest, not to the others.
func TestEventTrigger(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, paris("2026-06-01 10:00"), pricing.ModeFull)
	e.save(t, &schedule.Template{Name: "Sorry", Active: true, Trigger: schedule.Trigger{When: schedule.OnEvent, Event: booking.NotifyCancelled},
		Texts: map[string]schedule.Text{"en": {Subject: "Sorry to see you go, {{guest_name}}", Body: "Your stay from {{check_in}} is cancelled."}}})
	kept := e.book(t, "en", "kept@example.com", "2026-06-10", "2026-06-12")
	gone := e.book(t, "fr", "gone@example.com", "2026-06-20", "2026-06-22")
	e.clock.Advance(time.Hour)
	if _, err := e.svc.Cancel(ctx, e.org.Slug, gone.Token, false); err != nil {
		t.Fatal(err)
	}
	e.queue(t)
	e.queue(t)
	e.send(t)
	got := e.messages("gone@example.com")
	// The guest's locale has no text: the template's English is sent, dates in English.
	if len(got) != 1 || got[0].Subject != "Sorry to see you go, Camille Martin" || !strings.Contains(got[0].Text, "20 June 2026") {
		t.Fatalf("cancellation messages = %+v, want one", got)
	}
	if n := len(e.messages(kept.GuestEmail)); n != 0 {
		t.Errorf("%d messages to the booking not cancelled, want 0", n)
	}
}

func TestCheckRefusesUnknownPlaceholder(t *testing.T) {
	tpl := twoDaysBefore()
	tpl.Texts["fr"] = schedule.Text{Subject: "Bonjour", Body: "Votre code : {{ wifi_password }}"}
	err := schedule.Check(tpl)
	var be *booking.Error
	if !errors.As(err, &be) || be.Code != booking.CodeInvalid {
		t.Fatalf("Check = %v, want invalid", err)
	}
	if got := be.Fields["texts.fr.body"]; len(got) != 1 || got[0] != schedule.ReasonUnknownPlaceholder {
		t.Errorf("fields = %v, want texts.fr.body: unknown_placeholder", be.Fields)
	}
	if !strings.Contains(be.Message, "{{wifi_password}}") || !strings.Contains(be.Message, "{{door_code}}") {
		t.Errorf("message = %q, want it to name the placeholder and the known ones", be.Message)
	}
	for _, c := range []struct {
		name  string
		edit  func(*schedule.Template)
		field string
	}{
		{"NoName", func(t *schedule.Template) { t.Name = " " }, "name"},
		{"UnknownEvent", func(t *schedule.Template) {
			t.Trigger = schedule.Trigger{When: schedule.OnEvent, Event: "booking.paid"}
		}, "trigger.event"},
		{"TimeOfDay", func(t *schedule.Template) { t.Trigger.At = 24 * 60 }, "trigger.at"},
		{"UnknownLocale", func(t *schedule.Template) { t.Texts["de"] = schedule.Text{Subject: "Hallo", Body: "x"} }, "texts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tpl := twoDaysBefore()
			c.edit(tpl)
			var be *booking.Error
			if err := schedule.Check(tpl); !errors.As(err, &be) || len(be.Fields[c.field]) == 0 {
				t.Errorf("Check = %v, want a field error on %s", err, c.field)
			}
		})
	}
	if err := schedule.Check(twoDaysBefore()); err != nil {
		t.Errorf("Check(valid) = %v", err)
	}
}

// TestPreview renders a draft with a real booking, in the locale asked,
// and refuses another organisation's booking.
func TestPreview(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, paris("2026-06-01 10:00"), pricing.ModeFull)
	b := e.book(t, "en", "camille@example.com", "2026-06-10", "2026-06-12")
	m, err := e.sched.Preview(ctx, e.org, twoDaysBefore(), b.ID, "fr")
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "À bientôt à Villa Soleil" || !strings.Contains(m.Text, "10 juin 2026") {
		t.Errorf("preview = %+v", m)
	}
	other := &booking.Organization{ID: e.org.ID + 100}
	if _, err := e.sched.Preview(ctx, other, twoDaysBefore(), b.ID, ""); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Errorf("preview with another organisation's booking: %v, want not found", err)
	}
	if ts, _ := e.sched.Templates(ctx, e.org); len(ts) != 0 {
		t.Errorf("a preview saved %d templates", len(ts))
	}
}
