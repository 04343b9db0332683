package sqlflow

// Waiting is how many writes wait for a group (queued, not yet taken).
func (g *Group) Waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}
