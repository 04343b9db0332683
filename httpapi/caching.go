package httpapi

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"net/http"
	"strings"

	"github.com/staykit/staykit/internal/apihttp"
)

// cacheControl is the Cache-Control of each public read route's 200.
// Public data is revalidated with its ETag (a 304 costs no body); config
// and properties change only when the host edits them, so a browser may
// keep them a minute. Guest data (checkout, booking status, confirm) is
// no-store, set in serve; quotes carry no validator (they depend on the
// calendar and the coupon's redemptions; the server keeps those it can
// name, quotes.go).
var cacheControl = map[string]string{
	RouteConfig:       "public, max-age=60",
	RouteProperties:   "public, max-age=60",
	RouteAvailability: "no-cache",
	RouteOpenAPI:      "public, max-age=300",
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// etagOf is a strong validator of a body: the same body has the same tag
// in every replica. Two CRC-32s (both computed by the CPU's instructions
// on amd64 and arm64) and the length: a cheap 96-bit fingerprint.
func etagOf(body []byte) string {
	var b [12]byte
	binary.BigEndian.PutUint32(b[0:], crc32.Checksum(body, castagnoli))
	binary.BigEndian.PutUint32(b[4:], crc32.ChecksumIEEE(body))
	binary.BigEndian.PutUint32(b[8:], uint32(len(body)))
	return `"` + hex.EncodeToString(b[:]) + `"`
}

// notModified reports whether the request's If-None-Match names etag
// (weak comparison, as RFC 9110 says for If-None-Match).
func notModified(r *http.Request, etag string) bool {
	inm := r.Header.Get("If-None-Match")
	if inm == "" {
		return false
	}
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// writeCacheable writes a 200 body of a cacheable route with its ETag and
// Cache-Control, or a 304 without the body when the client has it.
func writeCacheable(w http.ResponseWriter, r *http.Request, policy string, body []byte) {
	writeTagged(w, r, policy, body, etagOf(body))
}

// writeTagged is writeCacheable of a body whose ETag is known.
func writeTagged(w http.ResponseWriter, r *http.Request, policy string, body []byte, etag string) {
	h := w.Header()
	h["Etag"] = []string{etag} // canonical keys, as ServeHTTP sets them
	h["Cache-Control"] = []string{policy}
	if notModified(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	apihttp.WriteBody(w, http.StatusOK, body)
}
