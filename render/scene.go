package render

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"arbiter/rules"
	"arbiter/rules/described"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// A scene is a position reduced to what every style draws: a grid of cells
// in display order (top row first, left column first), the labels on its
// edges, and the status lines under it. The game adapters (hique.go,
// upthrust.go, hiya.go, sixes.go) build scenes in the standard view; sceneOf
// adds what every game has (the players' names, whose turn, the result) and
// turn turns them half around for the other side's view.
type scene struct {
	title  string // the game as people write it: "HiQUE"
	layout layout
	cols   int
	rows   int
	cells  []cell // rows*cols, row-major, display order

	labels    []string // the memory of the three below
	colLabels []string // one a display column: "1", "A"
	// topLabels, when not nil, label the columns above the board, which
	// then differ from those below (Kalah's far row counts from the right).
	topLabels []string
	rowLabels []string // one a display row
	rowNotes  []string // beside a display row (Upthrust's points), "" for none
	ruleBelow []bool   // a dividing line under a display row
	// blockSide: image: a heavier line sets apart the square blocks of
	// blockSide × blockSide cells (Pentago's quarters that turn); 0 for none.
	blockSide int

	pieces    []pieceStyle // indexed by cell.piece; pieces[0] is unused
	textWidth int          // characters a cell takes in text (3 or 4)
	palette   scenePalette
	emojiKey  string   // a line saying what the emoji pieces are, "" if plain
	textKey   []string // lines saying what the text pieces are, none if the side lines say it
	imageKey  string   // a caption line saying what the image's pieces are, "" if plain
	squarePx  int      // image: a square's side in pixels
	gapPx     int      // image: the lattice's width between squares
	// edges are the board's edges as drawn (top, right, bottom, left)
	// that belong to a player, in that player's looks; zero for none.
	edges [4]edgeLook
	// openLattice: the lattice's points and borders are blank in text
	// until a piece stands on them (Dots and Boxes' undrawn lines).
	openLattice bool
	// pits: every piece is a pit, named with its seeds (Kalah), and a
	// cell's words are its pit's.
	pits bool
	// links are the lines of a board of points, each as the indexes in
	// cells of the two points it joins.
	links [][2]int

	status status
	// marks counts the cells with each mark (setMark keeps it).
	marks [hitMark + 1]int
	// moved are the indexes in cells of the last move's start and end,
	// -1 before the first move or for a pass; a mark removing a piece
	// may cover their marks, these stay.
	moved [2]int
}

// layout is the shape of a game's board.
type layout uint8

const (
	// grid is a plain board of squares.
	grid layout = iota
	// lattice is HiQUE's coordinate grid: squares where both coordinates
	// are odd, points (the corners where four squares meet) where both are
	// even, and the borders between squares elsewhere.
	lattice
	// hexes is a rhombus of hexagons (Hex): each display row lies half a
	// cell right of the row below it, so that a cell touches two cells
	// of each row next to its own (hexes.go).
	hexes
	// points is a board of points joined by lines (Nine Men's Morris):
	// cells that are no point are blank or carry a line (points.go).
	points
)

// cellKind is what a cell of the grid is.
type cellKind uint8

const (
	square cellKind = iota // a square pieces stand on
	point                  // a HiQUE dark point (guards stand here)
	hedge                  // a HiQUE border between squares one above the other
	vedge                  // a HiQUE border between squares side by side
	blank                  // on a board of points, no point and no line (points.go)
	hline                  // on a board of points, a line across
	vline                  // on a board of points, a line up and down
	cellKinds
)

// mark says what the last move did to a cell.
type mark uint8

const (
	noMark   mark = iota
	fromMark      // the last move started here
	toMark        // the last move ended here
	hitMark       // the last move removed or hurt the piece here
)

// cell is one cell of a scene.
type cell struct {
	kind  cellKind
	piece uint8 // index into scene.pieces; 0 for none
	mark  mark
	zone  bool // in a marked zone (Upthrust's scoring rows)
	// void: nothing ever stands here (the corners of a board of pits
	// beside the stores): drawn as the board, but no target to click.
	void bool
}

