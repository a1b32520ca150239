package described

import (
	"strings"

	"arbiter/rules"
)

// A move that shoots (shoot: on a step or slide, the Game of the Amazons):
// after the piece lands, a blocker is placed on an empty square reached
// from the landing square like a slide in one of the shot's directions,
// through empty squares only; the square the piece just left counts as
// empty. The blocker belongs to neither player, never moves and stays for
// the rest of the game; nothing passes over it or lands on it. A shooting
// move is written from, to and the blocker's square: "d1 d7 g7".
//
// The shot is packed into the bits a turned block uses (a shooting move
// never places): its direction and distance, direction<<5 | distance, in
// bits 25-30 (low six bits), 22 and 31.

// blocker is the value of a cell holding a blocker: above every piece's
// value (1 + 2*kind + owner, kinds below maxKinds).
const blocker uint8 = 2*maxKinds + 1

// toBlocked is what a blocker is to either player: not empty, not a
// friend, not an enemy.
const toBlocked uint8 = 8

// shotBits are the bits that hold a shot.
const shotBits rules.Move = 63<<blockShift | 1<<leftBit | 1<<31

// packShot adds to m a shot in direction d, dist squares from the landing
// square.
func packShot(m rules.Move, d dir, dist int) rules.Move {
	code := rules.Move(d)<<5 | rules.Move(dist)
	return m | (code&63)<<blockShift | (code>>6&1)<<leftBit | (code>>7&1)<<31
}

// shotOf returns a move's shot: direction and distance, dist 0 for none.
func shotOf(m rules.Move) (d dir, dist int) {
	code := int(m>>blockShift&63) | int(m>>leftBit&1)<<6 | int(m>>31&1)<<7
	return dir(code >> 5), code & 31
}

// shotSquare returns the square a move's blocker goes to, the piece
// having landed on to; -1 when the move has no shot or it leaves the
// board.
func (c *compiled) shotSquare(m rules.Move, to int) int {
	d, dist := shotOf(m)
	if dist == 0 {
		return -1
	}
	t := to
	for range dist {
		if t = int(c.nb[d][t]); t < 0 {
			return -1
		}
	}
	return t
}

// strayBits reports whether m has bits that no move of rule uses.
func (c *compiled) strayBits(m rules.Move, rule int) bool {
	allowed := moveBits
	if rule < len(c.gens[0]) && len(c.gens[0][rule].shoot) > 0 {
		allowed |= shotBits
	}
	return m&^allowed != 0
}

// shootMove reads a step or slide's shoot: its directions, as directions:
// are written.
func (r *reader) shootMove(f map[string]field, m *ruleDef) {
	s, ok := f["shoot"]
	if !ok {
		return
	}
	if m.kind != kindStep && m.kind != kindSlide {
		r.fail(s.key, "shoot belongs to step and slide moves, not %s moves: the piece moves, then shoots from where it landed", kindNames[m.kind])
		return
	}
	sf := r.fields(s.value, "shoot", "directions")
	r.require(s.value, sf, "shoot", "directions")
	if r.err != nil {
		return
	}
	for _, d := range r.list(sf["directions"].value, "shoot directions") {
		m.shoot = append(m.shoot, r.word(d, "direction", dirWords()...))
	}
}

// addShots adds the moves of the piece from sq landing on to, each with
// one shot of gn's.
func (g *Game) addShots(gn *gen, from, to int, list *rules.MoveList) {
	c := g.c
	m := pack(from, to, gn.rule)
	for _, d := range gn.shoot {
		nb := &c.nb[d]
		dist := 0
		for t := int(nb[to]); t >= 0 && (g.cells[t] == 0 || t == from); t = int(nb[t]) {
			dist++
			g.add(list, packShot(m, d, dist))
			if g.probed(list) {
				return
			}
		}
	}
}

// Blocked reports whether the square at column col and row row (from 0,
// row 0 at the top as drawn) holds a blocker, shot by a shooting move.
func (g *Game) Blocked(col, row int) bool {
	if col < 0 || col >= g.c.w || row < 0 || row >= g.c.h {
		return false
	}
	return g.cells[row*g.c.w+col] == blocker
}

// Shoots reports whether some move of the game shoots a blocker.
func (g *Game) Shoots() bool {
	for _, gn := range g.c.gens[0] {
		if len(gn.shoot) > 0 {
			return true
		}
	}
	return false
}

// parseShot reads a shooting move: from, to and the blocker's square.
func (g *Game) parseShot(items []item, list *rules.MoveList) (rules.Move, error) {
	from, to, arrow := g.sq(items[0]), g.sq(items[1]), g.sq(items[2])
	var shots []string
	reached := false
	for _, m := range list.Slice() {
		f, t, _ := unpack(m)
		if f != from || t != to {
			continue
		}
		reached = true
		if a := g.c.shotSquare(m, to); a == arrow {
			return m, nil
		} else if a >= 0 {
			shots = append(shots, g.squareName(a))
		}
	}
	if !reached {
		_, err := g.parseStep(items[0], items[1], list)
		return rules.NoMove, err
	}
	return rules.NoMove, illegal("from %s the piece cannot shoot to %s; it can shoot to %s", items[1].text, items[2].text, strings.Join(shots, ", "))
}
