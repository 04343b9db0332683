package booking_test

import (
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// TestGuardedIsReserved: a holder overlaps DateGuard.Guarded of a stay
// exactly when its range widened by rules.Set.Reserved (what checkFree and
// the calendar use) overlaps the stay, for every direction of the
// preparation days.
func TestGuardedIsReserved(t *testing.T) {
	base := d("2026-07-01")
	rng := func(from, nights int) civil.Range {
		return civil.Range{Start: base.AddDays(from), End: base.AddDays(from + nights)}
	}
	for before := range 4 {
		for after := range 4 {
			set := rules.Set{PreparationDaysBefore: before, PreparationDaysAfter: after}
			o := booking.DateGuard{PreparationDaysBefore: before, PreparationDaysAfter: after}
			for hs := range 12 {
				for hn := 1; hn <= 3; hn++ {
					holder := rng(hs, hn)
					for ss := range 12 {
						for sn := 1; sn <= 3; sn++ {
							stay := rng(ss, sn)
							want := set.Reserved([]civil.Range{holder})[0].Overlaps(stay)
							if got := o.Guarded(stay).Overlaps(holder); got != want {
								t.Fatalf("before %d after %d, holder %v, stay %v: Guarded says taken %v, Reserved %v",
									before, after, holder, stay, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestClosedNight: a stored calendar day decides for its date, the rules'
// closed nights for the others; the check-out day is not a night of the
// stay.
func TestClosedNight(t *testing.T) {
	stay := civil.Range{Start: d("2026-07-10"), End: d("2026-07-13")}
	for _, tt := range []struct {
		name       string
		ruleClosed []civil.Date
		stored     []booking.CalendarDay
		want       bool
	}{
		{"nothing", nil, nil, false},
		{"calendar closes a night", nil, []booking.CalendarDay{{Date: d("2026-07-11"), Closed: true}}, true},
		{"calendar closes the check-out day", nil, []booking.CalendarDay{{Date: d("2026-07-13"), Closed: true}}, false},
		{"calendar closes the day before", nil, []booking.CalendarDay{{Date: d("2026-07-09"), Closed: true}}, false},
		{"rules close a night", []civil.Date{d("2026-07-12")}, nil, true},
		{"rules close the check-out day", []civil.Date{d("2026-07-13")}, nil, false},
		{"calendar opens the rules' night", []civil.Date{d("2026-07-12")}, []booking.CalendarDay{{Date: d("2026-07-12"), ClosedToArrival: true}}, false},
		{"calendar opens another night", []civil.Date{d("2026-07-12")}, []booking.CalendarDay{{Date: d("2026-07-11")}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := booking.DateGuard{RuleClosed: tt.ruleClosed}
			if got := o.ClosedNight(stay, tt.stored); got != tt.want {
				t.Errorf("ClosedNight = %v, want %v", got, tt.want)
			}
		})
	}
}
