package httpapi

import (
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
)

// Locales of messages.
const (
	localeFR = "fr"
	localeEN = "en"
)

// locale picks the language of a message: ?locale=, else Accept-Language,
// else the organisation's default, else English.
func (h *handler) locale(r *http.Request, st *reqState) string {
	if l := requestLocale(r); l != "" {
		return l
	}
	if st.slug != "" && booking.ValidSlug(st.slug) {
		if org, err := h.organization(r.Context(), st); err == nil {
			if l := supportedLocale(org.DefaultLocale); l != "" {
				return l
			}
		}
	}
	return localeEN
}

// requestLocale is the locale the request asks for, "" when it asks for
// none that is supported.
func requestLocale(r *http.Request) string {
	if q := r.URL.Query().Get("locale"); q != "" {
		if l := supportedLocale(q); l != "" {
			return l
		}
	}
	return acceptLanguage(r.Header.Get("Accept-Language"))
}

// supportedLocale maps a language tag ("fr", "fr-CA", "EN_gb") to fr or
// en, "" for other languages.
func supportedLocale(tag string) string {
	primary, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	primary, _, _ = strings.Cut(primary, "_")
	switch {
	case strings.EqualFold(primary, localeFR):
		return localeFR
	case strings.EqualFold(primary, localeEN):
		return localeEN
	}
	return ""
}

// acceptLanguage returns the supported locale the header prefers most
// (highest q, then the earliest), ignoring q=0 and "*"; "" if none.
func acceptLanguage(header string) string {
	if header == "" {
		return ""
	}
	type choice struct {
		locale string
		q      float64
	}
	var choices []choice
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(part, ";")
		l := supportedLocale(tag)
		if l == "" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0
			}
			q = f
		}
		if q > 0 {
			choices = append(choices, choice{l, q})
		}
	}
	if len(choices) == 0 {
		return ""
	}
	sort.SliceStable(choices, func(i, j int) bool { return choices[i].q > choices[j].q })
	return choices[0].locale
}
