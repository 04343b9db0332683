// Package seed loads a host's catalogue — organisations, their properties
// with rates, seasons, overrides, fees, taxes and owner blocks, and their
// coupons — from a JSON file into a booking.CatalogStore. The reference
// server loads its demo data this way on first start, and a small host
// describes its own business by editing a copy of that file.
//
// # Format
//
// The file is one JSON object. Every field is optional unless marked
// required; unknown fields are errors, so that a typo does not silently
// drop a setting. Amounts are JSON numbers (or strings) in the
// organisation's currency; dates are "YYYY-MM-DD" civil dates in the
// organisation's time zone.
//
//	{
//	  "organizations": [                       // required, at least one
//	    {
//	      "slug": "demo",                      // required, [a-z0-9][a-z0-9-]{0,62}
//	      "name": "Demo Rentals",              // required
//	      "logo": "https://…/logo.png",
//	      "payment_mode": "full",              // full (default) | deposit | request
//	      "deposit_percent": 30,               // 0–100, required in deposit mode
//	      "balance_due_days": 30,              // balance due this many days before check-in
//	      "default_locale": "fr",              // fr (default) | en
//	      "currency": "EUR",                   // ISO 4217, default EUR
//	      "timezone": "Europe/Paris",          // IANA name, default Europe/Paris
//	      "min_stay_nights": 2,                // null or absent: no limit
//	      "max_stay_nights": 28,
//	      "hold_minutes": 30,                  // unpaid checkout hold, default 30
//	      "request_hold_hours": 48,            // request-mode hold, default 48, at most 168
//	      "country": "FR",                     // ISO 3166-1 alpha-2, default FR: guests' national phone numbers
//	      "booking_horizon_days": 730,         // a stay ends at most this many days ahead, default 730, at most 3650
//	      "branding": {"primary_color": "#0f766e"},
//	      "contact_email": "host@example.com", // the host's e-mails (package notify) go there
//	      "terms": {                           // cancellation policy and security deposit (optional)
//	        "cancellation_policy": "moderate", // flexible (default), moderate, strict, non_refundable;
//	                                           // or "policy": {…} with custom tiers (package policy)
//	        "security_deposit": 300,           // held on the card around the stay; 0 = none
//	        "deposit_hold_days": 2,            // held this many days before check-in (0–6)
//	        "deposit_release_days": 3          // released this many days after check-out unless claimed (0–6)
//	      },                                   // a property may have "terms" of its own, replacing these
//	      "terms_url": "https://…/terms",
//	      "custom_domain": "villa-soleil.fr",  // allows https://villa-soleil.fr and www.
//	      "allowed_origins": ["http://localhost:3000"],
//	      "public_engine_enabled": true,       // default true
//	      "properties": [
//	        {
//	          "name": "Villa Soleil",          // required, unique in the organisation
//	          "description": "…",
//	          "photos": ["https://…", "/img/villa.svg"],  // http(s) URLs, or paths on the server
//	          "city": "Nice", "country": "FR",
//	          "max_guests": 6,                 // required, at least 1
//	          "bedrooms": 3,
//	          "min_stay_nights": 3,            // override the organisation's limits
//	          "max_stay_nights": 21,
//	          "active": true,                  // default true
//	          "rates": {
//	            "base_rate": 120,              // required
//	            "weekend_rate": 150,           // nights of weekend_nights
//	            "weekend_nights": ["friday", "saturday"],  // the default; [] = none
//	            "weekly_discount_percent": 5,  // stays of 7+ nights
//	            "monthly_discount_percent": 15,// stays of 28+ nights
//	            "seasons": [
//	              {"name": "Summer", "start": "06-15", "end": "09-15", "rate": 180, "min_stay_nights": 5},
//	              {"name": "New Year 2027", "start": "2026-12-26", "end": "2027-01-02", "rate": 220}
//	            ],
//	            "overrides": [{"date": "2026-07-14", "price": 250}],
//	            "early_bird": {"days": 90, "percent": 5},   // check-in ≥ 90 days ahead
//	            "last_minute": {"days": 7, "percent": 10}   // check-in ≤ 7 days ahead
//	          },
//	          "rules": {                        // stay rules, see "Stay rules" below
//	            "arrival_days": ["saturday", "sunday"],
//	            "departure_days": [],
//	            "advance_notice_days": 1,       // no arrival today
//	            "same_day_cutoff_hour": 14,     // arrivals today booked before 14:00 (property's zone)
//	            "booking_window_days": 365,     // arrival at most a year ahead
//	            "preparation_days_after": 1, "preparation_days_before": 0,
//	            "seasons": [{"name": "Summer weeks", "start": "07-01", "end": "08-31",
//	                         "min_stay_nights": 7, "max_stay_nights": 21,
//	                         "arrival_days": ["saturday"], "departure_days": ["saturday"]}],
//	            "days": [{"date": "2026-12-24", "closed_to_arrival": true, "min_stay_nights": 3}]
//	          },
//	          "fees": {
//	            "cleaning": 60, "extra_guest": 15, "guests_included": 2,
//	            "guests": {"max_children": 3, "max_infants": 1, "max_pets": 1,
//	                       "child_age_below": 12, "infant_age_below": 2, "child_extra_guest": 8},
//	            "items": [                      // per: stay | night | guest | guest_night | percent
//	              {"code": "breakfast", "labels": {"fr": "Petit-déjeuner", "en": "Breakfast"},
//	               "per": "guest_night", "amount": 12, "optional": true},
//	              {"code": "late_checkout", "labels": {"fr": "Départ tardif", "en": "Late check-out"},
//	               "per": "stay", "amount": 30, "optional": true, "max_quantity": 1},
//	              {"code": "pet_fee", "labels": {"fr": "Animal", "en": "Pet"},
//	               "per": "guest", "category": "pets", "amount": 25}
//	            ],
//	            "taxes": [{"code": "vat", "labels": {"fr": "TVA", "en": "VAT"}, "percent": 10,
//	                       "inclusive": true, "on": ["accommodation", "cleaning_fee"]}]
//	          },
//	          "tax": {"per_guest_per_night": 2.5, "max_nights": 0, "exempt": ["children"]},
//	          // or, the French rule for unclassified rentals:
//	          // "tax": {"percent": 5, "ceiling_per_guest_night": 2.30, "exempt": ["children"]},
//	          "blocks": [{"start": "2026-08-01", "end": "2026-08-08", "reason": "owner"}],
//	          "units": ["Studio 1", "Studio 2"], // identical units sold apart (default: one)
//	          "parts": ["Room 1", "Room 2"]     // let whole, made of these properties (one unit)
//	        }
//	      ],
//	      "coupons": [
//	        {
//	          "code": "WELCOME10",             // required, A–Z 0–9 _ -, case-insensitive
//	          "label": "Welcome offer",
//	          "kind": "percent",               // required: percent | fixed
//	          "value": 10,                     // required: percent (0–100] or an amount
//	          "active": true,                  // default true
//	          "valid_from": "2026-01-01",      // booking made on or after
//	          "valid_until": "2026-12-31",     // booking made on or before
//	          "stay_from": "2026-06-01",       // check-in on or after
//	          "stay_until": "2026-09-30",      // check-in on or before
//	          "min_nights": 3, "min_amount": 200, "max_redemptions": 100,
//	          "properties": ["Villa Soleil"]   // property names; empty = all
//	        }
//	      ]
//	    }
//	  ]
//	}
//
// # Seasons
//
// A season's start and end (both included) are either absolute dates
// ("2026-12-26") or, for a season that comes back every year, month and
// day ("06-15" to "09-15"). A yearly season is expanded, when the file is
// loaded, into one season for the current year (in the organisation's time
// zone) and one for each of the next two years, so a seed file does not go
// stale. A yearly season whose end comes before its start ("12-20" to
// "01-05") spans the new year; it is expanded from the one that began last
// year (and still covers the first days of this one) to the one beginning
// in two years. "02-29" cannot start or end a yearly season. When seasons
// overlap, the one listed first prices the night.
//
// # Stay rules
//
// "rules" are checked at quote and checkout (a 422 whose code names the
// rule) and shown in the availability calendar's check_in, check_out and
// min_stay flags. arrival_days and departure_days list the weekdays a stay
// may start and end on (empty: any). A rules season (yearly, "MM-DD",
// first match) replaces, for check-ins within it, the minimum and maximum
// stay (lower or higher than the property's) and the arrival and departure
// days. A day ("YYYY-MM-DD") sets, for that date only, the minimum and
// maximum stay of a check-in, closed_to_arrival, closed_to_departure or
// closed (the night cannot be booked); the host API's calendar settings
// (booking.CalendarStore) win over the file's. advance_notice_days and
// same_day_cutoff_hour bound how late a stay is booked, booking_window_days
// how far ahead it starts (the organisation's booking_horizon_days still
// bounds where it ends). Preparation days keep nights free after (and
// before) every booking and owner block.
//
// # Charges
//
// Guests come as adults, children, infants and pets; a request with
// guests_count only means that many adults. Adults and children count
// towards max_guests, the extra-guest fee (adults fill guests_included
// first; children pay child_extra_guest when set) and the tourist tax;
// infants and pets have their own limits (max_pets 0: no pets). A fee item
// is mandatory, or optional (an extra the guest picks with a quantity up
// to max_quantity); its amount is multiplied by the nights, the guests (of
// its category, when set) or both, or is a percent of the accommodation
// net of discounts. Percentage taxes apply to the lines named in "on"
// (accommodation, cleaning_fee, extra_guest_fee or a fee code): exclusive
// ones are added as a line, inclusive ones are shown as included_taxes.
// Discounts apply in this order, each on what the previous ones leave and
// never below zero: length of stay, early bird, last minute, coupon. Every
// line is rounded to the currency, and the total is their sum.
//
// # Validation
//
// Load checks the whole file before it stores anything: every
// organisation with Organization.WithDefaults().Validate(), every property
// with Property.Validate(), every coupon with Coupon.Validate(), plus dates,
// weekday names, origins, duplicate slugs, property names and coupon codes,
// and coupon property names. It reports every problem it finds with its
// path in the file, such as "organizations[1].properties[0].rates:
// percent_out_of_range" or "organizations[0].coupons[2].valid_until:
// invalid_date: want YYYY-MM-DD, got \"31/12/2026\"", as an *Error.
package seed
