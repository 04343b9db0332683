package rowmap

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
)

// PaymentAccountColumns are the columns of payment_accounts, in the order
// ScanPaymentAccount reads them.
const PaymentAccountColumns = `org_id, account_id, state, charges_enabled, fee_percent, fee_fixed, updated_at`

// ScanPaymentAccount reads a row of PaymentAccountColumns. The fee percent
// is the decimal's exact text.
func ScanPaymentAccount(c Codec, s Scanner) (*booking.PaymentAccount, error) {
	var (
		a       booking.PaymentAccount
		percent string
	)
	if err := Scan(s, &a.OrgID, &a.AccountID, (*string)(&a.State), &a.ChargesEnabled, &percent,
		&a.FeeFixed, c.Time(&a.UpdatedAt)); err != nil {
		return nil, err
	}
	var err error
	if a.FeePercent, err = decimal.NewFromString(percent); err != nil {
		return nil, fmt.Errorf("fee_percent %q: %w", percent, err)
	}
	return &a, nil
}
