package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/rs/cors"

	"github.com/staykit/staykit/booking"
)

// originRules are the origins allowed for every organisation.
type originRules struct {
	// domains are the service and preview domains, lower case, without a
	// leading dot: their https subdomains are allowed.
	domains []string
	// exact are origins allowed as they are, normalised by normOrigin.
	exact map[string]bool
}

func newOriginRules(service string, previews, extra []string) originRules {
	o := originRules{exact: map[string]bool{}}
	for _, d := range append([]string{service}, previews...) {
		d = strings.Trim(strings.ToLower(strings.TrimSpace(d)), ".")
		if d != "" {
			o.domains = append(o.domains, d)
		}
	}
	for _, e := range extra {
		if e = normOrigin(e); e != "" {
			o.exact[e] = true
		}
	}
	return o
}

// normOrigin is the form origins are compared in: trimmed, lower case (the
// scheme and host are case-insensitive and browsers send them in lower
// case), without a trailing slash a configuration may carry.
func normOrigin(s string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "/")
}

// httpsHost returns the host of an origin of the form https://host, with
// no port, path, query or user; ok is false for anything else.
func httpsHost(origin string) (host string, ok bool) {
	rest, found := strings.CutPrefix(strings.ToLower(origin), "https://")
	if !found || rest == "" {
		return "", false
	}
	u, err := url.Parse("https://" + rest)
	if err != nil || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
		u.Port() != "" || strings.HasSuffix(u.Host, ":") || u.Host != rest {
		return "", false
	}
	return u.Host, validHost(u.Host)
}

// validHost reports whether h is a DNS name: dot-separated labels of
// letters, digits and hyphens, none empty.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isSubdomain reports whether host is a subdomain of domain on a label
// boundary: x.staykit.app is one of staykit.app; evilstaykit.app,
// staykit.app.evil.com and staykit.app itself are not.
func isSubdomain(host, domain string) bool {
	return len(host) > len(domain)+1 && strings.HasSuffix(host, domain) && host[len(host)-len(domain)-1] == '.'
}

// static reports whether origin is allowed for every organisation.
func (o originRules) static(origin string) bool {
	if o.exact[normOrigin(origin)] {
		return true
	}
	host, ok := httpsHost(origin)
	if !ok {
		return false
	}
	for _, d := range o.domains {
		if isSubdomain(host, d) {
			return true
		}
	}
	return false
}

// orgAllows reports whether an organisation allows origin: its custom
// domain (and www. of it) over https, or one of its allowed_origins.
func orgAllows(org *booking.Organization, origin string) bool {
	n := normOrigin(origin)
	if cd := strings.Trim(strings.ToLower(strings.TrimSpace(org.CustomDomain)), "."); cd != "" {
		if n == "https://"+cd || n == "https://www."+cd {
			return true
		}
	}
	for _, a := range org.AllowedOrigins {
		if normOrigin(a) == n {
			return true
		}
	}
	return false
}

// originGate refuses, with 403 and before anything else happens, a request
// whose Origin header is present and not allowed for the organisation;
// rs/cors alone would only leave out its CORS headers and let the request
// change state. Requests without Origin (server to server) pass. An unknown
// organisation is a 404.
func (h *handler) originGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(w)
		values, present := r.Header["Origin"]
		if !present {
			next.ServeHTTP(w, r)
			return
		}
		if len(values) > 1 {
			// Two Origin headers: no browser sends that, and rs/cors would
			// echo an unchecked one.
			h.writeError(w, r, st, errOriginNotAllowed())
			return
		}
		origin := ""
		if len(values) > 0 {
			origin = values[0]
		}
		if origin != "" && h.origins.static(origin) {
			next.ServeHTTP(w, r)
			return
		}
		org, err := h.organization(r.Context(), st)
		if err != nil {
			h.writeError(w, r, st, err)
			return
		}
		if origin == "" || !orgAllows(org, origin) {
			h.writeError(w, r, st, errOriginNotAllowed())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withOrigins is the origin check and CORS of an organisation's routes:
// originGate, then rs/cors, which adds the CORS headers.
func (h *handler) withOrigins(next http.Handler) http.Handler {
	return h.originGate(h.cors.Handler(next))
}

// newCORS returns the CORS middleware of withOrigins. It allows every
// origin it sees: originGate, in front of it, has refused the others.
func newCORS() *cors.Cors {
	return cors.New(cors.Options{
		AllowOriginVaryRequestFunc: func(*http.Request, string) (bool, []string) {
			return true, nil
		},
		AllowedMethods: []string{http.MethodGet, http.MethodPost, http.MethodOptions},
		AllowedHeaders: []string{"Content-Type", "Accept", "Accept-Language", "Idempotency-Key"},
		ExposedHeaders: []string{"X-Service-API-Version", "X-Request-ID", "Retry-After",
			"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"},
		AllowCredentials: false,
		MaxAge:           600,
	})
}
