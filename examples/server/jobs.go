package main

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/jobs"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
)

// jobs builds the server's job engine on its store: payments, the outbox
// (the booking page link is publicURL/?org=SLUG&booking=TOKEN), calendar
// feeds, and the periodic sweeps every cfg.sweepEvery.
func (s *server) jobs(publicURL string) (*jobs.Workers, error) {
	worker, err := s.outboxWorker(publicURL)
	if err != nil {
		return nil, err
	}
	o := jobs.Options{Payments: s.svc, Outbox: worker, Feeds: s.calendarSync(), Every: s.cfg.sweepEvery, Logger: s.log}
	switch db := s.back.store.(type) {
	case *sqlite.DB:
		return jobs.NewSQLite(db, o)
	case *postgres.DB:
		return jobs.NewPostgres(db, o)
	}
	return nil, fmt.Errorf("jobs: no job engine for a %T store", s.back.store)
}

// runJobs runs w until ctx ends.
func (s *server) runJobs(ctx context.Context, w *jobs.Workers) {
	if err := w.Run(ctx); err != nil {
		s.log.Error("jobs", "err", err)
	}
}
