package booking

import "github.com/shopspring/decimal"

// Money is an amount in an organisation's currency.
type Money = decimal.Decimal

var zeroMoney Money
