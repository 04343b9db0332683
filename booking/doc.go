// Package booking is staykit's domain: organisations, properties and
// bookings, the booking lifecycle, and Service, the use cases the public API
// and the host call. It defines the interfaces it needs from the outside
// world (the store seams of Stores, Clock, Notifier, and payment.Provider)
// and implements none of them; store/*, payment/* and the host do.
//
// An embedder builds one Service over a database and a payment provider,
// and the money service that moves its bookings' money:
//
//	db, err := sqlite.Open(ctx, "staykit.db") // or postgres.Open(ctx, url)
//	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: payments})
//	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: payments})
//
// and then mounts the public API on them (httpapi.New), builds the host's
// use cases beside them (host.New with db.HostStores()), and runs the job
// engine that sends what the bookings owe and expires lapsed holds
// (jobs.NewSQLite or jobs.NewPostgres, then Workers.Run). In tests,
// payment/paymenttest is the provider and booking/bookingtest the clock.
// The README's "Embedding" section and examples/embed wire all of it.
//
// The lifecycle decides the money and records it in the ledger, in the
// transition that needs it; package money carries it out at the provider
// (booking.MoneyMover is the lifecycle's side of that seam). Capabilities
// beside the lifecycle live in their own packages, each with the narrow
// store seam it consumes: ledger (the money rules), money (the money's
// I/O: the ledger's entries, the provider's events), outbox and
// notify (e-mails and webhooks), feed and icalsync (calendar sync), host
// (the host's use cases and records), jobs (durable work).
package booking
