package hostapi

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/outbox"
)

// channelRoute is an operation of the channels: calendar feeds, the
// calendar export and webhook endpoints.
type channelRoute struct {
	method, path string
	fn           op
}

func (h *handler) channelRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/properties/{id}/feeds", h.listFeeds},
		{http.MethodPost, "/properties/{id}/feeds", h.createFeed},
		{http.MethodPatch, "/properties/{id}/feeds/{feed_id}", h.patchFeed},
		{http.MethodDelete, "/properties/{id}/feeds/{feed_id}", h.deleteFeed},
		{http.MethodPost, "/properties/{id}/feeds/{feed_id}/sync", h.syncFeed},
		{http.MethodGet, "/properties/{id}/ical", h.getExport},
		{http.MethodPost, "/properties/{id}/ical/rotate", h.rotateExport},
		{http.MethodGet, "/webhooks", h.listWebhooks},
		{http.MethodPost, "/webhooks", h.createWebhook},
		{http.MethodPatch, "/webhooks/{id}", h.patchWebhook},
		{http.MethodDelete, "/webhooks/{id}", h.deleteWebhook},
		{http.MethodPost, "/webhooks/{id}/rotate-secret", h.rotateWebhookSecret},
		{http.MethodPost, "/webhooks/{id}/resume", h.resumeWebhook},
		{http.MethodGet, "/webhooks/{id}/deliveries", h.listDeliveries},
		{http.MethodPost, "/webhooks/deliveries/{delivery_id}/redeliver", h.redeliver},
	}
}

type conflictView struct {
	UID        string     `json:"uid"`
	Start      civil.Date `json:"start"`
	End        civil.Date `json:"end"`
	Summary    string     `json:"summary"`
	BookingID  int64      `json:"booking_id"`
	DetectedAt time.Time  `json:"detected_at"`
}

func newConflictViews(list []feed.Conflict) []conflictView {
	out := make([]conflictView, len(list))
	for i, c := range list {
		out[i] = conflictView{UID: c.UID, Start: c.Start, End: c.End, Summary: c.Summary, BookingID: c.BookingID,
			DetectedAt: c.DetectedAt.UTC()}
	}
	return out
}

type feedView struct {
	ID             int64          `json:"id"`
	PropertyID     int64          `json:"property_id"`
	Name           string         `json:"name"`
	URL            string         `json:"url"`
	Active         bool           `json:"active"`
	EndIsLastNight bool           `json:"end_is_last_night"`
	LastAttemptAt  *time.Time     `json:"last_attempt_at"`
	LastSuccessAt  *time.Time     `json:"last_success_at"`
	LastError      *string        `json:"last_error"`
	EventsImported int            `json:"events_imported"`
	Conflicts      []conflictView `json:"conflicts"`
	NextPollAt     *time.Time     `json:"next_poll_at"`
	CreatedAt      time.Time      `json:"created_at"`
	// UnitID is the unit whose nights the feed's events block (issue #27).
	UnitID int64 `json:"unit_id"`
	healthView
}

// healthView is a feed's health: what its last sync did, how long it has
// been unchanged, and its exposure window.
type healthView struct {
	Channel            string     `json:"channel"`
	ExportDelaySeconds int64      `json:"export_delay_seconds"`
	ExportDelayDefault bool       `json:"export_delay_default"`
	LastAdded          int        `json:"last_added"`
	LastRemoved        int        `json:"last_removed"`
	UnchangedSince     *time.Time `json:"unchanged_since"`
	Stale              bool       `json:"stale"`
	ExposureSeconds    *int64     `json:"exposure_seconds"`
}

func newHealthView(f *host.FeedStatus) healthView {
	h := f.Health
	v := healthView{Channel: h.Channel, ExportDelaySeconds: seconds(h.ExportDelay), ExportDelayDefault: h.ExportDelayDefault,
		LastAdded: f.LastAdded, LastRemoved: f.LastRemoved, UnchangedSince: optTime(h.UnchangedSince), Stale: h.Stale}
	if h.Known {
		s := seconds(h.Exposure)
		v.ExposureSeconds = &s
	}
	return v
}

