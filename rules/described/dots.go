package described

import (
	"fmt"
	"math/bits"
	"strings"

	"arbiter/rules"
)

// Dots is a game on a dots board (board: {shape: dots}): columns × rows
// boxes, their corners dots named like squares (a1 at the bottom left, up
// to (columns+1, rows+1)). A move draws one undrawn line between two
// orthogonally adjacent dots (notation: the two dots, the lower-left one
// first, "a1 b1" or "a1 a2"); a box whose four sides are drawn belongs to
// the player who drew the last of them.
//
// Lines are numbered: the horizontal ones row by row from the bottom,
// then the vertical ones; a move is its line's number plus one.
type Dots struct {
	spec *Spec
	opts rules.FixedOptions
	t    *dotsTables

	drawn  [2]uint64 // lines drawn, by number
	owner  [maxDotSide * maxDotSide]uint8
	boxes  [2]int
	toMove rules.Player

	hist   []rules.Move
	movers []rules.Player // the player who drew each line of hist
}

// dotsTables are a dots board's lines and boxes.
type dotsTables struct {
	cols, rows int // boxes
	lines      int
	// lineBox holds the (one or two) boxes beside each line, -1 for none.
	lineBox [2 * maxDotSide * (maxDotSide + 1)][2]int16
	// boxLines holds each box's four sides as a line set.
	boxLines [maxDotSide * maxDotSide][2]uint64
	// ends holds each line's two dots as (column, row) from 0 at the
	// bottom left, the lower-left one first.
	ends [2 * maxDotSide * (maxDotSide + 1)][2][2]int8
}

var (
	_ rules.Game   = (*Dots)(nil)
	_ rules.Scorer = (*Dots)(nil)
)

func newDots(s *Spec, full rules.Options, cols, rows int) (*Dots, error) {
	if cols < 1 || cols > maxDotSide || rows < 1 || rows > maxDotSide {
		return nil, fmt.Errorf("%s with %s: %d columns by %d rows of boxes; a dots board has 1 to %d of each", s.Name, full.String(), cols, rows, maxDotSide)
	}
	t := &dotsTables{cols: cols, rows: rows}
	horizontal := cols * (rows + 1)
	t.lines = horizontal + (cols+1)*rows
	for l := range t.lines {
		t.lineBox[l] = [2]int16{-1, -1}
	}
	mark := func(l, b int) {
		t.boxLines[b][l>>6] |= 1 << (l & 63)
		if t.lineBox[l][0] < 0 {
			t.lineBox[l][0] = int16(b)
		} else {
			t.lineBox[l][1] = int16(b)
		}
	}
	for y := range rows + 1 {
		for x := range cols {
			l := y*cols + x
			t.ends[l] = [2][2]int8{{int8(x), int8(y)}, {int8(x + 1), int8(y)}}
			if y > 0 {
				mark(l, (y-1)*cols+x)
			}
			if y < rows {
				mark(l, y*cols+x)
			}
		}
	}
	for y := range rows {
		for x := range cols + 1 {
			l := horizontal + y*(cols+1) + x
			t.ends[l] = [2][2]int8{{int8(x), int8(y)}, {int8(x), int8(y + 1)}}
			if x > 0 {
				mark(l, y*cols+x-1)
			}
			if x < cols {
				mark(l, y*cols+x)
			}
		}
	}
	return &Dots{spec: s, opts: rules.Fix(full), t: t,
		hist: make([]rules.Move, 0, t.lines), movers: make([]rules.Player, 0, t.lines)}, nil
}

// Boxes returns the columns and rows of boxes.
func (g *Dots) Boxes() (cols, rows int) { return g.t.cols, g.t.rows }

// Lines returns the number of lines on the board.
func (g *Dots) Lines() int { return g.t.lines }

// LineEnds returns the two dots of line l as columns and rows from 0 at
// the bottom left, the lower-left one first.
func (g *Dots) LineEnds(l int) (x0, y0, x1, y1 int) {
	e := g.t.ends[l]
	return int(e[0][0]), int(e[0][1]), int(e[1][0]), int(e[1][1])
}

// Drawn reports whether line l is drawn.
func (g *Dots) Drawn(l int) bool { return g.drawn[l>>6]>>(l&63)&1 != 0 }

// LineOf returns the line a move draws, and false for a value that is no
// move of the game.
func (g *Dots) LineOf(m rules.Move) (int, bool) {
	l := int(m) - 1
	return l, m >= 1 && l < g.t.lines
}

// BoxOwner returns the owner of the box at column col and row row (from 0
// at the bottom left), and false while it is not complete.
func (g *Dots) BoxOwner(col, row int) (rules.Player, bool) {
	v := g.owner[row*g.t.cols+col]
	return rules.Player(v - 1), v != 0
}

// Score returns the boxes p owns.
func (g *Dots) Score(p rules.Player) int { return g.boxes[p&1] }

