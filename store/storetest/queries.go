package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

var bookingQueryScenarios = []scenario{
	{"BookingByToken/OtherOrganizationNotFound", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		_, err := s.BookingByToken(t.Context(), other.ID, b.Token)
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.BookingByToken(t.Context(), w.org.ID, "no-such-token")
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.BookingByID(t.Context(), 999)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Bookings/NewestFirstFiltered", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		otherProp := newProperty(t, s, other.ID)
		var made []*booking.Booking
		for i, in := range []string{"2026-05-01", "2026-05-03", "2026-05-05", "2026-05-07"} {
			b := pendingFixture(w.prop, in, civil.MustParse(in).AddDays(2).String())
			// The last two share a creation instant; the ID breaks the tie.
			b.CreatedAt = t0.Add(time.Duration(min(i, 2)) * time.Minute)
			b.ExpiresAt = t0.Add(time.Hour)
			create(t, s, b, t0)
			made = append(made, b)
		}
		newPending(t, s, otherProp, "2026-05-01", "2026-05-03", t0.Add(time.Hour))
		moveTo(t, s, made[1], booking.StatusConfirmed)
		moveTo(t, s, made[2], booking.StatusCancelled)

		for _, tt := range []struct {
			name     string
			statuses []booking.Status
			want     []int64
		}{
			{"all", nil, []int64{made[3].ID, made[2].ID, made[1].ID, made[0].ID}},
			{"pending", []booking.Status{booking.StatusPending}, []int64{made[3].ID, made[0].ID}},
			{"confirmedOrCancelled", []booking.Status{booking.StatusConfirmed, booking.StatusCancelled},
				[]int64{made[2].ID, made[1].ID}},
			{"none", []booking.Status{booking.StatusDeclined}, []int64{}},
		} {
			list, err := s.Bookings(t.Context(), w.org.ID, tt.statuses...)
			must(t, err)
			if got := ids(list); !slices.Equal(got, tt.want) {
				t.Errorf("%s: IDs = %v, want %v", tt.name, got, tt.want)
			}
		}
	}},
	{"BookingsArriving/DayStatusOrganisation", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		second, third := newProperty(t, s, w.org.ID), newProperty(t, s, w.org.ID)
		other := newOrg(t, s, "other")
		otherProp := newProperty(t, s, other.ID)
		hold := t0.Add(time.Hour)
		cancelled := moveTo(t, s, newPending(t, s, w.prop, "2026-05-10", "2026-05-12", hold), booking.StatusCancelled)
		first := moveTo(t, s, newPending(t, s, w.prop, "2026-05-10", "2026-05-12", hold), booking.StatusConfirmed)
		moveTo(t, s, newPending(t, s, w.prop, "2026-05-08", "2026-05-10", hold), booking.StatusConfirmed) // leaves that day
		moveTo(t, s, newPending(t, s, second, "2026-05-12", "2026-05-14", hold), booking.StatusConfirmed) // arrives later
		secondArrival := moveTo(t, s, newPending(t, s, second, "2026-05-10", "2026-05-11", hold), booking.StatusConfirmed)
		pending := newPending(t, s, third, "2026-05-10", "2026-05-13", hold)
		otherArrival := moveTo(t, s, newPending(t, s, otherProp, "2026-05-10", "2026-05-12", hold), booking.StatusConfirmed)

		for _, tt := range []struct {
			name   string
			orgID  int64
			day    string
			status booking.Status
			want   []int64
		}{
			{"confirmed", w.org.ID, "2026-05-10", booking.StatusConfirmed, []int64{first.ID, secondArrival.ID}},
			{"cancelled", w.org.ID, "2026-05-10", booking.StatusCancelled, []int64{cancelled.ID}},
			{"pending", w.org.ID, "2026-05-10", booking.StatusPending, []int64{pending.ID}},
			{"otherDay", w.org.ID, "2026-05-11", booking.StatusConfirmed, []int64{}},
			{"otherOrganisation", other.ID, "2026-05-10", booking.StatusConfirmed, []int64{otherArrival.ID}},
			{"noSuchOrganisation", 999, "2026-05-10", booking.StatusConfirmed, []int64{}},
		} {
			list, err := s.BookingsArriving(t.Context(), tt.orgID, day(tt.day), tt.status)
			must(t, err)
			if got := ids(list); !slices.Equal(got, tt.want) {
				t.Errorf("%s: IDs = %v, want %v", tt.name, got, tt.want)
			}
			for _, b := range list {
				if b.CheckIn != day(tt.day) || b.Status != tt.status || b.OrgID != tt.orgID || b.Token == "" {
					t.Errorf("%s: booking %+v, want a whole booking of organisation %d in %s arriving %s",
						tt.name, b, tt.orgID, tt.status, tt.day)
				}
			}
		}
	}},
	{"LapsedHolds/OldestFirstLimited", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		now := t0.Add(time.Hour)
		lapsed3 := newPending(t, s, w.prop, "2026-05-01", "2026-05-03", t0.Add(50*time.Minute))
		lapsed1 := newPending(t, s, w.prop, "2026-05-03", "2026-05-05", t0.Add(10*time.Minute))
		lapsed2 := newPending(t, s, w.prop, "2026-05-05", "2026-05-07", t0.Add(20*time.Minute))
		lapsed2 = moveTo(t, s, lapsed2, booking.StatusRequested)
		atNow := newPending(t, s, w.prop, "2026-05-07", "2026-05-09", now) // lapses exactly now
		newPending(t, s, w.prop, "2026-05-09", "2026-05-11", now.Add(time.Millisecond))
		confirmed := newPending(t, s, w.prop, "2026-05-11", "2026-05-13", t0.Add(5*time.Minute))
		moveTo(t, s, confirmed, booking.StatusConfirmed)
		cancelled := newPending(t, s, w.prop, "2026-05-13", "2026-05-15", t0.Add(5*time.Minute))
		moveTo(t, s, cancelled, booking.StatusCancelled)

		list, err := s.LapsedHolds(t.Context(), now, 10)
		must(t, err)
		want := []int64{lapsed1.ID, lapsed2.ID, lapsed3.ID, atNow.ID}
		if got := ids(list); !slices.Equal(got, want) {
			t.Errorf("lapsed = %v, want %v", got, want)
		}
		list, err = s.LapsedHolds(t.Context(), now, 2)
		must(t, err)
		if got := ids(list); !slices.Equal(got, want[:2]) {
			t.Errorf("lapsed, limit 2 = %v, want %v", got, want[:2])
		}
		if len(list) == 2 && list[1].Status != booking.StatusRequested {
			t.Errorf("status = %q, want requested", list[1].Status)
		}
	}},
	{"Occupied/BlocksAndHolders", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newProperty(t, s, w.org.ID)
		r := func(a, b string) civil.Range { return civil.Range{Start: day(a), End: day(b)} }
		newPending(t, s, w.prop, "2026-04-26", "2026-05-01", t0.Add(time.Hour))
		newPending(t, s, w.prop, "2026-05-01", "2026-05-03", t0.Add(time.Hour))
		confirmed := newPending(t, s, w.prop, "2026-05-05", "2026-05-07", t0.Add(time.Minute))
		moveTo(t, s, confirmed, booking.StatusConfirmed)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-12", t0.Add(time.Minute)) // lapses at t0+1m
		cancelled := newPending(t, s, w.prop, "2026-05-14", "2026-05-16", t0.Add(time.Hour))
		moveTo(t, s, cancelled, booking.StatusCancelled)
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-30"), End: day("2026-06-03")}, t0))
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-20"), End: day("2026-05-25")}, t0))
		newPending(t, s, other, "2026-05-08", "2026-05-09", t0.Add(time.Hour))

		for _, tt := range []struct {
			name     string
			from, to string
			now      time.Time
			want     []civil.Range
		}{
			{"endingOnFromExcluded", "2026-05-01", "2026-06-01", t0, []civil.Range{r("2026-05-01", "2026-05-03"),
				r("2026-05-05", "2026-05-07"), r("2026-05-10", "2026-05-12"), r("2026-05-20", "2026-05-25"),
				r("2026-05-30", "2026-06-03")}},
			{"lapsedHoldExcluded", "2026-05-01", "2026-06-01", t0.Add(time.Minute), []civil.Range{
				r("2026-05-01", "2026-05-03"), r("2026-05-05", "2026-05-07"), r("2026-05-20", "2026-05-25"),
				r("2026-05-30", "2026-06-03")}},
			{"startingOnToExcluded", "2026-04-27", "2026-05-30", t0, []civil.Range{r("2026-04-26", "2026-05-01"),
				r("2026-05-01", "2026-05-03"), r("2026-05-05", "2026-05-07"), r("2026-05-10", "2026-05-12"),
				r("2026-05-20", "2026-05-25")}},
			{"nothing", "2026-07-01", "2026-08-01", t0, nil},
		} {
			got, err := s.Occupied(t.Context(), w.prop.ID, day(tt.from), day(tt.to), tt.now)
			must(t, err)
			if len(got) == 0 && len(tt.want) == 0 {
				continue
			}
			sameJSON(t, tt.name, ranges(got), tt.want)
		}
	}},
}
