package rules

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The encoding of a whole game, for the store:
//
//	byte    'A'                      magic
//	byte    EncodingVersion
//	uvarint len, bytes               game name
//	uvarint len, bytes               options (Options.String(), seed included)
//	uvarint n, n x uvarint           the moves played, packed
//
// A game is its options and its moves: decoding replays them from the
// start, checking each against the legal moves, so every piece of history
// the rules need (HiQUE's repetition counts, Sixes' last moves, Upthrust's
// colours from the seed) is rebuilt exactly and a corrupt record can never
// yield an impossible position. Move packings are part of this format: a
// game that changes its packing must bump EncodingVersion.
const EncodingVersion = 1

const (
	encodingMagic = 'A'
	maxNameLen    = 64
	maxOptionsLen = 4096
	maxEncMoves   = 1 << 16
)

// Encode returns the compact, versioned encoding of g.
func Encode(g Game) []byte {
	opts := OptionsString(g)
	hist := g.History()
	buf := make([]byte, 0, 4+len(g.Name())+len(opts)+binary.MaxVarintLen32*(len(hist)+3))
	buf = append(buf, encodingMagic, EncodingVersion)
	buf = binary.AppendUvarint(buf, uint64(len(g.Name())))
	buf = append(buf, g.Name()...)
	buf = binary.AppendUvarint(buf, uint64(len(opts)))
	buf = append(buf, opts...)
	buf = binary.AppendUvarint(buf, uint64(len(hist)))
	for _, m := range hist {
		buf = binary.AppendUvarint(buf, uint64(m))
	}
	return buf
}

// optionsStringer is a Game that gives its options' String form without
// the copy of them that Options returns.
type optionsStringer interface{ OptionsString() string }

// OptionsString returns g.Options().String(), without the copy of the
// options that Options makes when g keeps their text.
func OptionsString(g Game) string {
	if s, ok := g.(optionsStringer); ok {
		return s.OptionsString()
	}
	return g.Options().String()
}

// ErrCorrupt is the kind of every decoding error.
var ErrCorrupt = errors.New("corrupt game encoding")

// Decode rebuilds a game from Encode's output. Anything malformed, of an
// unknown version, or holding an illegal move is an error wrapping
// ErrCorrupt; Decode never panics on bad input.
func (r *Registry) Decode(data []byte) (Game, error) {
	d := decoder{data: data}
	if len(data) < 2 || data[0] != encodingMagic {
		return nil, fmt.Errorf("%w: not a game record", ErrCorrupt)
	}
	if data[1] != EncodingVersion {
		return nil, fmt.Errorf("%w: encoding version %d, this build reads %d", ErrCorrupt, data[1], EncodingVersion)
	}
	d.pos = 2
	name := d.bytes(maxNameLen, "game name")
	optText := d.bytes(maxOptionsLen, "options")
	n := d.uvarint(maxEncMoves, "move count")
	if d.err != nil {
		return nil, d.err
	}
	opts, err := ParseOptions(string(optText))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	g, err := r.New(string(name), opts)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	var list MoveList
	for i := uint64(0); i < n; i++ {
		m := Move(d.uvarint(uint64(NoMove), "move"))
		if d.err != nil {
			return nil, d.err
		}
		g.Moves(&list)
		if !list.Contains(m) {
			return nil, fmt.Errorf("%w: move %d is not legal in its position", ErrCorrupt, i+1)
		}
		g.Play(m)
	}
	if d.pos != len(data) {
		return nil, fmt.Errorf("%w: %d stray bytes at the end", ErrCorrupt, len(data)-d.pos)
	}
	return g, nil
}

// decoder reads the encoding, keeping the first error.
type decoder struct {
	data []byte
	pos  int
	err  error
}

func (d *decoder) uvarint(max uint64, what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.err = fmt.Errorf("%w: %s is cut short or overflows", ErrCorrupt, what)
		return 0
	}
	if v > max {
		d.err = fmt.Errorf("%w: %s %d is over %d", ErrCorrupt, what, v, max)
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) bytes(max uint64, what string) []byte {
	n := d.uvarint(max, what+" length")
	if d.err != nil {
		return nil
	}
	if uint64(len(d.data)-d.pos) < n {
		d.err = fmt.Errorf("%w: %s is cut short", ErrCorrupt, what)
		return nil
	}
	b := d.data[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return b
}
