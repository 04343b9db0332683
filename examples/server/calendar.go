package main

import (
	"net/http"
	"time"

	"github.com/staykit/staykit/icalsync"
)

// icalPollCheck is how often the server looks for calendar feeds due; each
// feed is fetched every icalsync.DefaultInterval (30 minutes, with jitter).
const icalPollCheck = time.Minute

// calendarSync is the server's calendar sync: feeds fetched over https from
// public addresses only (and the -outbound-allow targets), conflicts told
// in the log like bookings.
func (s *server) calendarSync() *icalsync.Syncer {
	// Through the read model, so that imported blocks reach the public
	// calendar at once (and the other replicas through NOTIFY).
	return icalsync.New(icalsync.Options{Store: seamsThrough(s.readModel, s.back.store), Notifier: logNotifier(s.log), Logger: s.log,
		Fetcher: &icalsync.Fetcher{Policy: s.cfg.outbox.feedPolicy()}})
}

// calendarHandler serves GET /ical/{token}.ics.
func (s *server) calendarHandler() http.Handler {
	return &icalsync.Handler{Store: seamsOf(s.back.store), Logger: s.log}
}