// Name returns the description's name.
func (g *Dots) Name() string { return g.spec.Name }

// Title returns the game's title.
func (g *Dots) Title() string { return g.spec.Title }

// Spec returns the description the game was started from.
func (g *Dots) Spec() *Spec { return g.spec }

// Options returns the complete options.
func (g *Dots) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Dots) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Dots) ToMove() rules.Player { return g.toMove }

// PlayerName returns the description's name for p.
func (g *Dots) PlayerName(p rules.Player) string { return g.spec.players[p&1].Name }

// PlayerColour returns p's colour from the description, and false when it
// gives none.
func (g *Dots) PlayerColour(p rules.Player) ([3]uint8, bool) {
	c, err := parseColour(g.spec.players[p&1].Colour)
	return c, err == nil
}

// PlayerEmoji returns p's emoji from the description, "" when it gives none.
func (g *Dots) PlayerEmoji(p rules.Player) string { return g.spec.players[p&1].Emoji }

// BoardColour returns the description's board colour, and false when it
// gives none.
func (g *Dots) BoardColour() ([3]uint8, bool) {
	c, err := parseColour(g.spec.boardColour)
	return c, err == nil
}

// Ply returns the number of moves played.
func (g *Dots) Ply() int { return len(g.hist) }

// History returns the moves played, oldest first.
func (g *Dots) History() []rules.Move { return g.hist[:len(g.hist):len(g.hist)] }

// Moves fills list with every undrawn line, by number.
func (g *Dots) Moves(list *rules.MoveList) {
	list.N = 0
	for w := range 2 {
		free := ^g.drawn[w]
		if rest := g.t.lines - 64*w; rest < 64 {
			free &= 1<<max(rest, 0) - 1
		}
		for ; free != 0; free &= free - 1 {
			list.Moves[list.N] = rules.Move(w<<6 | bits.TrailingZeros64(free) + 1)
			list.N++
		}
	}
}

// Play plays m, which must be one of the moves Moves returns.
func (g *Dots) Play(m rules.Move) {
	l := int(m) - 1
	p := g.toMove
	g.hist = append(g.hist, m)
	g.movers = append(g.movers, p)
	g.drawn[l>>6] |= 1 << (l & 63)
	done := 0
	for _, b := range g.t.lineBox[l] {
		if b < 0 {
			continue
		}
		sides := &g.t.boxLines[b]
		if g.drawn[0]&sides[0] == sides[0] && g.drawn[1]&sides[1] == sides[1] {
			g.owner[b] = uint8(p) + 1
			g.boxes[p]++
			done++
		}
	}
	if done == 0 || !g.spec.shaped.again {
		g.toMove = p ^ 1
	}
}

// Undo takes back the last move.
func (g *Dots) Undo() {
	n := len(g.hist) - 1
	if n < 0 {
		panic("described: Undo with no move played")
	}
	l := int(g.hist[n]) - 1
	// Every box beside the line that is complete was completed by it.
	for _, b := range g.t.lineBox[l] {
		if b >= 0 && g.owner[b] != 0 {
			g.boxes[g.owner[b]-1]--
			g.owner[b] = 0
		}
	}
	g.drawn[l>>6] &^= 1 << (l & 63)
	g.toMove = g.movers[n]
	g.hist, g.movers = g.hist[:n], g.movers[:n]
}

// Status returns the result so far: when every line is drawn, the player
// with more boxes wins.
func (g *Dots) Status() rules.Result {
	if len(g.hist) < g.t.lines {
		return rules.Ongoing
	}
	return rules.ByScore(g.boxes[0], g.boxes[1])
}

// Standing returns each player's boxes.
func (g *Dots) Standing() ([2]int, string) { return g.boxes, "boxes" }

// Outcome returns the result with the boxes each player owns.
func (g *Dots) Outcome() rules.Outcome {
	out := rules.Outcome{Result: g.Status(), Scores: g.boxes, HasScores: true}
	if out.Result == rules.Ongoing {
		return out
	}
	a, b := g.boxes[0], g.boxes[1]
	if a == b {
		out.Reason = fmt.Sprintf("every line is drawn: %d boxes each", a)
	} else {
		out.Reason = fmt.Sprintf("every line is drawn: %d boxes to %d", max(a, b), min(a, b))
	}
	return out
}

// Hash identifies the position: the lines drawn, each box's owner and the
// player to move.
func (g *Dots) Hash() uint64 {
	var theirs uint64
	for b, v := range g.owner[:g.t.cols*g.t.rows] {
		if v == 2 {
			theirs |= 1 << b
		}
	}
	return rules.Mix64(g.drawn[0]) ^ rules.Mix64(g.drawn[1]^0x2545F4914F6CDD1D) ^
		rules.Mix64(theirs^0x9E3779B97F4A7C15) ^ uint64(g.toMove)*0xD6E8FEB86659FD93
}

