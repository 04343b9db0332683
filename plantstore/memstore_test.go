package plantstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/plantstore/planttest"
)

func TestMemoryStoreZeroValueIsEmpty(t *testing.T) {
	var store plantstore.MemoryStore
	_, found, err := store.Plant(context.Background(), 1)
	if err != nil || found {
		t.Errorf("Plant(1) on an empty store = found %v, err %v; want false, nil", found, err)
	}
}

func TestMemoryStoreCreateTakenIDIsErrExists(t *testing.T) {
	store := newStore(t)
	err := store.CreatePlant(context.Background(), plantstore.Plant{ID: existing.ID, Name: "Other"})
	if !errors.Is(err, plantstore.ErrExists) {
		t.Errorf("CreatePlant of a taken id: err = %v, want ErrExists", err)
	}
	got, _, _ := store.Plant(context.Background(), existing.ID)
	if got != existing {
		t.Errorf("after a refused create, Plant = %+v, want %+v", got, existing)
	}
}

func TestMemoryStoreCanceledContextFails(t *testing.T) {
	store := &plantstore.MemoryStore{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := store.CreatePlant(ctx, plantstore.Plant{ID: 1, Name: "Fern"}); !errors.Is(err, context.Canceled) {
		t.Errorf("CreatePlant: err = %v, want context.Canceled", err)
	}
	if _, _, err := store.Plant(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("Plant: err = %v, want context.Canceled", err)
	}
	if _, found, _ := store.Plant(context.Background(), 1); found {
		t.Error("a create with a canceled context stored the plant")
	}
}

func TestMemoryStoreConformance(t *testing.T) {
	planttest.Run(t, func(t *testing.T) plantstore.Store { return &plantstore.MemoryStore{} })
}
