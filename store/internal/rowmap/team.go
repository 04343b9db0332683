package rowmap

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/team"
)

// MembershipColumns are the columns of host_memberships, in the order
// ScanMembership reads them.
const MembershipColumns = `org_id, user_id, role, created_at`

// ScanMembership reads a row of MembershipColumns.
func ScanMembership(c Codec, s Scanner) (*team.Membership, error) {
	var m team.Membership
	if err := Scan(s, &m.OrgID, &m.UserID, &m.Role, c.Time(&m.CreatedAt)); err != nil {
		return nil, err
	}
	return &m, nil
}

// ScanMember reads the columns m.org_id, m.user_id, m.role, m.created_at,
// u.email of host_memberships m joined to host_users u.
func ScanMember(c Codec, s Scanner) (*team.Member, error) {
	var m team.Member
	if err := Scan(s, &m.OrgID, &m.UserID, &m.Role, c.Time(&m.CreatedAt), &m.Email); err != nil {
		return nil, err
	}
	return &m, nil
}

// InvitationColumns are the columns of host_invitations, in the order
// ScanInvitation reads them.
const InvitationColumns = `id, org_id, email, role, hash, invited_by, created_at, expires_at, accepted_at, revoked_at`

// ScanInvitation reads a row of InvitationColumns.
func ScanInvitation(c Codec, s Scanner) (*team.Invitation, error) {
	var i team.Invitation
	if err := Scan(s, &i.ID, &i.OrgID, &i.Email, &i.Role, &i.Hash, &i.InvitedBy, c.Time(&i.CreatedAt),
		c.Time(&i.ExpiresAt), c.Instant(&i.AcceptedAt), c.Instant(&i.RevokedAt)); err != nil {
		return nil, err
	}
	return &i, nil
}

// MemberNotFound is the error of a membership that does not exist.
func MemberNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Member not found.", Params: map[string]string{booking.ParamSubject: "member"}}
}

// InvitationNotFound is the error of an invitation that does not exist.
func InvitationNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Invitation not found.", Params: map[string]string{booking.ParamSubject: "invitation"}}
}

// LastOwner is the conflict of a change that would leave an organisation
// without an owner.
func LastOwner() error {
	return &booking.Error{Code: booking.CodeConflict, Message: "An organisation keeps at least one owner.",
		Params: map[string]string{booking.ParamReason: team.ReasonLastOwner}}
}
