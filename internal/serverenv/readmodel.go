package serverenv

import (
	"errors"
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/schedule"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/team"
	"github.com/staykit/staykit/units"
)

// Database is the server's store, a store/sqlite or store/postgres DB, as
// the seams it serves (their methods promoted): the booking engine's, the
// iCal feeds', the host's records, and the occupancy the read model keeps.
type Database struct {
	host.Stores
	booking.ReadModelStore
	// pg is the PostgreSQL DB, nil on SQLite; lite the SQLite DB, nil on
	// PostgreSQL.
	pg   *postgres.DB
	lite *sqlite.DB
}

// DatabaseOf is db (a *sqlite.DB or *postgres.DB) as the server's
// database.
func DatabaseOf(db interface {
	HostStores() host.Stores
	booking.ReadModelStore
}) Database {
	pg, _ := db.(*postgres.DB)
	lite, _ := db.(*sqlite.DB)
	return Database{Stores: db.HostStores(), ReadModelStore: db, pg: pg, lite: lite}
}

// Jobs builds the job engine (package jobs) on the database: River on
// its PostgreSQL pool or on its SQLite file.
func (db Database) Jobs(o jobs.Options) (*jobs.Workers, error) {
	switch {
	case db.pg != nil:
		return jobs.NewPostgres(db.pg, o)
	case db.lite != nil:
		return jobs.NewSQLite(db.lite, o)
	}
	return nil, errors.New("jobs: the database is neither store/sqlite nor store/postgres")
}

// native is the database itself, *postgres.DB or *sqlite.DB, which serves
// every capability's store; nil when it is neither.
func (db Database) native() any {
	switch {
	case db.pg != nil:
		return db.pg
	case db.lite != nil:
		return db.lite
	}
	return nil
}

// nativeAs is the database as a capability's store S; the zero S (nil)
// when it is neither store/sqlite nor store/postgres.
func nativeAs[S any](db Database) S {
	s, _ := db.native().(S)
	return s
}

// Connect is the database as package connect's store
// (connect.Options.Store); nil when it is neither store/sqlite nor
// store/postgres.
func (db Database) Connect() connect.Store { return nativeAs[connect.Store](db) }

// Events is the database as the event feed's store (package eventfeed);
// nil when it is neither store/sqlite nor store/postgres.
func (db Database) Events() eventfeed.Store { return nativeAs[eventfeed.Store](db) }

// Closeout is the database as package closeout's store; nil when it is
// neither store/sqlite nor store/postgres.
func (db Database) Closeout() closeout.Store { return nativeAs[closeout.Store](db) }

// MailSettings is the database as package mailsettings' store; nil when
// it is neither store/sqlite nor store/postgres.
func (db Database) MailSettings() mailsettings.Store { return nativeAs[mailsettings.Store](db) }

// Team is the database as package team's store (team.Options.Store);
// nil when it is neither store/sqlite nor store/postgres.
func (db Database) Team() team.Store { return nativeAs[team.Store](db) }

// Reviews is the database as package review's store; nil when it is
// neither store/sqlite nor store/postgres.
func (db Database) Reviews() review.Store { return nativeAs[review.Store](db) }

// Invoices is package invoice's Service on the database (its documents
// and the bookings, properties and ledger they are made of, read
// directly); nil when it is neither store/sqlite nor store/postgres.
func (db Database) Invoices(clock booking.Clock) *invoice.Service {
	st, rd := nativeAs[invoice.Store](db), nativeAs[invoice.Reader](db)
	if st == nil || rd == nil {
		return nil
	}
	return invoice.New(invoice.Options{Store: st, Reader: rd, Clock: clock})
}

// Messages is the database as package schedule's store; nil when it is
// neither store/sqlite nor store/postgres.
func (db Database) Messages() schedule.Store { return nativeAs[schedule.Store](db) }

// Conversation is the database as package conversation's store (the
// guests' and hosts' messages); nil when it is neither store/sqlite nor
// store/postgres.
func (db Database) Conversation() conversation.Store { return nativeAs[conversation.Store](db) }

// Booking is the seams of the booking engine (booking.Options.Stores).
func (db Database) Booking() booking.Stores { return db.Stores.Stores }

// Through is db's seams with those the read model serves, or must hear
// about, going through rm; the host's records stay the database's.
func (db Database) Through(rm *cache.Store) host.Stores {
	hs := host.Stores{Stores: rm.Stores(), FeedStore: rm.Feeds(db.FeedStore), Records: db.Records}
	if us := nativeAs[units.Store](db); us != nil {
		hs.Units = rm.UnitStore(us) // its writes forget what they change
	}
	return hs
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