// pieceStyle is how one kind of piece of one player looks in every style.
type pieceStyle struct {
	text string // ASCII glyph; as wide as the scene's glyph
	// turnedText, when set, replaces text in the turned view (Hi-Ya!'s
	// arrows point the way a side moves on the screen).
	turnedText string
	ansi       string // SGR parameters for colour text, e.g. "1;31"
	emoji      string
	name       string // the piece in words, for screen readers: "Black runner"

	shape  shape      // image shape
	fill   color.RGBA // image body colour
	stroke color.RGBA // image outline colour
	ink    color.RGBA // image letter colour
	letter string     // image letter ("" for none)
	size   float64    // image size as a fraction of the cell
}

// shape is the outline of a piece in images.
type shape uint8

const (
	disc shape = iota
	box
	diamond
	bar // fills its cell: a line drawn on a lattice border
)

// scenePalette is a scene's cell colours and marks in every style.
type scenePalette struct {
	emptyText  [cellKinds]string // text glyph of an empty cell, by cellKind
	emptyEmoji [cellKinds]string // emoji of an empty cell, by cellKind
	zoneEmoji  string            // emoji of an empty square in a zone
	fromEmoji  string            // emoji of the square a move left
	hitEmoji   string            // emoji of a square a piece was removed from

	board    color.RGBA // image: squares
	boardAlt color.RGBA // image: the other squares of a checkered board (zero: plain)
	frame    color.RGBA // image: lattice, grid lines and frame
	zone     color.RGBA // image: squares in the zone
}

// status is what is said under a board.
type status struct {
	sides  [2]sideStatus // player 1 first
	toMove rules.Player
	over   bool
	result rules.Outcome // when over
	last   string        // the last move in words, "" before the first
	clock  string        // the game's count of moves, "move 12 of 300"
}

// sideStatus is one player's line of status.
type sideStatus struct {
	pieces  []uint8 // legend: the player's kinds of piece
	title   string  // the game's name for the player: "Black"
	figures string  // "5 runners, timing 7"
}

// markMove marks the last move's cells: from display cell fc, fr to tc, tr.
func (s *scene) markMove(fc, fr, tc, tr int) {
	s.setMark(fc, fr, fromMark)
	s.setMark(tc, tr, toMark)
	s.moved = [2]int{fr*s.cols + fc, tr*s.cols + tc}
}

// setMark marks the cell at display column c and row r with m, over any
// mark it had.
func (s *scene) setMark(c, r int, m mark) {
	cl := s.at(c, r)
	s.marks[cl.mark]--
	s.marks[m]++
	cl.mark = m
}

// at returns the cell at display column c and row r.
func (s *scene) at(c, r int) *cell { return &s.cells[r*s.cols+c] }

// turn turns the scene half around: the last row becomes the first and the
// last column the first.
func (s *scene) turn() {
	slices.Reverse(s.cells)
	for i, l := range s.links {
		s.links[i] = [2]int{len(s.cells) - 1 - l[0], len(s.cells) - 1 - l[1]}
	}
	for i, c := range s.moved {
		if c >= 0 {
			s.moved[i] = len(s.cells) - 1 - c
		}
	}
	slices.Reverse(s.colLabels)
	if s.topLabels != nil {
		slices.Reverse(s.topLabels)
		s.colLabels, s.topLabels = s.topLabels, s.colLabels
	}
	for i := range s.pieces {
		if p := &s.pieces[i]; p.turnedText != "" {
			p.text, p.turnedText = p.turnedText, p.text
		}
	}
	slices.Reverse(s.rowLabels)
	slices.Reverse(s.rowNotes)
	s.edges = [4]edgeLook{s.edges[2], s.edges[3], s.edges[0], s.edges[1]}
	// A rule under display row i lies above row i+1; turned, it lies under
	// row rows-2-i. A rule under the last row has no row below it.
	if s.rows > 0 {
		slices.Reverse(s.ruleBelow[:s.rows-1])
		s.ruleBelow[s.rows-1] = false
	}
}

// newScene returns an empty scene of cols x rows cells, with room for
// styles piece styles: reuse (nil for none) emptied, its memory kept where
// it has room.
// labelsAbove returns the labels of the columns above the board.
func (s *scene) labelsAbove() []string {
	if s.topLabels != nil {
		return s.topLabels
	}
	return s.colLabels
}

