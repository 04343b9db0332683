package main

import (
	"net/http"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
)

// hostSide returns the host API (package hostapi), mounted at
// /api/v1/host/, and the dashboard, mounted at /host/, over one
// host.Service. The dashboard's pages call the host API with the
// session cookie: one code path for scripts and people. Both refuse
// cross-origin browser requests that change anything
// (http.CrossOriginProtection), and any request with several Origin
// headers; failed authentications and logins count in the server's
// limiter, shared by replicas with -redis. publicURL is where the server
// is reached (-public-url, else its listen address): the calendar export
// URLs are built on it, never on a request's Host header.
func (s *server) hostSide(publicURL string) (api, dashboard http.Handler) {
	hs := host.New(host.Options{Store: s.readModel, Bookings: s.svc, Logger: s.log})
	d := &dashboardHandler{host: hs, log: s.log, limiter: s.back.limiter, proxies: s.cfg.trustedProxies,
		secure: isHTTPS(s.cfg.publicURL)}
	apiDeny := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpapi.SetCommonHeaders(w, httpapi.RequestID(r))
		httpapi.WriteError(w, r, s.log, httpapi.Locale(r, ""), errCrossOrigin())
	})
	apiCSRF := http.NewCrossOriginProtection()
	apiCSRF.SetDenyHandler(apiDeny)
	api = oneOrigin(apiDeny, apiCSRF.Handler(hostapi.New(hostapi.Options{Host: hs, Logger: s.log, Limiter: s.back.limiter,
		TrustedProxies: s.cfg.trustedProxies, Session: d.session, PublicURL: publicURL,
		Channels: hs.Channels(host.ChannelOptions{Syncer: s.calendarSync(), WebhookPolicy: s.cfg.outbox.webhookPolicy()})})))
	pageDeny := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Cross-origin request refused: changes are accepted only from this server's own pages.", http.StatusForbidden)
	})
	pageCSRF := http.NewCrossOriginProtection()
	pageCSRF.SetDenyHandler(pageDeny)
	return api, oneOrigin(pageDeny, pageCSRF.Handler(d.routes()))
}

// errCrossOrigin is the host API's refusal of a cross-origin browser
// request.
func errCrossOrigin() error {
	return &booking.Error{Code: booking.CodeForbidden, Message: "Cross-origin request refused.",
		Params: map[string]string{booking.ParamReason: booking.ReasonCrossOrigin}}
}

// oneOrigin refuses, with deny, a request with more than one Origin
// header, as the public API does: no browser sends that, and
// http.CrossOriginProtection would judge it by the first alone.
func oneOrigin(deny, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values("Origin")) > 1 {
			deny.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
