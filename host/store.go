package host

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
)

// Stores are the seams the host's use cases consume: the booking engine's
// (booking.Stores: catalogue, bookings, calendar, terms, outbox, the host
// store) and the iCal feeds. One database fills both,
//
//	host.Stores{Stores: db.Stores(), FeedStore: db}
//
// and a read model replaces the seams it serves (store/cache: rm.Stores(),
// rm.Feeds(db)).
type Stores struct {
	booking.Stores
	feed.FeedStore
}
