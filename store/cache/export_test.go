package cache

// Invalidations counts the writes that forgot something.
func (c *Store) Invalidations() uint64 { return c.invalidations.Load() }

// ApplyForTest applies a message of another replica.
func (c *Store) ApplyForTest(msg string) { c.apply(msg) }
