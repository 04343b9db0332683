package team_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/team"
)

func TestRoleAtLeast(t *testing.T) {
	tests := []struct {
		role, min team.Role
		want      bool
	}{
		{team.Owner, team.Owner, true},
		{team.Owner, team.Housekeeping, true},
		{team.Manager, team.Owner, false},
		{team.Manager, team.Manager, true},
		{team.Manager, team.Housekeeping, true},
		{team.Housekeeping, team.Manager, false},
		{team.Housekeeping, team.Housekeeping, true},
		{"", team.Housekeeping, false},
		{"admin", team.Housekeeping, false},
		{"Owner", team.Housekeeping, false},
	}
	for _, tt := range tests {
		if got := tt.role.AtLeast(tt.min); got != tt.want {
			t.Errorf("Role(%q).AtLeast(%q) = %v, want %v", tt.role, tt.min, got, tt.want)
		}
	}
}

func TestInvitationPending(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	inv := team.Invitation{CreatedAt: t0, ExpiresAt: t0.Add(team.InvitationTTL)}
	tests := []struct {
		name string
		inv  func() team.Invitation
		at   time.Time
		want bool
	}{
		{"fresh", func() team.Invitation { return inv }, t0, true},
		{"a moment before expiry", func() team.Invitation { return inv }, inv.ExpiresAt.Add(-time.Millisecond), true},
		{"at expiry", func() team.Invitation { return inv }, inv.ExpiresAt, false},
		{"accepted", func() team.Invitation { i := inv; i.AcceptedAt = t0; return i }, t0, false},
		{"revoked", func() team.Invitation { i := inv; i.RevokedAt = t0; return i }, t0, false},
	}
	for _, tt := range tests {
		if got := tt.inv().Pending(tt.at); got != tt.want {
			t.Errorf("%s: Pending = %v, want %v", tt.name, got, tt.want)
		}
	}
}
