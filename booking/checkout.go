package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// Checkout limits.
const (
	MaxGuestNameLength      = 200
	MaxMessageLength        = 2000
	MaxIdempotencyKeyLength = 255
	// IdempotencyWindow is how long a key is remembered.
	IdempotencyWindow = 24 * time.Hour
)

// CheckoutRequest is a guest's order.
type CheckoutRequest struct {
	PropertyID int64
	Stay
	GuestName  string
	GuestEmail string
	GuestPhone string
	Message    string
	// Locale is "fr" or "en"; empty means the organisation's default.
	Locale     string
	CouponCode string
	// IdempotencyKey, when set, makes a retry with the same request return
	// the first result for IdempotencyWindow.
	IdempotencyKey string
}

// CheckoutResult is a started booking and what the guest needs to pay.
type CheckoutResult struct {
	Booking Booking
	// ClientSecret completes the payment in the guest's browser; empty when
	// nothing is to be paid now.
	ClientSecret     string
	PaymentPublicKey string
	// Terms are the cancellation policy, balance and security deposit the
	// booking is sold with; nil only for bookings made before they existed.
	Terms *Terms
}

// validate checks the request's fields, naming them as the API does, and
// puts them in their stored form (trimmed; the phone number in E.164, a
// national number being read as one of country).
func (r *CheckoutRequest) validate(country string) error {
	f := FieldErrors{}
	if r.PropertyID < 1 {
		f.Add("property_id", "required")
	}
	// Control characters are looked for before spaces are trimmed: some of
	// them (U+0085) count as spaces.
	badName, badEmail, badPhone := hasForbiddenChars(r.GuestName, false), hasForbiddenChars(r.GuestEmail, false), hasForbiddenChars(r.GuestPhone, false)
	r.GuestName = strings.TrimSpace(r.GuestName)
	switch n := utf8.RuneCountInString(r.GuestName); {
	case n == 0:
		f.Add("guest_name", "required")
	case n > MaxGuestNameLength:
		f.Add("guest_name", "too_long")
	case badName:
		f.Add("guest_name", ReasonInvalidCharacters)
	}
	r.GuestEmail = strings.TrimSpace(r.GuestEmail)
	switch {
	case r.GuestEmail == "":
		f.Add("guest_email", "required")
	case len(r.GuestEmail) > MaxGuestEmailLength:
		f.Add("guest_email", "too_long")
	case badEmail:
		f.Add("guest_email", ReasonInvalidCharacters)
	case !validEmail(r.GuestEmail):
		f.Add("guest_email", "invalid_email")
	}
	switch phone := strings.TrimSpace(r.GuestPhone); {
	case phone == "":
		f.Add("guest_phone", "required")
	case badPhone:
		f.Add("guest_phone", ReasonInvalidCharacters)
	default:
		if n, ok := normalizePhone(strings.Join(strings.Fields(phone), ""), country); ok {
			r.GuestPhone = n
		} else {
			f.Add("guest_phone", ReasonInvalidPhone)
		}
	}
	switch {
	case utf8.RuneCountInString(r.Message) > MaxMessageLength:
		f.Add("message", "too_long")
	case hasForbiddenChars(r.Message, true):
		f.Add("message", ReasonInvalidCharacters)
	}
	if r.Locale != "" && r.Locale != "fr" && r.Locale != "en" {
		f.Add("locale", "invalid_choice")
	}
	if len(r.IdempotencyKey) > MaxIdempotencyKeyLength {
		f.Add("idempotency_key", "too_long")
	}
	r.Stay.validateShape(f)
	return f.Err()
}

// validEmail reports whether s is a bare address (no display name) whose
// domain has a dot.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(a.Address[strings.LastIndex(a.Address, "@"):], ".")
}

