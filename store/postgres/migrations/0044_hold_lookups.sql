-- A checkout's reads of holds no longer depend on the table's statistics
-- nor on its history (issue #31): each is a lookup of a property's (or one
-- of its units') stays overlapping a range in bookings_holds, a GiST index
-- over the bookings whose status may hold dates. The btree indexes they
-- used before (bookings_unit, bookings_property_status,
-- bookings_status_expires) walked every stay of the unit or property
-- before or after a date, or every pending hold of the database when the
-- table had no statistics yet: a checkout slowed down with each stay sold.
-- The release of lapsed holds (blocking = false) now comes after the
-- choice of the unit and touches that unit only: its exclusion constraint
-- is the only one the new stay meets.
--
-- A hold is written status IN (pending, requested, confirmed) AND (status
-- <> pending OR expires_at > now): the same rows as before, in a form
-- that implies the index's predicate. Stays overlap a range when their
-- stay (the generated daterange) && it. The functions are restated whole
-- with only those reads changed.
CREATE INDEX bookings_holds ON bookings USING gist (property_id, unit_id, stay)
    WHERE status IN ('pending', 'requested', 'confirmed');

CREATE OR REPLACE FUNCTION staykit_whole_taken(p_property_id bigint, p_start date, p_end date, p_now timestamptz,
    p_except bigint) RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    linked bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM blocks k
            WHERE k.property_id = p_property_id AND k.unit_id IS NULL AND k.start_date < p_end AND p_start < k.end_date) THEN
        RETURN true;
    END IF;
    -- One linked property at a time: each lookup is by its id, whatever
    -- the planner guesses of a join.
    FOR linked IN SELECT whole_id FROM property_links WHERE part_id = p_property_id
            UNION ALL SELECT part_id FROM property_links WHERE whole_id = p_property_id LOOP
        IF EXISTS (SELECT 1 FROM blocks k
                WHERE k.property_id = linked AND k.start_date < p_end AND p_start < k.end_date)
            OR EXISTS (SELECT 1 FROM bookings b
                WHERE b.property_id = linked AND b.id <> p_except AND b.stay && daterange(p_start, p_end, '[)')
                AND b.status IN ('pending', 'requested', 'confirmed') AND (b.status <> 'pending' OR b.expires_at > p_now)) THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END
$fn$;

CREATE OR REPLACE FUNCTION staykit_best_unit(p_property_id bigint, p_want bigint, p_check_in date, p_check_out date,
    p_guard_start date, p_guard_end date, p_now timestamptz, p_except bigint, p_units bigint[]) RETURNS bigint
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    n integer;
    only_unit bigint;
BEGIN
    SELECT count(*), min(u.id) INTO n, only_unit FROM units u
        WHERE u.property_id = p_property_id AND u.retired_at IS NULL AND (p_want = 0 OR u.id = p_want)
        AND (p_units IS NULL OR u.id = ANY (p_units));
    IF n = 0 THEN
        RETURN NULL;
    END IF;
    IF n = 1 THEN
        IF EXISTS (SELECT 1 FROM bookings b
                WHERE b.property_id = p_property_id AND b.unit_id = only_unit AND b.id <> p_except
                AND b.stay && daterange(p_guard_start, p_guard_end, '[)') AND b.status IN ('pending', 'requested', 'confirmed') AND (b.status <> 'pending' OR b.expires_at > p_now))
            OR EXISTS (SELECT 1 FROM blocks k
                WHERE k.property_id = p_property_id AND k.unit_id = only_unit
                AND k.start_date < p_guard_end AND p_guard_start < k.end_date) THEN
            RETURN NULL;
        END IF;
        RETURN only_unit;
    END IF;
    RETURN (WITH h AS (
        SELECT b.unit_id, b.check_in AS s, b.check_out AS e FROM bookings b
            WHERE b.property_id = p_property_id AND b.id <> p_except
            AND b.stay && daterange(p_guard_start - 366, p_guard_end + 366, '[)')
            AND b.status IN ('pending', 'requested', 'confirmed') AND (b.status <> 'pending' OR b.expires_at > p_now)
        UNION ALL
        SELECT k.unit_id, k.start_date, k.end_date FROM blocks k
            WHERE k.property_id = p_property_id AND k.unit_id IS NOT NULL
            AND k.start_date < p_guard_end + 366 AND p_guard_start - 366 < k.end_date
    )
    SELECT u.id FROM units u
        WHERE u.property_id = p_property_id AND u.retired_at IS NULL AND (p_want = 0 OR u.id = p_want)
        AND (p_units IS NULL OR u.id = ANY (p_units))
        AND NOT EXISTS (SELECT 1 FROM h WHERE h.unit_id = u.id AND h.s < p_guard_end AND p_guard_start < h.e)
        ORDER BY
            LEAST(366, COALESCE(p_check_in - (SELECT max(h.e) FROM h WHERE h.unit_id = u.id AND h.e <= p_check_in), 366))
            + LEAST(366, COALESCE((SELECT min(h.s) FROM h WHERE h.unit_id = u.id AND h.s >= p_check_out) - p_check_out, 366)),
            u.position, u.id
        LIMIT 1);