// seconds is d in whole seconds, rounded up: an exposure is never
// understated.
func seconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }

// exposureView is a property's exposure window ("calendar_sync" of GET
// /properties/{id}).
type exposureView struct {
	Feeds            int    `json:"feeds"`
	ExposureSeconds  *int64 `json:"exposure_seconds"`
	WorstFeedID      *int64 `json:"worst_feed_id"`
	StaleFeeds       int    `json:"stale_feeds"`
	PollEverySeconds int64  `json:"poll_every_seconds"`
}

func newExposureView(e *host.PropertyExposure) *exposureView {
	v := &exposureView{Feeds: e.Feeds, StaleFeeds: e.StaleFeeds, PollEverySeconds: seconds(e.PollEvery)}
	if e.Known {
		s := seconds(e.Window)
		v.ExposureSeconds = &s
	}
	if e.WorstFeedID != 0 {
		id := e.WorstFeedID
		v.WorstFeedID = &id
	}
	return v
}

func newFeedView(f *host.FeedStatus) feedView {
	v := feedView{ID: f.ID, PropertyID: f.PropertyID, Name: f.Name, URL: f.URL, Active: f.Active,
		EndIsLastNight: f.EndIsLastNight, LastAttemptAt: optTime(f.LastAttemptAt), LastSuccessAt: optTime(f.LastSuccessAt),
		EventsImported: f.EventsImported, Conflicts: newConflictViews(f.ConflictList), NextPollAt: optTime(f.NextPollAt),
		CreatedAt: f.CreatedAt.UTC(), UnitID: f.UnitID, healthView: newHealthView(f)}
	if f.LastError != "" {
		v.LastError = &f.LastError
	}
	if !f.Active {
		v.NextPollAt = nil
	}
	return v
}

type syncOutcomeView struct {
	NotModified bool           `json:"not_modified"`
	Events      int            `json:"events"`
	Added       int            `json:"added"`
	Moved       int            `json:"moved"`
	Removed     int            `json:"removed"`
	Conflicts   []conflictView `json:"conflicts"`
	Error       *string        `json:"error"`
}

type syncView struct {
	Feed    feedView        `json:"feed"`
	Outcome syncOutcomeView `json:"outcome"`
}

func newSyncView(f *host.FeedStatus, o *host.SyncOutcome) syncView {
	out := syncOutcomeView{NotModified: o.NotModified, Events: o.Events, Added: o.Added, Moved: o.Moved,
		Removed: o.Removed, Conflicts: newConflictViews(o.Conflicts)}
	if o.Error != "" {
		out.Error = &o.Error
	}
	return syncView{Feed: newFeedView(f), Outcome: out}
}

// feedBody is POST /feeds and PATCH /feeds/{feed_id}.
type feedBody struct {
	Name           *string `json:"name"`
	URL            *string `json:"url"`
	Active         *bool   `json:"active"`
	EndIsLastNight *bool   `json:"end_is_last_night"`
	// ExportDelaySeconds: 0 is the channel's default.
	ExportDelaySeconds *int64 `json:"export_delay_seconds"`
	// UnitID is the unit whose listing the feed is, on creation (issue
	// #27); ignored afterwards.
	UnitID int64 `json:"unit_id"`
}

func (b feedBody) change() host.FeedChange {
	c := host.FeedChange{Name: b.Name, URL: b.URL, Active: b.Active, EndIsLastNight: b.EndIsLastNight, UnitID: b.UnitID}
	if b.ExportDelaySeconds != nil {
		d := time.Duration(max(min(*b.ExportDelaySeconds, int64(feed.MaxExportDelay/time.Second)+1), -1)) * time.Second
		c.ExportDelay = &d
	}
	return c
}

// feedIDs reads the property and feed of the path.
func feedIDs(r *http.Request) (propertyID, feedID int64, err error) {
	if propertyID, err = pathID(r, "id", "property"); err != nil {
		return 0, 0, err
	}
	if feedID, err = pathID(r, "feed_id", "feed"); err != nil {
		return 0, 0, err
	}
	return propertyID, feedID, nil
}