// hash identifies the request for idempotency: the same key with another
// hash is a different request.
func (r CheckoutRequest) hash() string {
	h := sha256.New()
	for _, v := range []string{
		strconv.FormatInt(r.PropertyID, 10), r.CheckIn.String(), r.CheckOut.String(), strconv.Itoa(r.Guests),
		r.GuestName, r.GuestEmail, r.GuestPhone, r.Message, r.Locale, strings.ToUpper(strings.TrimSpace(r.CouponCode)),
	} {
		fmt.Fprintf(h, "%d:%s;", len(v), v)
	}
	// Guest categories and extras count only when given, so that the hash
	// of a request without them is what it was before they existed.
	if p := r.Party; p != nil {
		fmt.Fprintf(h, "party:%d,%d,%d,%d;", p.Adults, p.Children, p.Infants, p.Pets)
	}
	for _, e := range r.Extras {
		fmt.Fprintf(h, "extra:%d:%s:%d;", len(e.Code), e.Code, e.Quantity)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkout starts a booking: it prices the stay on the server, creates
// the payment intent, then holds the dates and the coupon and records the
// intent in one write (hold). Errors: CodeNotFound, CodeInvalid, the stay
// rule codes, CodeUnavailable, the coupon codes, CodeConflict (idempotency
// key reused with another request, or still in progress),
// CodePaymentUnavailable.
//
// The idempotency key is read first, so that a retry of a request already
// answered replays it without calling the provider; the write checks it
// again, atomically, for retries that arrive together (hold cancels the
// loser's intent and the loser replays the winner's booking).
func (s *Service) checkout(ctx context.Context, resolve orgFunc, r CheckoutRequest) (*CheckoutResult, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.validate(org.country()); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	hash := r.hash()
	if r.IdempotencyKey != "" {
		rec, err := s.store.IdempotencyRecord(ctx, org.ID, scopeCheckout, r.IdempotencyKey, now.Add(-IdempotencyWindow))
		switch {
		case err == nil:
			return s.replayCheckout(ctx, *rec, hash)
		case ErrorCode(err) != CodeNotFound:
			return nil, fmt.Errorf("read idempotency record: %w", err)
		}
	}
	p, err := s.bookableProperty(ctx, org, r.PropertyID)
	if err != nil {
		return nil, err
	}
	// What checkFree checks for a quote, CreateBooking checks in its
	// atomic step, the authority: a checkout does not read the
	// occupancy before (the guest's quote and calendar gave the early
	// answer), it checks only the closed nights of the calendar it reads
	// for the price. Dates taken since the quote are refused by the write,
	// after the intent was created: hold cancels it.
	guard := freeGuard(p, now)
	if p, err = s.withCalendar(ctx, p, r.CheckIn, r.CheckOut.AddDays(1)); err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	if err := checkRules(org, p, r.Stay, s.ruleChecker(org, p, now)); err != nil {
		return nil, err
	}
	if err := checkOpen(p, r.Stay); err != nil {
		return nil, err
	}
	if err := s.checkSameDay(ctx, org, p.ID, r.Stay, now); err != nil {
		return nil, err
	}
	// A property whose units have prices of their own is priced as its
	// cheapest free unit, and the stay kept to the units priced alike:
	// the one case where a checkout reads the occupancy.
	tier := unitTier{p: p}
	if unitPriced(p) {
		_, taken, err := s.holdsNear(ctx, p, r.Range(), now)
		if err != nil {
			return nil, err
		}
		if tier, err = s.unitPricing(ctx, p, r.Range(), taken); err != nil {
			return nil, err
		}
	}
	guard.Units = tier.units
	q, c, err := s.price(ctx, org, tier.p, QuoteRequest{Stay: r.Stay, CouponCode: r.CouponCode, Locale: r.Locale}, now)
	if err != nil {
		return nil, err
	}
	q = s.foldSmallBalance(q)
	if err := s.checkChargeable(q); err != nil {
		return nil, err
	}
	var account *PaymentAccount
	if q.Charge.IsPositive() {
		if account, err = s.checkoutAccount(ctx, org); err != nil {
			return nil, err
		}
	}
	b, terms, err := s.hold(ctx, org, p, r, q, c, hash, guard, account)
	if err != nil {
		var conflict *IdempotencyConflict
		if errors.As(err, &conflict) {
			return s.replayCheckout(ctx, conflict.Existing, hash)
		}
		return nil, err
	}
	res := &CheckoutResult{Booking: *b, ClientSecret: b.ClientSecret, PaymentPublicKey: s.payments.PublicKey()}
	if q.Charge.IsZero() {
		if res, err = s.confirmFree(ctx, org, b, now); err != nil {
			return nil, err
		}
	}
	res.Terms = terms
	return res, nil
}

// scopeCheckout is the idempotency scope of checkouts.
const scopeCheckout = "checkout"

// freeGuard returns the CreateOptions (Now and the property's DateGuard)
// with which CreateBooking checks, in its atomic step, what checkFree
// checks. p is the property as stored, before withCalendar merged the
// calendar into it: the store reads the calendar itself.
func freeGuard(p *Property, now time.Time) CreateOptions {
	return CreateOptions{Now: now, DateGuard: dateGuard(p)}
}

// claimGuard is the dateGuard of the property of b, a booking about to
// take its dates again (a late payment, a lapsed hold kept for a payment
// still processing).
func (s *Service) claimGuard(ctx context.Context, b *Booking) (DateGuard, error) {
	p, err := s.store.Property(ctx, b.OrgID, b.PropertyID)
	if err != nil {
		return DateGuard{}, fmt.Errorf("read property of booking %d: %w", b.ID, err)
	}
	g := dateGuard(p)
	// Its own unit, or one priced as it was sold.
	if g.Units, err = s.unitsPricedAs(ctx, p, b.Range(), b.UnitID); err != nil {
		return DateGuard{}, err
	}
	return g, nil
}

// dateGuard returns the preparation days of p and the nights its own
// stay rules close: what a store checks, besides overlaps, whenever a
// stay takes dates (a checkout, a late payment's re-claim). p is the
// property as stored, without the calendar, which the store reads in its
// atomic step.
func dateGuard(p *Property) DateGuard {
	set := p.Rates.Rules
	g := DateGuard{PreparationDaysBefore: set.PreparationDaysBefore, PreparationDaysAfter: set.PreparationDaysAfter}
	for _, d := range set.Days {
		if d.Closed {
			g.RuleClosed = append(g.RuleClosed, d.Date)
		}
	}
	return g
}

// hold stores the pending booking, which holds its dates and its coupon
// until ExpiresAt, with its payment intent, its idempotency record, its
// terms and its payment account, in one write; opts (from freeGuard) are
// the availability checks the store makes. The account is stored with the
// booking, so that every call about this booking's money goes to it, even
// if the organisation connects another one later.
//
// What reaches the provider comes first: the terms' customer
// (prepareTerms) and the payment intent (startPayment), on the account of
// the checkout (nil: the platform's), before the dates are known to be
// still free. The intent's client secret reaches the guest only once the
// write succeeded, so every way this can fail leaves at most an intent
// nobody can pay, and no dates or coupon held:
//   - the provider refuses, or its answer is lost after it created the
//     intent: nothing is written, the unknown intent is never confirmed;
//   - the process dies between the intent and the write: the same;
//   - the write fails (dates or coupon taken meanwhile, the idempotency
//     key recorded by a retry that arrived together, the database down):
//     the intent is cancelled at once; if that fails too, it stays
//     orphaned, unpaid and uncapturable, and no booking names it.
func (s *Service) hold(ctx context.Context, org *Organization, p *Property, r CheckoutRequest, q pricing.Quote, c *coupon.Coupon, hash string, opts CreateOptions, account *PaymentAccount) (*Booking, *Terms, error) {
	now := opts.Now
	token, err := newToken()
	if err != nil {
		return nil, nil, err
	}
	locale := r.Locale
	if locale == "" {
		locale = org.DefaultLocale
	}
	b := &Booking{
		OrgID: org.ID, PropertyID: p.ID, Token: token, Status: StatusPending,
		CheckIn: r.CheckIn, CheckOut: r.CheckOut, Guests: r.Guests,
		GuestName: r.GuestName, GuestEmail: r.GuestEmail, GuestPhone: r.GuestPhone,
		Message: r.Message, Locale: locale,
		Currency: org.Currency, PaymentMode: q.Mode,
		TotalAmount: q.Total, ChargeAmount: q.Charge, PaidAmount: pricing.Round(zeroMoney, org.Currency),
		BalanceAmount: q.Balance, BalanceDueDate: q.BalanceDueDate, Quote: q,
		CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(time.Duration(org.HoldMinutes) * time.Minute),
	}
	if c != nil {
		b.CouponID, b.CouponCode, opts.MaxRedemptions = c.ID, c.Code, c.MaxRedemptions
	}
	if r.IdempotencyKey != "" {
		opts.Idempotency = IdempotencyRecord{OrgID: org.ID, Scope: scopeCheckout, Key: r.IdempotencyKey, RequestHash: hash, CreatedAt: now}
	}
	if account != nil {
		opts.PaymentAccount = account.AccountID
	}
	pay := s.accounts.For(opts.PaymentAccount)
	if opts.Terms, err = s.prepareTerms(ctx, b, pay); err != nil {
		return nil, nil, err
	}
	if b.ChargeAmount.IsPositive() {
		intent, err := s.startPayment(ctx, org, b, opts.Terms, pay, account)
		if err != nil {
			return nil, nil, err
		}
		b.PaymentIntentID, b.ClientSecret = intent.ID, intent.ClientSecret
	}
	if err := s.store.CreateBooking(ctx, b, opts); err != nil {
		if b.PaymentIntentID != "" {
			s.cancelOrphan(ctx, pay, b.PaymentIntentID)
		}
		var conflict *IdempotencyConflict
		if errors.As(err, &conflict) {
			return nil, nil, conflict
		}
		switch ErrorCode(err) {
		case CodeUnavailable:
			return nil, nil, errUnavailable()
		case coupon.CodeExhausted:
			return nil, nil, &Error{Code: coupon.CodeExhausted, Message: "This coupon has been used up.",
				Fields: map[string][]string{"coupon_code": {coupon.CodeExhausted}}}
		}
		return nil, nil, fmt.Errorf("hold dates: %w", err)
	}
	return b, opts.Terms, nil
}

// startPayment creates the payment intent of b, a booking about to be
// held (not stored yet), through pay, the payments of account (nil: the
// platform's), with an idempotency key derived from the booking's token
// and amount.
func (s *Service) startPayment(ctx context.Context, org *Organization, b *Booking, terms *Terms, pay payment.Provider, account *PaymentAccount) (*payment.Intent, error) {
	amount, err := pricing.ToMinor(b.ChargeAmount, b.Currency)
	if err != nil {
		// A price stored before hosts' amounts were bounded (a night at
		// 1e308): the guest cannot pay it, which is no server fault.
		return nil, errNotChargeable(fmt.Errorf("convert charge of checkout: %w", err))
	}
	var fee int64
	if account != nil && s.accounts.Connected() {
		fee = account.Fee(amount)
	}
	intent, err := pay.CreateIntent(ctx, payment.CreateParams{
		Amount:         amount,
		Currency:       b.Currency,
		ManualCapture:  b.PaymentMode == pricing.ModeRequest,
		IdempotencyKey: "booking-" + b.Token + "-" + strconv.FormatInt(amount, 10),
		Metadata: map[string]string{
			"booking_token": b.Token,
			"org":           org.Slug,
			"property_id":   strconv.FormatInt(b.PropertyID, 10),
		},
		// With a customer, the guest's card is kept for the balance and
		// the security deposit, as the consent shown at checkout says.
		Customer:       terms.Customer,
		SaveCard:       terms.Customer != "",
		ApplicationFee: fee,
	})
	if err != nil {
		if errors.Is(err, payment.ErrInvalid) {
			return nil, errNotChargeable(err)
		}
		return nil, paymentUnavailable("start", "The payment could not be started. Please try again in a moment.", err)
	}
	return intent, nil
}

// cancelOrphan cancels the intent of a checkout whose write failed, even
// when the request's context is gone. If that fails too the intent stays
// at the provider unpaid: its client secret was never given out, and no
// booking names it, so nothing can confirm or capture it.
func (s *Service) cancelOrphan(ctx context.Context, pay payment.Provider, intentID string) {
	if _, err := pay.CancelIntent(context.WithoutCancel(ctx), intentID, "release:"+intentID); err != nil {
		s.logger.ErrorContext(ctx, "cancel orphan payment intent", "intent", intentID, "err", err)
	}
}

// errNotChargeable is the provider refusing the amount itself (below its
// minimum for the currency, not expressible in its units): trying again
// will not help, so it is not CodePaymentUnavailable.
func errNotChargeable(cause error) error {
	return &Error{Code: CodeAmountNotChargeable, Message: "This amount cannot be paid by card online (it is below the payment provider's minimum, or not a payable amount in this currency). Please contact the host.", Err: cause}
}

// confirmFree settles a booking with nothing to pay now: confirmed, or
// requested in request mode.
func (s *Service) confirmFree(ctx context.Context, org *Organization, b *Booking, now time.Time) (*CheckoutResult, error) {
	t := Transition{From: []Status{StatusPending}, To: StatusConfirmed, At: now, Confirmed: true}
	kind := NotifyConfirmed
	if b.PaymentMode == pricing.ModeRequest {
		expires := now.Add(time.Duration(org.RequestHoldHours) * time.Hour)
		t = Transition{From: []Status{StatusPending}, To: StatusRequested, At: now, ExpiresAt: &expires}
		kind = NotifyRequested
	} else {
		t.ExpiresAt = &time.Time{}
	}
	t.Outbox = tell(kind, b)
	updated, err := s.store.Transition(ctx, b.ID, t)
	if err != nil {
		return nil, fmt.Errorf("settle free booking %d: %w", b.ID, err)
	}
	s.notify(ctx, kind, org, updated)
	return &CheckoutResult{Booking: *updated, PaymentPublicKey: s.payments.PublicKey()}, nil
}

// replayCheckout answers a retried checkout with the booking it created.
func (s *Service) replayCheckout(ctx context.Context, rec IdempotencyRecord, hash string) (*CheckoutResult, error) {
	if rec.RequestHash != hash {
		return nil, errKeyReused()
	}
	b, err := s.store.BookingByID(ctx, rec.BookingID)
	if err != nil {
		return nil, fmt.Errorf("replay checkout: %w", err)
	}
	if b.PaymentIntentID == "" && b.Status == StatusPending {
		return nil, withParam(CodeConflict, "A request with this Idempotency-Key is still being processed.", ParamReason, "in_progress")
	}
	terms, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	return &CheckoutResult{Booking: *b, ClientSecret: b.ClientSecret, PaymentPublicKey: s.payments.PublicKey(), Terms: terms}, nil
}

func errKeyReused() error {
	return withParam(CodeConflict, "This Idempotency-Key was already used with a different request.", ParamReason, "key_reused")
}

// newToken returns a booking token: 192 random bits, URL-safe.
func newToken() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate booking token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
