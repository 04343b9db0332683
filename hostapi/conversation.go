package hostapi

import (
	"net/http"
	"time"

	"github.com/staykit/staykit/conversation"
)

// threadRoutes are the messages between a booking's guest and the host
// (package conversation).
func (h *handler) threadRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/bookings/{id}/messages", h.listMessages},
		{http.MethodPost, "/bookings/{id}/messages", h.messageGuest},
	}
}

// messageView is a message of a booking's thread as the host sees it.
type messageView struct {
	ID        int64     `json:"id"`
	From      string    `json:"from"`
	Author    *string   `json:"author"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

func newMessageView(m *conversation.Message) messageView {
	v := messageView{ID: m.ID, From: m.From, Body: m.Body, CreatedAt: m.CreatedAt.UTC()}
	if m.From == conversation.FromHost {
		v.Author = &m.Author
	}
	return v
}

// messageBody is POST /bookings/{id}/messages.
type messageBody struct {
	Body string `json:"body"`
}

// GET /bookings/{id}/messages
func (h *handler) listMessages(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	list, err := h.host.BookingMessages(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	items := make([]messageView, len(list))
	for i := range list {
		items[i] = newMessageView(&list[i])
	}
	return http.StatusOK, newList(items, 0), nil
}

// POST /bookings/{id}/messages {"body"}
func (h *handler) messageGuest(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	var b messageBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	m, err := h.host.MessageGuest(r.Context(), c.org, id, b.Body, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newMessageView(m), nil
}
