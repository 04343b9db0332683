package httpapi

import (
	"net/http"
	"net/url"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// locale picks the language of a message: ?locale=, else Accept-Language,
// else the organisation's default, else English.
func (h *handler) locale(r *http.Request, st *reqState) string {
	return h.queryLocale(r, r.URL.Query(), st)
}

// queryLocale is locale of a request whose query q (r.URL.Query()) was
// parsed already.
func (h *handler) queryLocale(r *http.Request, q url.Values, st *reqState) string {
	if l := apihttp.QueryLocale(r, q); l != "" {
		return l
	}
	if st.slug != "" && booking.ValidSlug(st.slug) {
		if org, err := h.organization(r.Context(), st); err == nil {
			if l := apihttp.SupportedLocale(org.DefaultLocale); l != "" {
				return l
			}
		}
	}
	return apihttp.EN
}
