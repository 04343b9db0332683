package main

import (
	"net/http"

	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
)

// hostAPI is the host API (package hostapi) over the server's booking
// service, mounted at /api/v1/host/. Failed authentications count in the
// server's limiter, shared by replicas with -redis.
func (s *server) hostAPI() http.Handler {
	hs := host.New(host.Options{Store: s.back.store, Bookings: s.svc, Logger: s.log})
	return hostapi.New(hostapi.Options{Host: hs, Logger: s.log, Limiter: s.back.limiter,
		TrustedProxies: s.cfg.trustedProxies})
}
