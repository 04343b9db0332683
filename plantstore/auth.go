package plantstore

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// tokenSet holds the SHA-256 digests of the accepted tokens. Comparing
// digests of equal length keeps the comparison time independent of the
// length of the configured tokens.
type tokenSet [][sha256.Size]byte

func newTokenSet(tokens []string) tokenSet {
	set := make(tokenSet, 0, len(tokens))
	for _, t := range tokens {
		if t == "" {
			continue // an empty token would never be sent; ignore it
		}
		set = append(set, sha256.Sum256([]byte(t)))
	}
	return set
}

// accepts reports whether token is one of the set. It compares against
// every entry, without stopping at a match.
func (s tokenSet) accepts(token string) bool {
	got := sha256.Sum256([]byte(token))
	match := 0
	for i := range s {
		match |= subtle.ConstantTimeCompare(got[:], s[i][:])
	}
	return match == 1
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header, or "" when there is none (no header, another scheme, no token).
// The scheme is case-insensitive (RFC 9110, section 11.1).
func bearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// requireToken answers 401 unless the request carries an accepted bearer
// token. With an empty set every request is refused.
func (h *handler) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := bearerToken(r)
		if token == "" {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeError(w, http.StatusUnauthorized, "a bearer token is required")
			return
		}
		if !h.tokens.accepts(token) {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			writeError(w, http.StatusUnauthorized, "the bearer token is not valid")
			return
		}
		next.ServeHTTP(w, r)
	})
}
