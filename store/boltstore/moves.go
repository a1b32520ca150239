package boltstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// A running game is kept in two parts, as the Redis backend keeps it
// (schema 2, see record.go): its head, the record without its moves, in
// the games bucket, and its moves in the moves bucket, one key a move:
// channel + 0x00 + the move's index (4 bytes, big-endian) -> the move as
// store.EncodeMove writes it. A move then rewrites the small head and adds one
// key, so its cost does not grow with the game, and the compare-and-set
// reads the head alone. A record in the games bucket with its moves
// inline (layout 1, before the split) is read as it is; the next Save
// splits it.

// moveKeyPrefix returns the prefix of channel's keys in the moves bucket.
func moveKeyPrefix(channel string) []byte {
	return append([]byte(channel), 0)
}

// moveKey returns the key of move i of the game in channel.
func moveKey(channel string, i int) []byte {
	return binary.BigEndian.AppendUint32(moveKeyPrefix(channel), uint32(i))
}

// eachMove calls fn with the keys and values of channel's moves from
// index from on, in order; they are valid until the bucket changes.
func eachMove(tx *bolt.Tx, channel string, from int, fn func(k, v []byte)) {
	prefix := moveKeyPrefix(channel)
	c := tx.Bucket(bMoves).Cursor()
	for k, v := c.Seek(moveKey(channel, from)); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		fn(k, v)
	}
}

// storedMoves returns the moves of channel's game in tx, as stored, in
// order. A gap in their indexes is an error.
func storedMoves(tx *bolt.Tx, channel string) ([]string, error) {
	var list []string
	err := eachMoveInOrder(tx, channel, func(v []byte) error {
		list = append(list, string(v))
		return nil
	})
	return list, err
}

// eachMoveInOrder calls fn with each of channel's moves in order, and
// reports a gap in their indexes, or an error of fn, naming the move.
func eachMoveInOrder(tx *bolt.Tx, channel string, fn func(v []byte) error) error {
	var (
		n   int
		err error
	)
	want := moveKey(channel, 0)
	eachMove(tx, channel, 0, func(k, v []byte) {
		if err != nil {
			return
		}
		binary.BigEndian.PutUint32(want[len(want)-4:], uint32(n))
		n++
		if !bytes.Equal(k, want) {
			err = fmt.Errorf("its move list has a gap or a stray key at move %d", n)
		} else if ferr := fn(v); ferr != nil {
			err = fmt.Errorf("move %d of its move list does not read: %v", n, ferr)
		}
	})
	return err
}

// moveCount returns how many moves channel's game has, by the index of
// its last move (a gap makes it wrong, and eachMoveInOrder reports it).
func moveCount(tx *bolt.Tx, channel string) int {
	c := tx.Bucket(bMoves).Cursor()
	last := moveKey(channel, math.MaxUint32)
	k, _ := c.Seek(last)
	if k == nil {
		k, _ = c.Last()
	} else if !bytes.Equal(k, last) {
		k, _ = c.Prev()
	}
	prefix := moveKeyPrefix(channel)
	if len(k) != len(prefix)+4 || !bytes.HasPrefix(k, prefix) {
		return 0
	}
	return int(binary.BigEndian.Uint32(k[len(prefix):])) + 1
}

// moveMemoSize bounds the moves a moveMemo keeps: some 13 MB.
const moveMemoSize = 1 << 16

// moveMemo remembers decoded moves by their stored bytes, so that loading
// a game decodes only the moves it has not seen: decoding is a function of
// the bytes, so a move found here is the move those bytes decode to. When
// it is full it starts again empty. Safe for concurrent use.
type moveMemo struct {
	mu sync.RWMutex
	m  map[string]store.Move
}

