package storetest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/schedule"
)

var scheduleScenarios = []scenario{
	{"Schedule/TemplatesCheckinSettings", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		st := capabilityOf[schedule.Store](t, s)
		other := newOrg(t, s, "other")
		otherProp := newProperty(t, s, other.ID)
		tpl := &schedule.Template{OrgID: w.org.ID, Name: "Welcome", Texts: map[string]schedule.Text{
			"en": {Subject: "Hi {{guest_name}}", Body: "See you on {{check_in}}"}, "fr": {Subject: "Bonjour", Body: "À bientôt"}},
			Trigger: schedule.Trigger{When: schedule.BeforeArrival, Days: 2, At: 600}, Active: true, PropertyID: w.prop.ID,
			CreatedAt: t0, UpdatedAt: t0}
		must(t, st.SaveMessageTemplate(ctx, tpl))
		if tpl.ID == 0 {
			t.Fatal("SaveMessageTemplate left the ID 0")
		}
		got, err := st.MessageTemplate(ctx, w.org.ID, tpl.ID)
		must(t, err)
		if !reflect.DeepEqual(got, tpl) {
			t.Errorf("MessageTemplate = %+v, want %+v", got, tpl)
		}
		t.Run("Replace", func(t *testing.T) {
			tpl.Active, tpl.Trigger = false, schedule.Trigger{When: schedule.OnEvent, Event: booking.NotifyCancelled}
			tpl.PropertyID, tpl.UpdatedAt = 0, t0.Add(time.Hour)
			must(t, st.SaveMessageTemplate(ctx, tpl))
			list, err := st.MessageTemplates(ctx, w.org.ID)
			must(t, err)
			if len(list) != 1 || !reflect.DeepEqual(list[0], *tpl) {
				t.Errorf("MessageTemplates = %+v, want [%+v]", list, *tpl)
			}
		})
		t.Run("OtherOrganisation", func(t *testing.T) {
			_, err := st.MessageTemplate(ctx, other.ID, tpl.ID)
			wantCode(t, err, booking.CodeNotFound)
			theirs := *tpl
			theirs.OrgID = other.ID
			wantCode(t, st.SaveMessageTemplate(ctx, &theirs), booking.CodeNotFound)
			mine := *tpl
			mine.ID, mine.PropertyID = 0, otherProp.ID
			wantCode(t, st.SaveMessageTemplate(ctx, &mine), booking.CodeNotFound)
			list, err := st.MessageTemplates(ctx, other.ID)
			must(t, err)
			if len(list) != 0 {
				t.Errorf("the other organisation has %d templates, want 0", len(list))
			}
		})
		t.Run("Checkin", func(t *testing.T) {
			c, err := st.ArrivalInfo(ctx, w.org.ID, w.prop.ID)
			must(t, err)
			want := schedule.DefaultArrivalInfo
			want.PropertyID = w.prop.ID
			if *c != want {
				t.Errorf("ArrivalInfo before any = %+v, want %+v", *c, want)
			}
			set := schedule.ArrivalInfo{PropertyID: w.prop.ID, Instructions: "Key box left of the door", DoorCode: "4711", DaysBefore: 2, At: 540, UpdatedAt: t0}
			must(t, st.SetArrivalInfo(ctx, w.org.ID, &set))
			set.DoorCode = "4712"
			must(t, st.SetArrivalInfo(ctx, w.org.ID, &set))
			c, err = st.ArrivalInfo(ctx, w.org.ID, w.prop.ID)
			must(t, err)
			if *c != set {
				t.Errorf("ArrivalInfo = %+v, want %+v", *c, set)
			}
			wantCode(t, st.SetArrivalInfo(ctx, other.ID, &set), booking.CodeNotFound)
			_, err = st.ArrivalInfo(ctx, other.ID, w.prop.ID)
			wantCode(t, err, booking.CodeNotFound)
		})
		t.Run("Settings", func(t *testing.T) {
			got, err := st.MessageSettings(ctx, w.org.ID)
			must(t, err)
			if !got.ReviewRequest {
				t.Error("the review request is off by default, want on")
			}
			must(t, st.SetMessageSettings(ctx, w.org.ID, schedule.Settings{ReviewRequest: false}))
			if got, _ = st.MessageSettings(ctx, w.org.ID); got.ReviewRequest {
				t.Error("the review request stayed on")
			}
			if got, _ = st.MessageSettings(ctx, other.ID); !got.ReviewRequest {
				t.Error("turning it off for one organisation turned it off for another")
			}
		})
	}},
	{"Schedule/BookingsAndEvents", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		st := capabilityOf[schedule.Store](t, s)
		other := newOrg(t, s, "other")
		a := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		b := newPending(t, s, w.prop, "2026-06-10", "2026-06-12", t0.Add(time.Hour))
		newPending(t, s, newProperty(t, s, other.ID), "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		list := func(f schedule.DateField, from, to string) []int64 {
			t.Helper()
			bs, err := st.MessageBookings(ctx, w.org.ID, f, civil.MustParse(from), civil.MustParse(to))
			must(t, err)
			return ids(bs)
		}
		for _, c := range []struct {
			f        schedule.DateField
			from, to string
			want     []int64
		}{
			{schedule.FieldCheckIn, "2026-06-01", "2026-06-10", []int64{a.ID, b.ID}},
			{schedule.FieldCheckIn, "2026-06-02", "2026-06-10", []int64{b.ID}},
			{schedule.FieldCheckOut, "2026-06-04", "2026-06-04", []int64{a.ID}},
			{schedule.FieldCheckOut, "2026-06-05", "2026-06-11", []int64{}},
		} {
			if got := list(c.f, c.from, c.to); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("MessageBookings(%s, %s..%s) = %v, want %v", c.f, c.from, c.to, got, c.want)
			}
		}
		_, err := st.MessageBookings(ctx, w.org.ID, "guest_email", civil.MustParse("2026-06-01"), civil.MustParse("2026-06-10"))
		wantCode(t, err, booking.CodeInvalid)
		_, err = st.RecordOutbox(ctx, []outbox.Event{
			{Key: "c1", Kind: booking.NotifyConfirmed, OrgID: w.org.ID, BookingID: a.ID, CreatedAt: t0},
			{Key: "x1", Kind: booking.NotifyCancelled, OrgID: w.org.ID, BookingID: b.ID, CreatedAt: t0.Add(2 * time.Hour)},
			{Key: "o1", Kind: booking.NotifyCancelled, OrgID: other.ID, CreatedAt: t0.Add(2 * time.Hour)},
		}, t0)
		must(t, err)
		evs, err := st.MessageEvents(ctx, w.org.ID, []string{booking.NotifyCancelled, booking.NotifyConfirmed}, t0.Add(time.Hour))
		must(t, err)
		if len(evs) != 1 || evs[0].Key != "x1" || evs[0].BookingID != b.ID {
			t.Errorf("MessageEvents since t0+1h = %+v, want the cancellation x1 alone", evs)
		}
		evs, err = st.MessageEvents(ctx, w.org.ID, []string{booking.NotifyConfirmed}, t0)
		must(t, err)
		if len(evs) != 1 || evs[0].Key != "c1" {
			t.Errorf("MessageEvents(confirmed) = %+v, want c1", evs)
		}
	}},
	{"Race/ScheduleMessageOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		st := capabilityOf[schedule.Store](t, s)
		bk := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		for round := range rounds {
			key := schedule.Key("7", bk.ID, fmt.Sprint("2026-06-0", round+1))
			counts := race(8, func(int) error {
				_, err := st.RecordOutbox(ctx, []outbox.Event{{Key: key, Kind: outbox.KindMessage, OrgID: w.org.ID, BookingID: bk.ID}}, t0)
				return err
			})
			wantCounts(t, counts, map[string]int{"": 8})
		}
		evs, err := st.MessageEvents(ctx, w.org.ID, []string{outbox.KindMessage}, t0.Add(-time.Hour))
		must(t, err)
		if len(evs) != rounds {
			t.Fatalf("%d message events after %d rounds of 8 writers, want %d (one per key)", len(evs), rounds, rounds)
		}
	}},
}
