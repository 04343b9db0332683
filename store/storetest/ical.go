package storetest

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
)

// newFeed stores an active feed of w's property, due at t0.
func newFeed(t *testing.T, s Stores, w world, name string) *feed.Feed {
	t.Helper()
	f := &feed.Feed{OrgID: w.org.ID, PropertyID: w.prop.ID, Name: name, URL: "https://example.com/" + name + ".ics", Active: true}
	must(t, s.CreateFeed(t.Context(), f, t0))
	if f.ID == 0 {
		t.Fatal("CreateFeed left ID 0")
	}
	return f
}

// claim leases f at now for a minute, or fails the test.
func claim(t *testing.T, s Stores, f *feed.Feed, now time.Time) time.Time {
	t.Helper()
	got, err := s.ClaimFeed(t.Context(), f.OrgID, f.ID, now, now.Add(time.Minute))
	must(t, err)
	return got.LeaseUntil
}

// feedBlock is an imported event of the nights [in, out).
func feedBlock(uid, in, out string) feed.Block {
	return feed.Block{UID: uid, Start: day(in), End: day(out), Summary: "Reserved"}
}

// applyAdd claims f and applies adds at t0.
func applyAdd(t *testing.T, s Stores, f *feed.Feed, add ...feed.Block) *feed.SyncResult {
	t.Helper()
	lease := claim(t, s, f, t0)
	res, err := s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0, Add: add,
		Events: len(add), NextPollAt: t0.Add(30 * time.Minute)})
	must(t, err)
	return res
}

// occupied is Occupied over 2026 at t0.
func occupied(t *testing.T, s Stores, p *booking.Property) []civil.Range {
	t.Helper()
	got, err := s.Occupied(t.Context(), p.ID, day("2026-01-01"), day("2027-01-01"), t0)
	must(t, err)
	return ranges(got)
}

// ranges are the ranges of holds.
func ranges(holds []booking.Hold) []civil.Range {
	var out []civil.Range
	for _, h := range holds {
		out = append(out, h.Range)
	}
	return out
}

