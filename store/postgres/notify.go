package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// channelSQL names the notification channel of the read model: one per
// schema, so that databases sharing a server (tests) do not hear each
// other.
const channelSQL = `'staykit_rm_' || current_schema()`

// Publish tells the replicas listening on this database (Listen) that a
// write changed what msg names; store/cache publishes after each of its
// writes. PostgreSQL delivers it to every listening session, this one's
// included.
func (db *DB) Publish(ctx context.Context, msg string) error {
	if _, err := db.pool.Exec(ctx, `SELECT pg_notify(`+channelSQL+`, $1)`, msg); err != nil {
		return fmt.Errorf("postgres: publish: %w", err)
	}
	return nil
}

// Listen holds one connection of the pool and calls fn with each message
// published on this database (Publish) until ctx ends or the connection
// fails; it returns why. ready is called once listening, before any
// message: what was published before it is not heard, so the caller
// forgets what it keeps then.
func (db *DB) Listen(ctx context.Context, ready func(), fn func(msg string)) error {
	pooled, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: listen: %w", err)
	}
	// A listening session is not given back to the pool: it would keep
	// listening for whoever gets it next.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	var channel string
	if err := conn.QueryRow(ctx, `SELECT `+channelSQL).Scan(&channel); err != nil {
		return fmt.Errorf("postgres: listen: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("postgres: listen: %w", err)
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("postgres: listen: %w", err)
		}
		fn(n.Payload)
	}
}
