package hostapi

import (
	"net/http"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/team"
)

// teamRoutes are the team's operations (an owner's, roles.go) and the
// planning a housekeeping member reads.
func (h *handler) teamRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/team/members", h.listMembers},
		{http.MethodPatch, "/team/members/{id}", h.patchMember},
		{http.MethodDelete, "/team/members/{id}", h.removeMember},
		{http.MethodGet, "/team/invitations", h.listInvitations},
		{http.MethodPost, "/team/invitations", h.invite},
		{http.MethodDelete, "/team/invitations/{id}", h.revokeInvitation},
		{http.MethodGet, "/planning", h.planning},
	}
}

// ReasonTeam is the booking.ParamReason of the CodeNotConfigured of the
// team routes on a handler without Options.Team.
const ReasonTeam = "team"

func (h *handler) teamService() (*team.Service, error) {
	if h.team == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Team management is not set up on this server.",
			Params: map[string]string{booking.ParamReason: ReasonTeam}}
	}
	return h.team, nil
}

type memberView struct {
	UserID    int64     `json:"user_id"`
	Email     string    `json:"email"`
	Role      team.Role `json:"role"`
	CreatedAt time.Time `json:"created_at"`
}

func newMemberView(m team.Member) memberView {
	return memberView{UserID: m.UserID, Email: m.Email, Role: m.Role, CreatedAt: m.CreatedAt}
}

type invitationView struct {
	ID        int64     `json:"id"`
	Email     string    `json:"email"`
	Role      team.Role `json:"role"`
	InvitedBy string    `json:"invited_by"`
	// Status is pending, accepted, revoked or expired.
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// MailSent is set in the answer of POST /team/invitations only: whether
	// the invitation could be e-mailed.
	MailSent *bool `json:"mail_sent,omitempty"`
}

func newInvitationView(i team.Invitation, now time.Time) invitationView {
	status := "pending"
	switch {
	case !i.AcceptedAt.IsZero():
		status = "accepted"
	case !i.RevokedAt.IsZero():
		status = "revoked"
	case !now.Before(i.ExpiresAt):
		status = "expired"
	}
	return invitationView{ID: i.ID, Email: i.Email, Role: i.Role, InvitedBy: i.InvitedBy, Status: status,
		CreatedAt: i.CreatedAt, ExpiresAt: i.ExpiresAt}
}

func (h *handler) listMembers(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	ms, err := ts.Members(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items := make([]memberView, len(ms))
	for i, m := range ms {
		items[i] = newMemberView(m)
	}
	return http.StatusOK, newList(items, 0), nil
}

type roleBody struct {
	Role *team.Role `json:"role"`
}

func (h *handler) patchMember(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "member")
	if err != nil {
		return 0, nil, err
	}
	var b roleBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if b.Role == nil {
		return 0, nil, invalid("role", "required")
	}
	m, err := ts.SetRole(r.Context(), c.org, id, *b.Role, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newMemberView(*m), nil
}

func (h *handler) removeMember(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "member")
	if err != nil {
		return 0, nil, err
	}
	if err := ts.Remove(r.Context(), c.org, id, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (h *handler) listInvitations(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	list, err := ts.Invitations(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	now := h.clock.Now()
	items := make([]invitationView, len(list))
	for i, inv := range list {
		items[i] = newInvitationView(inv, now)
	}
	return http.StatusOK, newList(items, 0), nil
}

type inviteBody struct {
	Email *string    `json:"email"`
	Role  *team.Role `json:"role"`
}

func (h *handler) invite(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	var b inviteBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	f := booking.FieldErrors{}
	if b.Email == nil {
		f.Add("email", "required")
	}
	if b.Role == nil {
		f.Add("role", "required")
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	inv, sent, err := ts.Invite(r.Context(), c.org, *b.Email, *b.Role, c.loc, c.actor)
	if err != nil {
		return 0, nil, err
	}
	v := newInvitationView(*inv, h.clock.Now())
	v.MailSent = &sent
	return http.StatusCreated, v, nil
}

func (h *handler) revokeInvitation(r *http.Request, c *call) (int, any, error) {
	ts, err := h.teamService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "invitation")
	if err != nil {
		return 0, nil, err
	}
	inv, err := ts.Revoke(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newInvitationView(*inv, h.clock.Now()), nil
}

// MaxPlanningDays is the longest span GET /planning covers.
const MaxPlanningDays = 62

// planningView is the planning without money or guest contact: what a
// housekeeping member may read.
type planningView struct {
	From       civil.Date             `json:"from"`
	To         civil.Date             `json:"to"`
	Properties []planningPropertyView `json:"properties"`
}

type planningPropertyView struct {
	ID     int64              `json:"id"`
	Name   string             `json:"name"`
	Stays  []planningStayView `json:"stays"`
	Blocks []blockView        `json:"blocks"`
	// Units are the property's active units (issue #27).
	Units []planningUnitView `json:"units"`
}

type planningUnitView struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type planningStayView struct {
	BookingID int64      `json:"booking_id"`
	Status    string     `json:"status"`
	CheckIn   civil.Date `json:"check_in"`
	CheckOut  civil.Date `json:"check_out"`
	Guests    int        `json:"guests"`
	GuestName string     `json:"guest_name"`
	// UnitID is the unit the stay holds (issue #27).
	UnitID *int64 `json:"unit_id"`
}

// planning is GET /planning?from=&to=: each active property's stays
// (requested, pending and confirmed bookings) and blocks over [from, to).
func (h *handler) planning(r *http.Request, c *call) (int, any, error) {
	f := booking.FieldErrors{}
	q := r.URL.Query()
	from, to := queryDate(q, "from", f), queryDate(q, "to", f)
	if from.IsZero() && len(f["from"]) == 0 {
		f.Add("from", "required")
	}
	if to.IsZero() && len(f["to"]) == 0 {
		f.Add("to", "required")
	}
	if len(f) == 0 && (!from.Before(to) || from.DaysUntil(to) > MaxPlanningDays) {
		f.Add("to", "invalid_range")
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	props, err := h.host.Properties(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	v := planningView{From: from, To: to, Properties: []planningPropertyView{}}
	index := map[int64]int{}
	for _, p := range props {
		if !p.Active {
			continue
		}
		pv := planningPropertyView{ID: p.ID, Name: p.Name, Stays: []planningStayView{}, Blocks: []blockView{},
			Units: []planningUnitView{}}
		for _, u := range p.Units {
			pv.Units = append(pv.Units, planningUnitView{ID: u.ID, Name: u.Name})
		}
		for _, b := range p.Blocks {
			if b.Start.Before(to) && from.Before(b.End) {
				pv.Blocks = append(pv.Blocks, newBlockView(b))
			}
		}
		index[p.ID] = len(v.Properties)
		v.Properties = append(v.Properties, pv)
	}
	filter := booking.BookingQuery{From: from, To: to, Limit: 100,
		Statuses: []booking.Status{booking.StatusRequested, booking.StatusPending, booking.StatusConfirmed}}
	for {
		page, next, err := h.host.Bookings(r.Context(), c.org, filter)
		if err != nil {
			return 0, nil, err
		}
		for _, b := range page {
			i, ok := index[b.PropertyID]
			if !ok {
				continue
			}
			v.Properties[i].Stays = append(v.Properties[i].Stays, planningStayView{BookingID: b.ID, Status: string(b.Status),
				CheckIn: b.CheckIn, CheckOut: b.CheckOut, Guests: b.Guests, GuestName: b.GuestName, UnitID: optID(b.UnitID)})
		}
		if next == 0 {
			break
		}
		filter.Before = next
	}
	return http.StatusOK, v, nil
}
