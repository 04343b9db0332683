package seed_test

import (
	"context"
	"strings"
	"testing"

	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/seed"
)

// TestLoadStoresTerms: an organisation's cancellation policy and security
// deposit, and a property's own, reach the store.
func TestLoadStoresTerms(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	doc := fmtBase(`{"slug": "b", "name": "B",
	  "terms": {"cancellation_policy": "moderate", "security_deposit": 300, "deposit_hold_days": 2, "deposit_release_days": 3},
	  "properties": [
	    {"name": "Plain", "max_guests": 2, "rates": {"base_rate": 100}},
	    {"name": "Strict", "max_guests": 2, "rates": {"base_rate": 100}, "terms": {"cancellation_policy": "strict"}}]}`)
	if err := seed.Load(ctx, db, strings.NewReader(doc), now); err != nil {
		t.Fatal(err)
	}
	org, err := db.OrganizationBySlug(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	st, err := db.Settings(ctx, org.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := policy.Preset(policy.Moderate)
	if st.Policy == nil || st.Policy.Name != want.Name || !st.SecurityDeposit.Equal(dec("300")) || st.DepositHoldDays != 2 || st.DepositReleaseDays != 3 {
		t.Errorf("organisation terms = %+v, want moderate, 300 held 2 days before, released 3 days after", st)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range props {
		pst, err := db.Settings(ctx, org.ID, p.ID)
		switch p.Name {
		case "Strict":
			if err != nil || pst == nil || pst.Policy == nil || pst.Policy.Name != policy.Strict {
				t.Errorf("terms of Strict = %+v, %v; want its own strict policy", pst, err)
			}
		case "Plain":
			if err == nil && pst != nil && pst.Policy != nil {
				t.Errorf("Plain has terms of its own %+v; want the organisation's", pst)
			}
		}
	}
}

func TestLoadRefusesBadTerms(t *testing.T) {
	tests := []struct{ terms, want string }{
		{`{"cancellation_policy": "lenient"}`, "organizations[1].terms.cancellation_policy: invalid_choice"},
		{`{"security_deposit": -1}`, "organizations[1].terms.security_deposit: out_of_range"},
		{`{"deposit_hold_days": 30}`, "organizations[1].terms.deposit_hold_days: out_of_range"},
	}
	for _, tt := range tests {
		db := openDB(t)
		err := seed.Load(context.Background(), db, strings.NewReader(fmtBase(`{"slug": "b", "name": "B", "terms": `+tt.terms+`}`)), now)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("terms %s: err = %v, want %q", tt.terms, err, tt.want)
		}
	}
}
