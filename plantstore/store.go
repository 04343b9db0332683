package plantstore

import (
	"context"
	"errors"
)

// Plant is a plant of the store.
type Plant struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Tag says what kind of plant it is; empty when not given.
	Tag string `json:"tag,omitempty"`
}

// ErrExists is returned by Store.CreatePlant when the id is taken.
var ErrExists = errors.New("plantstore: a plant with this id exists")

// Store keeps plants. MemoryStore, plantsqlite.DB and plantpostgres.DB
// implement it; plantstore/planttest checks the contract.
type Store interface {
	// CreatePlant stores p. Errors: ErrExists (wrapped) when p.ID is taken.
	CreatePlant(ctx context.Context, p Plant) error
	// Plant finds a plant by id; found is false when there is none.
	Plant(ctx context.Context, id int64) (p Plant, found bool, err error)
}
