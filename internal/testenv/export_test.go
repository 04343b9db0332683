package testenv

// Lookup exposes lookup to the tests.
var Lookup = lookup
