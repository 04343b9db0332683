package rowmap

import "github.com/staykit/staykit/conversation"

// MessageColumns are the columns of booking_messages m joined with their
// booking b, in the order ScanMessage reads them.
const MessageColumns = `m.id, b.org_id, m.booking_id, m.sender, m.author, m.body, m.idem_key, m.created_at`

// ScanMessage reads a row of MessageColumns.
func ScanMessage(c Codec, s Scanner) (*conversation.Message, error) {
	var m conversation.Message
	if err := Scan(s, &m.ID, &m.OrgID, &m.BookingID, &m.From, &m.Author, &m.Body, &m.Key, c.Time(&m.CreatedAt)); err != nil {
		return nil, err
	}
	return &m, nil
}

// ThreadState is what a store reads of a booking before it adds a message
// to its thread.
type ThreadState struct {
	OrgID int64
	// Erased: the booking's guest was erased (privacy.Erased).
	Erased bool
	// Total is the number of messages of the thread; Unanswered the
	// guest's messages after the host's last.
	Total, Unanswered int
}

// ScanThreadState reads org_id, erased, total and unanswered.
func ScanThreadState(_ Codec, s Scanner) (*ThreadState, error) {
	var st ThreadState
	if err := Scan(s, &st.OrgID, &st.Erased, &st.Total, &st.Unanswered); err != nil {
		return nil, err
	}
	return &st, nil
}

// CheckAddMessage is the refusal of m on a thread in state st, nil when
// m may be added (conversation.Store.AddMessage).
func CheckAddMessage(st *ThreadState, m *conversation.Message) error {
	switch {
	case st.Erased:
		return conversation.ErrGuestErased()
	case st.Total >= conversation.MaxThread:
		return conversation.ErrThreadFull()
	case m.From == conversation.FromGuest && st.Unanswered >= conversation.MaxUnanswered:
		return conversation.ErrAwaitingReply()
	}
	return nil
}

// SameMessage reports whether a message stored with m's Idempotency-Key
// is m's retry: the same side and text.
func SameMessage(stored, m *conversation.Message) bool {
	return stored.From == m.From && stored.Body == m.Body
}