// decode returns the move raw encodes (see store.EncodeMove).
func (c *moveMemo) decode(raw []byte) (store.Move, error) {
	c.mu.RLock()
	m, ok := c.m[string(raw)]
	c.mu.RUnlock()
	if ok {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return store.Move{}, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= moveMemoSize {
		c.m = make(map[string]store.Move)
	}
	c.m[string(raw)] = m
	c.mu.Unlock()
	return m, nil
}

// movesIn returns the decoded moves of channel's game in tx.
func (s *Bolt) movesIn(tx *bolt.Tx, channel string) ([]store.Move, error) {
	moves := make([]store.Move, 0, moveCount(tx, channel))
	err := eachMoveInOrder(tx, channel, func(v []byte) error {
		m, err := s.moveMemo.decode(v)
		moves = append(moves, m)
		return err
	})
	return moves, err
}

// truncateMoves deletes channel's moves from index from on.
func truncateMoves(tx *bolt.Tx, channel string, from int) error {
	var doomed [][]byte
	eachMove(tx, channel, from, func(k, _ []byte) { doomed = append(doomed, slices.Clone(k)) })
	moves := tx.Bucket(bMoves)
	for _, k := range doomed {
		if err := moves.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// liveWrite is a running game's head and moves, and how many of the
// moves are stored already: what a Save or a Create writes. The head and
// the moves beyond the kept ones are encoded when it is made, before the
// transaction.
type liveWrite struct {
	channel string
	head    []byte
	moves   []store.Move
	keep    int
	added   [][]byte // moves[keep:], encoded (nil: encoded in the transaction)
}

// newLiveWrite prepares the write of g over its stored move list (nil:
// unknown, rewrite it all).
func newLiveWrite(g *store.Game, stored []store.Move) (*liveWrite, error) {
	head, err := store.EncodeHead(g)
	if err != nil {
		return nil, err
	}
	w := &liveWrite{channel: g.Channel, head: head, moves: g.Moves}
	if stored != nil {
		w.keep = store.CommonPrefix(stored, g.Moves)
	}
	w.added = make([][]byte, 0, len(g.Moves)-w.keep)
	for _, m := range g.Moves[w.keep:] {
		el, err := store.EncodeMove(m)
		if err != nil {
			return nil, err
		}
		w.added = append(w.added, []byte(el))
	}
	return w, nil
}

// put writes w in tx: the head, and the moves beyond the kept ones. When
// the kept moves are not all stored (the game was loaded from a record
// with its moves inline), it writes the whole list.
func (w *liveWrite) put(tx *bolt.Tx) error {
	moves := tx.Bucket(bMoves)
	keep := w.keep
	if keep > 0 {
		// One seek finds whether the last kept move is stored and
		// whether any move beyond it is left to trim.
		c := moves.Cursor()
		last := moveKey(w.channel, keep-1)
		k, _ := c.Seek(last)
		if !bytes.Equal(k, last) {
			keep = 0
		} else if k, _ = c.Next(); k != nil && bytes.HasPrefix(k, moveKeyPrefix(w.channel)) {
			if err := truncateMoves(tx, w.channel, keep); err != nil {
				return err
			}
		}
	}
	if keep == 0 {
		if err := truncateMoves(tx, w.channel, 0); err != nil {
			return err
		}
	}
	for i := keep; i < len(w.moves); i++ {
		el, err := w.encoded(i)
		if err != nil {
			return err
		}
		if err := moves.Put(moveKey(w.channel, i), el); err != nil {
			return err
		}
	}
	return tx.Bucket(bGames).Put([]byte(w.channel), w.head)
}

// encoded returns move i of w as stored: encoded already when it is beyond
// the kept ones, else now (a list written whole).
func (w *liveWrite) encoded(i int) ([]byte, error) {
	if j := i - w.keep; j >= 0 && j < len(w.added) {
		return w.added[j], nil
	}
	el, err := store.EncodeMove(w.moves[i])
	return []byte(el), err
}

// putSplit stores record data of a running game in channel as a head and
// its move list; a record that does not decode, or has no moves inline,
// is stored as it is (Load reports the one, reads the other).
func putSplit(tx *bolt.Tx, channel string, data []byte) error {
	r, err := store.DecodeRecord(data)
	if err != nil || len(r.Moves) == 0 {
		if err := truncateMoves(tx, channel, 0); err != nil {
			return err
		}
		return tx.Bucket(bGames).Put([]byte(channel), data)
	}
	w := &liveWrite{channel: channel, moves: r.Moves}
	r.Moves = nil
	if w.head, err = json.Marshal(r); err != nil {
		return fmt.Errorf("the record of channel %s: %w", channel, err)
	}
	return w.put(tx)
}

// wholeRecord returns the record of channel's game as one piece, its moves
// inline: head, a record as Walk exports it. A head that does not decode
// is returned as it is.
func wholeRecord(tx *bolt.Tx, channel string, head []byte) []byte {
	r, err := store.DecodeRecord(head)
	if err != nil || len(r.Moves) > 0 {
		return slices.Clone(head)
	}
	list, err := storedMoves(tx, channel)
	end := bytes.LastIndexByte(head, '}')
	if err != nil || len(list) == 0 || end < 0 {
		return slices.Clone(head)
	}
	var b bytes.Buffer
	b.Write(head[:end])
	b.WriteString(`,"moves":[`)
	for i, el := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(el)
	}
	b.WriteString("]}")
	return b.Bytes()
}
