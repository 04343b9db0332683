package jobs

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
)

// RescueAfter outlasts every worker's Timeout by a minute, the time a
// cancelled job has to save its outcome, so River never rescues a live
// job; and it stays within a few minutes, so a killed job is not held back
// for River's default hour.
func TestRescueAfterOutlastsEveryTimeout(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		timeout time.Duration
	}{
		{LedgerEntryArgs{}.Kind(), (&ledgerWorker{}).Timeout(nil)},
		{OutboxEventArgs{}.Kind(), cmpOr((&eventWorker{}).Timeout(nil), jobTimeout)},
		{DeliveryArgs{}.Kind(), (&deliveryWorker{}).Timeout(nil)},
		{FeedPollArgs{}.Kind(), (&feedWorker{}).Timeout(nil)},
		{PeriodicArgs{}.Kind(), cmpOr((&periodicWorker{}).Timeout(nil), jobTimeout)},
	} {
		if tc.timeout <= 0 || RescueAfter < tc.timeout+time.Minute {
			t.Errorf("%s: timeout %v, RescueAfter %v: a live job could be rescued while it runs", tc.kind, tc.timeout, RescueAfter)
		}
	}
	if RescueAfter > 5*time.Minute {
		t.Errorf("RescueAfter = %v: a killed job waits that long", RescueAfter)
	}
}

func cmpOr(d, fallback time.Duration) time.Duration {
	if d == 0 {
		return fallback
	}
	return d
}

// A job left running by a process that died (its attempt began longer
// than RescueAfter ago) is rescued when the workers start and worked again:
// its webhook arrives. A job whose attempt began within RescueAfter (its
// process may still be working it) is left alone.
func TestKilledJobIsRescued(t *testing.T) {
	forEachDriver(t, func(t *testing.T, d driver) {
		s := d.open(t, d.database(t))
		rec, url := newReceiver(t)
		dead := addOrg(t, s, "dead", url)
		live := addOrg(t, s, "live", url)
		w, err := d.workers(s, options(s, 5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		evs := events(t, s, 1, dead, live) // with their jobs
		jobs := eventJobs(t, w)
		if len(jobs) != 2 {
			t.Fatalf("%d event jobs, want 2", len(jobs))
		}
		for _, j := range jobs {
			ago := RescueAfter + time.Minute // the dead process's
			if j.Args.EventID == evs[1].ID {
				ago = RescueAfter - time.Minute // a live process's
			}
			markRunning(t, s, j.JobRow.ID, ago)
		}
		start(t, d, s, w.opts)
		rec.wait(t, 1)
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if len(rec.count) != 1 {
			t.Errorf("%d webhooks arrived, want the dead process's one: %v", len(rec.count), rec.count)
		}
		for _, j := range eventJobs(t, w) {
			switch j.Args.EventID {
			case evs[0].ID:
				if len(j.JobRow.Errors) == 0 || j.JobRow.Errors[0].Error != "Stuck job rescued by JobRescuer" {
					t.Errorf("the dead process's job: errors %v, want River's rescue", j.JobRow.Errors)
				}
			case evs[1].ID:
				if j.JobRow.State != rivertype.JobStateRunning {
					t.Errorf("the live process's job is %s, want still running", j.JobRow.State)
				}
			}
		}
	})
}

// eventJob is an event job with its arguments.
type eventJob struct {
	JobRow *rivertype.JobRow
	Args   OutboxEventArgs
}

// eventJobs lists the event jobs.
func eventJobs(t *testing.T, w *Workers) []eventJob {
	t.Helper()
	params := river.NewJobListParams().Kinds(OutboxEventArgs{}.Kind()).First(100)
	var (
		res *river.JobListResult
		err error
	)
	if w.sqlite != nil {
		res, err = w.sqlite.JobList(t.Context(), params)
	} else {
		res, err = w.postgres.JobList(t.Context(), params)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []eventJob
	for _, j := range res.Jobs {
		var args OutboxEventArgs
		if err := json.Unmarshal(j.EncodedArgs, &args); err != nil {
			t.Fatal(err)
		}
		out = append(out, eventJob{j, args})
	}
	return out
}

// markRunning makes job look like the job of a process that began its
// first attempt ago and then died.
func markRunning(t *testing.T, s store, job int64, ago time.Duration) {
	t.Helper()
	var err error
	switch db := s.db.(type) {
	case *sqlite.DB:
		_, err = db.JobPool().ExecContext(t.Context(),
			`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = datetime('now', 'subsec', ?) WHERE id = ?`,
			fmt.Sprintf("-%d seconds", int(ago.Seconds())), job)
	case *postgres.DB:
		_, err = db.JobPool().Exec(t.Context(),
			`UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() - make_interval(secs => $1) WHERE id = $2`,
			ago.Seconds(), job)
	}
	if err != nil {
		t.Fatal(err)
	}
}
