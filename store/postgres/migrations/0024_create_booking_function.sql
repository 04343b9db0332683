-- A checkout's write in one round trip: CreateBooking calls this function
-- once, outside any explicit transaction, so that the call is its own
-- transaction; an exception rolls back everything it did.
--
-- It does what CreateBooking did statement by statement (see its doc):
-- lock the property's row; record the idempotency key, or return the
-- record that holds it (outcome 'key_conflict'); release the lapsed
-- pending holds on the stay's nights; check blocks and bookings holding
-- dates over the guarded range, and the closed nights; lock the coupon and
-- count its holders; insert the booking (claiming its nights when
-- p_blocking), point the key at it, store its terms and payment account.
--
-- The function is VOLATILE, so under READ COMMITTED each of its statements
-- takes a new snapshot: the checks after the property's lock see what the
-- previous holder of the lock committed, as separate statements did. The
-- exclusion constraint bookings_no_overlap still refuses an overlap the
-- checks would have missed (SQLSTATE 23P01, raised to the caller).
--
-- It returns one row: outcome 'created' with the booking's id;
-- 'key_conflict' with the record that holds the key; or, when a check
-- fails, the reason (unavailable, coupon_exhausted, coupon_not_found,
-- property_not_found), which CreateBooking maps to its errors. A failed
-- check raises inside a block with an exception handler, so that what the
-- function did before it (the key recorded, lapsed holds released) is
-- rolled back, and the caller's transaction, if any, stays usable; an
-- overlap refused by the exclusion constraint is 'unavailable', a
-- coupon deleted meanwhile (foreign key) 'coupon_not_found'.
CREATE FUNCTION staykit_create_booking(
    p_key text, p_scope text, p_request_hash text, p_key_created_at timestamptz, p_key_not_before timestamptz,
    p_now timestamptz, p_guard_start date, p_guard_end date, p_rule_closed date[], p_max_redemptions integer,
    p_terms text, p_account text, p_blocking boolean,
    p_org_id bigint, p_property_id bigint, p_token text, p_status text, p_check_in date, p_check_out date,
    p_guests integer, p_guest_name text, p_guest_email text, p_guest_phone text, p_message text, p_locale text,
    p_coupon_id bigint, p_coupon_code text, p_currency text, p_payment_mode text,
    p_total_amount numeric, p_charge_amount numeric, p_paid_amount numeric, p_balance_amount numeric,
    p_balance_due_date date, p_quote jsonb, p_payment_intent_id text, p_client_secret text,
    p_created_at timestamptz, p_expires_at timestamptz, p_confirmed_at timestamptz, p_updated_at timestamptz)
RETURNS TABLE (outcome text, booking_id bigint, key_request_hash text, key_booking_id bigint, key_created_at timestamptz)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
#variable_conflict use_column
DECLARE
    k idempotency_keys%ROWTYPE;
    holders bigint;
    new_id bigint;
