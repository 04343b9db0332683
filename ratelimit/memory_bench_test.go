package ratelimit_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/staykit/staykit/ratelimit"
)

func BenchmarkMemoryAllow(b *testing.B) {
	keys := make([]string, 10_000)
	for i := range keys {
		keys[i] = "203.0.113." + strconv.Itoa(i) + "|org|checkout"
	}
	l := ratelimit.PerMinute(10)
	ctx := context.Background()

	b.Run("10k keys", func(b *testing.B) {
		m := ratelimit.NewMemory(ratelimit.MemoryOptions{})
		i := 0
		for b.Loop() {
			if _, err := m.Allow(ctx, keys[i%len(keys)], l); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("10k keys over MaxKeys 1k", func(b *testing.B) {
		m := ratelimit.NewMemory(ratelimit.MemoryOptions{MaxKeys: 1000})
		i := 0
		for b.Loop() {
			if _, err := m.Allow(ctx, keys[i%len(keys)], l); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("hot key", func(b *testing.B) {
		m := ratelimit.NewMemory(ratelimit.MemoryOptions{})
		for b.Loop() {
			if _, err := m.Allow(ctx, keys[0], l); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("10k keys parallel", func(b *testing.B) {
		m := ratelimit.NewMemory(ratelimit.MemoryOptions{})
		var n atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := m.Allow(ctx, keys[int(n.Add(1))%len(keys)], l); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("hot key parallel", func(b *testing.B) {
		m := ratelimit.NewMemory(ratelimit.MemoryOptions{})
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := m.Allow(ctx, keys[0], l); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
