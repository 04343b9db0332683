// Package paymenttest is an in-memory payment.Provider for tests and for the
// reference server's fake-payment mode. It follows the state rules of
// Stripe's PaymentIntents, so code that works against it works against
// payment/stripe:
//
//	requires_payment ──pay──> succeeded            (automatic capture)
//	requires_payment ──pay──> authorized ──capture──> succeeded   (manual capture)
//	requires_payment ──decline──> requires_payment (another card may be tried)
//	requires_payment ──3-D Secure──> requires_action ──pay | decline──> as above
//	requires_payment | requires_action | processing | authorized ──cancel──> canceled
//	authorized ──AuthorizationWindow passes──> canceled
//	succeeded ──refund (partial or full)──> succeeded
//
// The Provider interface methods obey SetDown and FailNext; the Simulate*
// methods, Event, SignedWebhook and the inspection methods (Intent, Intents,
// Calls, FailedAttempts) do not, so a test can arrange state while the
// provider is "down". Pay, the guest's browser paying with a test card, is
// subject to both.
package paymenttest
