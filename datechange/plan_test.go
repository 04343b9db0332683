package datechange_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/datechange"
)

func TestDecide(t *testing.T) {
	full, half, none := decimal.NewFromInt(100), decimal.NewFromInt(50), decimal.Zero
	tests := []struct {
		name string
		in   datechange.PlanInput
		want datechange.Plan
	}{
		{"CostsMoreChargedNow", datechange.PlanInput{OldTotal: 35900, NewPrice: 46200, Percent: full, Held: 35900},
			datechange.Plan{Total: 46200, Charge: 10300}},
		{"CostsMoreAddedToOpenBalance", datechange.PlanInput{OldTotal: 35900, NewPrice: 46200, Percent: full, Held: 10770, BalanceOpen: true},
			datechange.Plan{Total: 46200, Balance: 35430}},
		{"CostsLessFullyRefundable", datechange.PlanInput{OldTotal: 35900, NewPrice: 25600, Percent: full, Held: 35900},
			datechange.Plan{Total: 25600, Refund: 10300}},
		{"CostsLessHalfKept", datechange.PlanInput{OldTotal: 37900, NewPrice: 25600, Percent: half, Held: 37900},
			datechange.Plan{Retained: 6150, Total: 31750, Refund: 6150}},
		{"CostsLessOddCentKeptByHost", datechange.PlanInput{OldTotal: 10001, NewPrice: 10000, Percent: half, Held: 10001},
			datechange.Plan{Retained: 1, Total: 10001}},
		{"CostsLessNothingRefundable", datechange.PlanInput{OldTotal: 37900, NewPrice: 25600, Percent: none, Held: 37900},
			datechange.Plan{Retained: 12300, Total: 37900}},
		{"CostsLessOpenBalanceShrinks", datechange.PlanInput{OldTotal: 35900, NewPrice: 25600, Percent: full, Held: 10770, BalanceOpen: true},
			datechange.Plan{Total: 25600, Balance: 14830}},
		{"CostsLessBelowDepositRefundsRest", datechange.PlanInput{OldTotal: 35900, NewPrice: 5000, Percent: full, Held: 10770, BalanceOpen: true},
			datechange.Plan{Total: 5000, Refund: 5770}},
		{"SamePriceNothingMoves", datechange.PlanInput{OldTotal: 35900, NewPrice: 35900, Percent: half, Held: 35900},
			datechange.Plan{Total: 35900}},
		{"PercentOutOfRangeClamped", datechange.PlanInput{OldTotal: 200, NewPrice: 100, Percent: decimal.NewFromInt(150), Held: 200},
			datechange.Plan{Total: 100, Refund: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := datechange.Decide(tt.in); got != tt.want {
				t.Errorf("Decide(%+v) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
