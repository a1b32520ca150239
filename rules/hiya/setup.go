package hiya

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// Setup builds a game from a diagram, for tests and studies: forced wins,
// render goldens, positions from a dispute. opts are the game's options (nil
// for the defaults); toMove is the player to move.
//
// The diagram has 8 board lines, row 8 first, each of 7 cells separated by
// spaces. A cell is "." or ".." for an empty square, or two characters: the
// side, S (South) or N (North), then the piece letter of the rules file, K
// King, J Ninja, S Samurai, j mini-Ninja, s mini-Samurai. So "SK" is South's
// King, "NJ" North's Ninja and "Ss" South's mini-Samurai. A board line may
// start with its row number; blank lines and a line of column letters
// "A B C D E F G" are ignored. Each side must have exactly one King. The
// start position is:
//
//	8 .  .  .  NK .  .  .
//	7 NJ NJ NJ .  NS NS NS
//	6 Ns Ns Ns .  Nj Nj Nj
//	5 .  .  .  .  .  .  .
//	4 .  .  .  .  .  .  .
//	3 Sj Sj Sj .  Ss Ss Ss
//	2 SS SS SS .  SJ SJ SJ
//	1 .  .  .  SK .  .  .
//	  A  B  C  D  E  F  G
//
// The game starts its history at the diagram (Ply is 0), so its Options
// recreate the start position, not the diagram: a set-up game is not for
// the store. If the player to move has no legal move, the game is already
// over.
func Setup(opts rules.Options, diagram string, toMove rules.Player) (*Game, error) {
	g, err := New(opts)
	if err != nil {
		return nil, fmt.Errorf("hiya setup: %w", err)
	}
	if toMove != rules.P1 && toMove != rules.P2 {
		return nil, fmt.Errorf("hiya setup: player to move must be p1 or p2")
	}
	var p position
	row := rows
	for n, line := range strings.Split(diagram, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || isColumnLine(fields) {
			continue
		}
		if row < 1 {
			return nil, fmt.Errorf("hiya setup: line %d: the diagram has more than 8 board lines", n+1)
		}
		if fields[0][0] >= '0' && fields[0][0] <= '9' {
			if r, err := strconv.Atoi(fields[0]); err != nil || r != row {
				return nil, fmt.Errorf("hiya setup: line %d: expected row %d, found row label %q", n+1, row, fields[0])
			}
			fields = fields[1:]
		}
		if len(fields) != cols {
			return nil, fmt.Errorf("hiya setup: line %d (row %d): %d cells, want 7", n+1, row, len(fields))
		}
		for c, cell := range fields {
			if cell == "." || cell == ".." {
				continue
			}
			s, k, err := readCell(cell)
			if err != nil {
				return nil, fmt.Errorf("hiya setup: line %d, square %s: %w", n+1, squareName(square(c+1, row)), err)
			}
			p.put(s, k, square(c+1, row))
		}
		row--
	}
	if row != 0 {
		return nil, fmt.Errorf("hiya setup: the diagram has %d board lines, want 8", rows-row)
	}
	for s := South; s <= North; s++ {
		if n := popcount(p.kind[King] & p.side[s]); n != 1 {
			return nil, fmt.Errorf("hiya setup: %s has %d Kings, want exactly 1", s, n)
		}
	}
	p.toMove = g.SideOf(toMove)
	p.hash = p.computeHash(g.keys)
	p.placed = p.placement(g.squares)
	g.pos = p
	return g, nil
}

// isColumnLine reports whether fields are the column letters A..G.
func isColumnLine(fields []string) bool {
	if len(fields) != cols {
		return false
	}
	for i, f := range fields {
		if len(f) != 1 || f[0]|0x20 != byte('a'+i) {
			return false
		}
	}
	return true
}

// readCell reads a two-character cell such as "NJ".
func readCell(cell string) (Side, Kind, error) {
	const want = "write a cell as . for empty or a side S or N then a piece K, J, S, j or s, like NJ"
	if len(cell) != 2 {
		return 0, 0, fmt.Errorf("cell %q: %s", cell, want)
	}
	var s Side
	switch cell[0] {
	case 'S':
		s = South
	case 'N':
		s = North
	default:
		return 0, 0, fmt.Errorf("cell %q: side %q is not S or N; %s", cell, cell[0], want)
	}
	for k := King; k < numKinds; k++ {
		if cell[1] == k.Letter() {
			return s, k, nil
		}
	}
	return 0, 0, fmt.Errorf("cell %q: piece %q is not K, J, S, j or s; %s", cell, cell[1], want)
}

// Diagram writes the position in Setup's format, with row numbers and
// column letters, as in Setup's example; Setup reads it back.
func (g *Game) Diagram() string {
	var b strings.Builder
	for row := rows; row >= 1; row-- {
		line := []byte(strconv.Itoa(row))
		for col := 1; col <= cols; col++ {
			k, s, ok := g.PieceAt(col, row)
			if !ok {
				line = append(line, " . "...)
				continue
			}
			line = append(line, ' ', "SN"[s], k.Letter())
		}
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	b.WriteString("  A  B  C  D  E  F  G\n")
	return b.String()
}
