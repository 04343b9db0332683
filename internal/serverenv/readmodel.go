package serverenv

import (
	"log/slog"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
)

// NewReadModel puts the read model (store/cache) over the store; on
// PostgreSQL the replicas tell each other about their writes through
// LISTEN/NOTIFY. Its Run keeps it in step and must run beside the server.
func NewReadModel(store booking.Store, logger *slog.Logger) *cache.Store {
	o := cache.Options{Logger: logger}
	if db, ok := store.(*postgres.DB); ok {
		o.Publisher, o.Subscriber = db, db
	}
	return cache.New(store, o)
}
