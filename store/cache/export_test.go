package cache

// Invalidations counts the writes that forgot something.
func (c *Store) Invalidations() uint64 { return c.invalidations.Load() }
