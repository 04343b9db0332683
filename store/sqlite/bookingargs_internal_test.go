package sqlite

import (
	"reflect"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// TestBookingArgsUnitSetLater: CreateBooking encodes the row before its
// write lock and sets the unit under it; the row must be the one encoded
// with the unit.
func TestBookingArgsUnitSetLater(t *testing.T) {
	b := booking.Booking{OrgID: 1, PropertyID: 2, Token: "t", Status: booking.StatusPending,
		CheckIn: civil.MustParse("2027-01-10"), CheckOut: civil.MustParse("2027-01-12"), Guests: 2, Currency: "EUR"}
	withUnit := b
	withUnit.UnitID = 7
	want, err := bookingArgs(&withUnit)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bookingArgs(&b)
	if err != nil {
		t.Fatal(err)
	}
	rowmap.SetBookingArgsUnit(got, 7)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("args with the unit set later:\n%v\nwant\n%v", got, want)
	}
}
