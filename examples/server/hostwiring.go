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
// (http.CrossOriginProtection); failed authentications and logins count in
// the server's limiter, shared by replicas with -redis.
func (s *server) hostSide() (api, dashboard http.Handler) {
	hs := host.New(host.Options{Store: s.readModel, Bookings: s.svc, Logger: s.log})
	d := &dashboardHandler{host: hs, log: s.log, limiter: s.back.limiter, proxies: s.cfg.trustedProxies,
		secure: isHTTPS(s.cfg.publicURL)}
	apiCSRF := http.NewCrossOriginProtection()
	apiCSRF.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpapi.SetCommonHeaders(w, httpapi.RequestID(r))
		httpapi.WriteError(w, r, s.log, httpapi.Locale(r, ""), booking.Errorf(booking.CodeForbidden, "Cross-origin request refused."))
	}))
	api = apiCSRF.Handler(hostapi.New(hostapi.Options{Host: hs, Logger: s.log, Limiter: s.back.limiter,
		TrustedProxies: s.cfg.trustedProxies, Session: d.session, PublicURL: s.cfg.publicURL,
		Channels: hs.Channels(host.ChannelOptions{Syncer: s.calendarSync(), WebhookPolicy: s.cfg.outbox.webhookPolicy()})}))
	return api, http.NewCrossOriginProtection().Handler(d.routes())
}
