package main

import (
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
)

// newReadModel puts the read model over the store; on PostgreSQL the
// replicas tell each other about their writes through LISTEN/NOTIFY.
func newReadModel(store booking.Store, logger *slog.Logger) *cache.Store {
	o := cache.Options{Logger: logger}
	if db, ok := store.(*postgres.DB); ok {
		o.Publisher, o.Subscriber = db, db
	}
	return cache.New(store, o)
}
