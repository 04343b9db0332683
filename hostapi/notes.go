package hostapi

import (
	"net/http"
	"time"

	"github.com/staykit/staykit/notes"
)

// noteRoutes are the host's notes on a booking (package notes).
func (h *handler) noteRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/bookings/{id}/notes", h.listNotes},
		{http.MethodPost, "/bookings/{id}/notes", h.addNote},
	}
}

// noteView is a note on a booking.
type noteView struct {
	ID        int64     `json:"id"`
	Author    string    `json:"author"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

func newNoteView(n *notes.Note) noteView {
	return noteView{ID: n.ID, Author: n.Author, Body: n.Body, CreatedAt: n.CreatedAt.UTC()}
}

// noteBody is POST /bookings/{id}/notes.
type noteBody struct {
	Body string `json:"body"`
}

func (h *handler) listNotes(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	list, err := h.host.BookingNotes(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	items := make([]noteView, 0, len(list))
	for i := range list {
		items = append(items, newNoteView(&list[i]))
	}
	return http.StatusOK, newList(items, 0), nil
}

func (h *handler) addNote(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	var b noteBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	n, err := h.host.AddNote(r.Context(), c.org, id, b.Body, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newNoteView(n), nil
}
