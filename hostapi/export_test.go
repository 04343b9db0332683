package hostapi

import (
	"net/http"
	"slices"
	"strings"
)

// RouteRoles lists a handler's routes ("METHOD /path"), those without a
// role in routeRoles, and the entries of routeRoles that are no route.
func RouteRoles(h http.Handler) (registered, unclassified, stale []string) {
	registered = h.(*handler).registered
	for _, r := range registered {
		method, path, _ := strings.Cut(r, " ")
		if _, ok := minRole(method, path); !ok {
			unclassified = append(unclassified, r)
		}
	}
	for r := range routeRoles {
		if !slices.Contains(registered, r) {
			stale = append(stale, r)
		}
	}
	return registered, unclassified, stale
}
