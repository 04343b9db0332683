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
// mux.Handle("GET /ical/", h)): the bookings holding dates and the host
// blocks, never imported events (no loops between channels), never guest
// data. Answers carry ETag and Last-Modified, and conditional requests
// get 304.
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
	body, tok, err := Export(r.Context(), h.Store, token, clock.Now())
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
	tok, err := store.ExportTokenByValue(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	cal, err := PropertyCalendar(ctx, store, tok, now)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := ical.Write(&buf, *cal); err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	if tok, err = store.NoteExport(ctx, tok.PropertyID, etag, now.Truncate(time.Second)); err != nil {
		return nil, nil, fmt.Errorf("note export: %w", err)
	}
	return buf.Bytes(), tok, nil
}

// PropertyCalendar is what a property's export holds at now: one event per
// booking holding dates and per host block, ending at most 90 days ago.
func PropertyCalendar(ctx context.Context, store ExportStore, tok *feed.ExportToken, now time.Time) (*ical.Calendar, error) {
	org, err := store.OrganizationByID(ctx, tok.OrgID)
	if err != nil {
		return nil, fmt.Errorf("export: organisation %d: %w", tok.OrgID, err)
	}
	p, err := store.Property(ctx, tok.OrgID, tok.PropertyID)
	if err != nil {
		return nil, fmt.Errorf("export: property %d: %w", tok.PropertyID, err)
	}
	bookings, err := store.Bookings(ctx, tok.OrgID, booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed)
	if err != nil {
		return nil, fmt.Errorf("export: bookings: %w", err)
	}
	since := civil.Today(now, org.Location()).AddDays(-exportHistoryDays)
	cal := &ical.Calendar{Name: p.Name}
	for _, b := range bookings {
		if b.PropertyID != p.ID || !b.HoldsDates(now) || b.CheckOut.Before(since) {
			continue
		}
		stamp := b.UpdatedAt
		if stamp.IsZero() {
			stamp = b.CreatedAt
		}
		cal.Events = append(cal.Events, ical.ExportEvent{UID: eventUID(b.Token, "booking"),
			Start: b.CheckIn, End: b.CheckOut, Summary: ical.SummaryReserved, Stamp: stamp.Truncate(time.Second)})
	}
	for _, bl := range p.Blocks {
		if bl.End.Before(since) {
			continue
		}
		cal.Events = append(cal.Events, ical.ExportEvent{UID: eventUID(tok.Token, "block:"+strconv.FormatInt(bl.ID, 10)),
			Start: bl.Start, End: bl.End, Summary: ical.SummaryNotAvailable, Stamp: tok.CreatedAt.Truncate(time.Second)})
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
