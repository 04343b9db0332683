package ratelimit

import (
	"container/heap"
	"time"
)

// sweep drops up to sweepBatch keys whose buckets are full at now. A full
// bucket is what a new key gets, so forgetting it changes no decision.
func (m *Memory) sweep(now time.Time) {
	for range sweepBatch {
		if len(m.idle) == 0 || m.idle[0].fullAt.After(now) {
			return
		}
		m.remove(m.idle[0])
	}
}

// evictOne drops one key to make room: an idle one if there is any, else
// the least recently used.
func (m *Memory) evictOne(now time.Time) {
	if len(m.idle) > 0 && !m.idle[0].fullAt.After(now) {
		m.remove(m.idle[0])
		return
	}
	if back := m.lru.Back(); back != nil {
		m.remove(back.Value.(*bucket))
	}
}

// remove forgets b.
func (m *Memory) remove(b *bucket) {
	delete(m.keys, b.key)
	m.lru.Remove(b.elem)
	heap.Remove(&m.idle, b.index)
}

// fullHeap orders buckets by the time they are full again; it implements
// heap.Interface and keeps each bucket's index up to date.
type fullHeap []*bucket

func (h fullHeap) Len() int           { return len(h) }
func (h fullHeap) Less(i, j int) bool { return h[i].fullAt.Before(h[j].fullAt) }

func (h fullHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *fullHeap) Push(x any) {
	b := x.(*bucket)
	b.index = len(*h)
	*h = append(*h, b)
}

func (h *fullHeap) Pop() any {
	old := *h
	n := len(old)
	b := old[n-1]
	old[n-1] = nil
	b.index = -1
	*h = old[:n-1]
	return b
}