// dotName writes a dot: column letter, row number from 1 at the bottom.
func dotName(x, y int8) string { return fmt.Sprintf("%c%d", 'a'+x, y+1) }

// FormatMove writes m as its line's two dots, the lower-left one first:
// "a1 b1".
func (g *Dots) FormatMove(m rules.Move) string {
	l, ok := g.LineOf(m)
	if !ok {
		return fmt.Sprintf("invalid move %d", uint32(m))
	}
	e := g.t.ends[l]
	return dotName(e[0][0], e[0][1]) + " " + dotName(e[1][0], e[1][1])
}

// ParseMove reads a line as its two dots ("a1 b1", in either order, with
// spaces, a comma or a dash between) and checks that it is undrawn.
func (g *Dots) ParseMove(text string) (rules.Move, error) {
	if r := g.Status(); r != rules.Ongoing {
		winner := "it is a draw"
		if p, ok := r.Winner(); ok {
			winner = g.PlayerName(p) + " won"
		}
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver, fmt.Sprintf("the game is over: %s (%s)", winner, g.Outcome().Reason))
	}
	how := fmt.Sprintf("write a line as its two dots, the lower-left one first, such as a1 b1 or a1 a2 (dots a1 to %s)",
		dotName(int8(g.t.cols), int8(g.t.rows)))
	items, ok := readItems(strings.TrimSpace(text))
	if !ok || len(items) != 2 || items[0].row == 0 || items[1].row == 0 {
		return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s", strings.TrimSpace(text), how))
	}
	for _, it := range items {
		if it.col > g.t.cols || it.row > g.t.rows+1 {
			return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf("%s is off the board: %s", it.text, how))
		}
	}
	a, b := items[0], items[1]
	if a.col > b.col || a.row > b.row {
		a, b = b, a
	}
	for l := range g.t.lines {
		e := g.t.ends[l]
		if int(e[0][0]) == a.col && int(e[0][1]) == a.row-1 && int(e[1][0]) == b.col && int(e[1][1]) == b.row-1 {
			if g.Drawn(l) {
				return rules.NoMove, illegal("the line %s %s is drawn already", a.text, b.text)
			}
			return rules.Move(l + 1), nil
		}
	}
	return rules.NoMove, rules.NewMoveError(rules.ErrNotAPlace, fmt.Sprintf("%s and %s are not next to each other: a line joins two dots side by side or one above the other", a.text, b.text))
}

// Announce returns "": described games say nothing with a move.
func (g *Dots) Announce(rules.Move) string { return "" }

// Tactical reports whether m completes a box.
func (g *Dots) Tactical(m rules.Move) bool {
	l := int(m) - 1
	d := g.drawn
	d[l>>6] |= 1 << (l & 63)
	for _, b := range g.t.lineBox[l] {
		if b < 0 {
			continue
		}
		sides := &g.t.boxLines[b]
		if d[0]&sides[0] == sides[0] && d[1]&sides[1] == sides[1] {
			return true
		}
	}
	return false
}

// Evaluate scores the position for the player to move: the material
// weight of the kind of piece (a box) for each box more than the
// opponent's, and the mobility weight for each box with three sides drawn
// (one the player to move may take).
func (g *Dots) Evaluate() int {
	score := g.Material()
	if w := g.spec.eval.mobility; w != 0 {
		n := 0
		for b := range g.t.cols * g.t.rows {
			sides := &g.t.boxLines[b]
			if bits.OnesCount64(g.drawn[0]&sides[0])+bits.OnesCount64(g.drawn[1]&sides[1]) == 3 {
				n++
			}
		}
		score += w * n
	}
	return score
}

// Material scores the boxes for the player to move.
func (g *Dots) Material() int {
	p := g.toMove
	return g.spec.eval.material[0] * (g.boxes[p] - g.boxes[p^1])
}

// Clone returns an independent copy.
func (g *Dots) Clone() rules.Game {
	c := *g
	c.hist = append(make([]rules.Move, 0, cap(g.hist)), g.hist...)
	c.movers = append(make([]rules.Player, 0, cap(g.movers)), g.movers...)
	return &c
}

// LastMover returns the player who made the last move (a move again
// leaves the same player to move), and false before the first move.
func (g *Dots) LastMover() (rules.Player, bool) {
	if len(g.movers) == 0 {
		return rules.P1, false
	}
	return g.movers[len(g.movers)-1], true
}

// BoxText returns the one-character text of p's boxes (the piece's text
// in the description).
func (g *Dots) BoxText(p rules.Player) string { return g.spec.pieces[0].Text[p&1] }

// Terms counts the position for each player: boxes owned.
func (g *Dots) Terms() []rules.Term {
	return []rules.Term{{Name: "boxes", Count: g.boxes}}
}
