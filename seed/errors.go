package seed

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a seed file.
type Problem struct {
	// Path locates the problem in the file, such as
	// "organizations[1].properties[0].rates", or "line 3, column 7" for
	// JSON that does not parse.
	Path string
	// Reason says what is wrong: a short code such as "required" or
	// "invalid_season" for a failed rule, or a sentence.
	Reason string
}

// String is "path: reason".
func (p Problem) String() string { return p.Path + ": " + p.Reason }

// Error is every problem found in a seed file; nothing was stored.
type Error struct {
	Problems []Problem
}

// Error lists the problems, separated by "; ".
func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return fmt.Sprintf("seed: invalid file: %s", strings.Join(parts, "; "))
}

func problemsError(ps ...Problem) error { return &Error{Problems: ps} }
