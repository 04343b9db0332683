// Package money moves a booking's money at the payment provider. Package
// ledger holds the money rules as pure code (what a booking holds, what a
// decision keeps, what is owed again); package booking decides, in the
// transition that needs it, which entries the ledger records; this
// package carries them out and keeps the ledger in line with what the
// provider did.
//
// How money moves:
//
//   - Checkout and confirmation (booking): the guest's payment intent is
//     created at checkout; the confirmation (booking.Service.Reconcile,
//     whichever path sees the paid intent first) records the receipt and,
//     in the same write, the balance charge due before arrival and the
//     security-deposit hold (ledger entries due later).
//   - A cancellation, decline or expiry (booking) decides the money once,
//     in its transition: the refunds the decision gives back
//     (ledger.Decide), the release of an open authorisation, of a held
//     deposit and of a balance intent still open.
//   - Sending (this package): every pending entry is a job (package jobs)
//     that calls SendLedgerEntry; ProcessPayments sends whatever is due
//     at once (tests, tools). An entry's attempt is counted before the
//     provider is called, and an entry that may have reached the provider
//     is looked up there (by its idempotency key, carried in every call's
//     metadata) before it is sent again. A refund, release, balance
//     charge, deposit hold, release or claim is settled, retried after a
//     backoff, or refused for good; the outcome, the outbox event telling
//     about it and, for a closed booking's failed refund, the refund that
//     owes the money again are saved in one write (SettleLedgerEntry).
//   - The provider's events (this package): HandleWebhook verifies a
//     payload, HandlePaymentEvent applies each event id once. An intent
//     event is a trigger: the intent is read from the provider and the
//     booking reconciled with it (booking.Service.Reconcile). Refund
//     events match the provider's refunds to the ledger by key (a refund
//     made from the provider's dashboard is recorded once and the host
//     told); a dispute is recorded; a balance's or deposit's intent
//     settles its entry.
//   - A closed booking's money (this package): money that reaches the
//     provider after the decision (a late payment, a balance whose answer
//     was lost, a 3-D Secure completed after a cancellation) is recorded
//     as received and returned beyond the decision (ReturnMoney,
//     ledger.Corrections), never kept.
//
// The lifecycle reaches this package through booking.MoneyMover: after a
// cancellation, decline or expiry it sends the entries it just recorded
// (SendNow); before a cancellation decides it learns a balance charged
// but not recorded and the provider's refunds (LearnBalance,
// LearnRefunds); a guest's balance page and a host's deposit claim send
// their entry at once (Send); and a payment found for a booking that
// closed is returned (ReturnMoney). New makes the Service the lifecycle's
// MoneyMover, so an embedder builds the two together, over one store:
//
//	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: payments})
//	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: payments})
//
// then mounts the public API with both (httpapi.Options{Service: svc,
// Money: pay}: the provider's webhook is pay's) and runs the jobs with
// both (jobs.Options{Bookings: svc, Money: pay}). With Stripe Connect,
// Options.Connect routes each booking's calls to the account its
// payments were made on, and connect.Options.Events is pay.
//
// Money is in minor units of the booking's currency (int64), never
// float64. The randomised fault test of this package (TestMoneyFuzz)
// checks the invariants: provider = ledger = views; a closed booking
// keeps exactly what its decision kept; no confirmed booking without its
// charge; never more refunded than received; every owed entry reaches the
// provider.
package money
