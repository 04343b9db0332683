//go:build !race

package phone

// raced is whether the tests run under the race detector (race_test.go).
const raced = false
