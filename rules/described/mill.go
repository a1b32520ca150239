package described

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"arbiter/rules"
)

// Placing from a hand, flying, mills and their removals, and the
// fewer-pieces ending (Nine Men's Morris):
//
//   - hand: N on a place move gives each player N pieces to place: while a
//     player has pieces in hand, their turn is a placement by a rule with
//     hand: and no other rule applies; once they are all placed, the other
//     rules apply and hand rules no more. Every turn places one piece, so
//     a player's pieces in hand follow from the plies played.
//   - kind: fly with pieces: N moves one of the mover's pieces to any
//     empty point, for a player with exactly N pieces on the board; the
//     player's step, slide and jump rules give no moves then.
//   - mill: remove on a place, step, slide or fly move: when the piece
//     arriving completes a mill of the mover's pieces (board: mills:),
//     the move also removes one enemy piece that is in no complete mill,
//     or any enemy piece when all of them are. Each choice is its own
//     move, written with the removal appended: "d2 x a1", "d2 d3 x a1".
//   - when: fewer-pieces with count: N is a player with fewer than N
//     pieces once both hands are placed, checked after each move.
//
// A removal is packed in the bits of a block's turn (bits 25-30, the
// square plus one), so mills need a board of at most 62 squares.

// removalMask holds a move's removal.
const removalMask rules.Move = 63 << blockShift

// maxMillSquares bounds the boards mills are on.
const maxMillSquares = 62

// removalOf returns the square a move removes, or -1.
func removalOf(m rules.Move) int {
	if m == movePass || isRoute(m) {
		return -1
	}
	return int(m>>blockShift&63) - 1
}

// buildMills compiles the mills as square sets.
func (c *compiled) buildMills(s *Spec, sqOf func(pointRef) (int, error)) error {
	if len(s.mills) == 0 {
		return nil
	}
	if c.n > maxMillSquares {
		return fmt.Errorf("mills need a board of at most %d squares, not %d", maxMillSquares, c.n)
	}
	for _, mill := range s.mills {
		var set uint64
		for _, p := range mill {
			sq, err := sqOf(p)
			if err != nil {
				return err
			}
			set |= 1 << sq
		}
		c.mills = append(c.mills, set)
	}
	c.millsAt = make([][]uint64, c.n)
	for _, mill := range c.mills {
		for b := mill; b != 0; b &= b - 1 {
			sq := bits.TrailingZeros64(b)
			c.millsAt[sq] = append(c.millsAt[sq], mill)
		}
	}
	return nil
}

// millRule reads a move's hand, pieces and mill keys.
func (r *reader) millRule(f map[string]field, m *ruleDef, names map[string]bool) {
	if h, ok := f["hand"]; ok {
		if m.kind != kindPlace {
			r.fail(h.key, "hand belongs to place moves, not %s moves", kindNames[m.kind])
		}
		m.hand = r.known(h.value, "hand", names)
	}
	if p, ok := f["pieces"]; ok {
		if m.kind != kindFly {
			r.fail(p.key, "pieces belongs to fly moves, not %s moves", kindNames[m.kind])
		}
		m.flyPieces = r.known(p.value, "pieces", names)
	} else if m.kind == kindFly && r.err == nil {
		r.fail(f["kind"].value, "a fly move needs pieces: the number of pieces a player has when they fly, such as 3")
	}
	if ml, ok := f["mill"]; ok {
		r.word(ml.value, "mill", "remove")
		if r.err == nil && !slices.Contains([]moveKind{kindPlace, kindStep, kindSlide, kindFly}, m.kind) {
			r.fail(ml.key, "mill belongs to place, step, slide and fly moves, not %s moves", kindNames[m.kind])
		}
		m.mill = true
	}
}

// checkMills checks that moves with mill: have mills to make.
func (r *reader) checkMills(s *Spec) {
	for _, m := range s.rules {
		switch {
		case !m.mill:
		case len(s.mills) == 0:
			r.fail(m.node, "mill: remove needs mills: on the board, the lines of points a mill is made on")
		case m.rotate != nil, m.mustOutflank, m.lineDistance:
			r.fail(m.node, "mill: remove cannot go with rotate, must-outflank or distance: line")
		}
	}
}

// compileMillRule fills a gen's hand and fly from its rule.
func (c *compiled) compileMillRule(r ruleDef, g *gen, p int, eval func(*expr, string) (int, error)) error {
	g.mill = r.mill
	if r.hand != nil {
		v, err := eval(r.hand, "hand")
		if err != nil {
			return err
		}
		if v < 1 || v > 63 {
			return fmt.Errorf("hand %d: a player places 1 to 63 pieces", v)
		}
		g.hand = v
		if !g.off {
			c.hand, c.handKind = v, max(g.piece, 0)
			c.openingPlies = max(c.openingPlies, 2*v)
		}
	}
	if r.flyPieces != nil {
		v, err := eval(r.flyPieces, "pieces")
		if err != nil {
			return err
		}
		if v < 1 {
			return fmt.Errorf("pieces %d: a player flies with 1 or more pieces", v)
		}
		g.flyAt = v
		if !g.off {
			c.flyAt[p] = v
		}
	}
	return nil
}

