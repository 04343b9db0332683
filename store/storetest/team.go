package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/team"
)

// teamStore is Records as a team.Store.
func teamStore(t *testing.T, s Stores) team.Store {
	t.Helper()
	ts, ok := records(t, s).(team.Store)
	if !ok {
		t.Fatalf("storetest: Records (%T) is no team.Store", s.Records)
	}
	return ts
}

func newUser(t *testing.T, s Stores, orgID int64, email string) *host.User {
	t.Helper()
	u := &host.User{OrgID: orgID, Email: email, PasswordHash: "$argon2id$x", CreatedAt: t0}
	must(t, records(t, s).CreateHostUser(t.Context(), u))
	return u
}

func wantReason(t *testing.T, what string, err error, code, reason string) {
	t.Helper()
	var be *booking.Error
	if booking.ErrorCode(err) != code || (reason != "" && (!errors.As(err, &be) || be.Params[booking.ParamReason] != reason)) {
		t.Errorf("%s = %v, want %s (%s)", what, err, code, reason)
	}
}

var teamScenarios = []scenario{
	{"Team/MembershipsAndTheLastOwner", func(t *testing.T, s Stores) {
		ctx, ts := t.Context(), teamStore(t, s)
		a, b := newOrg(t, s, "alpha"), newOrg(t, s, "beta")
		ann := newUser(t, s, a.ID, "ann@example.com")
		bob := newUser(t, s, b.ID, "bob@example.com")
		// A new user is an owner of its organisation.
		m, err := ts.Membership(ctx, a.ID, ann.ID)
		must(t, err)
		if m.Role != team.Owner || !m.CreatedAt.Equal(t0) {
			t.Errorf("new user's membership = %+v, want owner at t0", m)
		}
		if _, err := ts.Membership(ctx, b.ID, ann.ID); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("Membership of another organisation = %v, want CodeNotFound", err)
		}
		must(t, ts.AddMember(ctx, &team.Membership{OrgID: b.ID, UserID: ann.ID, Role: team.Housekeeping, CreatedAt: t0}))
		wantReason(t, "AddMember twice", ts.AddMember(ctx, &team.Membership{OrgID: b.ID, UserID: ann.ID, Role: team.Owner, CreatedAt: t0}), booking.CodeConflict, "")
		wantReason(t, "AddMember of no user", ts.AddMember(ctx, &team.Membership{OrgID: b.ID, UserID: ann.ID + 1000, Role: team.Owner, CreatedAt: t0}), booking.CodeNotFound, "")
		ms, err := ts.Memberships(ctx, ann.ID)
		must(t, err)
		if len(ms) != 2 || ms[0].OrgID != a.ID || ms[0].Role != team.Owner || ms[1].OrgID != b.ID || ms[1].Role != team.Housekeeping {
			t.Errorf("Memberships = %+v, want owner of alpha, housekeeping of beta", ms)
		}
		members, err := ts.Members(ctx, b.ID)
		must(t, err)
		if len(members) != 2 || members[0].Email != "ann@example.com" && members[1].Email != "ann@example.com" {
			t.Errorf("Members of beta = %+v, want bob and ann", members)
		}
		// The last owner stays.
		_, err = ts.SetMemberRole(ctx, a.ID, ann.ID, team.Manager)
		wantReason(t, "demoting the last owner", err, booking.CodeConflict, team.ReasonLastOwner)
		_, err = ts.RemoveMember(ctx, a.ID, ann.ID)
		wantReason(t, "removing the last owner", err, booking.CodeConflict, team.ReasonLastOwner)
		_, err = ts.SetMemberRole(ctx, a.ID, bob.ID, team.Manager)
		wantReason(t, "SetMemberRole of a non-member", err, booking.CodeNotFound, "")
		// With a second owner, the first may go.
		before, err := ts.SetMemberRole(ctx, b.ID, ann.ID, team.Owner)
		must(t, err)
		if before.Role != team.Housekeeping {
			t.Errorf("SetMemberRole returned %+v, want the membership as it was", before)
		}
		removed, err := ts.RemoveMember(ctx, b.ID, bob.ID)
		must(t, err)
		if removed.Role != team.Owner {
			t.Errorf("RemoveMember returned %+v, want bob's owner membership", removed)
		}
		if _, err := ts.Membership(ctx, b.ID, bob.ID); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("after RemoveMember: Membership = %v, want CodeNotFound", err)
		}
	}},
	{"Team/InvitationsAreAcceptedOnce", func(t *testing.T, s Stores) {
		ctx, ts := t.Context(), teamStore(t, s)
		org := newOrg(t, s, "alpha")
		exp := t0.Add(team.InvitationTTL)
		inv := &team.Invitation{OrgID: org.ID, Email: "kim@example.com", Role: team.Housekeeping, Hash: "h1", InvitedBy: "user:1", CreatedAt: t0, ExpiresAt: exp}
		must(t, ts.CreateInvitation(ctx, inv))
		other := &team.Invitation{OrgID: org.ID, Email: "lou@example.com", Role: team.Manager, Hash: "h2", InvitedBy: "user:1", CreatedAt: t0, ExpiresAt: exp}
		must(t, ts.CreateInvitation(ctx, other))
		got, err := ts.InvitationByHash(ctx, "h1")
		must(t, err)
		if got.ID != inv.ID || got.Email != inv.Email || got.Role != team.Housekeeping || !got.ExpiresAt.Equal(exp) || !got.AcceptedAt.IsZero() {
			t.Errorf("InvitationByHash = %+v, want %+v", got, inv)
		}
		list, err := ts.Invitations(ctx, org.ID)
		must(t, err)
		if len(list) != 2 || list[0].ID != other.ID {
			t.Errorf("Invitations = %+v, want newest first", list)
		}
		// Expired: not accepted.
		if _, err := ts.AcceptInvitation(ctx, inv.ID, exp); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("AcceptInvitation at expiry = %v, want CodeNotFound", err)
		}
		at := t0.Add(time.Hour)
		for round := range rounds {
			inv := &team.Invitation{OrgID: org.ID, Email: "kim@example.com", Role: team.Housekeeping, Hash: fmt.Sprintf("race%d", round),
				InvitedBy: "user:1", CreatedAt: t0, ExpiresAt: exp}
			must(t, ts.CreateInvitation(ctx, inv))
			wantCounts(t, race(8, func(int) error { _, err := ts.AcceptInvitation(ctx, inv.ID, at); return err }),
				map[string]int{"": 1, booking.CodeNotFound: 7})
		}
		revoked, err := ts.RevokeInvitation(ctx, org.ID, other.ID, at)
		must(t, err)
		if !revoked.RevokedAt.Equal(at) {
			t.Errorf("RevokeInvitation = %+v, want RevokedAt %v", revoked, at)
		}
		if _, err := ts.RevokeInvitation(ctx, org.ID, other.ID, at); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("RevokeInvitation twice = %v, want CodeNotFound", err)
		}
		if _, err := ts.AcceptInvitation(ctx, other.ID, at); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("AcceptInvitation of a revoked one = %v, want CodeNotFound", err)
		}
		if _, err := ts.RevokeInvitation(ctx, org.ID+1000, inv.ID, at); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("RevokeInvitation of another organisation = %v, want CodeNotFound", err)
		}
	}},
	{"Team/TwoOwnersDemotingEachOtherKeepOne", func(t *testing.T, s Stores) {
		ctx, ts := t.Context(), teamStore(t, s)
		for round := range rounds {
			org := newOrg(t, s, fmt.Sprintf("race%d", round))
			a := newUser(t, s, org.ID, fmt.Sprintf("a%d@example.com", round))
			b := newUser(t, s, org.ID, fmt.Sprintf("b%d@example.com", round))
			users := []int64{a.ID, b.ID}
			wantCounts(t, race(2, func(i int) error {
				if i == 0 {
					_, err := ts.SetMemberRole(ctx, org.ID, users[i], team.Housekeeping)
					return err
				}
				_, err := ts.RemoveMember(ctx, org.ID, users[i])
				return err
			}), map[string]int{"": 1, booking.CodeConflict: 1})
			members, err := ts.Members(ctx, org.ID)
			must(t, err)
			owners := 0
			for _, m := range members {
				if m.Role == team.Owner {
					owners++
				}
			}
			if owners != 1 {
				t.Fatalf("round %d: members %+v, want exactly one owner", round, members)
			}
		}
	}},
}
