package hostapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
)

// ReasonEvents is the booking.ParamReason of the CodeNotConfigured of
// the event routes on a handler without Options.Events.
const ReasonEvents = "events"

// eventRoutes are the event feed's operations (package eventfeed).
func (h *handler) eventRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/events", h.listEvents},
		{http.MethodPost, "/events/ack", h.ackEventsUpTo},
		{http.MethodPost, "/events/{id}/ack", h.ackEvent},
		{http.MethodPost, "/webhooks/{id}/replay", h.replayWebhook},
	}
}

func (h *handler) eventFeed() (*eventfeed.Service, error) {
	if h.events == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "The event feed is not configured on this server.",
			Params: map[string]string{booking.ParamReason: ReasonEvents}}
	}
	return h.events, nil
}

// eventPage is a page of the feed: next_cursor is always set, to read on
// from (the same cursor when the page is empty).
type eventPage struct {
	Items      []eventfeed.CloudEvent `json:"items"`
	NextCursor string                 `json:"next_cursor"`
	HasMore    bool                   `json:"has_more"`
}

func (h *handler) listEvents(r *http.Request, c *call) (int, any, error) {
	feed, err := h.eventFeed()
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	f := booking.FieldErrors{}
	limit := 100
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || eventfeed.CheckLimit(n) != nil {
			f.Add("limit", "out_of_range")
		}
		limit = n
	}
	after, err := eventfeed.ParseCursor(q.Get("after"))
	if err != nil {
		f.Add("after", "invalid")
	}
	unacked := false
	switch q.Get("unacknowledged") {
	case "", "false":
	case "true":
		unacked = true
	default:
		f.Add("unacknowledged", "invalid")
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	p, err := feed.Read(r.Context(), c.org, after, limit, unacked)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, eventPage{Items: p.Events, NextCursor: eventfeed.FormatCursor(p.Next), HasMore: len(p.Events) == limit}, nil
}

type ackView struct {
	Acknowledged int `json:"acknowledged"`
}

func (h *handler) ackEvent(r *http.Request, c *call) (int, any, error) {
	feed, err := h.eventFeed()
	if err != nil {
		return 0, nil, err
	}
	id, err := eventfeed.ParseCursor(r.PathValue("id"))
	if err != nil || id == 0 {
		return 0, nil, &booking.Error{Code: booking.CodeNotFound, Message: "This event does not exist."}
	}
	if err := feed.Ack(r.Context(), c.org, id, h.clock.Now()); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, ackView{Acknowledged: 1}, nil
}

func (h *handler) ackEventsUpTo(r *http.Request, c *call) (int, any, error) {
	feed, err := h.eventFeed()
	if err != nil {
		return 0, nil, err
	}
	var b struct {
		UpTo string `json:"up_to"`
	}
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	upTo, err := eventfeed.ParseCursor(b.UpTo)
	if err != nil || upTo == 0 {
		f := booking.FieldErrors{}
		f.Add("up_to", "invalid")
		return 0, nil, f.Err()
	}
	n, err := feed.AckUpTo(r.Context(), c.org, upTo, h.clock.Now())
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, ackView{Acknowledged: n}, nil
}

type replayView struct {
	Replayed int `json:"replayed"`
}

func (h *handler) replayWebhook(r *http.Request, c *call) (int, any, error) {
	feed, err := h.eventFeed()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "webhook")
	if err != nil {
		return 0, nil, err
	}
	var b struct {
		From *time.Time `json:"from"`
		To   *time.Time `json:"to"`
	}
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	f := booking.FieldErrors{}
	if b.From == nil {
		f.Add("from", "required")
	}
	if b.To == nil {
		f.Add("to", "required")
	} else if b.From != nil && !b.To.After(*b.From) {
		f.Add("to", "invalid")
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	n, err := feed.Replay(r.Context(), c.org, id, *b.From, *b.To, h.clock.Now())
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return 0, nil, &booking.Error{Code: booking.CodeNotFound, Message: "This webhook endpoint does not exist."}
		}
		return 0, nil, err
	}
	return http.StatusOK, replayView{Replayed: n}, nil
}
