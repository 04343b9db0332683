package feed_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/feed"
)

func TestChannelOf(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"https://www.airbnb.com/calendar/ical/123.ics?s=abc", feed.ChannelAirbnb},
		{"https://www.airbnb.fr/calendar/ical/123.ics", feed.ChannelAirbnb},
		{"https://admin.booking.com/hotel/hoteladmin/ical.html?t=x", feed.ChannelBookingCom},
		{"https://ical.booking.com/v1/export?t=x", feed.ChannelBookingCom},
		{"https://notbooking.com/x.ics", feed.ChannelOther},
		{"http://www.vrbo.com/icalendar/abc.ics", feed.ChannelVrbo},
		{"https://www.homeaway.co.uk/icalendar/abc.ics", feed.ChannelVrbo},
		{"https://airbnb-clone.example/x.ics", feed.ChannelOther},
		{"::", feed.ChannelOther},
	} {
		if got := feed.ChannelOf(tc.url); got != tc.want {
			t.Errorf("ChannelOf(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

func TestHealthOf(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	every := 16*time.Minute + 30*time.Second
	synced := feed.Feed{ID: 1, PropertyID: 7, Active: true, URL: "https://www.airbnb.com/calendar/ical/1.ics",
		LastSuccessAt: now.Add(-10 * time.Minute), ChangedAt: now.Add(-24 * time.Hour)}
	for _, tc := range []struct {
		name string
		f    func(f feed.Feed) feed.Feed
		want feed.Health
	}{
		{"airbnb default", func(f feed.Feed) feed.Feed { return f },
			feed.Health{Channel: feed.ChannelAirbnb, ExportDelay: 3 * time.Hour, ExportDelayDefault: true,
				UnchangedSince: now.Add(-24 * time.Hour), Exposure: every + 10*time.Minute + 3*time.Hour, Known: true}},
		{"host's delay", func(f feed.Feed) feed.Feed { f.ExportDelay = 20 * time.Minute; return f },
			feed.Health{Channel: feed.ChannelAirbnb, ExportDelay: 20 * time.Minute,
				UnchangedSince: now.Add(-24 * time.Hour), Exposure: every + 30*time.Minute, Known: true}},
		{"stale at 14 days", func(f feed.Feed) feed.Feed { f.ChangedAt = now.Add(-feed.StaleAfter); return f },
			feed.Health{Channel: feed.ChannelAirbnb, ExportDelay: 3 * time.Hour, ExportDelayDefault: true,
				UnchangedSince: now.Add(-feed.StaleAfter), Stale: true, Exposure: every + 10*time.Minute + 3*time.Hour, Known: true}},
		{"never synced", func(f feed.Feed) feed.Feed { f.LastSuccessAt, f.ChangedAt = time.Time{}, time.Time{}; return f },
			feed.Health{Channel: feed.ChannelAirbnb, ExportDelay: 3 * time.Hour, ExportDelayDefault: true}},
		{"inactive", func(f feed.Feed) feed.Feed { f.Active = false; return f },
			feed.Health{Channel: feed.ChannelAirbnb, ExportDelay: 3 * time.Hour, ExportDelayDefault: true,
				UnchangedSince: now.Add(-24 * time.Hour)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := feed.HealthOf(tc.f(synced), now, every); got != tc.want {
				t.Errorf("HealthOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPropertyExposure(t *testing.T) {
	feeds := []feed.Feed{
		{ID: 1, PropertyID: 7, Active: true},
		{ID: 2, PropertyID: 7, Active: true},
		{ID: 3, PropertyID: 8, Active: true},
		{ID: 4, PropertyID: 7, Active: false},
	}
	known := func(d time.Duration) feed.Health { return feed.Health{Exposure: d, Known: true} }
	for _, tc := range []struct {
		name     string
		property int64
		health   []feed.Health
		want     feed.Exposure
	}{
		{"the worst feed", 7, []feed.Health{known(time.Hour), known(2 * time.Hour), known(9 * time.Hour), {}},
			feed.Exposure{Window: 2 * time.Hour, Known: true, Feeds: 2, WorstFeedID: 2}},
		{"one never synced", 7, []feed.Health{{}, known(2 * time.Hour), known(9 * time.Hour), {}},
			feed.Exposure{Feeds: 2, WorstFeedID: 1}},
		{"no feed", 9, []feed.Health{{}, {}, {}, {}}, feed.Exposure{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := feed.PropertyExposure(tc.property, feeds, tc.health); got != tc.want {
				t.Errorf("PropertyExposure = %+v, want %+v", got, tc.want)
			}
		})
	}
}
