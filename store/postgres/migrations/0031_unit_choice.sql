-- The unit a stay holds, chosen under the property's row lock (issue #27).
--
-- staykit_lock_property locks a property's row and the rows of the
-- properties linked to it (property_links: its whole, or its parts), in
-- the order of their ids, so that every writer of one of them takes turns
-- with the writers of the others, and two writers locking overlapping
-- sets cannot deadlock. The links are read again once the rows are locked:
-- a link is declared or removed under the locks of both its properties,
-- so the property's links cannot change while its row is locked; a link
-- declared between the first read and the lock adds its property to the
-- set, locked in a second round. It returns false when the property is
-- not there (or not of p_org_id, unless that is 0).
CREATE FUNCTION staykit_lock_property(p_property_id bigint, p_org_id bigint) RETURNS boolean
LANGUAGE plpgsql VOLATILE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    locked bigint[] := '{}';
    wanted bigint[];
BEGIN
    PERFORM 1 FROM properties WHERE id = p_property_id AND (p_org_id = 0 OR org_id = p_org_id);
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    LOOP
        wanted := ARRAY(SELECT p_property_id
            UNION SELECT l.whole_id FROM property_links l WHERE l.part_id = p_property_id
            UNION SELECT l.part_id FROM property_links l WHERE l.whole_id = p_property_id);
        EXIT WHEN wanted <@ locked;
        PERFORM 1 FROM properties WHERE id = ANY (wanted) AND NOT (id = ANY (locked)) ORDER BY id FOR NO KEY UPDATE;
        locked := locked || wanted;
    END LOOP;
    RETURN true;
END
$fn$;

-- staykit_best_unit is booking.BestUnit in SQL: among the property's
-- active units (only p_want, when not 0), those on which no booking
-- holding dates at p_now (other than p_except) and no block of the unit
-- overlaps [p_guard_start, p_guard_end), the one whose free gap around
-- [p_check_in, p_check_out) is the tightest, each side counted up to 366
-- days (booking.BestFitReach); ties go to the first by position, then id.
-- NULL when none is free. Blocks of the whole property and linked
-- properties take every unit alike: callers check them apart. A property
-- of one unit (or one unit asked for) has nothing to weigh: its unit is
-- free or not. PL/pgSQL rather than SQL, so that each connection plans
-- its queries once (a SQL function with SET is planned at every call).
CREATE FUNCTION staykit_best_unit(p_property_id bigint, p_want bigint, p_check_in date, p_check_out date,
    p_guard_start date, p_guard_end date, p_now timestamptz, p_except bigint) RETURNS bigint
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $fn$
DECLARE
    n integer;
    only_unit bigint;
BEGIN
    SELECT count(*), min(u.id) INTO n, only_unit FROM units u
        WHERE u.property_id = p_property_id AND u.retired_at IS NULL AND (p_want = 0 OR u.id = p_want);
    IF n = 0 THEN
        RETURN NULL;
    END IF;
    IF n = 1 THEN
        IF EXISTS (SELECT 1 FROM bookings b
                WHERE b.unit_id = only_unit AND b.id <> p_except AND b.check_in < p_guard_end AND p_guard_start < b.check_out
                AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > p_now)))
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
            AND b.check_in < p_guard_end + 366 AND p_guard_start - 366 < b.check_out
            AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > p_now))
        UNION ALL
        SELECT k.unit_id, k.start_date, k.end_date FROM blocks k
            WHERE k.property_id = p_property_id AND k.unit_id IS NOT NULL
            AND k.start_date < p_guard_end + 366 AND p_guard_start - 366 < k.end_date
    )
    SELECT u.id FROM units u
        WHERE u.property_id = p_property_id AND u.retired_at IS NULL AND (p_want = 0 OR u.id = p_want)
        AND NOT EXISTS (SELECT 1 FROM h WHERE h.unit_id = u.id AND h.s < p_guard_end AND p_guard_start < h.e)
        ORDER BY
            LEAST(366, COALESCE(p_check_in - (SELECT max(h.e) FROM h WHERE h.unit_id = u.id AND h.e <= p_check_in), 366))
            + LEAST(366, COALESCE((SELECT min(h.s) FROM h WHERE h.unit_id = u.id AND h.s >= p_check_out) - p_check_out, 366)),
            u.position, u.id
        LIMIT 1);
