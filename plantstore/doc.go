// Package plantstore serves the sample plant-store API: one operation,
// POST /plants, which stores a new plant.
//
// New returns an http.Handler that sees paths starting with /plants; a host
// mounts it with mux.Handle("/plants", h). The handler:
//
//   - authenticates every request first with a bearer token
//     ("Authorization: Bearer <token>") compared in constant time against
//     Options.Tokens. A missing token, another scheme or an unknown token
//     answers 401 with "WWW-Authenticate: Bearer" (plus error="invalid_token"
//     when a token was given). With no tokens configured every request is
//     refused: the handler fails closed;
//   - requires an application/json body (charset, if given, must be utf-8;
//     415 otherwise) of at most 64 KiB (413 otherwise);
//   - accepts a JSON object with id (any int64, negative and zero included,
//     written as an integer literal: 1.0, 1e3, "7" and true are refused),
//     name (a string with at least one character that is not white space,
//     as unicode.IsSpace says) and tag (a string; null, empty or absent
//     means no tag). Unknown fields are ignored;
//     anything else, including data after the object, answers 400;
//   - answers 200 with the stored plant, 409 when the id is taken, 405 with
//     "Allow: POST" for other methods on /plants and 404 for other paths.
//
// Every error body is {"error": <HTTP status>, "message": "..."}. A failing
// Store answers 500 with a generic message; the cause is logged with slog,
// never the token. The OpenAPI 3.1 description of the API is OpenAPI.
package plantstore
