package team

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
)

// Options configure a Service; Host, Records and Store are required.
type Options struct {
	// Host finds organisations and signs users in.
	Host *host.Service
	// Records keeps the users, the audit log and the units of work (the
	// database's host.Store).
	Records host.Store
	// Store keeps memberships and invitations (the same database).
	Store Store
	// Mailer sends the invitations; nil: they are not sent (Invite
	// reports it), and the log says so.
	Mailer Mailer
	// PublicURL is where the dashboard is reached ("https://book.example.com");
	// the link of an invitation is PublicURL/host/invitation?token=….
	PublicURL string
	// Clock defaults to the wall clock.
	Clock booking.Clock
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Service runs the team's use cases. It is safe for concurrent use.
type Service struct {
	host    *host.Service
	records host.Store
	store   Store
	mailer  Mailer
	public  string
	clock   booking.Clock
	log     *slog.Logger
}

// New returns a Service; it panics without Host, Records or Store.
func New(o Options) *Service {
	if o.Host == nil || o.Records == nil || o.Store == nil {
		panic("team: New needs Host, Records and Store")
	}
	s := &Service{host: o.Host, records: o.Records, store: o.Store, mailer: o.Mailer,
		public: strings.TrimRight(o.PublicURL, "/"), clock: o.Clock, log: o.Logger}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Access lists the organisations a user may open, with the role in each,
// in the order of their IDs.
func (s *Service) Access(ctx context.Context, userID int64) ([]OrgAccess, error) {
	ms, err := s.store.Memberships(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("memberships: %w", err)
	}
	out := make([]OrgAccess, 0, len(ms))
	for _, m := range ms {
		org, err := s.host.OrganizationByID(ctx, m.OrgID)
		if err != nil {
			return nil, fmt.Errorf("organisation %d: %w", m.OrgID, err)
		}
		out = append(out, OrgAccess{OrgID: org.ID, Slug: org.Slug, Name: org.Name, Role: m.Role})
	}
	return out, nil
}

// Role is a user's role in an organisation. Errors: booking.CodeNotFound
// (not a member).
func (s *Service) Role(ctx context.Context, orgID, userID int64) (Role, error) {
	m, err := s.store.Membership(ctx, orgID, userID)
	if err != nil {
		return "", err
	}
	return m.Role, nil
}

// Members lists an organisation's members.
func (s *Service) Members(ctx context.Context, org *booking.Organization) ([]Member, error) {
	return s.store.Members(ctx, org.ID)
}

// Invitations lists an organisation's invitations, newest first.
func (s *Service) Invitations(ctx context.Context, org *booking.Organization) ([]Invitation, error) {
	return s.store.Invitations(ctx, org.ID)
}

// memberView is what the audit log keeps of a membership.
type memberView struct {
	UserID int64  `json:"user_id"`
	Email  string `json:"email,omitempty"`
	Role   Role   `json:"role"`
}

type invitationView struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Role  Role   `json:"role"`
}

func (s *Service) audit(ctx context.Context, orgID int64, by host.Actor, action, target string, before, after any) error {
	raw := func(v any) json.RawMessage {
		if v == nil {
			return nil
		}
		b, _ := json.Marshal(v)
		return b
	}
	e := &host.AuditEntry{OrgID: orgID, Actor: by.String(), ActorName: by.Name, Action: action, Target: target,
		Before: raw(before), After: raw(after), At: s.clock.Now()}
	if err := s.records.RecordAudit(ctx, e); err != nil {
		return fmt.Errorf("audit %s of %s: %w", action, target, err)
	}
	return nil
}

func invalid(field, code string) error {
	f := booking.FieldErrors{}
	f.Add(field, code)
	return f.Err()
}

func errAlreadyMember() error {
	return &booking.Error{Code: booking.CodeConflict, Message: "This person is already a member.",
		Params: map[string]string{booking.ParamReason: "member"}}
}

// Invite invites email to join org with role, and e-mails the link of the
// invitation (in lang, "fr" or "en"). sent is false when no e-mail could
// be sent (no Mailer, or it failed: logged); the invitation stands, and
// can be revoked and sent again. Errors: CodeInvalid (email, role),
// CodeConflict (already a member: reason "member").
func (s *Service) Invite(ctx context.Context, org *booking.Organization, email string, role Role, lang string, by host.Actor) (inv *Invitation, sent bool, err error) {
	email = strings.ToLower(strings.TrimSpace(email))
	f := booking.FieldErrors{}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		f.Add("email", "invalid_email")
	}
	if !role.Valid() {
		f.Add("role", "invalid_choice")
	}
	if err := f.Err(); err != nil {
		return nil, false, err
	}
	if u, err := s.records.HostUserByEmail(ctx, email); err == nil {
		if _, err := s.store.Membership(ctx, org.ID, u.ID); err == nil {
			return nil, false, errAlreadyMember()
		}
	} else if booking.ErrorCode(err) != booking.CodeNotFound {
		return nil, false, fmt.Errorf("find user: %w", err)
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.clock.Now()
	inv = &Invitation{OrgID: org.ID, Email: email, Role: role, Hash: host.HashKey(token), InvitedBy: by.String(),
		CreatedAt: now, ExpiresAt: now.Add(InvitationTTL)}
	err = s.records.Atomically(ctx, func(ctx context.Context) error {
		if err := s.store.CreateInvitation(ctx, inv); err != nil {
			return fmt.Errorf("create invitation: %w", err)
		}
		return s.audit(ctx, org.ID, by, "invitation.create", fmt.Sprintf("invitation:%d", inv.ID), nil,
			invitationView{inv.ID, inv.Email, inv.Role})
	})
	if err != nil {
		return nil, false, err
	}
	return inv, s.send(ctx, org, inv, token, lang, by), nil
}

// InvitationURL is the link of an invitation's token.
func (s *Service) InvitationURL(token string) string {
	return s.public + "/host/invitation?" + url.Values{"token": {token}}.Encode()
}

func (s *Service) send(ctx context.Context, org *booking.Organization, inv *Invitation, token, lang string, by host.Actor) bool {
	if s.mailer == nil {
		s.log.WarnContext(ctx, "invitation not e-mailed: no mailer", "invitation_id", inv.ID, "org_id", org.ID)
		return false
	}
	link := s.InvitationURL(token)
	subject := fmt.Sprintf("Invitation to join %s on staykit", org.Name)
	text := fmt.Sprintf("%s invites you to the dashboard of %s as %s.\n\nAccept within 7 days (the link works once):\n%s\n", by.Name, org.Name, inv.Role, link)
	if lang == "fr" {
		subject = fmt.Sprintf("Invitation à rejoindre %s sur staykit", org.Name)
		text = fmt.Sprintf("%s vous invite dans l'espace hôte de %s (rôle : %s).\n\nAcceptez sous 7 jours (le lien ne sert qu'une fois) :\n%s\n", by.Name, org.Name, inv.Role, link)
	}
	if err := s.mailer.Send(ctx, inv.Email, subject, text); err != nil {
		s.log.ErrorContext(ctx, "send invitation", "invitation_id", inv.ID, "org_id", org.ID, "err", err)
		return false
	}
	return true
}

// Revoke revokes a pending invitation of org. Errors: CodeNotFound.
func (s *Service) Revoke(ctx context.Context, org *booking.Organization, id int64, by host.Actor) (*Invitation, error) {
	var inv *Invitation
	err := s.records.Atomically(ctx, func(ctx context.Context) error {
		var err error
		if inv, err = s.store.RevokeInvitation(ctx, org.ID, id, s.clock.Now()); err != nil {
			return err
		}
		return s.audit(ctx, org.ID, by, "invitation.revoke", fmt.Sprintf("invitation:%d", id),
			invitationView{inv.ID, inv.Email, inv.Role}, nil)
	})
	return inv, err
}

// member finds a member of org with its e-mail address. Errors: CodeNotFound.
func (s *Service) member(ctx context.Context, orgID, userID int64) (*Member, error) {
	ms, err := s.store.Members(ctx, orgID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.UserID == userID {
			return &m, nil
		}
	}
	return nil, &booking.Error{Code: booking.CodeNotFound, Message: "Member not found.", Params: map[string]string{booking.ParamSubject: "member"}}
}

// SetRole changes a member's role. Errors: CodeInvalid (role),
// CodeNotFound, CodeConflict (ReasonLastOwner).
func (s *Service) SetRole(ctx context.Context, org *booking.Organization, userID int64, role Role, by host.Actor) (*Member, error) {
	if !role.Valid() {
		return nil, invalid("role", "invalid_choice")
	}
	m, err := s.member(ctx, org.ID, userID)
	if err != nil {
		return nil, err
	}
	err = s.records.Atomically(ctx, func(ctx context.Context) error {
		before, err := s.store.SetMemberRole(ctx, org.ID, userID, role)
		if err != nil {
			return err
		}
		return s.audit(ctx, org.ID, by, "member.role", fmt.Sprintf("user:%d", userID),
			memberView{userID, m.Email, before.Role}, memberView{userID, m.Email, role})
	})
	if err != nil {
		return nil, err
	}
	m.Role = role
	return m, nil
}

// Remove removes a member from org. Errors: CodeNotFound, CodeConflict
// (ReasonLastOwner).
func (s *Service) Remove(ctx context.Context, org *booking.Organization, userID int64, by host.Actor) error {
	m, err := s.member(ctx, org.ID, userID)
	if err != nil {
		return err
	}
	return s.records.Atomically(ctx, func(ctx context.Context) error {
		before, err := s.store.RemoveMember(ctx, org.ID, userID)
		if err != nil {
			return err
		}
		return s.audit(ctx, org.ID, by, "member.remove", fmt.Sprintf("user:%d", userID),
			memberView{userID, m.Email, before.Role}, nil)
	})
}

// errInvitationGone answers a token that is unknown, used, revoked or
// expired: the same for all, so that a token tells nothing more.
func errInvitationGone() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "This invitation is unknown, used or expired.",
		Params: map[string]string{booking.ParamReason: "invitation"}}
}

