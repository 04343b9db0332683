package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
	"github.com/staykit/staykit/team"
)

// Memberships lists a user's memberships.
func (db *DB) Memberships(ctx context.Context, userID int64) ([]team.Membership, error) {
	return sqlflow.Get(ctx, db.run, "memberships", func(q querier) ([]team.Membership, error) {
		return sqlflow.All(ctx, q, rowmap.ScanMembership, `SELECT `+rowmap.MembershipColumns+`
			FROM host_memberships WHERE user_id = ? ORDER BY org_id`, userID)
	})
}

// Members lists an organisation's members.
func (db *DB) Members(ctx context.Context, orgID int64) ([]team.Member, error) {
	return sqlflow.Get(ctx, db.run, "members", func(q querier) ([]team.Member, error) {
		return sqlflow.All(ctx, q, rowmap.ScanMember, `SELECT m.org_id, m.user_id, m.role, m.created_at, u.email
			FROM host_memberships m JOIN host_users u ON u.id = m.user_id WHERE m.org_id = ? ORDER BY m.user_id`, orgID)
	})
}

// Membership finds a user's membership of an organisation.
func (db *DB) Membership(ctx context.Context, orgID, userID int64) (*team.Membership, error) {
	return sqlflow.Get(ctx, db.run, "membership", func(q querier) (*team.Membership, error) {
		return sqlflow.One(ctx, q, rowmap.ScanMembership, rowmap.MemberNotFound(), `SELECT `+rowmap.MembershipColumns+`
			FROM host_memberships WHERE org_id = ? AND user_id = ?`, orgID, userID)
	})
}

// AddMember stores a membership.
func (db *DB) AddMember(ctx context.Context, m *team.Membership) error {
	return db.tx(ctx, "add member", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO host_memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			m.OrgID, m.UserID, string(m.Role), m.CreatedAt.UnixMilli())
		switch {
		case isForeignKeyViolation(err):
			return booking.Errorf(booking.CodeNotFound, "Organisation or user not found.")
		case isUniqueViolation(err):
			return booking.Errorf(booking.CodeConflict, "This user is already a member.")
		}
		return err
	})
}

// memberChange reads a membership in a write transaction (SQLite's
// writes are serialised: nobody changes the members meanwhile) and refuses
// to take the organisation's last owner away when keepsOwner is false.
func memberChange(ctx context.Context, q querier, orgID, userID int64, keepsOwner bool) (*team.Membership, error) {
	m, err := sqlflow.One(ctx, q, rowmap.ScanMembership, rowmap.MemberNotFound(), `SELECT `+rowmap.MembershipColumns+`
		FROM host_memberships WHERE org_id = ? AND user_id = ?`, orgID, userID)
	if err != nil {
		return nil, err
	}
	if m.Role == team.Owner && !keepsOwner {
		n, err := sqlflow.Value[int64](ctx, q, nil, `SELECT count(*) FROM host_memberships WHERE org_id = ? AND role = 'owner'`, orgID)
		if err != nil {
			return nil, err
		}
		if n <= 1 {
			return nil, rowmap.LastOwner()
		}
	}
	return m, nil
}

// SetMemberRole changes a member's role, keeping an owner.
func (db *DB) SetMemberRole(ctx context.Context, orgID, userID int64, role team.Role) (*team.Membership, error) {
	return sqlflow.Get(ctx, db.tx, "set member role", func(q querier) (*team.Membership, error) {
		m, err := memberChange(ctx, q, orgID, userID, role == team.Owner)
		if err != nil {
			return nil, err
		}
		return m, sqlflow.Exec(ctx, q, nil, `UPDATE host_memberships SET role = ? WHERE org_id = ? AND user_id = ?`, string(role), orgID, userID)
	})
}

// RemoveMember deletes a membership, keeping an owner.
func (db *DB) RemoveMember(ctx context.Context, orgID, userID int64) (*team.Membership, error) {
	return sqlflow.Get(ctx, db.tx, "remove member", func(q querier) (*team.Membership, error) {
		m, err := memberChange(ctx, q, orgID, userID, false)
		if err != nil {
			return nil, err
		}
		return m, sqlflow.Exec(ctx, q, nil, `DELETE FROM host_memberships WHERE org_id = ? AND user_id = ?`, orgID, userID)
	})
}

// CreateInvitation stores an invitation and sets its ID.
func (db *DB) CreateInvitation(ctx context.Context, inv *team.Invitation) error {
	id, err := sqlflow.Get(ctx, db.tx, "create invitation", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO host_invitations (org_id, email, role, hash, invited_by, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, inv.OrgID, inv.Email, string(inv.Role), inv.Hash, inv.InvitedBy,
			inv.CreatedAt.UnixMilli(), inv.ExpiresAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return 0, booking.Errorf(booking.CodeNotFound, "Organisation not found.")
		}
		return id, err
	})
	if err != nil {
		return err
	}
	inv.ID = id
	return nil
}

// Invitations lists an organisation's invitations newest first.
func (db *DB) Invitations(ctx context.Context, orgID int64) ([]team.Invitation, error) {
	return sqlflow.Get(ctx, db.run, "invitations", func(q querier) ([]team.Invitation, error) {
		return sqlflow.All(ctx, q, rowmap.ScanInvitation, `SELECT `+rowmap.InvitationColumns+`
			FROM host_invitations WHERE org_id = ? ORDER BY id DESC`, orgID)
	})
}

// InvitationByHash finds an invitation by its token's hash.
func (db *DB) InvitationByHash(ctx context.Context, hash string) (*team.Invitation, error) {
	return sqlflow.Get(ctx, db.run, "invitation", func(q querier) (*team.Invitation, error) {
		return sqlflow.One(ctx, q, rowmap.ScanInvitation, rowmap.InvitationNotFound(), `SELECT `+rowmap.InvitationColumns+`
			FROM host_invitations WHERE hash = ?`, hash)
	})
}

// AcceptInvitation accepts a pending invitation, once.
func (db *DB) AcceptInvitation(ctx context.Context, id int64, at time.Time) (*team.Invitation, error) {
	return sqlflow.Get(ctx, db.tx, "accept invitation", func(q querier) (*team.Invitation, error) {
		return sqlflow.One(ctx, q, rowmap.ScanInvitation, rowmap.InvitationNotFound(), `UPDATE host_invitations SET accepted_at = ?
			WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? RETURNING `+rowmap.InvitationColumns,
			at.UnixMilli(), id, at.UnixMilli())
	})
}

// RevokeInvitation revokes an organisation's open invitation.
func (db *DB) RevokeInvitation(ctx context.Context, orgID, id int64, at time.Time) (*team.Invitation, error) {
	return sqlflow.Get(ctx, db.tx, "revoke invitation", func(q querier) (*team.Invitation, error) {
		return sqlflow.One(ctx, q, rowmap.ScanInvitation, rowmap.InvitationNotFound(), `UPDATE host_invitations SET revoked_at = ?
			WHERE id = ? AND org_id = ? AND accepted_at IS NULL AND revoked_at IS NULL RETURNING `+rowmap.InvitationColumns,
			at.UnixMilli(), id, orgID)
	})
}
