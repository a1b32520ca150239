package boltstore

import (
	"bytes"
	"slices"
	"sync"

	"arbiter/store"
)

// headMemoSize bounds the channels a headMemo keeps: at some 1 KB a head,
// some 8 MB.
const headMemoSize = 1 << 13

// headMemo remembers, for each channel, the head Load last decoded there
// and what a Save's compare-and-set reads of it, so that the Save, inside
// the transaction that every save of its group waits for, compares bytes
// instead of decoding JSON. DecodeRecord is a function of the bytes, so a
// stored head equal to the one remembered reads as it did; any other head
// is decoded. When it is full it starts again empty. Safe for concurrent
// use.
type headMemo struct {
	mu sync.Mutex
	m  map[string]*headFacts
}

// headFacts is a head as stored and what it reads as: the fields the
// compare-and-set checks.
type headFacts struct {
	data    []byte
	id      string
	version int64
	status  store.Status
}

// remember notes that the head data of channel's game, as Load read it,
// decodes to r; data is copied.
func (c *headMemo) remember(channel string, data []byte, r *store.Record) {
	c.put(channel, &headFacts{data: slices.Clone(data), id: r.ID, version: r.Version, status: r.Status})
}

// saved notes that Save stored head for g, which it encoded from g
// (store.EncodeHead); head is kept, not copied. Only a head that decodes
// to g's values exactly is noted: an id of the plain characters CheckID
// accepts (JSON writes and reads them as they are), the version a number
// and an active status. Any other head is forgotten.
func (c *headMemo) saved(g *store.Game, head []byte) {
	if g.Status != store.Active || store.CheckID("archive", g.ID) != nil {
		c.forget(g.Channel)
		return
	}
	c.put(g.Channel, &headFacts{data: head, id: g.ID, version: g.Version, status: g.Status})
}

// forget drops what it remembers of channel.
func (c *headMemo) forget(channel string) {
	c.mu.Lock()
	delete(c.m, channel)
	c.mu.Unlock()
}

func (c *headMemo) put(channel string, f *headFacts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= headMemoSize && c.m[channel] == nil {
		c.m = make(map[string]*headFacts)
	}
	c.m[channel] = f
}

// read returns what the head data of channel's game reads as (see
// readHeader): the remembered facts when data is the head remembered,
// else those of a full decode.
func (c *headMemo) read(channel string, data []byte) (headFacts, error) {
	c.mu.Lock()
	f := c.m[channel]
	c.mu.Unlock()
	if f != nil && bytes.Equal(f.data, data) {
		return headFacts{id: f.id, version: f.version, status: f.status}, nil
	}
	r, err := readHeader(channel, data)
	if err != nil {
		return headFacts{}, err
	}
	return headFacts{id: r.ID, version: r.Version, status: r.Status}, nil
}
