// Package team lets several people run an organisation's dashboard: its
// members, each with a role (owner, manager, housekeeping), and the
// invitations an owner sends by e-mail. A person is one dashboard user
// (host.User: one e-mail address, one password) and may belong to several
// organisations. The host API enforces the roles (package hostapi); this
// package keeps the memberships and invitations, through its own Store,
// and audits every change under who made it.
package team

import (
	"context"
	"time"
)

// Role is what a member may do in an organisation.
type Role string

// The roles, from most to least trusted.
const (
	// Owner may do everything: the team, API keys, settings, Stripe.
	Owner Role = "owner"
	// Manager may do everything but manage the team, the API keys and the
	// Stripe account.
	Manager Role = "manager"
	// Housekeeping may only read the planning (who stays where, when:
	// guest name and party size, no contact, no amount) and the arrivals
	// and departures.
	Housekeeping Role = "housekeeping"
)

// Roles lists the roles, most trusted first.
func Roles() []Role { return []Role{Owner, Manager, Housekeeping} }

func (r Role) rank() int {
	switch r {
	case Owner:
		return 3
	case Manager:
		return 2
	case Housekeeping:
		return 1
	}
	return 0
}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return r.rank() > 0 }

// AtLeast reports whether r may do what min may; an unknown role may do
// nothing.
func (r Role) AtLeast(min Role) bool { return r.rank() > 0 && r.rank() >= min.rank() }

// ReasonLastOwner is the booking.ParamReason of the CodeConflict refusing
// to remove or demote an organisation's last owner.
const ReasonLastOwner = "last_owner"

// ReasonRole is the booking.ParamReason of the CodeForbidden refusing a
// request that the member's role does not allow.
const ReasonRole = "role"

// InvitationTTL is how long an invitation may be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// Membership makes a user a member of an organisation with a role.
type Membership struct {
	OrgID     int64
	UserID    int64
	Role      Role
	CreatedAt time.Time
}

// Member is a membership with the user's e-mail address.
type Member struct {
	Membership
	Email string
}

// Invitation asks someone, by e-mail, to join an organisation with a role.
// Its link carries a random token; only the token's SHA-256 is kept.
type Invitation struct {
	ID    int64
	OrgID int64
	// Email is stored in lower case.
	Email string
	Role  Role
	// Hash is the hex SHA-256 of the token.
	Hash string
	// InvitedBy names who invited ("user:3").
	InvitedBy  string
	CreatedAt  time.Time
	ExpiresAt  time.Time
	AcceptedAt time.Time
	RevokedAt  time.Time
}

// Pending reports whether the invitation may still be accepted at now.
func (i Invitation) Pending(now time.Time) bool {
	return i.AcceptedAt.IsZero() && i.RevokedAt.IsZero() && now.Before(i.ExpiresAt)
}

// Store keeps memberships and invitations. store/sqlite and
// store/postgres implement it; store/storetest checks the contract. Its
// writes join a host.Store unit of work (Atomically) when called within
// one. A new host.User (host.Store.CreateHostUser) is an owner of its
// organisation (User.OrgID).
type Store interface {
	// Memberships lists a user's memberships by organisation ID.
	Memberships(ctx context.Context, userID int64) ([]Membership, error)
	// Members lists an organisation's members by user ID.
	Members(ctx context.Context, orgID int64) ([]Member, error)
	// Membership finds a user's membership of an organisation. Errors:
	// booking.CodeNotFound.
	Membership(ctx context.Context, orgID, userID int64) (*Membership, error)
	// AddMember stores m. Errors: booking.CodeConflict (a member already),
	// booking.CodeNotFound (organisation or user).
	AddMember(ctx context.Context, m *Membership) error
	// SetMemberRole changes a member's role and returns the membership as
	// it was. Errors: booking.CodeNotFound, booking.CodeConflict with
	// ReasonLastOwner when it would leave the organisation without an
	// owner (decided in the store, so that two owners demoting each other
	// at once cannot both succeed).
	SetMemberRole(ctx context.Context, orgID, userID int64, role Role) (*Membership, error)
	// RemoveMember deletes a membership and returns it. Errors as
	// SetMemberRole.
	RemoveMember(ctx context.Context, orgID, userID int64) (*Membership, error)

	// CreateInvitation stores inv and sets its ID. Errors:
	// booking.CodeNotFound (organisation).
	CreateInvitation(ctx context.Context, inv *Invitation) error
	// Invitations lists an organisation's invitations newest first.
	Invitations(ctx context.Context, orgID int64) ([]Invitation, error)
	// InvitationByHash finds an invitation by its token's hash. Errors:
	// booking.CodeNotFound.
	InvitationByHash(ctx context.Context, hash string) (*Invitation, error)
	// AcceptInvitation sets AcceptedAt of a pending invitation (neither
	// accepted nor revoked, unexpired at at) and returns it: once, even
	// when two accept it at once. Errors: booking.CodeNotFound (no such
	// pending invitation).
	AcceptInvitation(ctx context.Context, id int64, at time.Time) (*Invitation, error)
	// RevokeInvitation sets RevokedAt of an organisation's invitation
	// neither accepted nor revoked, and returns it. Errors:
	// booking.CodeNotFound.
	RevokeInvitation(ctx context.Context, orgID, id int64, at time.Time) (*Invitation, error)
}

// Mailer sends an invitation's e-mail (notify.Mailer fits it).
type Mailer interface {
	Send(ctx context.Context, to, subject, text string) error
}

// OrgAccess is an organisation a user may open, with the role there.
type OrgAccess struct {
	OrgID int64
	Slug  string
	Name  string
	Role  Role
}
