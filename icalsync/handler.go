package icalsync

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ical"
)

// exportHistory is how long after their end bookings and blocks stay in
// the export: channels look ahead, and a feed must not grow forever.
const exportHistoryDays = 90

// Handler serves each property's calendar at {prefix}/{token}.ics (the
// last path segment is read, so it works wherever it is mounted, e.g.
// mux.Handle("GET /ical/", h)), and each of its units' at
// {prefix}/{token}.ics?unit={unit_id} (issue #27): the bookings holding
// dates and the host blocks, never imported events (no loops between
// channels), never guest data. Answers carry ETag and (a property's)
// Last-Modified, and conditional requests get 304.
type Handler struct {
	Store ExportStore
	// Clock defaults to the wall clock; Logger to slog.Default().
	Clock  booking.Clock
	Logger *slog.Logger
}

// ServeHTTP serves one calendar.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := path.Base(r.URL.Path)
	token, ok := strings.CutSuffix(name, ".ics")
	if !ok || token == "" {
		http.NotFound(w, r)
		return
	}
	clock := h.Clock
	if clock == nil {
		clock = booking.SystemClock{}
	}
	var unit int64
	if u := r.URL.Query().Get("unit"); u != "" {
		n, err := strconv.ParseInt(u, 10, 64)
		if err != nil || n <= 0 {
			http.NotFound(w, r)
			return
		}
		unit = n
	}
	body, tok, err := ExportUnit(r.Context(), h.Store, token, unit, clock.Now())
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		http.NotFound(w, r)
		return
	case err != nil:
		logger := h.Logger
		if logger == nil {
			logger = slog.Default()
		}
		logger.ErrorContext(r.Context(), "export calendar", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("ETag", tok.ETag)
	if unit != 0 {
		// A unit's calendar has no change time of its own (the token's
		// is its property's): its ETag alone answers conditional
		// requests (If-None-Match), with no Last-Modified.
		tok.ChangedAt = time.Time{}
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	// ServeContent answers If-None-Match and If-Modified-Since with 304.
	http.ServeContent(w, r, "", tok.ChangedAt, bytes.NewReader(body))
}

// Export renders the calendar of an export token at now and records its
// ETag (feed.FeedStore.NoteExport): the returned token's ETag and
// ChangedAt describe body. Errors: CodeNotFound (unknown token).
func Export(ctx context.Context, store ExportStore, token string, now time.Time) ([]byte, *feed.ExportToken, error) {
	return ExportUnit(ctx, store, token, 0, now)
}

// ExportUnit is Export of one unit of the token's property (issue #27;
// unit 0: the property's, as Export): the calendar a channel listing that
// unit imports (UnitCalendar). The ETag of a unit's body is returned with
// the token, not recorded: the token's ChangedAt is its property's.
// Errors: CodeNotFound (unknown token, or unit not an active unit of its
// property).
func ExportUnit(ctx context.Context, store ExportStore, token string, unit int64, now time.Time) ([]byte, *feed.ExportToken, error) {
	tok, err := store.ExportTokenByValue(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	cal, err := UnitCalendar(ctx, store, tok, unit, now)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := ical.Write(&buf, *cal); err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	if unit != 0 {
		t := *tok
		t.ETag = etag
		return buf.Bytes(), &t, nil
	}
	if tok, err = store.NoteExport(ctx, tok.PropertyID, etag, now.Truncate(time.Second)); err != nil {
		return nil, nil, fmt.Errorf("note export: %w", err)
	}
	return buf.Bytes(), tok, nil
}

// PropertyCalendar is what a property's export holds at now: one event per
// booking holding dates and per host block, ending at most 90 days ago,
// and one per booking holding dates and per host block of the properties
// linked to it (package units), which take its nights. A property of
// several units exports the stays of all of them: a channel importing it
// never sells a night a unit holds (export per unit, UnitCalendar, to
// sell each unit on its own listing).
func PropertyCalendar(ctx context.Context, store ExportStore, tok *feed.ExportToken, now time.Time) (*ical.Calendar, error) {
	return UnitCalendar(ctx, store, tok, 0, now)
}

// UnitCalendar is PropertyCalendar of one unit (issue #27): the unit's
// bookings, its blocks and the blocks of the whole property, and the
// holds of the linked properties; unit 0 is PropertyCalendar. Errors:
// CodeNotFound when unit is no active unit of the property.
func UnitCalendar(ctx context.Context, store ExportStore, tok *feed.ExportToken, unit int64, now time.Time) (*ical.Calendar, error) {
	org, err := store.OrganizationByID(ctx, tok.OrgID)
	if err != nil {
		return nil, fmt.Errorf("export: organisation %d: %w", tok.OrgID, err)
	}
	p, err := store.Property(ctx, tok.OrgID, tok.PropertyID)
	if err != nil {
		return nil, fmt.Errorf("export: property %d: %w", tok.PropertyID, err)
	}
	name := p.Name
	if unit != 0 {
		i := slices.IndexFunc(p.Units, func(u booking.Unit) bool { return u.ID == unit })
		if i < 0 {
			return nil, booking.Errorf(booking.CodeNotFound, "This calendar does not exist.")
		}
		name += " — " + p.Units[i].Name
	}
	bookings, err := store.Bookings(ctx, tok.OrgID, booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed)
	if err != nil {
		return nil, fmt.Errorf("export: bookings: %w", err)
	}
	since := civil.Today(now, org.Location()).AddDays(-exportHistoryDays)
	cal := &ical.Calendar{Name: name}
	linked := map[int64]bool{}
	for _, id := range p.Linked {
		linked[id] = true
	}
	for _, b := range bookings {
		mine := b.PropertyID == p.ID && (unit == 0 || b.UnitID == unit)
		if !mine && !linked[b.PropertyID] || !b.HoldsDates(now) || b.CheckOut.Before(since) {
			continue
		}
		stamp := b.UpdatedAt
		if stamp.IsZero() {
			stamp = b.CreatedAt
		}
		summary := ical.SummaryReserved
		if !mine {
			summary = ical.SummaryNotAvailable
		}
		cal.Events = append(cal.Events, ical.ExportEvent{UID: eventUID(b.Token, "booking"),
			Start: b.CheckIn, End: b.CheckOut, Summary: summary, Stamp: stamp.Truncate(time.Second)})
	}
	blockEvents := func(kind string, blocks []booking.Block) {
		for _, bl := range blocks {
			if bl.End.Before(since) || unit != 0 && kind == "block:" && bl.UnitID != 0 && bl.UnitID != unit {
				continue
			}
			cal.Events = append(cal.Events, ical.ExportEvent{UID: eventUID(tok.Token, kind+strconv.FormatInt(bl.ID, 10)),
				Start: bl.Start, End: bl.End, Summary: ical.SummaryNotAvailable, Stamp: tok.CreatedAt.Truncate(time.Second)})
		}
	}
	blockEvents("block:", p.Blocks)
	for _, id := range p.Linked {
		lp, err := store.Property(ctx, tok.OrgID, id)
		if err != nil {
			return nil, fmt.Errorf("export: linked property %d: %w", id, err)
		}
		blockEvents("linked-block:", lp.Blocks)
	}
	sortEvents(cal.Events)
	return cal, nil
}

// eventUID is the UID of an exported event: opaque, because a booking's
// or a block's ID would tell anyone with the URL how many the whole
// deployment holds, and stable, so that a channel updates an event rather
// than adding one at each export. It is an HMAC of what (the event's kind
// and ID) under key: a booking's token for a booking (secret, and never
// changed), the export token for a block (a rotation gives the blocks new
// UIDs, at a new URL that channels import afresh anyway).
func eventUID(key, what string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(what))
	return hex.EncodeToString(mac.Sum(nil)[:16]) + "@staykit"
}

func sortEvents(list []ical.ExportEvent) {
	slices.SortFunc(list, func(a, b ical.ExportEvent) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return strings.Compare(a.UID, b.UID)
	})
}
