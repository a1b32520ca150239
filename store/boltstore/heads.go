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

// headMemo remembers, for each channel, the head last read (Load) or
// written (Create, Save) there and what a save's compare-and-set reads of
// it, so that the save, inside the transaction that every save of its
// group waits for, compares bytes instead of decoding JSON. DecodeRecord
// is a function of the bytes, so a stored head equal to the one remembered
// reads as it did; any other head is decoded. When it is full it starts
// again empty. Safe for concurrent use; what it holds is never changed.
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

// saved notes that head, which the store wrote for g (store.EncodeHead of
// g), reads as g's id, version and status; head is kept, not copied, and
// must not change. That holds for an id of the characters CheckID accepts,
// which JSON writes and reads as they are, and an active game; for any
// other, what it knew of the channel is forgotten.
// TestHeadMemoReadsAsDecoded holds it to DecodeRecord.
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

// put makes f what it remembers of channel.
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