// Pending is a pending invitation as its invitee sees it.
type Pending struct {
	Invitation
	Org *booking.Organization
	// HasUser is true when the invitee already has a login: they accept
	// with their password rather than choosing one.
	HasUser bool
}

// Lookup finds the pending invitation of a token. Errors: CodeNotFound.
func (s *Service) Lookup(ctx context.Context, token string) (*Pending, error) {
	if token == "" || len(token) > 128 {
		return nil, errInvitationGone()
	}
	inv, err := s.store.InvitationByHash(ctx, host.HashKey(token))
	if booking.ErrorCode(err) == booking.CodeNotFound || (err == nil && !inv.Pending(s.clock.Now())) {
		return nil, errInvitationGone()
	}
	if err != nil {
		return nil, fmt.Errorf("find invitation: %w", err)
	}
	org, err := s.host.OrganizationByID(ctx, inv.OrgID)
	if err != nil {
		return nil, fmt.Errorf("organisation: %w", err)
	}
	_, err = s.records.HostUserByEmail(ctx, inv.Email)
	if err != nil && booking.ErrorCode(err) != booking.CodeNotFound {
		return nil, fmt.Errorf("find user: %w", err)
	}
	return &Pending{Invitation: *inv, Org: org, HasUser: err == nil}, nil
}