END
$fn$;

-- staykit_whole_taken reports whether [p_start, p_end) is taken on every
-- unit of the property: by a block of the whole property, or by a block
-- or a booking holding dates at p_now (other than p_except) of a linked
-- property. PL/pgSQL, planned once per connection.
CREATE FUNCTION staykit_whole_taken(p_property_id bigint, p_start date, p_end date, p_now timestamptz,
    p_except bigint) RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $fn$
BEGIN
    RETURN (WITH l AS (
        SELECT whole_id AS id FROM property_links WHERE part_id = p_property_id
        UNION ALL
        SELECT part_id FROM property_links WHERE whole_id = p_property_id
    )
    SELECT EXISTS (SELECT 1 FROM blocks k
            WHERE k.property_id = p_property_id AND k.unit_id IS NULL AND k.start_date < p_end AND p_start < k.end_date)
        OR EXISTS (SELECT 1 FROM blocks k JOIN l ON k.property_id = l.id
            WHERE k.start_date < p_end AND p_start < k.end_date)
        OR EXISTS (SELECT 1 FROM bookings b JOIN l ON b.property_id = l.id
            WHERE b.id <> p_except AND b.check_in < p_end AND p_start < b.check_out
            AND (b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > p_now))));
END
$fn$;

-- staykit_create_booking (migration 0024) with units: it locks the
-- property with its linked properties (staykit_lock_property), checks the
-- whole property's blocks and the linked properties' holds
-- (staykit_whole_taken), and chooses the unit the stay holds
-- (staykit_best_unit; p_unit_id when not NULL), still in one round trip.
-- It returns the unit chosen with the booking's id; outcome
-- 'unit_not_found' when p_unit_id is no active unit of the property.
DROP FUNCTION staykit_create_booking(text, text, text, timestamptz, timestamptz,
    timestamptz, date, date, date[], integer, text, text, boolean,
    bigint, bigint, text, text, date, date, integer, text, text, text, text, text,
    bigint, text, text, text, numeric, numeric, numeric, numeric, date, jsonb, text, text,
    timestamptz, timestamptz, timestamptz, timestamptz);

CREATE FUNCTION staykit_create_booking(
    p_key text, p_scope text, p_request_hash text, p_key_created_at timestamptz, p_key_not_before timestamptz,
    p_now timestamptz, p_guard_start date, p_guard_end date, p_rule_closed date[], p_max_redemptions integer,
    p_terms text, p_account text, p_blocking boolean,
    p_org_id bigint, p_property_id bigint, p_token text, p_status text, p_check_in date, p_check_out date,
    p_guests integer, p_guest_name text, p_guest_email text, p_guest_phone text, p_message text, p_locale text,
    p_coupon_id bigint, p_coupon_code text, p_currency text, p_payment_mode text,
    p_total_amount numeric, p_charge_amount numeric, p_paid_amount numeric, p_balance_amount numeric,
    p_balance_due_date date, p_quote jsonb, p_payment_intent_id text, p_client_secret text,
    p_created_at timestamptz, p_expires_at timestamptz, p_confirmed_at timestamptz, p_updated_at timestamptz,
    p_unit_id bigint)
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

    UPDATE bookings SET blocking = false
        WHERE property_id = p_property_id AND blocking AND status = 'pending'
        AND (expires_at IS NULL OR expires_at <= p_now)
        AND stay && daterange(p_check_in, p_check_out, '[)');

    IF staykit_whole_taken(p_property_id, p_guard_start, p_guard_end, p_now, 0) THEN
        RAISE EXCEPTION 'unavailable';
    END IF;
    unit := staykit_best_unit(p_property_id, COALESCE(p_unit_id, 0), p_check_in, p_check_out,
        p_guard_start, p_guard_end, p_now, 0);
    IF unit IS NULL THEN
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