func newScene(reuse *scene, title string, l layout, cols, rows, styles int) *scene {
	s := reuse
	if s == nil {
		s = new(scene)
	}
	labels := emptied(s.labels, cols+2*rows) // one allocation for the three
	pieces := s.pieces[:0]
	if cap(pieces) < 1+styles {
		pieces = make([]pieceStyle, 0, 1+styles)
	}
	*s = scene{
		title:     title,
		layout:    l,
		cols:      cols,
		rows:      rows,
		cells:     emptied(s.cells, cols*rows),
		labels:    labels,
		colLabels: labels[:cols:cols],
		rowLabels: labels[cols : cols+rows : cols+rows],
		rowNotes:  labels[cols+rows:],
		ruleBelow: emptied(s.ruleBelow, rows),
		pieces:    append(pieces, pieceStyle{}),
		textKey:   s.textKey[:0],
		textWidth: 3,
		squarePx:  60,
		moved:     [2]int{-1, -1},
	}
	s.marks[noMark] = cols * rows
	return s
}

// emptied returns n zero elements in buf's memory when it has room for
// them, else in new memory.
func emptied[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// addPiece adds a piece style and returns its index.
func (s *scene) addPiece(p pieceStyle) uint8 {
	s.pieces = append(s.pieces, p)
	return uint8(len(s.pieces) - 1)
}

// sceneOf reduces g to a scene seen as opt says. A game render does not know
// is an error.
func sceneOf(g rules.Game, opt Options) (*scene, error) { return sceneInto(nil, g, opt) }

// sceneInto is sceneOf reusing the memory of the scene reuse (nil for
// none), which it overwrites.
func sceneInto(reuse *scene, g rules.Game, opt Options) (*scene, error) {
	var (
		s      *scene
		bottom rules.Player // who sits at the bottom of the standard view
		seats  = true       // whether the game has sides to turn to
	)
	switch g := g.(type) {
	case *hique.Game:
		s, bottom = hiqueScene(reuse, g), rules.P2
	case *upthrust.Game:
		s, seats = upthrustScene(reuse, g), false
	case *hiya.Game:
		s, bottom = hiyaScene(reuse, g), g.PlayerOf(hiya.South)
	case *sixes.Game:
		s, bottom = sixesScene(reuse, g), rules.P1
	case *described.Pits:
		s, seats = pitsScene(reuse, g), false
	case *described.Dots:
		s, seats = dotsScene(reuse, g), false
	default:
		if g == nil {
			return nil, fmt.Errorf("render: no game")
		}
		d, ok := described.Of(g)
		if !ok {
			return nil, fmt.Errorf("render: no drawing for game %q", g.Name())
		}
		s = describedScene(reuse, d)
		bottom, seats = d.Seated()
	}
	for p := range s.status.sides {
		s.status.sides[p].title = g.PlayerName(rules.Player(p))
	}
	s.status.toMove = g.ToMove()
	out := outcome(g, opt)
	if out.Result != rules.Ongoing {
		s.status.over = true
		s.status.result = out
	}
	if seats && opt.View != Standard && ViewFrom(bottom) != opt.View {
		s.turn()
	}
	return s, nil
}

// appendPlayerTitle appends a player as "Black (alice)", or "Black"
// without a name, to dst.
func appendPlayerTitle(dst []byte, title, name string) []byte {
	dst = append(dst, title...)
	if name != "" {
		dst = append(append(append(dst, " ("...), name...), ')')
	}
	return dst
}

// sideLine is player p's line of status after the legend: "Black (alice):
// 5 runners, timing 5".
func sideLine(s *scene, p int, names [2]string) string {
	return string(appendSideLine(make([]byte, 0, 64), s, p, names))
}

// appendSideLine appends sideLine(s, p, names) to dst.
func appendSideLine(dst []byte, s *scene, p int, names [2]string) []byte {
	side := &s.status.sides[p]
	return append(append(appendPlayerTitle(dst, side.title, names[p]), ": "...), side.figures...)
}

// stateLine says whose turn it is and the game's count of moves, or how the
// game ended: "Black (alice) wins: runner reached the far side".
func stateLine(s *scene, names [2]string) string {
	return string(appendStateLine(make([]byte, 0, 64), s, names))
}

// appendStateLine appends stateLine(s, names) to dst.
func appendStateLine(dst []byte, s *scene, names [2]string) []byte {
	st := &s.status
	if !st.over {
		dst = append(appendPlayerTitle(dst, st.sides[st.toMove].title, names[st.toMove]), " to move"...)
		if st.clock != "" {
			dst = append(append(dst, ", "...), st.clock...)
		}
		return dst
	}
	if w, ok := st.result.Result.Winner(); ok {
		dst = append(appendPlayerTitle(dst, st.sides[w].title, names[w]), " wins"...)
	} else {
		dst = append(dst, "Draw"...)
	}
	if st.result.Reason != "" {
		dst = append(append(dst, ": "...), st.result.Reason...)
	}
	return dst
}

// lastLine says what the last move was, "" before the first.
func lastLine(s *scene) string {
	if s.status.last == "" {
		return ""
	}
	return "Last: " + s.status.last
}

// removals says which pieces a move removed, owner by owner in the order
// given: ", removing White's runners at 5 7, 7 7". at holds the squares of
// each player's pieces removed, in the game's notation.
func removals(g rules.Game, noun string, at [2][]string, order ...rules.Player) string {
	var b strings.Builder
	for _, p := range order {
		if len(at[p]) == 0 {
			continue
		}
		n := noun
		if len(at[p]) > 1 {
			n += "s"
		}
		fmt.Fprintf(&b, ", removing %s's %s at %s", g.PlayerName(p), n, strings.Join(at[p], ", "))
	}
	return b.String()
}

// longest returns the length of the longest label.
func longest(labels []string) int {
	n := 0
	for _, l := range labels {
		n = max(n, len(l))
	}
	return n
}

// plural writes n with its noun: "1 runner", "2 runners".
func plural(n int, noun string) string { return strconv.Itoa(n) + " " + noun + pluralEnd(n) }

// pluralEnd is the ending of a noun counted n times: "s", or "" for one.
func pluralEnd(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// A Board is a game reduced once to what every style draws, so that a
// caller who needs the board in more than one form (a text board and the
// last move's effects for the same reply, say) builds it once. It is a
// snapshot: later moves in the game do not change it (Redraw does). A Board
// is safe for use by several goroutines at once, except while redrawn.
type Board struct {
	s   *scene
	opt Options
	err error // a game render has no drawing for
}

// NewBoard reduces g to a board seen as opt says.
func NewBoard(g rules.Game, opt Options) *Board {
	s, err := sceneOf(g, opt)
	return &Board{s: s, opt: opt, err: err}
}

// Redraw makes b the board NewBoard(g, opt) returns, in b's memory: for a
// caller that draws one board after another (a reply to each move) and
// keeps its boards for reuse. What b showed before is gone, so b must not
// be in use elsewhere while it is redrawn.
func (b *Board) Redraw(g rules.Game, opt Options) {
	s, err := sceneInto(b.s, g, opt)
	if s == nil {
		s = b.s // kept for the next redraw
	}
	*b = Board{s: s, opt: opt, err: err}
}

// LastMoveEffects says what g's last move did beyond moving, as the board's
// last-move line says it: "Black's runner at 8 9 removed", "row 3 to 5";
// "" when there is nothing more to say or no move was played.
func LastMoveEffects(g rules.Game) string { return NewBoard(g, Options{}).LastMoveEffects() }

// LastMoveEffects is the package's LastMoveEffects of the board's game.
func (b *Board) LastMoveEffects() string {
	if b.err != nil {
		return ""
	}
	_, effects, _ := strings.Cut(b.s.status.last, ", ")
	return effects
}

// marksKey says what the last move's marks on the board mean in a style,
// naming only the marks there are: "Marks: (.) from, [X] to, *X* removed
// or hurt" in text. It is "" when the board has no marks.
func marksKey(s *scene, from, to, hit string) string {
	return string(appendMarksKey(nil, s, from, to, hit))
}

// appendMarksKey appends marksKey(s, from, to, hit) to dst.
func appendMarksKey(dst []byte, s *scene, from, to, hit string) []byte {
	sep := "Marks: "
	for _, m := range [...]struct {
		mark       mark
		sign, word string
	}{{fromMark, from, " from"}, {toMark, to, " to"}, {hitMark, hit, " removed or hurt"}} {
		if s.marks[m.mark] > 0 {
			dst = append(append(append(dst, sep...), m.sign...), m.word...)
			sep = ", "
		}
	}
	return dst
}
