package feed

import (
	"net/url"
	"strings"
	"time"
)

// Channel export delays: how long a channel may take, at worst, to show a
// new booking in the calendar it exports. No channel publishes one; these
// are conservative estimates a host overrides per feed (Feed.ExportDelay)
// when they know better.
const (
	AirbnbExportDelay     = 3 * time.Hour
	BookingComExportDelay = 2 * time.Hour
	VrboExportDelay       = 1 * time.Hour
	// OtherExportDelay is the default of a source not recognised.
	OtherExportDelay = 1 * time.Hour
	// MaxExportDelay bounds what a host may set: a week.
	MaxExportDelay = 7 * 24 * time.Hour
)

// StaleAfter is how long a feed may go without a change before it is
// called stale: a channel calendar that has not changed in 14 days is
// often a listing that was closed or a URL that was replaced.
const StaleAfter = 14 * 24 * time.Hour

// Known channels, as ChannelOf names them.
const (
	ChannelAirbnb     = "airbnb"
	ChannelBookingCom = "booking.com"
	ChannelVrbo       = "vrbo"
	ChannelOther      = "other"
)

// ChannelOf names the channel a feed's URL belongs to, by its host:
// airbnb.*, booking.com (admin.booking.com, ical.booking.com), vrbo.com
// or homeaway.* (Vrbo's former name); anything else is ChannelOther.
func ChannelOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ChannelOther
	}
	host := strings.ToLower(u.Hostname())
	labels := strings.Split(host, ".")
	has := func(name string) bool {
		for _, l := range labels {
			if l == name {
				return true
			}
		}
		return false
	}
	switch {
	case has("airbnb"):
		return ChannelAirbnb
	case host == "booking.com" || strings.HasSuffix(host, ".booking.com"):
		return ChannelBookingCom
	case has("vrbo") || has("homeaway"):
		return ChannelVrbo
	}
	return ChannelOther
}

// DefaultExportDelay is a channel's default export delay.
func DefaultExportDelay(channel string) time.Duration {
	switch channel {
	case ChannelAirbnb:
		return AirbnbExportDelay
	case ChannelBookingCom:
		return BookingComExportDelay
	case ChannelVrbo:
		return VrboExportDelay
	}
	return OtherExportDelay
}

// Health is what a host needs to judge a feed: how old its news is, and
// how long a booking made on its channel could stay unseen here.
type Health struct {
	// Channel is ChannelOf the feed's URL.
	Channel string
	// ExportDelay is the feed's, or its channel's default when unset.
	ExportDelay time.Duration
	// ExportDelayDefault: ExportDelay is the channel's default.
	ExportDelayDefault bool
	// UnchangedSince is the feed's ChangedAt (zero: never synced).
	UnchangedSince time.Time
	// Stale: the feed has synced but not changed for StaleAfter.
	Stale bool
	// Exposure is the exposure window: the worst-case time a booking
	// made on the channel at this moment could go unseen here, poll
	// interval + time since the last success + export delay. It is
	// unknown (Known false) for a feed that never synced; an inactive
	// feed is not polled and has none (Known false too).
	Exposure time.Duration
	Known    bool
}

// HealthOf judges f at now for a poller whose worst-case interval between
// two polls is interval.
func HealthOf(f Feed, now time.Time, interval time.Duration) Health {
	h := Health{Channel: ChannelOf(f.URL), ExportDelay: f.ExportDelay, UnchangedSince: f.ChangedAt}
	if h.ExportDelay <= 0 {
		h.ExportDelay, h.ExportDelayDefault = DefaultExportDelay(h.Channel), true
	}
	if !f.ChangedAt.IsZero() && now.Sub(f.ChangedAt) >= StaleAfter {
		h.Stale = true
	}
	if f.Active && !f.LastSuccessAt.IsZero() {
		since := max(now.Sub(f.LastSuccessAt), 0)
		h.Exposure, h.Known = interval+since+h.ExportDelay, true
	}
	return h
}

// Exposure is a property's exposure window: the largest of its active
// feeds' (Health.Exposure), the channel booking seen last.
type Exposure struct {
	// Window is the largest exposure; meaningful when Known.
	Window time.Duration
	// Known: every active feed has synced. A property with an active
	// feed that never synced has an unknown window (Known false,
	// Feeds > 0): a channel booking could be unseen for any time.
	Known bool
	// Feeds counts the active feeds; zero: the property imports no
	// calendar and has no window.
	Feeds int
	// WorstFeedID is the feed whose exposure is Window (or one that
	// never synced).
	WorstFeedID int64
}

// PropertyExposure folds the health of a property's feeds (of any
// property: only those of propertyID count) into its exposure window.
func PropertyExposure(propertyID int64, feeds []Feed, health []Health) Exposure {
	e := Exposure{Known: true}
	for i, f := range feeds {
		if f.PropertyID != propertyID || !f.Active {
			continue
		}
		e.Feeds++
		h := health[i]
		switch {
		case !e.Known:
		case !h.Known:
			e.Known, e.Window, e.WorstFeedID = false, 0, f.ID
		case h.Exposure > e.Window || e.WorstFeedID == 0:
			e.Window, e.WorstFeedID = h.Exposure, f.ID
		}
	}
	if e.Feeds == 0 {
		e.Known = false
	}
	return e
}
