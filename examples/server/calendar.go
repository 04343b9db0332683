package main

import (
	"net/http"

	"github.com/staykit/staykit/icalsync"
)

// calendarSync is the server's calendar sync: feeds fetched over https from
// public addresses only (and the -outbound-allow targets), conflicts told
// in the log like bookings.
func (s *server) calendarSync() *icalsync.Syncer {
	// Through the read model, so that imported blocks reach the public
	// calendar at once (and the other replicas through NOTIFY).
	return icalsync.New(icalsync.Options{Store: s.readModel, Notifier: logNotifier(s.log), Logger: s.log,
		Fetcher: &icalsync.Fetcher{Policy: s.cfg.outbox.feedPolicy()}})
}

// calendarHandler serves GET /ical/{token}.ics.
func (s *server) calendarHandler() http.Handler {
	return &icalsync.Handler{Store: s.back.store, Logger: s.log}
}
