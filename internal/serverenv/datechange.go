package serverenv

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/store/cache"
)

// DateChanges is the database as package datechange's store, its writes
// of a booking's new stay followed by the read model forgetting the
// property's occupancy (rm may be nil: no read model); nil when the
// database is neither store/sqlite nor store/postgres.
func (db Database) DateChanges(rm *cache.Store) datechange.Store {
	st := nativeAs[datechange.Store](db)
	if st == nil || rm == nil {
		return st
	}
	return forgetting{Store: st, rm: rm}
}

// forgetting is a datechange.Store whose ApplyDateChange forgets the
// occupancy of the booking's property, whether it succeeded or not (a
// refused change is news that the dates are taken too).
type forgetting struct {
	datechange.Store
	rm *cache.Store
}

func (f forgetting) ApplyDateChange(ctx context.Context, a datechange.Apply) (*booking.Booking, error) {
	b, err := f.Store.ApplyDateChange(ctx, a)
	var property int64
	if b != nil {
		property = b.PropertyID
	}
	f.rm.ForgetOccupancy(ctx, property)
	return b, err
}
