// Package apihttp is the HTTP plumbing that the public API (package
// httpapi) and the host API (package hostapi) share, so that both answer
// alike: the response envelope ({"success": …}) and its common headers,
// the one table from error codes (booking.Error) to HTTP statuses, the
// locale a request asks for, the messages of every code in French and
// English (Base, which each API extends with its own), request IDs, the
// client's address as rate limits count it, and reading a JSON body.
//
// It holds no route and no use case: an API's handlers parse the request,
// call the use case, and answer through these functions.
package apihttp
