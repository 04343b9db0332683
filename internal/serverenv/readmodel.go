package serverenv

import (
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
)

// Database is the server's store, a store/sqlite or store/postgres DB, as
// the seams it serves (their methods promoted): the booking engine's, the
// iCal feeds', the host's records, and the occupancy the read model keeps.
type Database struct {
	host.Stores
	booking.ReadModelStore
	// pg is the PostgreSQL DB, nil on SQLite.
	pg *postgres.DB
}

// DatabaseOf is db (a *sqlite.DB or *postgres.DB) as the server's
// database.
func DatabaseOf(db interface {
	HostStores() host.Stores
	booking.ReadModelStore
}) Database {
	pg, _ := db.(*postgres.DB)
	return Database{Stores: db.HostStores(), ReadModelStore: db, pg: pg}
}

// Booking is the seams of the booking engine (booking.Options.Stores).
func (db Database) Booking() booking.Stores { return db.Stores.Stores }

// Through is db's seams with those the read model serves, or must hear
// about, going through rm; the host's records stay the database's.
func (db Database) Through(rm *cache.Store) host.Stores {
	return host.Stores{Stores: rm.Stores(), FeedStore: rm.Feeds(db.FeedStore), Records: db.Records}
}

// NewReadModel puts the read model (store/cache) over the store; on
// PostgreSQL the replicas tell each other about their writes through
// LISTEN/NOTIFY. Its Run keeps it in step and must run beside the server.
func NewReadModel(db Database, logger *slog.Logger) *cache.Store {
	o := cache.Options{Logger: logger}
	if db.pg != nil {
		o.Publisher, o.Subscriber = db.pg, db.pg
	}
	return cache.New(db.Booking(), db.ReadModelStore, o)
}