func (h *handler) listFeeds(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	all, err := h.channels.Feeds(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	items, next := pageByID(all, func(f *host.FeedStatus) int64 { return f.ID }, newFeedView, limit, cursor)
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) createFeed(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b feedBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	f, _, err := h.channels.AddFeed(r.Context(), c.org, id, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newFeedView(f), nil
}

func (h *handler) patchFeed(r *http.Request, c *call) (int, any, error) {
	propertyID, feedID, err := feedIDs(r)
	if err != nil {
		return 0, nil, err
	}
	var b feedBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	f, err := h.channels.UpdateFeed(r.Context(), c.org, propertyID, feedID, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newFeedView(f), nil
}

func (h *handler) deleteFeed(r *http.Request, c *call) (int, any, error) {
	propertyID, feedID, err := feedIDs(r)
	if err != nil {
		return 0, nil, err
	}
	if err := h.channels.RemoveFeed(r.Context(), c.org, propertyID, feedID, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (h *handler) syncFeed(r *http.Request, c *call) (int, any, error) {
	propertyID, feedID, err := feedIDs(r)
	if err != nil {
		return 0, nil, err
	}
	f, out, err := h.channels.SyncFeed(r.Context(), c.org, propertyID, feedID, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newSyncView(f, out), nil
}

// exportView is a property's calendar export. Its URL holds the secret
// token: null in the replay of a retried rotation.
type exportView struct {
	PropertyID int64     `json:"property_id"`
	URL        *string   `json:"url"`
	CreatedAt  time.Time `json:"created_at"`
	// Units are the calendars of each active unit (issue #27), for the
	// unit's own listing on a channel.
	Units []unitExportView `json:"units"`
}

type unitExportView struct {
	UnitID int64   `json:"unit_id"`
	Name   string  `json:"name"`
	URL    *string `json:"url"`
}

func (v exportView) withoutSecret() any {
	v.URL = nil
	v.Units = slices.Clone(v.Units)
	for i := range v.Units {
		v.Units[i].URL = nil
	}
	return v
}

// newExportView is the calendar URL to paste into the channels, on
// PublicURL, and those of the property's units.
func (h *handler) newExportView(r *http.Request, c *call, t *feed.ExportToken) (exportView, error) {
	url := h.public + icalsync.ExportPath(t.Token)
	v := exportView{PropertyID: t.PropertyID, URL: &url, CreatedAt: t.CreatedAt.UTC(), Units: []unitExportView{}}
	p, err := h.host.Property(r.Context(), c.org, t.PropertyID)
	if err != nil {
		return exportView{}, err
	}
	for _, u := range p.Units {
		unitURL := url + "?unit=" + strconv.FormatInt(u.ID, 10)
		v.Units = append(v.Units, unitExportView{UnitID: u.ID, Name: u.Name, URL: &unitURL})
	}
	return v, nil
}

// errNoPublicURL refuses to show an export URL without Options.PublicURL:
// the request's Host header is the client's to choose, so a URL built on
// it could send the secret token to another host.
func errNoPublicURL() error {
	return booking.Errorf(booking.CodeNotConfigured, "The server has no public URL: the calendar export URL cannot be shown.")
}

func (h *handler) getExport(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	if h.public == "" {
		return 0, nil, errNoPublicURL()
	}
	t, err := h.channels.ExportToken(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	v, err := h.newExportView(r, c, t)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, v, nil
}

func (h *handler) rotateExport(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	if h.public == "" {
		return 0, nil, errNoPublicURL()
	}
	t, err := h.channels.RotateExportToken(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	v, err := h.newExportView(r, c, t)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, v, nil
}

type webhookView struct {
	ID           int64      `json:"id"`
	URL          string     `json:"url"`
	EventTypes   []string   `json:"event_types"`
	Active       bool       `json:"active"`
	Failures     int        `json:"failures"`
	FailingSince *time.Time `json:"failing_since"`
	PausedAt     *time.Time `json:"paused_at"`
	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
}

func newWebhookView(e *outbox.Endpoint) webhookView {
	return webhookView{ID: e.ID, URL: e.URL, EventTypes: orEmpty(e.EventTypes), Active: e.Active, Failures: e.Failures,
		FailingSince: optTime(e.FailingSince), PausedAt: optTime(e.PausedAt),
		CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
}

// resumedView is an endpoint resumed, with the number of deliveries
// replayed.
type resumedView struct {
	webhookView
	Replayed int `json:"replayed"`
}

func (h *handler) resumeWebhook(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	var b struct {
		Replay bool `json:"replay"`
	}
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	e, replayed, err := h.channels.ResumeWebhook(r.Context(), c.org, id, b.Replay, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, resumedView{webhookView: newWebhookView(e), Replayed: replayed}, nil
}

// webhookSecretView is an endpoint with its signing secret: only the
// answers of creation and rotation carry it (null in their replay).
type webhookSecretView struct {
	webhookView
	Secret *string `json:"secret"`
}

func (v webhookSecretView) withoutSecret() any {
	v.Secret = nil
	return v
}

// webhookBody is POST /webhooks and PATCH /webhooks/{id}.
type webhookBody struct {
	URL        *string   `json:"url"`
	EventTypes *[]string `json:"event_types"`
	Active     *bool     `json:"active"`
}

func (b webhookBody) change() host.WebhookChange {
	return host.WebhookChange{URL: b.URL, EventTypes: b.EventTypes, Active: b.Active}
}

func (h *handler) listWebhooks(r *http.Request, c *call) (int, any, error) {
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	all, err := h.channels.Webhooks(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items, next := pageByID(all, func(e *outbox.Endpoint) int64 { return e.ID }, newWebhookView, limit, cursor)
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) createWebhook(r *http.Request, c *call) (int, any, error) {
	var b webhookBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	e, err := h.channels.CreateWebhook(r.Context(), c.org, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, webhookSecretView{webhookView: newWebhookView(e), Secret: &e.Secret}, nil
}

func (h *handler) patchWebhook(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	var b webhookBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	e, err := h.channels.UpdateWebhook(r.Context(), c.org, id, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newWebhookView(e), nil
}

func (h *handler) deleteWebhook(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	if err := h.channels.DeleteWebhook(r.Context(), c.org, id, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (h *handler) rotateWebhookSecret(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	e, err := h.channels.RotateWebhookSecret(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, webhookSecretView{webhookView: newWebhookView(e), Secret: &e.Secret}, nil
}

type deliveryView struct {
	ID            int64      `json:"id"`
	EventID       int64      `json:"event_id"`
	EventType     string     `json:"event_type"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	ResponseCode  *int       `json:"response_code"`
	LastError     *string    `json:"last_error"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	DeliveredAt   *time.Time `json:"delivered_at"`
}

func newDeliveryView(d *host.DeliveryEntry) deliveryView {
	v := deliveryView{ID: d.ID, EventID: d.EventID, EventType: d.EventType, Status: string(d.Status), Attempts: d.Attempts,
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(), DeliveredAt: optTime(d.DeliveredAt)}
	if d.ResponseCode != 0 {
		v.ResponseCode = &d.ResponseCode
	}
	if d.LastError != "" {
		v.LastError = &d.LastError
	}
	if d.Status == outbox.StatusPending {
		v.NextAttemptAt = optTime(d.NextAttemptAt)
	}
	return v
}

func (h *handler) listDeliveries(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	list, next, err := h.channels.Deliveries(r.Context(), c.org, id, cursor, limit)
	if err != nil {
		return 0, nil, err
	}
	items := make([]deliveryView, len(list))
	for i := range list {
		items[i] = newDeliveryView(&list[i])
	}
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) redeliver(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "delivery_id", "delivery")
	if err != nil {
		return 0, nil, err
	}
	d, err := h.channels.Redeliver(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newDeliveryView(d), nil
}
