package plantstore

import (
	"context"
	"fmt"
	"sync"
)

// MemoryStore is a Store kept in memory, for tests and demos. Its zero value
// is an empty store ready to use; it is safe for concurrent use.
type MemoryStore struct {
	mu     sync.Mutex
	plants map[int64]Plant
}

var _ Store = (*MemoryStore)(nil)

// CreatePlant stores p. It returns an error wrapping ErrExists when p.ID is
// taken, and the context's error when ctx is done.
func (s *MemoryStore) CreatePlant(ctx context.Context, p Plant) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("create plant %d: %w", p.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.plants[p.ID]; ok {
		return fmt.Errorf("create plant %d: %w", p.ID, ErrExists)
	}
	if s.plants == nil {
		s.plants = make(map[int64]Plant)
	}
	s.plants[p.ID] = p
	return nil
}

// Plant finds the plant with this id; found is false when there is none.
func (s *MemoryStore) Plant(ctx context.Context, id int64) (p Plant, found bool, err error) {
	if err := ctx.Err(); err != nil {
		return Plant{}, false, fmt.Errorf("find plant %d: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, found = s.plants[id]
	return p, found, nil
}
