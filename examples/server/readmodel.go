package main

import (
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
)

// database is the server's store, a store/sqlite or store/postgres DB, as
// the seams it serves (their methods promoted).
type database struct {
	booking.Stores
	feed.FeedStore
	booking.ReadModelStore
	// pg is the PostgreSQL DB, nil on SQLite.
	pg *postgres.DB
}

// databaseOf is db as the server's database.
func databaseOf(db interface {
	Stores() booking.Stores
	feed.FeedStore
	booking.ReadModelStore
}) database {
	pg, _ := db.(*postgres.DB)
	return database{Stores: db.Stores(), FeedStore: db, ReadModelStore: db, pg: pg}
}

// newReadModel puts the read model over the store; on PostgreSQL the
// replicas tell each other about their writes through LISTEN/NOTIFY.
func newReadModel(store database, logger *slog.Logger) *cache.Store {
	o := cache.Options{Logger: logger}
	if store.pg != nil {
		o.Publisher, o.Subscriber = store.pg, store.pg
	}
	return cache.New(store.Stores, store.ReadModelStore, o)
}

// seamsOf are every seam of db (booking.Stores and the feeds), for the
// services that read and write it directly.
func seamsOf(db database) host.Stores { return host.Stores{Stores: db.Stores, FeedStore: db.FeedStore} }

// seamsThrough are db's seams with those the read model serves or must hear
// about going through rm.
func seamsThrough(rm *cache.Store, db database) host.Stores {
	return host.Stores{Stores: rm.Stores(), FeedStore: rm.Feeds(db.FeedStore)}
}
