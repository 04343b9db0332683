package sqlite

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/outbox"
)

// Every store seam is served by one DB.
var (
	_ booking.CatalogStore        = (*DB)(nil)
	_ booking.BookingStore        = (*DB)(nil)
	_ booking.LedgerStore         = (*DB)(nil)
	_ booking.TermsStore          = (*DB)(nil)
	_ booking.CalendarStore       = (*DB)(nil)
	_ booking.PaymentAccountStore = (*DB)(nil)
	_ connect.Store               = (*DB)(nil)
	_ outbox.Store                = (*DB)(nil)
	_ booking.HostCalendarStore   = (*DB)(nil)
	_ booking.HostRequestPurger   = (*DB)(nil)
	_ booking.UnitPriceReader     = (*DB)(nil)
	_ host.Store                  = (*DB)(nil)
	_ feed.FeedStore              = (*DB)(nil)
	_ booking.ReadModelStore      = (*DB)(nil)
)

// Stores returns db as every seam booking.Service consumes:
// booking.NewService(booking.Options{Stores: db.Stores(), ...}).
func (db *DB) Stores() booking.Stores {
	return booking.Stores{CatalogStore: db, BookingStore: db, LedgerStore: db, TermsStore: db,
		CalendarStore: db, PaymentAccountStore: db, OutboxStore: db, HostCalendarStore: db, HostRequestPurger: db,
		UnitPriceReader: db}
}

// HostStores returns db as every seam host.Service consumes:
// host.New(host.Options{Stores: db.HostStores(), ...}).
func (db *DB) HostStores() host.Stores {
	return host.Stores{Stores: db.Stores(), FeedStore: db, Records: db}
}