BEGIN
  BEGIN
    PERFORM 1 FROM properties WHERE id = p_property_id AND org_id = p_org_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'property_not_found';
    END IF;

    IF p_key <> '' THEN
        DELETE FROM idempotency_keys
            WHERE org_id = p_org_id AND scope = p_scope AND key = p_key AND created_at < p_key_not_before;
        INSERT INTO idempotency_keys (org_id, scope, key, request_hash, booking_id, created_at)
            VALUES (p_org_id, p_scope, p_key, p_request_hash, NULL, p_key_created_at)
            ON CONFLICT (org_id, scope, key) DO NOTHING;
        IF NOT FOUND THEN
            -- READ COMMITTED: this statement sees the record that made the
            -- insert do nothing, committed by then.
            SELECT * INTO k FROM idempotency_keys WHERE org_id = p_org_id AND scope = p_scope AND key = p_key;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'key_vanished';
            END IF;
            RETURN QUERY SELECT 'key_conflict'::text, NULL::bigint, k.request_hash, k.booking_id, k.created_at;
            RETURN;
        END IF;
    END IF;

    UPDATE bookings SET blocking = false
        WHERE property_id = p_property_id AND blocking AND status = 'pending'
        AND (expires_at IS NULL OR expires_at <= p_now)
        AND stay && daterange(p_check_in, p_check_out, '[)');

    IF EXISTS (SELECT 1 FROM blocks
            WHERE property_id = p_property_id AND start_date < p_guard_end AND p_guard_start < end_date)
        OR EXISTS (SELECT 1 FROM bookings
            WHERE property_id = p_property_id AND check_in < p_guard_end AND p_guard_start < check_out
            AND (status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > p_now))) THEN
        RAISE EXCEPTION 'unavailable';
    END IF;

    -- A night is closed by a stored calendar day, or where none is stored
    -- by the property's own rules (p_rule_closed): booking.DateGuard.ClosedNight.
    IF EXISTS (SELECT 1 FROM calendar_days
            WHERE property_id = p_property_id AND day >= p_check_in AND day < p_check_out AND closed)
        OR EXISTS (SELECT 1 FROM unnest(p_rule_closed) AS r(day)
            WHERE r.day >= p_check_in AND r.day < p_check_out
            AND NOT EXISTS (SELECT 1 FROM calendar_days c WHERE c.property_id = p_property_id AND c.day = r.day)) THEN
        RAISE EXCEPTION 'unavailable';
    END IF;

    IF p_coupon_id IS NOT NULL AND p_max_redemptions > 0 THEN
        PERFORM 1 FROM coupons WHERE id = p_coupon_id FOR NO KEY UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'coupon_not_found';
        END IF;
        SELECT count(*) INTO holders FROM bookings
            WHERE coupon_id = p_coupon_id
            AND (status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > p_now));
        IF holders >= p_max_redemptions THEN
            RAISE EXCEPTION 'coupon_exhausted';
        END IF;
    END IF;

    INSERT INTO bookings (org_id, property_id, token, status, check_in, check_out, guests,
        guest_name, guest_email, guest_phone, message, locale, coupon_id, coupon_code, currency,
        payment_mode, total_amount, charge_amount, paid_amount, balance_amount, balance_due_date,
        quote, payment_intent_id, client_secret, created_at, expires_at, confirmed_at, updated_at, blocking)
    VALUES (p_org_id, p_property_id, p_token, p_status, p_check_in, p_check_out, p_guests,
        p_guest_name, p_guest_email, p_guest_phone, p_message, p_locale, p_coupon_id, p_coupon_code, p_currency,
        p_payment_mode, p_total_amount, p_charge_amount, p_paid_amount, p_balance_amount, p_balance_due_date,
        p_quote, p_payment_intent_id, p_client_secret, p_created_at, p_expires_at, p_confirmed_at, p_updated_at, p_blocking)
    RETURNING id INTO new_id;

    IF p_key <> '' THEN
        UPDATE idempotency_keys SET booking_id = new_id
            WHERE org_id = p_org_id AND scope = p_scope AND key = p_key;
    END IF;
    IF p_terms IS NOT NULL THEN
        INSERT INTO booking_terms (booking_id, version, data) VALUES (new_id, 1, p_terms);
    END IF;
    IF p_account <> '' THEN
        INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES (new_id, p_account);
    END IF;
    RETURN QUERY SELECT 'created'::text, new_id, NULL::text, NULL::bigint, NULL::timestamptz;
  EXCEPTION
    WHEN raise_exception THEN
      RETURN QUERY SELECT SQLERRM, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz;
    WHEN exclusion_violation THEN
      RETURN QUERY SELECT 'unavailable'::text, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz;
    WHEN foreign_key_violation THEN
      RETURN QUERY SELECT 'coupon_not_found'::text, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz;
  END;
END
$fn$;