END
$fn$;

CREATE OR REPLACE FUNCTION staykit_create_booking(
    p_key text, p_scope text, p_request_hash text, p_key_created_at timestamptz, p_key_not_before timestamptz,
    p_now timestamptz, p_guard_start date, p_guard_end date, p_rule_closed date[], p_max_redemptions integer,
    p_terms text, p_account text, p_blocking boolean,
    p_org_id bigint, p_property_id bigint, p_token text, p_status text, p_check_in date, p_check_out date,
    p_guests integer, p_guest_name text, p_guest_email text, p_guest_phone text, p_message text, p_locale text,
    p_coupon_id bigint, p_coupon_code text, p_currency text, p_payment_mode text,
    p_total_amount numeric, p_charge_amount numeric, p_paid_amount numeric, p_balance_amount numeric,
    p_balance_due_date date, p_quote jsonb, p_payment_intent_id text, p_client_secret text,
    p_created_at timestamptz, p_expires_at timestamptz, p_confirmed_at timestamptz, p_updated_at timestamptz,
    p_unit_id bigint, p_units bigint[])
RETURNS TABLE (outcome text, booking_id bigint, key_request_hash text, key_booking_id bigint, key_created_at timestamptz,
    chosen_unit bigint)
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
#variable_conflict use_column
DECLARE
    k idempotency_keys%ROWTYPE;
    holders bigint;
    new_id bigint;
    unit bigint;
BEGIN
  BEGIN
    IF NOT staykit_lock_property(p_property_id, p_org_id) THEN
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
            RETURN QUERY SELECT 'key_conflict'::text, NULL::bigint, k.request_hash, k.booking_id, k.created_at, NULL::bigint;
            RETURN;
        END IF;
    END IF;

    IF COALESCE(p_unit_id, 0) <> 0 THEN
        PERFORM 1 FROM units WHERE id = p_unit_id AND property_id = p_property_id AND retired_at IS NULL;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'unit_not_found';
        END IF;
    END IF;

    IF staykit_whole_taken(p_property_id, p_guard_start, p_guard_end, p_now, 0) THEN
        RAISE EXCEPTION 'unavailable';
    END IF;
    unit := staykit_best_unit(p_property_id, COALESCE(p_unit_id, 0), p_check_in, p_check_out,
        p_guard_start, p_guard_end, p_now, 0, p_units);
    IF unit IS NULL THEN
        RAISE EXCEPTION 'unavailable';
    END IF;
    -- Lapsed pending holds of the unit chosen still claim their nights
    -- (blocking) until a writer releases them: only those on the stay's
    -- nights of that unit could make the exclusion constraint refuse it.
    UPDATE bookings SET blocking = false
        WHERE property_id = p_property_id AND unit_id = unit
        AND blocking AND status = 'pending' AND (expires_at IS NULL OR expires_at <= p_now)
        AND stay && daterange(p_check_in, p_check_out, '[)');

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
        quote, payment_intent_id, client_secret, created_at, expires_at, confirmed_at, updated_at, blocking,
        unit_id)
    VALUES (p_org_id, p_property_id, p_token, p_status, p_check_in, p_check_out, p_guests,
        p_guest_name, p_guest_email, p_guest_phone, p_message, p_locale, p_coupon_id, p_coupon_code, p_currency,
        p_payment_mode, p_total_amount, p_charge_amount, p_paid_amount, p_balance_amount, p_balance_due_date,
        p_quote, p_payment_intent_id, p_client_secret, p_created_at, p_expires_at, p_confirmed_at, p_updated_at, p_blocking,
        unit)
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
    RETURN QUERY SELECT 'created'::text, new_id, NULL::text, NULL::bigint, NULL::timestamptz, unit;
  EXCEPTION
    WHEN raise_exception THEN
      RETURN QUERY SELECT SQLERRM, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz, NULL::bigint;
    WHEN exclusion_violation THEN
      RETURN QUERY SELECT 'unavailable'::text, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz, NULL::bigint;
    WHEN foreign_key_violation THEN
      RETURN QUERY SELECT 'coupon_not_found'::text, NULL::bigint, NULL::text, NULL::bigint, NULL::timestamptz, NULL::bigint;
  END;
END
$fn$;
