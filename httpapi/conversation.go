package httpapi

import (
	"net/http"

	"github.com/staykit/staykit/conversation"
)

// Routes of the messages between a booking's guest and the host (package
// conversation).
const (
	RouteThread  = "thread"
	RouteMessage = "message"
)

// threadRoutes are the thread's operations, served when
// Options.Conversation is set.
func (h *handler) threadRoutes() []route {
	return []route{
		{RouteThread, http.MethodGet, orgPrefix + "/booking/{token}/messages", true, h.thread},
		{RouteMessage, http.MethodPost, orgPrefix + "/booking/{token}/messages", true, h.postMessage},
	}
}

// guestMessageView is a message of the thread as the guest sees it: who
// wrote it (the guest or the host, never which of the host's team).
type guestMessageView struct {
	ID        int64   `json:"id"`
	From      string  `json:"from"`
	Body      string  `json:"body"`
	CreatedAt optTime `json:"created_at"`
}

func newGuestMessageView(m *conversation.Message) guestMessageView {
	return guestMessageView{ID: m.ID, From: m.From, Body: m.Body, CreatedAt: optTime(m.CreatedAt)}
}

type threadView struct {
	// CanWrite: the guest may write now.
	CanWrite bool `json:"can_write"`
	// WriteUntil is the last day they may write, null when never.
	WriteUntil optDate `json:"write_until"`
	// AwaitingReply: the guest wrote the most messages in a row they may
	// before the host answers.
	AwaitingReply bool               `json:"awaiting_reply"`
	MaxLength     int                `json:"max_length"`
	Items         []guestMessageView `json:"items"`
}

// GET /api/v1/book/{org_slug}/booking/{token}/messages
func (h *handler) thread(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	th, err := h.conversation.ForGuest(r.Context(), o, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	v := threadView{CanWrite: th.CanWrite, WriteUntil: optDate(th.WriteUntil), AwaitingReply: th.Unanswered >= conversation.MaxUnanswered,
		MaxLength: conversation.MaxLength, Items: make([]guestMessageView, len(th.Messages))}
	for i := range th.Messages {
		v.Items[i] = newGuestMessageView(&th.Messages[i])
	}
	return http.StatusOK, v, nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/messages {"body"}, with an
// optional Idempotency-Key: a retry answers the stored message.
func (h *handler) postMessage(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, false)
	if err != nil {
		return 0, nil, err
	}
	body := o.str("body")
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	m, _, err := h.conversation.Post(r.Context(), org, r.PathValue("token"), body, r.Header.Get("Idempotency-Key"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newGuestMessageView(m), nil
}
