package booking

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/staykit/staykit/civil"
)

// Unit is one of a property's identical bookable units: a studio of a
// block of studios, a mobile home of a campsite, a room of a hotel's room
// type. Guests book the property; the store holds one unit for the whole
// stay, chosen in the booking's own atomic step (BestUnit), so that no two
// stays of one unit overlap. Every property has at least one unit; one
// unit is a property as before units existed. A retired unit is sold no
// more but keeps its past stays.
type Unit struct {
	ID         int64  `json:"id"`
	PropertyID int64  `json:"property_id"`
	Name       string `json:"name"`
	// Position orders a property's units (then ID): the calendar's rows,
	// and which of equally good units a stay gets.
	Position int `json:"position"`
	// RetiredAt is when the unit was retired; zero while it is sold.
	RetiredAt time.Time `json:"retired_at"`
	// Priced: the unit has nightly prices of its own (UnitPrice), which
	// win over the property's for those nights. Stores set it; a
	// property none of whose units is priced is priced as before units.
	Priced bool `json:"priced"`
}

// Active reports whether the unit is sold.
func (u Unit) Active() bool { return u.RetiredAt.IsZero() }

// MaxUnitName is the longest unit name, in characters.
const MaxUnitName = 100

// MaxUnits is the most units a property may have.
const MaxUnits = 500

// CheckUnitName returns name without its leading and trailing white space,
// or a CodeInvalid error naming field: required, at most MaxUnitName
// characters, valid UTF-8 without control characters.
func CheckUnitName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	if reason := unitNameProblem(name); reason != "" {
		return "", &Error{Code: CodeInvalid, Message: "The request is invalid.", Fields: FieldErrors{field: {reason}}}
	}
	return name, nil
}

// unitNameProblem is the reason a trimmed unit name is refused, or "".
func unitNameProblem(name string) string {
	switch {
	case name == "":
		return "required"
	case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return ReasonInvalidCharacters
	case utf8.RuneCountInString(name) > MaxUnitName:
		return "too_long"
	}
	return ""
}

// DefaultUnitName is the name of the unit a property gets when it is
// created without units.
const DefaultUnitName = "1"

// BestFitReach is how far, in days, BestUnit looks for a unit's
// neighbours on each side of a stay: a gap as long or longer counts as
// open. The holds a store reads for BestUnit need reach no further from
// the guarded stay; a store choosing in SQL counts the same way.
const BestFitReach = 366

// BestUnit chooses the unit a new stay holds: among units (by Position,
// then ID, as a store lists a property's active units), those that no hold
// of holds on them overlaps guarded (the stay widened by the preparation
// days, DateGuard.Guarded), the one whose free gap around stay is the
// tightest — the days between the end of its previous hold and the stay,
// plus those between the stay and the start of its next hold, each
// counted up to BestFitReach — so that the calendar does not fragment;
// ties go to the first. Holds with Unit 0 (on every unit) are not looked
// at: they take the same nights of every unit, and a store checks them
// apart. It returns false when no unit is free. Stores call it inside the
// booking's atomic step, over the holds they read there.
func BestUnit(units []Unit, holds []Hold, stay, guarded civil.Range) (int64, bool) {
	best, bestScore := int64(0), -1
	for _, u := range units {
		if !u.Active() {
			continue
		}
		before, after, free := BestFitReach, BestFitReach, true
		for _, h := range holds {
			if h.Unit != u.ID {
				continue
			}
			if h.Overlaps(guarded) {
				free = false
				break
			}
			if !stay.Start.Before(h.End) {
				before = min(before, h.End.DaysUntil(stay.Start))
			}
			if !h.Start.Before(stay.End) {
				after = min(after, stay.End.DaysUntil(h.Start))
			}
		}
		if !free {
			continue
		}
		if score := before + after; bestScore < 0 || score < bestScore {
			best, bestScore = u.ID, score
		}
	}
	return best, bestScore >= 0
}

// UnitIDs returns the IDs of the active units of units.
func UnitIDs(units []Unit) []int64 {
	ids := make([]int64, 0, len(units))
	for _, u := range units {
		if u.Active() {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// UnitFree reports whether one unit of p is free for a stay whose nights,
// widened by the preparation days, are guarded (DateGuard.Guarded): no
// hold of holds overlaps guarded on it, nor on every unit (Unit 0). A
// property read without units counts as one unit that every hold takes.
func UnitFree(p *Property, holds []Hold, guarded civil.Range) bool {
	ids := UnitIDs(p.Units)
	for _, h := range holds {
		if (h.Unit == 0 || len(ids) == 0) && h.Overlaps(guarded) {
			return false
		}
	}
	if len(ids) == 0 {
		return true
	}
	for _, id := range ids {
		free := true
		for _, h := range holds {
			if h.Unit == id && h.Overlaps(guarded) {
				free = false
				break
			}
		}
		if free {
			return true
		}
	}
	return false
}

// NewUnits returns the units a new property gets (CreateProperty): those
// named by units, names trimmed, or one unit named DefaultUnitName when
// there are none. IDs, positions and property are the store's to set.
func NewUnits(units []Unit) []Unit {
	if len(units) == 0 {
		return []Unit{{Name: DefaultUnitName}}
	}
	out := make([]Unit, len(units))
	for i, u := range units {
		out[i] = Unit{Name: strings.TrimSpace(u.Name)}
	}
	return out
}
