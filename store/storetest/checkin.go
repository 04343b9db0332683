package storetest

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/privacy"
)

// checkinGuest is a guest of a check-in named name.
func checkinGuest(name string) checkin.Guest {
	return checkin.Guest{GivenNames: name, Surname: "Müller", Sex: checkin.SexFemale, BirthDate: civil.MustParse("1980-11-20"),
		Nationality: "DE", DocumentType: checkin.DocumentPassport, DocumentNumber: "C01X00T47", DocumentCountry: "DE",
		DocumentIssueDate: civil.MustParse("2020-01-02"), Address: "Unter den Linden 5", PostalCode: "10117", City: "Berlin",
		AddressCountry: "DE", Phone: "+4915112345678", Email: "lena@example.com"}
}

var checkinScenarios = []scenario{
	{"Checkin/SaveReplaceAndRead", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-06-10", "2026-06-12", t0.Add(time.Hour))
		c := capabilityOf[checkin.Store](t, s)
		_, err := c.Checkin(t.Context(), b.ID)
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, c.SaveCheckin(t.Context(), &checkin.Record{BookingID: b.ID + other.ID + 1000, Country: "FR",
			Guests: []checkin.Guest{checkinGuest("x")}, UpdatedBy: "guest", UpdatedAt: t0}), booking.CodeNotFound)

		first := &checkin.Record{BookingID: b.ID, Country: "FR", Guests: []checkin.Guest{checkinGuest("Lena")},
			UpdatedBy: "guest", UpdatedAt: t0.Add(time.Hour)}
		must(t, c.SaveCheckin(t.Context(), first))
		got, err := c.Checkin(t.Context(), b.ID)
		must(t, err)
		if !reflect.DeepEqual(got, first) {
			t.Errorf("Checkin = %+v\nwant %+v", got, first)
		}
		must(t, c.MarkCheckinsSubmitted(t.Context(), []int64{b.ID}, t0.Add(2*time.Hour)))
		got, err = c.Checkin(t.Context(), b.ID)
		must(t, err)
		if !got.SubmittedAt.Equal(t0.Add(2 * time.Hour)) {
			t.Errorf("SubmittedAt = %v", got.SubmittedAt)
		}
		second := &checkin.Record{BookingID: b.ID, Country: "FR", Guests: []checkin.Guest{checkinGuest("Lena"), checkinGuest("Jonas")},
			UpdatedBy: "user:3", UpdatedAt: t0.Add(3 * time.Hour)}
		must(t, c.SaveCheckin(t.Context(), second))
		got, err = c.Checkin(t.Context(), b.ID)
		must(t, err)
		if !reflect.DeepEqual(got, second) {
			t.Errorf("after the replacement: %+v\nwant %+v (SubmittedAt cleared)", got, second)
		}
		must(t, c.SaveCheckin(t.Context(), &checkin.Record{BookingID: other.ID, Country: "FR",
			Guests: []checkin.Guest{checkinGuest("Other")}, UpdatedBy: "guest", UpdatedAt: t0}))
		arriving, err := c.ArrivalCheckins(t.Context(), w.prop.ID, civil.MustParse("2026-06-01"))
		must(t, err)
		if len(arriving) != 1 || arriving[0].BookingID != b.ID || len(arriving[0].Guests) != 2 {
			t.Errorf("ArrivalCheckins(2026-06-01) = %+v, want booking %d only", arriving, b.ID)
		}
		if none, err := c.ArrivalCheckins(t.Context(), w.prop.ID, civil.MustParse("2026-06-02")); err != nil || len(none) != 0 {
			t.Errorf("ArrivalCheckins of a day without arrival = %+v, %v", none, err)
		}
	}},
	{"Checkin/ErasedWithTheGuest", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		other := newPending(t, s, w.prop, "2026-06-10", "2026-06-12", t0.Add(time.Hour))
		c := capabilityOf[checkin.Store](t, s)
		for _, id := range []int64{b.ID, other.ID} {
			must(t, c.SaveCheckin(t.Context(), &checkin.Record{BookingID: id, Country: "ES",
				Guests: []checkin.Guest{checkinGuest("Ana")}, UpdatedBy: "guest", UpdatedAt: t0}))
		}
		must(t, records(t, s).EraseGuest(t.Context(), b.ID, privacy.Anonymous(t0.Add(time.Hour))))
		_, err := c.Checkin(t.Context(), b.ID)
		wantCode(t, err, booking.CodeNotFound)
		if _, err := c.Checkin(t.Context(), other.ID); err != nil {
			t.Errorf("another booking's check-in after the erasure: %v", err)
		}
	}},
	{"Checkin/DeletedByCountryAfterDeparture", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		c := capabilityOf[checkin.Store](t, s)
		save := func(in, out, country string) int64 {
			b := newPending(t, s, w.prop, in, out, t0.Add(time.Hour))
			must(t, c.SaveCheckin(t.Context(), &checkin.Record{BookingID: b.ID, Country: country,
				Guests: []checkin.Guest{checkinGuest("G")}, UpdatedBy: "guest", UpdatedAt: t0}))
			return b.ID
		}
		frOld := save("2026-04-01", "2026-04-05", "FR")
		frEdge := save("2026-04-05", "2026-04-10", "FR")
		frNew := save("2026-04-10", "2026-04-11", "FR")
		esOld := save("2026-04-11", "2026-04-12", "ES")
		usOld := save("2026-04-12", "2026-04-13", "US")
		by := civil.MustParse("2026-04-10")
		gone, err := c.DeleteCheckins(t.Context(), checkin.Cutoff{Countries: []string{"FR"}, DepartedBy: by})
		must(t, err)
		want := []checkin.Deleted{{BookingID: frOld, OrgID: w.org.ID, Country: "FR"}, {BookingID: frEdge, OrgID: w.org.ID, Country: "FR"}}
		if !reflect.DeepEqual(gone, want) {
			t.Errorf("FR cutoff deleted %+v, want %+v", gone, want)
		}
		gone, err = c.DeleteCheckins(t.Context(), checkin.Cutoff{Countries: []string{"FR", "ES"}, Others: true,
			DepartedBy: civil.MustParse("2026-12-31")})
		must(t, err)
		if want := []checkin.Deleted{{BookingID: usOld, OrgID: w.org.ID, Country: "US"}}; !reflect.DeepEqual(gone, want) {
			t.Errorf("others cutoff deleted %+v, want %+v", gone, want)
		}
		for id, kept := range map[int64]bool{frOld: false, frEdge: false, frNew: true, esOld: true, usOld: false} {
			_, err := c.Checkin(t.Context(), id)
			if kept && err != nil || !kept && booking.ErrorCode(err) != booking.CodeNotFound {
				t.Errorf("booking %d: kept %v, Checkin error %v", id, kept, err)
			}
		}
		if gone, err := c.DeleteCheckins(t.Context(), checkin.Cutoff{DepartedBy: by}); err != nil || len(gone) != 0 {
			t.Errorf("a cutoff of no country deleted %+v, %v", gone, err)
		}
	}},
	{"Checkin/RaceGuestAndHostSave", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		c := capabilityOf[checkin.Store](t, s)
		const n = 8
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			errs  = make([]error, n)
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = c.SaveCheckin(t.Context(), &checkin.Record{BookingID: b.ID, Country: "IT",
					Guests: []checkin.Guest{checkinGuest(fmt.Sprint("G", i))}, UpdatedBy: fmt.Sprint("user:", i), UpdatedAt: t0})
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("save %d: %v", i, err)
			}
		}
		got, err := c.Checkin(t.Context(), b.ID)
		must(t, err)
		if len(got.Guests) != 1 || got.UpdatedBy != "user:"+got.Guests[0].GivenNames[1:] {
			t.Errorf("the saves mixed: %+v", got)
		}
	}},
}