var feedScenarios = []scenario{
	{"Feed/HealthAndExportDelay", func(t *testing.T, s Stores) {
		// A feed's export delay is stored and updated; each sync records
		// what it added and removed, and ChangedAt moves only when a sync
		// changes blocks (or on the first success); a 304 adds nothing.
		w := newWorld(t, s)
		f := newFeed(t, s, w, "vrbo")
		f.ExportDelay = 90 * time.Minute
		must(t, s.UpdateFeed(t.Context(), f, t0))
		got, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if got.ExportDelay != 90*time.Minute || !got.ChangedAt.IsZero() || got.LastAdded != 0 {
			t.Fatalf("stored feed %+v, want export delay 90m, never changed", got)
		}
		with := &feed.Feed{OrgID: w.org.ID, PropertyID: w.prop.ID, Name: "set", URL: "https://example.com/set.ics",
			Active: true, ExportDelay: 2 * time.Hour}
		must(t, s.CreateFeed(t.Context(), with, t0))
		if got, err := s.Feed(t.Context(), w.org.ID, with.ID); err != nil || got.ExportDelay != 2*time.Hour {
			t.Fatalf("created feed %+v, %v: want export delay 2h", got, err)
		}

		t1, t2, t3, t4 := t0.Add(time.Hour), t0.Add(2*time.Hour), t0.Add(3*time.Hour), t0.Add(4*time.Hour)
		apply := func(at time.Time, sync feed.Sync) *feed.Feed {
			t.Helper()
			sync.FeedID, sync.Lease, sync.At, sync.NextPollAt = f.ID, claim(t, s, f, at), at, at.Add(15*time.Minute)
			_, err := s.ApplyFeedSync(t.Context(), sync)
			must(t, err)
			got, err := s.Feed(t.Context(), w.org.ID, f.ID)
			must(t, err)
			return got
		}
		// First success with no event: unchanged since then.
		if got := apply(t1, feed.Sync{}); !got.ChangedAt.Equal(t1) || got.LastAdded != 0 || got.LastRemoved != 0 {
			t.Fatalf("after an empty first sync %+v, want changed at t1, nothing added", got)
		}
		got = apply(t2, feed.Sync{Add: []feed.Block{feedBlock("a", "2026-06-10", "2026-06-12"),
			feedBlock("b", "2026-06-20", "2026-06-22")}, Events: 2})
		if !got.ChangedAt.Equal(t2) || got.LastAdded != 2 || got.LastRemoved != 0 || !got.LastSuccessAt.Equal(t2) {
			t.Fatalf("after adding two %+v, want changed at t2, 2 added", got)
		}
		blocks, err := s.FeedBlocks(t.Context(), f.ID)
		must(t, err)
		got = apply(t3, feed.Sync{Remove: []int64{blocks[0].ID}, Events: 1})
		if !got.ChangedAt.Equal(t3) || got.LastAdded != 0 || got.LastRemoved != 1 {
			t.Fatalf("after removing one %+v, want changed at t3, 1 removed", got)
		}
		got = apply(t4, feed.Sync{Events: 1})
		if !got.ChangedAt.Equal(t3) || got.LastAdded != 0 || got.LastRemoved != 0 || !got.LastSuccessAt.Equal(t4) {
			t.Fatalf("after a sync that changed nothing %+v, want still changed at t3, success at t4", got)
		}
		t5 := t0.Add(5 * time.Hour)
		must(t, s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: f.ID, Lease: claim(t, s, f, t5), At: t5,
			NotModified: true, NextPollAt: t5.Add(15 * time.Minute)}))
		got, err = s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if !got.ChangedAt.Equal(t3) || !got.LastSuccessAt.Equal(t5) || got.LastAdded != 0 {
			t.Fatalf("after a 304 %+v, want changed at t3, success at t5", got)
		}
		// A 304 first success of a new feed starts its unchanged time.
		must(t, s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: with.ID, Lease: claim(t, s, with, t5), At: t5,
			NotModified: true, NextPollAt: t5.Add(15 * time.Minute)}))
		if got, err := s.Feed(t.Context(), w.org.ID, with.ID); err != nil || !got.ChangedAt.Equal(t5) {
			t.Fatalf("new feed after a 304 %+v, %v: want changed at t5", got, err)
		}
		// A failure changes none of it.
		t6 := t0.Add(6 * time.Hour)
		must(t, s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: f.ID, Lease: claim(t, s, f, t6), At: t6,
			Err: "fetch: HTTP status 500", NextPollAt: t6.Add(15 * time.Minute)}))
		got, err = s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if !got.ChangedAt.Equal(t3) || !got.LastSuccessAt.Equal(t5) || got.LastError == "" {
			t.Fatalf("after a failure %+v, want changed at t3, success at t5, the error", got)
		}
		// An export delay out of range is refused.
		f.ExportDelay = -time.Minute
		wantCode(t, s.UpdateFeed(t.Context(), f, t0), booking.CodeInvalid)
		f.ExportDelay = feed.MaxExportDelay + time.Second
		wantCode(t, s.UpdateFeed(t.Context(), f, t0), booking.CodeInvalid)
	}},
	{"Feed/CreateListUpdateDelete", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		got, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if got.Name != "airbnb" || !got.Active || !got.NextPollAt.Equal(t0) || !got.CreatedAt.Equal(t0) || !got.LeaseUntil.IsZero() {
			t.Fatalf("stored feed %+v, want it as created, due at t0, not leased", got)
		}
		f.Name, f.Active, f.EndIsLastNight = "Airbnb", false, true
		must(t, s.UpdateFeed(t.Context(), f, t0))
		list, err := s.Feeds(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 1 || list[0].Name != "Airbnb" || list[0].Active || !list[0].EndIsLastNight {
			t.Fatalf("feeds %+v, want the updated one", list)
		}
		other := newOrg(t, s, "other")
		_, err = s.Feed(t.Context(), other.ID, f.ID)
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, s.DeleteFeed(t.Context(), other.ID, f.ID), booking.CodeNotFound)
		must(t, s.DeleteFeed(t.Context(), w.org.ID, f.ID))
		_, err = s.Feed(t.Context(), w.org.ID, f.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Feed/ErrInvalidOrOtherOrganisation", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		bad := &feed.Feed{OrgID: w.org.ID, PropertyID: w.prop.ID, Name: "x", URL: "ftp://example.com/x.ics"}
		wantCode(t, s.CreateFeed(t.Context(), bad, t0), booking.CodeInvalid)
		other := newOrg(t, s, "other")
		f := &feed.Feed{OrgID: other.ID, PropertyID: w.prop.ID, Name: "x", URL: "https://example.com/x.ics"}
		wantCode(t, s.CreateFeed(t.Context(), f, t0), booking.CodeNotFound)
	}},
	{"Feed/ImportedBlocksStopBookingsAndShowOccupied", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		res := applyAdd(t, s, f, feedBlock("a1", "2026-06-10", "2026-06-14"))
		if len(res.Blocks) != 1 || res.Blocks[0].ID == 0 || res.Blocks[0].UID != "a1" || len(res.Conflicts) != 0 {
			t.Fatalf("result %+v, want one block a1 and no conflict", res)
		}
		b := pendingFixture(w.prop, "2026-06-13", "2026-06-16")
		wantCode(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0}), booking.CodeUnavailable)
		create(t, s, pendingFixture(w.prop, "2026-06-14", "2026-06-16"), t0) // check-out day is free
		sameJSON(t, "occupied", occupied(t, s, w.prop), []civil.Range{
			{Start: day("2026-06-10"), End: day("2026-06-14")}, {Start: day("2026-06-14"), End: day("2026-06-16")}})
		got, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if len(got.Blocks) != 0 {
			t.Errorf("Property.Blocks = %+v, want no host block (imported ones are the feed's)", got.Blocks)
		}
	}},
	{"Feed/HostEditsLeaveImportedBlocks", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		res := applyAdd(t, s, f, feedBlock("a1", "2026-06-10", "2026-06-14"))
		wantCode(t, s.RemoveBlock(t.Context(), w.prop.ID, res.Blocks[0].ID), booking.CodeNotFound)
		p, err := s.Property(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		p.Blocks = []booking.Block{{Start: day("2026-09-01"), End: day("2026-09-03")}}
		must(t, s.UpdateProperty(t.Context(), p))
		blocks, err := s.FeedBlocks(t.Context(), f.ID)
		must(t, err)
		sameJSON(t, "feed blocks", blocks, res.Blocks)
		if len(occupied(t, s, w.prop)) != 2 {
			t.Errorf("occupied %v, want the host block and the imported one", occupied(t, s, w.prop))
		}
	}},
	{"Feed/MoveRemoveAndDeleteFree", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		f := newFeed(t, s, w, "vrbo")
		res := applyAdd(t, s, f, feedBlock("a", "2026-06-10", "2026-06-14"), feedBlock("b", "2026-07-01", "2026-07-03"))
		a, b := res.Blocks[0], res.Blocks[1]
		moved := feedBlock("a2", "2026-06-11", "2026-06-15")
		moved.ID = a.ID
		lease := claim(t, s, f, t0.Add(time.Hour))
		res2, err := s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0.Add(time.Hour),
			Move: []feed.Block{moved}, Remove: []int64{b.ID}, Events: 1, NextPollAt: t0.Add(2 * time.Hour)})
		must(t, err)
		sameJSON(t, "blocks after move", res2.Blocks, []feed.Block{moved})
		sameJSON(t, "occupied", occupied(t, s, w.prop), []civil.Range{{Start: day("2026-06-11"), End: day("2026-06-15")}})
		got, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if got.EventsImported != 1 || !got.LastSuccessAt.Equal(t0.Add(time.Hour)) || !got.LeaseUntil.IsZero() ||
			!got.NextPollAt.Equal(t0.Add(2*time.Hour)) {
			t.Errorf("feed after sync %+v, want 1 event, success at t0+1h, lease released, next poll t0+2h", got)
		}
		must(t, s.DeleteFeed(t.Context(), w.org.ID, f.ID))
		if o := occupied(t, s, w.prop); len(o) != 0 {
			t.Errorf("occupied after the feed is removed: %v, want none", o)
		}
	}},
	{"Feed/ConflictKeepsBooking", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		bk := moveTo(t, s, newPending(t, s, w.prop, "2026-06-12", "2026-06-15", t0.Add(time.Hour)), booking.StatusConfirmed)
		f := newFeed(t, s, w, "booking-com")
		res := applyAdd(t, s, f, feedBlock("c1", "2026-06-10", "2026-06-13"), feedBlock("c2", "2026-08-01", "2026-08-05"))
		if len(res.Blocks) != 1 || res.Blocks[0].UID != "c2" {
			t.Fatalf("blocks %+v, want only c2 applied", res.Blocks)
		}
		if len(res.Conflicts) != 1 || res.Conflicts[0].UID != "c1" || res.Conflicts[0].BookingID != bk.ID || !res.Conflicts[0].New {
			t.Fatalf("conflicts %+v, want c1 against booking %d, new", res.Conflicts, bk.ID)
		}
		got, err := s.BookingByID(t.Context(), bk.ID)
		must(t, err)
		if got.Status != booking.StatusConfirmed {
			t.Errorf("booking %s, want it kept confirmed", got.Status)
		}
		// The same conflict on the next sync is not new.
		lease := claim(t, s, f, t0.Add(time.Hour))
		res2, err := s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0.Add(time.Hour),
			Add: []feed.Block{feedBlock("c1", "2026-06-10", "2026-06-13")}, Events: 2, NextPollAt: t0.Add(2 * time.Hour)})
		must(t, err)
		if len(res2.Conflicts) != 1 || res2.Conflicts[0].New || !res2.Conflicts[0].DetectedAt.Equal(t0) {
			t.Errorf("conflicts on the second sync %+v, want the same one, not new, detected at t0", res2.Conflicts)
		}
		list, err := s.FeedConflicts(t.Context(), f.ID)
		must(t, err)
		if len(list) != 1 || list[0].BookingID != bk.ID {
			t.Errorf("stored conflicts %+v", list)
		}
		fd, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if fd.Conflicts != 1 {
			t.Errorf("feed conflicts = %d, want 1", fd.Conflicts)
		}
	}},
	{"Feed/LeaseFencesStaleWriters", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		lease := claim(t, s, f, t0)
		_, err := s.ClaimFeed(t.Context(), w.org.ID, f.ID, t0.Add(time.Second), t0.Add(time.Minute))
		wantCode(t, err, booking.CodeConflict)
		// After the lease lapses another poller takes it; the first can no
		// longer write.
		later := claim(t, s, f, t0.Add(2*time.Minute))
		_, err = s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0.Add(2 * time.Minute),
			Add: []feed.Block{feedBlock("x", "2026-06-01", "2026-06-02")}, NextPollAt: t0.Add(time.Hour)})
		wantCode(t, err, booking.CodeConflict)
		err = s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: f.ID, Lease: lease, At: t0, Err: "x"})
		wantCode(t, err, booking.CodeConflict)
		must(t, s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: f.ID, Lease: later, At: t0.Add(3 * time.Minute),
			Err: "fetch: HTTP status 500", NextPollAt: t0.Add(time.Hour)}))
		got, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if got.LastError != "fetch: HTTP status 500" || !got.LastAttemptAt.Equal(t0.Add(3*time.Minute)) ||
			!got.LastSuccessAt.IsZero() || !got.LeaseUntil.IsZero() {
			t.Errorf("feed after a failed attempt %+v", got)
		}
		if blocks, _ := s.FeedBlocks(t.Context(), f.ID); len(blocks) != 0 {
			t.Errorf("the stale writer stored %+v", blocks)
		}
	}},
	{"Feed/URLChangeDropsValidators", func(t *testing.T, s Stores) {
		// The validators are the last fetch's URL's: another URL must be
		// fetched unconditionally, and a sync of the old URL still under
		// way must not write them (or its blocks) back.
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		lease := claim(t, s, f, t0)
		_, err := s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0,
			ETag: `"old"`, LastModified: "Mon, 01 Jun 2026 08:00:00 GMT", NextPollAt: t0.Add(30 * time.Minute)})
		must(t, err)
		validators := func() (string, string) {
			t.Helper()
			got, err := s.Feed(t.Context(), w.org.ID, f.ID)
			must(t, err)
			return got.ETag, got.LastModified
		}

		f.Name, f.Active, f.EndIsLastNight = "Airbnb villa", false, true
		must(t, s.UpdateFeed(t.Context(), f, t0))
		if etag, lm := validators(); etag != `"old"` || lm != "Mon, 01 Jun 2026 08:00:00 GMT" {
			t.Fatalf("after an update keeping the URL: ETag %q, Last-Modified %q, want both kept", etag, lm)
		}

		f.Active = true
		lease = claim(t, s, f, t0.Add(time.Hour))
		f.URL = "https://example.com/airbnb-new.ics"
		must(t, s.UpdateFeed(t.Context(), f, t0))
		got, err := s.Feed(t.Context(), w.org.ID, f.ID)
		must(t, err)
		if got.URL != f.URL || got.ETag != "" || got.LastModified != "" || !got.LeaseUntil.IsZero() {
			t.Fatalf("after a new URL: %+v, want the new URL, no ETag, no Last-Modified, no lease", got)
		}
		_, err = s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0.Add(time.Hour),
			Add: []feed.Block{feedBlock("old-url", "2026-06-10", "2026-06-12")}, Events: 1,
			ETag: `"old"`, LastModified: "Mon, 01 Jun 2026 08:00:00 GMT", NextPollAt: t0.Add(2 * time.Hour)})
		wantCode(t, err, booking.CodeConflict)
		err = s.RecordFeedAttempt(t.Context(), feed.Attempt{FeedID: f.ID, Lease: lease, At: t0.Add(time.Hour),
			NotModified: true, NextPollAt: t0.Add(2 * time.Hour)})
		wantCode(t, err, booking.CodeConflict)
		if etag, lm := validators(); etag != "" || lm != "" {
			t.Errorf("a sync of the old URL wrote ETag %q, Last-Modified %q", etag, lm)
		}
		if blocks, _ := s.FeedBlocks(t.Context(), f.ID); len(blocks) != 0 {
			t.Errorf("a sync of the old URL stored %+v", blocks)
		}
	}},
	{"Feed/NewURLIsDueAtOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		t1 := t0.Add(5 * time.Minute)
		for _, tc := range []struct {
			name   string
			synced bool // synced at t0: next poll at t0+30m; else due since t0
			change func(f *feed.Feed)
			// wantNext is NextPollAt after the update at t1.
			wantNext time.Time
		}{
			{"rename keeps the schedule", true, func(f *feed.Feed) { f.Name += " renamed" }, t0.Add(30 * time.Minute)},
			{"end reading keeps the schedule", true, func(f *feed.Feed) { f.EndIsLastNight = !f.EndIsLastNight }, t0.Add(30 * time.Minute)},
			{"new URL is due at once", true, func(f *feed.Feed) { f.URL = "https://example.com/moved.ics" }, t1},
			{"new URL of an overdue feed keeps its turn", false, func(f *feed.Feed) { f.URL = "https://example.com/moved2.ics" }, t0},
		} {
			f := newFeed(t, s, w, "feed-"+strings.ReplaceAll(tc.name, " ", "-"))
			if tc.synced {
				applyAdd(t, s, f)
			}
			tc.change(f)
			must(t, s.UpdateFeed(t.Context(), f, t1))
			got, err := s.Feed(t.Context(), w.org.ID, f.ID)
			must(t, err)
			if !got.NextPollAt.Equal(tc.wantNext) {
				t.Errorf("%s: NextPollAt %v, want %v", tc.name, got.NextPollAt, tc.wantNext)
			}
			claimed, err := s.ClaimFeeds(t.Context(), t1, t1.Add(time.Minute), 100)
			must(t, err)
			due := slices.ContainsFunc(claimed, func(c feed.Feed) bool { return c.ID == f.ID })
			if wantDue := !tc.wantNext.After(t1); due != wantDue {
				t.Errorf("%s: among the feeds due at t1 = %v, want %v (claimed %d feeds)", tc.name, due, wantDue, len(claimed))
			}
		}
	}},
	{"Feed/ClaimFeedsDueActiveUnleased", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		due := newFeed(t, s, w, "due")
		inactive := newFeed(t, s, w, "inactive")
		inactive.Active = false
		must(t, s.UpdateFeed(t.Context(), inactive, t0))
		later := &feed.Feed{OrgID: w.org.ID, PropertyID: w.prop.ID, Name: "later", URL: "https://example.com/l.ics",
			Active: true, NextPollAt: t0.Add(time.Hour)}
		must(t, s.CreateFeed(t.Context(), later, t0))
		got, err := s.ClaimFeeds(t.Context(), t0, t0.Add(time.Minute), 10)
		must(t, err)
		if len(got) != 1 || got[0].ID != due.ID || !got[0].LeaseUntil.Equal(t0.Add(time.Minute)) {
			t.Fatalf("claimed %+v, want only the due feed, leased", got)
		}
		again, err := s.ClaimFeeds(t.Context(), t0.Add(time.Second), t0.Add(time.Minute), 10)
		must(t, err)
		if len(again) != 0 {
			t.Errorf("claimed a leased feed again: %+v", again)
		}
	}},
	{"Feed/RacingClaimsTakeEachFeedOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		for i := range 6 {
			newFeed(t, s, w, "f"+string(rune('a'+i)))
		}
		const pollers = 4
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			seen  = map[int64]int{}
			start = make(chan struct{})
		)
		for range pollers {
			wg.Go(func() {
				<-start
				got, err := s.ClaimFeeds(t.Context(), t0, t0.Add(time.Minute), 3)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, f := range got {
					seen[f.ID]++
				}
			})
		}
		close(start)
		wg.Wait()
		if len(seen) != 6 {
			t.Errorf("%d feeds claimed, want all 6", len(seen))
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("feed %d claimed %d times, want once", id, n)
			}
		}
	}},
	{"Feed/ExportToken", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		_, err := s.ExportToken(t.Context(), w.org.ID, w.prop.ID)
		wantCode(t, err, booking.CodeNotFound)
		tok, err := s.SetExportToken(t.Context(), w.org.ID, w.prop.ID, "tok-1", t0)
		must(t, err)
		if tok.Token != "tok-1" || tok.PropertyID != w.prop.ID || tok.OrgID != w.org.ID {
			t.Fatalf("token %+v", tok)
		}
		other := newOrg(t, s, "other")
		_, err = s.SetExportToken(t.Context(), other.ID, w.prop.ID, "tok-x", t0)
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.SetExportToken(t.Context(), w.org.ID, w.prop.ID, "tok-2", t0.Add(time.Hour))
		must(t, err)
		_, err = s.ExportTokenByValue(t.Context(), "tok-1")
		wantCode(t, err, booking.CodeNotFound)
		got, err := s.ExportTokenByValue(t.Context(), "tok-2")
		must(t, err)
		if got.PropertyID != w.prop.ID || !got.CreatedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("token by value %+v", got)
		}
		n1, err := s.NoteExport(t.Context(), w.prop.ID, `"e1"`, t0.Add(2*time.Hour))
		must(t, err)
		n2, err := s.NoteExport(t.Context(), w.prop.ID, `"e1"`, t0.Add(3*time.Hour))
		must(t, err)
		n3, err := s.NoteExport(t.Context(), w.prop.ID, `"e2"`, t0.Add(4*time.Hour))
		must(t, err)
		if !n1.ChangedAt.Equal(t0.Add(2*time.Hour)) || !n2.ChangedAt.Equal(n1.ChangedAt) || !n3.ChangedAt.Equal(t0.Add(4*time.Hour)) || n3.ETag != `"e2"` {
			t.Errorf("ChangedAt %v, %v, %v: want it to move only when the ETag changes", n1.ChangedAt, n2.ChangedAt, n3.ChangedAt)
		}
	}},
}

