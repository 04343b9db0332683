package host_test

import (
	"strings"
	"testing"

	"github.com/staykit/staykit/host"
)

func TestPasswordHash(t *testing.T) {
	phc := host.HashPassword("correct horse battery")
	if !strings.HasPrefix(phc, "$argon2id$v=19$m=65536,t=3,p=2$") {
		t.Errorf("hash %q is not an argon2id PHC string with the chosen parameters", phc)
	}
	if phc == host.HashPassword("correct horse battery") {
		t.Error("two hashes of one password are equal: no salt")
	}
	for _, tt := range []struct {
		phc, password string
		want          bool
	}{
		{phc, "correct horse battery", true},
		{phc, "correct horse batterY", false},
		{phc, "", false},
		{strings.Replace(phc, "argon2id", "argon2i", 1), "correct horse battery", false},
		{"plain", "plain", false},
	} {
		if got := host.CheckPassword(tt.phc, tt.password); got != tt.want {
			t.Errorf("CheckPassword(%.30q, %q) = %v, want %v", tt.phc, tt.password, got, tt.want)
		}
	}
}
