//go:build race

package phone

// raced is whether the tests run under the race detector, which makes
// libphonenumber's parser ten times slower: the differential tests then
// read a sample of their numbers.
const raced = true
