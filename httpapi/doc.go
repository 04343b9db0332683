// Package httpapi serves the public booking API v1 of staykit over HTTP:
// routing, the JSON envelope, the mapping of booking error codes to HTTP
// statuses, fr/en messages, CORS per organisation, rate limits, the Stripe
// webhook and the OpenAPI document.
//
// New returns an http.Handler whose routes all live under /api/v1/. A host
// mounts it on its own mux with mux.Handle("/api/", h), or under a prefix
// with http.StripPrefix. It calls only a *booking.Service.
//
// Every response of the handler — errors, unknown routes, 405, 429,
// preflights, the webhook — carries X-Service-API-Version: v1,
// Content-Type: application/json and X-Request-ID.
//
// A failure is {"success": false, "message", "code", "errors"}; with field
// errors it also carries "field_codes", the same problems as machine codes
// ({"guest_email": ["invalid_email"]}) for clients with their own wording.
//
// Choices the specification leaves open, settled here:
//
//   - Messages are in fr or en: ?locale=, else the first supported tag of
//     Accept-Language with q > 0, else the organisation's default_locale,
//     else (no organisation known, e.g. an unknown route or the webhook) en.
//   - CORS: the bare service and preview domains (staykit.app, vercel.app)
//     are not subdomains of themselves and are refused; so are origins with
//     an explicit port or another scheme than https under those rules. An
//     exact entry of the organisation's allowed_origins or of
//     Options.ExtraOrigins allows anything, http and ports included.
//   - Rate limits are keyed by route, organisation and client address; an
//     IPv6 client counts per /64, the block a single subscriber usually
//     holds. A limiter error lets the request through (fail open) and is
//     logged: a broken limiter must not take bookings down. A
//     ratelimit.Breaker's ErrBreakerOpen is not logged per request: the
//     breaker logged once when it opened.
//   - A request with an Origin header that the organisation does not allow
//     is refused with 403 before anything runs; an unknown organisation is
//     a 404 whatever the origin. The webhook and the OpenAPI document take
//     no part in CORS.
//   - Wrong JSON types are 422 with the field's reason "invalid_type", a
//     non-integer query parameter "invalid_integer"; when the body has such
//     problems the service is not called, so only they are reported.
//   - An error of a store that cannot serve now (booking.ErrStoreUnavailable:
//     the database unreachable, a full disk) is a 503 service_unavailable
//     with Retry-After (RetryAfterUnavailable), not a 500: the request did
//     nothing and may be sent again.
//   - In the availability calendar min_stay is always an integer ≥ 1 (the
//     shortest stay that may start that day); the stay limits of a property
//     (min_stay_nights, max_stay_nights) are null when there is none.
package httpapi
