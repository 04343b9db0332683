package apihttp

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Locales of messages.
const (
	FR = "fr"
	EN = "en"
)

// Locale is the locale (FR or EN) a request asks for with ?locale= or
// Accept-Language, else def when it is supported, else EN.
func Locale(r *http.Request, def string) string {
	if l := RequestLocale(r); l != "" {
		return l
	}
	if l := SupportedLocale(def); l != "" {
		return l
	}
	return EN
}

// RequestLocale is the locale the request asks for, "" when it asks for
// none that is supported.
func RequestLocale(r *http.Request) string {
	return QueryLocale(r, r.URL.Query())
}

// QueryLocale is RequestLocale of a request whose query q (r.URL.Query())
// was parsed already.
func QueryLocale(r *http.Request, q url.Values) string {
	if q := q.Get("locale"); q != "" {
		if l := SupportedLocale(q); l != "" {
			return l
		}
	}
	return acceptLanguage(r.Header.Get("Accept-Language"))
}

// SupportedLocale maps a language tag ("fr", "fr-CA", "EN_gb") to fr or
// en, "" for other languages.
func SupportedLocale(tag string) string {
	primary, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	primary, _, _ = strings.Cut(primary, "_")
	switch {
	case strings.EqualFold(primary, FR):
		return FR
	case strings.EqualFold(primary, EN):
		return EN
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
		l := SupportedLocale(tag)
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