// Accept accepts the invitation of token: the invitee becomes a member
// with its role, a new user with password when the address has no login
// yet, else after password proved theirs. It can succeed once. The
// audit entry (member.join) names the new member. Errors: CodeNotFound
// (token), CodeInvalid (password too short), CodeUnauthorized (wrong
// password of an existing user), CodeConflict (a member already, through
// another invitation).
func (s *Service) Accept(ctx context.Context, token, password string) (*host.User, *booking.Organization, error) {
	p, err := s.Lookup(ctx, token)
	if err != nil {
		return nil, nil, err
	}
	var u *host.User
	if p.HasUser {
		if u, err = s.records.HostUserByEmail(ctx, p.Email); err != nil {
			return nil, nil, fmt.Errorf("find user: %w", err)
		}
		if !host.CheckPassword(u.PasswordHash, password) {
			return nil, nil, booking.Errorf(booking.CodeUnauthorized, "Wrong password.")
		}
	} else {
		if len([]rune(password)) < host.MinPasswordLength {
			return nil, nil, invalid("password", "too_short")
		}
		u = &host.User{OrgID: p.OrgID, Email: p.Email, PasswordHash: host.HashPassword(password), CreatedAt: s.clock.Now()}
	}
	err = s.records.Atomically(ctx, func(ctx context.Context) error {
		if _, err := s.store.AcceptInvitation(ctx, p.ID, s.clock.Now()); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return errInvitationGone()
			}
			return err
		}
		if p.HasUser {
			err := s.store.AddMember(ctx, &Membership{OrgID: p.OrgID, UserID: u.ID, Role: p.Role, CreatedAt: s.clock.Now()})
			if booking.ErrorCode(err) == booking.CodeConflict {
				// Invited twice, and accepted the other invitation.
				return errAlreadyMember()
			}
			if err != nil {
				return fmt.Errorf("add member: %w", err)
			}
		} else {
			// A new user is an owner of its organisation: set the role invited.
			if err := s.records.CreateHostUser(ctx, u); err != nil {
				return fmt.Errorf("create user: %w", err)
			}
			if p.Role != Owner {
				if _, err := s.store.SetMemberRole(ctx, p.OrgID, u.ID, p.Role); err != nil {
					return fmt.Errorf("set role: %w", err)
				}
			}
		}
		return s.audit(ctx, p.OrgID, host.UserActor(u), "member.join", fmt.Sprintf("user:%d", u.ID), nil,
			memberView{u.ID, u.Email, p.Role})
	})
	if err != nil {
		return nil, nil, err
	}
	return u, p.Org, nil
}
