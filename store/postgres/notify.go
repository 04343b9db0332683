package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/store/internal/sqlflow"
)

// channelSQL names the notification channel of the read model: one per
// schema, so that databases sharing a server (tests) do not hear each
// other.
const channelSQL = `'staykit_rm_' || current_schema()`

// Publish tells the replicas listening on this database (Listen) that a
// write changed what msg names; store/cache publishes after each of its
// writes. PostgreSQL delivers it to every listening session, this one's
// included.
//
// Within a unit of work, msg is sent with the unit's transaction, when it
// commits. Outside one, Publish returns at once: the messages published
// together go in one batch (pipeline.post) after it returns, and one that
// cannot be sent is reported to the store's logger (WithLogger). A write
// does not wait for the other replicas' news of it: they hear of it a
// round trip later, and they never heard of it before the write's caller
// anyway (a listener hears asynchronously). A checkout waited a round trip
// and a transaction for it (#31). Close sends what is left.
func (db *DB) Publish(ctx context.Context, msg string) error {
	if !db.flow.InUnit(ctx) {
		db.notices.post(ctx, 0, qPublish, []any{msg}, func(row pgx.Row) error {
			var one int
			return row.Scan(&one)
		}, func(err error) {
			db.log.ErrorContext(ctx, "postgres: publish: a read model message was not sent", "msg", msg, "err", err)
		})
		return nil
	}
	return db.run(ctx, "publish", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, qPublish, msg)
	})
}

// qPublish sends the message $1 on the read model's channel.
const qPublish = `SELECT 1 FROM pg_notify(` + channelSQL + `, $1)`

// Listen holds one connection of the pool and calls fn with each message
// published on this database (Publish) until ctx ends or the connection
// fails; it returns why. ready is called once listening, before any
// message: what was published before it is not heard, so the caller
// forgets what it keeps then.
func (db *DB) Listen(ctx context.Context, ready func(), fn func(msg string)) error {
	return db.run(ctx, "listen", func(querier) error { return db.listen(ctx, ready, fn) })
}

func (db *DB) listen(ctx context.Context, ready func(), fn func(msg string)) error {
	pooled, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// A listening session is not given back to the pool: it would keep
	// listening for whoever gets it next.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	var channel string
	if err := conn.QueryRow(ctx, `SELECT `+channelSQL).Scan(&channel); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		fn(n.Payload)
	}
}
