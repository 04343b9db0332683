package seed_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/seed"
)

// TestLoadRulesAndCharges: the stay rules, charges and timed discounts of
// a seed file reach the store, and a bad rule is reported with its path.
func TestLoadRulesAndCharges(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	const file = `{"organizations": [{"slug": "mas", "name": "Mas", "public_engine_enabled": true,
	  "properties": [{"name": "Mas", "max_guests": 6,
	    "rates": {"base_rate": 160, "early_bird": {"days": 90, "percent": 5}, "last_minute": {"days": 7, "percent": 10}},
	    "rules": {"seasons": [{"start": "07-01", "end": "08-31", "min_stay_nights": 7, "arrival_days": ["saturday"], "departure_days": ["sat"]}],
	              "advance_notice_days": 1, "same_day_cutoff_hour": 12, "booking_window_days": 365, "preparation_days_after": 1,
	              "days": [{"date": "2026-12-24", "closed_to_arrival": true}]},
	    "fees": {"cleaning": 90, "guests": {"max_pets": 1},
	             "items": [{"code": "breakfast", "labels": {"fr": "Petit-déjeuner", "en": "Breakfast"}, "per": "guest_night", "amount": 12, "optional": true}],
	             "taxes": [{"code": "vat", "labels": {"fr": "TVA", "en": "VAT"}, "percent": 10, "inclusive": true, "on": ["accommodation"]}]},
	    "tax": {"percent": 5, "ceiling_per_guest_night": 2.30, "exempt": ["children"]}}]}]}`
	if err := seed.Load(ctx, db, strings.NewReader(file), time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	org, err := db.OrganizationBySlug(ctx, "mas")
	if err != nil {
		t.Fatal(err)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil || len(props) != 1 {
		t.Fatalf("properties %v, %v", props, err)
	}
	p := props[0]
	r := p.Rates.Rules
	switch {
	case len(r.Seasons) != 1 || r.Seasons[0].MinStayNights != 7 || r.Seasons[0].ArrivalDays.String() != "saturday" || r.Seasons[0].DepartureDays.String() != "saturday":
		t.Errorf("seasons %+v", r.Seasons)
	case r.AdvanceNoticeDays != 1 || r.SameDayCutoffHour == nil || *r.SameDayCutoffHour != 12 || r.BookingWindowDays != 365 || r.PreparationDaysAfter != 1:
		t.Errorf("rules %+v", r)
	case len(r.Days) != 1 || !r.Days[0].ClosedToArrival || r.Days[0].Date != day("2026-12-24"):
		t.Errorf("days %+v", r.Days)
	case p.Rates.EarlyBird == nil || p.Rates.EarlyBird.Days != 90 || p.Rates.LastMinute == nil || !p.Rates.LastMinute.Percent.Equal(dec("10")):
		t.Errorf("timed discounts %+v %+v", p.Rates.EarlyBird, p.Rates.LastMinute)
	case len(p.Fees.Items) != 1 || p.Fees.Items[0].Per != pricing.PerGuestNight || !p.Fees.Items[0].Optional || p.Fees.Items[0].Labels.FR != "Petit-déjeuner":
		t.Errorf("fee items %+v", p.Fees.Items)
	case len(p.Fees.Taxes) != 1 || !p.Fees.Taxes[0].Inclusive || p.Fees.Guests == nil || p.Fees.Guests.MaxPets != 1:
		t.Errorf("fees %+v", p.Fees)
	case !p.Tax.Percent.Equal(dec("5")) || !p.Tax.CeilingPerGuestNight.Equal(dec("2.30")) || len(p.Tax.Exempt) != 1:
		t.Errorf("tourist tax %+v", p.Tax)
	}

	bad := strings.Replace(file, `"same_day_cutoff_hour": 12`, `"same_day_cutoff_hour": 24`, 1)
	bad = strings.Replace(bad, `"slug": "mas"`, `"slug": "mas2"`, 1)
	err = seed.Load(ctx, openDB(t), strings.NewReader(bad), time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC))
	if err == nil || !strings.Contains(err.Error(), "rules: out_of_range") {
		t.Fatalf("cut-off 24: err = %v, want a rules problem", err)
	}
}
