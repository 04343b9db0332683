package ical

import (
	"strconv"

	"github.com/staykit/staykit/feed"
)

// Plan is what a fetch changes among a feed's blocks.
type Plan struct {
	// Remove are the IDs of blocks whose event disappeared (how Airbnb
	// and Vrbo cancel).
	Remove []int64
	// Move are blocks (by ID) whose event has new dates, UID or summary.
	Move []feed.Block
	// Add are new events.
	Add []feed.Block
	// Unchanged counts blocks the fetch leaves as they are.
	Unchanged int
}

// Empty reports whether the plan changes nothing.
func (p Plan) Empty() bool { return len(p.Remove) == 0 && len(p.Move) == 0 && len(p.Add) == 0 }

// Diff compares a feed's blocks with the events of a fetch. An event
// matches the block of the same UID; an event whose UID matches none
// matches a block left over with the same dates (sources such as Vrbo
// give their events new UIDs at each export). Events left over are added,
// blocks left over removed. Two events with one UID are kept apart by a
// suffix on the second. Diff is deterministic for sorted events (Parse
// sorts them).
func Diff(existing []feed.Block, events []Event) Plan {
	var plan Plan
	incoming := make([]feed.Block, 0, len(events))
	seen := map[string]int{}
	for _, e := range events {
		uid := e.UID
		if n := seen[e.UID]; n > 0 {
			uid = e.UID + "#" + strconv.Itoa(n+1)
		}
		seen[e.UID]++
		incoming = append(incoming, feed.Block{UID: uid, Start: e.Start, End: e.End, Summary: e.Summary})
	}
	byUID := make(map[string]int, len(existing))
	for i, b := range existing {
		if _, dup := byUID[b.UID]; !dup {
			byUID[b.UID] = i
		}
	}
	used := make([]bool, len(existing))
	match := make([]int, len(incoming))
	for i, in := range incoming {
		match[i] = -1
		if j, ok := byUID[in.UID]; ok && !used[j] {
			match[i], used[j] = j, true
		}
	}
	for i, in := range incoming {
		if match[i] >= 0 {
			continue
		}
		for j, b := range existing {
			if !used[j] && b.Start == in.Start && b.End == in.End {
				match[i], used[j] = j, true
				break
			}
		}
	}
	for i, in := range incoming {
		j := match[i]
		if j < 0 {
			plan.Add = append(plan.Add, in)
			continue
		}
		b := existing[j]
		if b.UID == in.UID && b.Start == in.Start && b.End == in.End && b.Summary == in.Summary {
			plan.Unchanged++
			continue
		}
		in.ID = b.ID
		plan.Move = append(plan.Move, in)
	}
	for j, b := range existing {
		if !used[j] {
			plan.Remove = append(plan.Remove, b.ID)
		}
	}
	return plan
}