// placed returns how many of its turns p has had: with a hand, the pieces
// p has placed.
func (g *Game) placed(p rules.Player) int { return (len(g.hist) + 1 - int(p)) / 2 }

// skipRule reports whether gn gives p no moves now because of the hand or
// flying.
func (g *Game) skipRule(gn *gen, p rules.Player) bool {
	c := g.c
	if c.hand > 0 && (gn.hand > 0) != (g.placed(p) < c.hand) {
		return true
	}
	switch gn.kind {
	case kindFly:
		return int(g.total[p]) != gn.flyAt
	case kindStep, kindSlide, kindJump:
		return c.flyAt[p] > 0 && int(g.total[p]) == c.flyAt[p]
	}
	return false
}

// genFly adds p's moves of a piece to any empty point.
func (g *Game) genFly(gn *gen, p rules.Player, list *rules.MoveList) {
	c := g.c
	for w := range c.words {
		for own := g.occ[p][w]; own != 0; own &= own - 1 {
			from := w<<6 | bits.TrailingZeros64(own)
			if gn.piece >= 0 && int8((g.cells[from]-1)>>1) != gn.piece {
				continue
			}
			for w2 := range c.words {
				for e := c.mask[w2] &^ (g.occ[0][w2] | g.occ[1][w2]); e != 0; e &= e - 1 {
					g.addMove(gn, p, from, w2<<6|bits.TrailingZeros64(e), list)
				}
			}
		}
	}
}

// addMove adds the move of gn from from (-1 for a placement) to to: with
// mill: remove, once for each piece it may remove when it makes a mill.
func (g *Game) addMove(gn *gen, p rules.Player, from, to int, list *rules.MoveList) {
	m := pack(from, to, gn.rule)
	if !gn.mill {
		g.add(list, m)
		return
	}
	own := g.occ[p][0] | 1<<to
	if from >= 0 {
		own &^= 1 << from
	}
	made := false
	for _, mill := range g.c.millsAt[to] {
		if mill&own == mill {
			made = true
			break
		}
	}
	opp := g.occ[p^1][0]
	if !made || opp == 0 {
		g.add(list, m)
		return
	}
	var inMill uint64
	for _, mill := range g.c.mills {
		if mill&opp == mill {
			inMill |= mill
		}
	}
	free := opp &^ inMill
	if free == 0 {
		free = opp
	}
	for ; free != 0; free &= free - 1 {
		g.add(list, m|rules.Move(bits.TrailingZeros64(free)+1)<<blockShift)
	}
}

// fewerEnd is the fewer-pieces ending after p's move, the opponent's
// pieces counted first; unknown while a hand is being placed.
func (g *Game) fewerEnd(p rules.Player) endState {
	c := g.c
	if len(g.hist) < 2*c.hand {
		return endState{}
	}
	for _, q := range [2]rules.Player{p ^ 1, p} {
		if int(g.total[q]) < c.fewer {
			return decide(c.fewerRes, q, whyFewer)
		}
	}
	return endState{}
}

// formatRemoval writes a move with its removal: "d2 d3 x a1".
func (g *Game) formatRemoval(m rules.Move) (string, bool) {
	r := removalOf(m)
	if r < 0 || len(g.c.mills) == 0 {
		return "", false
	}
	if r >= g.c.n {
		return fmt.Sprintf("invalid move %d", uint32(m)), true
	}
	return g.FormatMove(m&^removalMask) + " x " + g.squareName(r), true
}

// parseMill reads a move of a game with mills: the move as without them,
// then "x" and the piece it removes when it makes a mill.
func (g *Game) parseMill(trimmed, text string, list *rules.MoveList) (rules.Move, error) {
	fields := strings.Fields(trimmed)
	main, rem := trimmed, ""
	x := slices.Index(fields, "x")
	if x >= 0 {
		main, rem = strings.Join(fields[:x], " "), strings.Join(fields[x+1:], " ")
	}
	m, err := g.parseItems(main, text, list)
	if err != nil {
		return m, err
	}
	base := m &^ removalMask
	var may []string
	for _, lm := range list.Slice() {
		if lm&^removalMask != base || removalOf(lm) < 0 {
			continue
		}
		name := g.squareName(removalOf(lm))
		if name == rem {
			return lm, nil
		}
		may = append(may, name)
	}
	switch {
	case len(may) == 0 && x >= 0:
		return rules.NoMove, illegal("%s makes no mill, so it removes nothing: write %s", main, g.FormatMove(base))
	case len(may) == 0:
		return base, nil
	case x < 0:
		return rules.NoMove, illegal("%s makes a mill: add the enemy piece you remove, such as %s x %s (you may remove %s)",
			main, main, may[0], strings.Join(may, ", "))
	}
	return rules.NoMove, illegal("you may not remove %q: you may remove %s", rem, strings.Join(may, ", "))
}

// InHand returns the pieces p has still to place from a hand (hand:), 0
// when the game has none.
func (g *Game) InHand(p rules.Player) int { return max(0, g.c.hand-g.placed(p)) }