var feedRaceScenarios = []scenario{
	{"FeedRace/ImportAgainstCheckout", func(t *testing.T, s Stores) {
		// An import and a checkout for the same nights, released together,
		// many times: never both a block and a booking on a night.
		w := newWorld(t, s)
		f := newFeed(t, s, w, "airbnb")
		for i := range 8 {
			in := day("2026-06-01").AddDays(3 * i)
			r := civil.Range{Start: in, End: in.AddDays(2)}
			lease := claim(t, s, f, t0)
			b := pendingFixture(w.prop, r.Start.String(), r.End.String())
			var (
				wg        sync.WaitGroup
				start     = make(chan struct{})
				bookErr   error
				res       *feed.SyncResult
				importErr error
			)
			wg.Go(func() {
				<-start
				bookErr = s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0})
			})
			wg.Go(func() {
				<-start
				res, importErr = s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0,
					Add: []feed.Block{{UID: "race-" + in.String(), Start: r.Start, End: r.End}}, NextPollAt: t0})
			})
			close(start)
			wg.Wait()
			must(t, importErr)
			booked := bookErr == nil
			if !booked {
				wantCode(t, bookErr, booking.CodeUnavailable)
			}
			blocked := false
			for _, fb := range res.Blocks {
				blocked = blocked || fb.Range().Overlaps(r)
			}
			conflicted := len(res.Conflicts) == 1 && res.Conflicts[0].BookingID == b.ID
			if booked == blocked || booked != conflicted {
				t.Fatalf("round %d: booked %v (%v), blocked %v, conflicts %+v: want exactly one of booking and block, and a conflict with the booking", i, booked, bookErr, blocked, res.Conflicts)
			}
			// Clear the feed for the next round.
			lease = claim(t, s, f, t0)
			var remove []int64
			for _, fb := range res.Blocks {
				remove = append(remove, fb.ID)
			}
			_, err := s.ApplyFeedSync(t.Context(), feed.Sync{FeedID: f.ID, Lease: lease, At: t0, Remove: remove, NextPollAt: t0})
			must(t, err)
		}
	}},
}
