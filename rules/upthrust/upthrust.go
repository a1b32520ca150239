// Package upthrust is the game Upthrust (Madison Avenue Games, the 1998 AI
// course) as docs/rules/upthrust.md states it: four columns, eleven
// rows, four colours of four pieces, each player moving the pieces of two
// colours straight up their columns.
//
// # Board and packing
//
// Columns are 1..4 from left to right and rows 1..11 from bottom to top. A
// square is the bit (row-1)*4 + (column-1) of a 44-bit board; the position
// is one such board per colour plus their union. Since a piece only ever
// moves up its own column, every column always holds exactly one piece of
// each colour, and a piece is named by its colour and column ("G1"). The
// rows of the 16 pieces, a nibble each, fill one uint64 that alone
// determines the position; Hash mixes it.
//
// A move is packed as colour<<2 | (column-1), 0..15, with Pass = 16; see
// MovePiece. The packing is part of the store's encoding and stays fixed.
//
// Invariants a change must keep: the perft counts of the rules file; the
// notation and the move packing above (stored records depend on them);
// Moves, Play and Undo allocate nothing.
package upthrust

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
)

// Name is the game's registry name.
const Name = "upthrust"

// Board size.
const (
	Columns = 4
	Rows    = 11
	// FirstScoringRow is the lowest row of the scoring zone (rows 7..11).
	FirstScoringRow = 7
)

// Pass is the packed move of a forced pass.
const Pass rules.Move = 16

// IsPass reports whether m is the pass (rules.Passer).
func (g *Game) IsPass(m rules.Move) bool { return m == Pass }

// maxPlies bounds the length of any game. Each piece move raises the sum
// of all pieces' rows by at least one, from at least 40 (every column holds
// rows 1..4 at least) to at most 152 (rows 8..11 in every column), so a
// game has at most 112 piece moves; a pass is always followed by a piece
// move, so at most 112 passes more.
const maxPlies = 256

// Colour is one of the four colours of pieces.
type Colour uint8

// The four colours, in the order the rules file names them.
const (
	Green Colour = iota
	Red
	Blue
	Yellow
)

// Letter returns the colour's letter in move text: 'G', 'R', 'B' or 'Y'.
func (c Colour) Letter() byte {
	if c > Yellow {
		return '?'
	}
	return "GRBY"[c]
}

// String returns the colour's name: "green", "red", "blue" or "yellow".
func (c Colour) String() string {
	switch c {
	case Green:
		return "green"
	case Red:
		return "red"
	case Blue:
		return "blue"
	case Yellow:
		return "yellow"
	}
	return "colour(" + strconv.Itoa(int(c)) + ")"
}

// RowValue returns the points a piece in row scores: 60, 40, 30, 20 and 10
// for rows 11 down to 7, and 0 for rows 1..6 (and anything off the board).
func RowValue(row int) int {
	switch row {
	case 11:
		return 60
	case 10:
		return 40
	case 9:
		return 30
	case 8:
		return 20
	case 7:
		return 10
	}
	return 0
}

// MovePiece unpacks m: the colour and column (1..4) of the piece it moves,
// or pass true for a pass.
func MovePiece(m rules.Move) (c Colour, col int, pass bool) {
	if m == Pass {
		return 0, 0, true
	}
	return Colour(m >> 2 & 3), int(m&3) + 1, false
}

// pieceMove packs the move of colour c's piece in column col (0-based).
func pieceMove(c Colour, col int) rules.Move { return rules.Move(c)<<2 | rules.Move(col) }

// Definition describes Upthrust to the registry.
func Definition() rules.Definition {
	return rules.Definition{
		Name:     Name,
		Title:    "Upthrust",
		Players:  [2]string{"Player 1", "Player 2"},
		Options:  optionSpecs(),
		MoveTime: 15 * time.Second,
		Summary:  "Four columns, eleven rows; rows 7..11 score 10, 20, 30, 40, 60. Each player owns two of the colours green, red, blue and yellow. A piece moves straight up as many rows as there are pieces in its row, onto an empty square on the board; the most advanced piece of a colour may not make a one-row move, and below row 7 it may not land in a row holding a piece of its colour. With no legal move you pass. The game ends when neither side can move or at most two pieces are left below the scoring rows; the higher score wins. Moves: \"G1\" (colour and column) or \"pass\".",
		New:      rules.NewFunc(New),
	}
}

// optionSpecs returns the rules file's Variants: colours, and the seed
// that random colours are drawn from.
func optionSpecs() []rules.OptionSpec {
	return []rules.OptionSpec{
		{
			Key:      "colours",
			Default:  "random",
			Help:     "player 1's two colours (player 2 gets the others), or random",
			Validate: checkColours,
			Describe: "random or two different colour letters from g, r, b, y naming player 1's colours, e.g. gb",
		},
		{
			Key:      "seed",
			Default:  "random",
			Help:     "the seed random colours are drawn from; random draws one when the game is created",
			Validate: checkSeed,
			Describe: "a whole number from 0 to 9223372036854775807, or random",
		},
	}
}

// checkColours validates the colours option and normalises it to lower
// case letters in the order green, red, blue, yellow ("bg" gives "gb").
func checkColours(value string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	if v == "random" {
		return v, nil
	}
	const want = "colours must be random or two different colour letters from g, r, b, y naming player 1's colours, e.g. gb"
	if len(v) != 2 {
		return "", fmt.Errorf("%s", want)
	}
	a, okA := colourOfLetter(v[0])
	b, okB := colourOfLetter(v[1])
	if !okA || !okB || a == b {
		return "", fmt.Errorf("%s", want)
	}
	return colourPairText([2]Colour{min(a, b), max(a, b)}), nil
}

// checkSeed validates the seed option: random or a whole number from 0 to
// the largest int64, normalised to canonical digits.
func checkSeed(value string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	if v == "random" {
		return v, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return "", fmt.Errorf("seed must be a whole number from 0 to %d, or random", int64(math.MaxInt64))
	}
	return strconv.FormatInt(n, 10), nil
}

// colourOfLetter reads a colour letter in either case.
func colourOfLetter(b byte) (Colour, bool) {
	switch b {
	case 'g', 'G':
		return Green, true
	case 'r', 'R':
		return Red, true
	case 'b', 'B':
		return Blue, true
	case 'y', 'Y':
		return Yellow, true
	}
	return 0, false
}

// colourPairText writes two colours as the colours option does: "gb".
func colourPairText(p [2]Colour) string {
	return strings.ToLower(string([]byte{p[0].Letter(), p[1].Letter()}))
}

// colourPairs lists the six ways to give player 1 two colours, in the
// order seedColours draws them from. Part of the replay contract: a seed
// must always give the same colours.
func colourPairs() [6][2]Colour {
	return [6][2]Colour{
		{Green, Red}, {Green, Blue}, {Green, Yellow},
		{Red, Blue}, {Red, Yellow}, {Blue, Yellow},
	}
}

// seedColours returns player 1's colours drawn from seed. The mapping is
// fixed (a SplitMix64 step, then one of the six pairs), so a stored seed
// replays the same game forever.
func seedColours(seed uint64) [2]Colour {
	return colourPairs()[splitmix64(seed)%6]
}

// splitmix64 is one SplitMix64 step: the golden-ratio increment, then the
// finaliser. A strong, fixed 64-bit mixer.
func splitmix64(x uint64) uint64 { return rules.Mix64(x + 0x9E3779B97F4A7C15) }

// Game is a game of Upthrust in progress.
type Game struct {
	pos     position
	moves   [maxPlies]rules.Move
	undo    [maxPlies]undoInfo // what Undo needs of each move played
	ply     int
	colours [2][2]Colour       // each player's colours, in canonical order
	owner   [4]rules.Player    // the player of each colour
	opts    rules.FixedOptions // complete and resolved: colours letters, seed
}

var (
	_ rules.Game   = (*Game)(nil)
	_ rules.Scorer = (*Game)(nil)
)

// undoInfo is what Undo needs besides the move: the rows the piece moved
// up (0 for a pass) and the cached result before the move.
type undoInfo struct {
	steps  uint8
	status uint8
}

// New starts a game from the start position. opts may be partial: missing
// options take their defaults. With colours=random (the default) player 1's
// colours are drawn from the seed option, and when that is random too a
// seed is drawn first; Options reports both, so New(g.Options()) starts the
// same game again.
func New(opts rules.Options) (*Game, error) {
	g, err := newGame(opts)
	if err != nil {
		return nil, err
	}
	g.pos = startPosition()
	return g, nil
}

// newGame resolves the options and sets up everything but the position.
func newGame(opts rules.Options) (*Game, error) {
	full, err := rules.Resolve(Name, optionSpecs(), opts)
	if err != nil {
		return nil, err
	}
	var pair [2]Colour
	if full["colours"] == "random" {
		if full["seed"] == "random" {
			full["seed"] = strconv.FormatInt(rand.Int64(), 10)
		}
		seed, err := strconv.ParseUint(full["seed"], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("seed %q: %w", full["seed"], err)
		}
		pair = seedColours(seed)
		full["colours"] = colourPairText(pair)
	} else {
		pair[0], _ = colourOfLetter(full["colours"][0])
		pair[1], _ = colourOfLetter(full["colours"][1])
	}
	g := &Game{opts: rules.Fix(full)}
	g.colours[rules.P1] = pair
	k := 0
	for c := Green; c <= Yellow; c++ {
		if c == pair[0] || c == pair[1] {
			g.owner[c] = rules.P1
			continue
		}
		g.owner[c] = rules.P2
		g.colours[rules.P2][k] = c
		k++
	}
	return g, nil
}

// startPosition returns the position the rules file draws: rows 4..1 hold
// G R B Y, R B Y G, B Y G R, Y G R B; player 1 to move.
func startPosition() position {
	var p position
	for col := 0; col < Columns; col++ {
		for c := Green; c <= Yellow; c++ {
			row := 4 - (int(c)-col+4)%4 // 1-based
			p.boards[c] |= 1 << square(col, row-1)
		}
	}
	p.finish(rules.P1)
	return p
}

// Name returns "upthrust".
func (g *Game) Name() string { return Name }

// Options returns the complete options with the colours resolved to two
// letters and the seed they were drawn from (or random, when the colours
// were given).
func (g *Game) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Game) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() rules.Player { return g.pos.toMove }

// PlayerName returns "Player 1" or "Player 2".
func (g *Game) PlayerName(p rules.Player) string {
	if p == rules.P1 {
		return "Player 1"
	}
	return "Player 2"
}

// Ply returns the number of moves (passes included) played since the start.
func (g *Game) Ply() int { return g.ply }

// History returns the moves played, oldest first; the slice is the game's.
func (g *Game) History() []rules.Move { return g.moves[:g.ply:g.ply] }

// Owner returns the player who moves colour c.
func (g *Game) Owner(c Colour) rules.Player { return g.owner[c&3] }

// Colours returns player p's two colours in the order green, red, blue,
// yellow.
func (g *Game) Colours(p rules.Player) [2]Colour { return g.colours[p&1] }

// PieceAt returns the colour of the piece on column col, row row, and
// whether there is one; false also for a place off the board.
func (g *Game) PieceAt(col, row int) (Colour, bool) {
	if col < 1 || col > Columns || row < 1 || row > Rows {
		return 0, false
	}
	bit := uint64(1) << square(col-1, row-1)
	for c := Green; c <= Yellow; c++ {
		if g.pos.boards[c]&bit != 0 {
			return c, true
		}
	}
	return 0, false
}

// RowOf returns the row (1..11) of colour c's piece in column col (1..4),
// or 0 for a column or colour that does not exist.
func (g *Game) RowOf(c Colour, col int) int {
	if c > Yellow || col < 1 || col > Columns {
		return 0
	}
	return g.pos.rowOf(c, col-1) + 1
}

// RowBefore is RowOf in the position before the last move (the current one
// when no move was played), from the game's record of the move: what a
// board needs to say where the last move came from, without a copy of the
// game.
func (g *Game) RowBefore(c Colour, col int) int {
	row := g.RowOf(c, col)
	if g.ply > 0 && row > 0 && g.moves[g.ply-1] == pieceMove(c, col-1) {
		row -= int(g.undo[g.ply-1].steps)
	}
	return row
}

// Scores returns each player's row points now, player 1 first: the sum of
// RowValue over the rows of the pieces of the player's colours.
func (g *Game) Scores() [2]int {
	return [2]int{g.pos.points(g.colours[rules.P1]), g.pos.points(g.colours[rules.P2])}
}

// Hash returns the position's hash: a bijective 64-bit mixer (SplitMix64's
// finaliser) over the packed rows of the 16 pieces, which determine the
// pieces exactly, with a key for player 2 to move. Two positions with the
// same side to move never collide.
func (g *Game) Hash() uint64 { return g.pos.hash() }

// Clone returns an independent copy of the game.
func (g *Game) Clone() rules.Game {
	c := *g
	return &c
}

// Announce returns "": Upthrust has nothing to announce.
func (g *Game) Announce(m rules.Move) string { return "" }

// Tactical reports whether m brings a piece into the scoring zone, from a
// row of 1..6 to a row of 7..11. No Upthrust move removes or hurts a piece;
// entering the zone is the move that changes the score most, so the engine
// searches it first and in quiescence (at most 16 such moves in a game, so
// a quiescence search over them ends).
func (g *Game) Tactical(m rules.Move) bool {
	c, col, pass := MovePiece(m)
	if pass {
		return false
	}
	p := &g.pos
	row := p.rowOf(c, col-1)
	n := p.rowCount(row)
	return row < FirstScoringRow-1 && row+n >= FirstScoringRow-1
}

// Moves fills list with the legal moves of the player to move: the pieces
// of their colours that may move, column by column, first colour first; or
// the single move Pass when they have none but the opponent has one; or
// nothing when the game is over.
func (g *Game) Moves(list *rules.MoveList) {
	list.N = 0
	p := &g.pos
	if p.status != statusUnknown && p.status != uint8(rules.Ongoing) {
		return
	}
	if p.lowCount() <= 2 {
		p.status = uint8(g.final())
		return
	}
	k := p.classes()
	mine := g.colours[p.toMove]
	t0, t1 := p.targets(mine[0], &k), p.targets(mine[1], &k)
	if t0|t1 != 0 {
		addMoves(list, mine[0], columnsOf(t0))
		addMoves(list, mine[1], columnsOf(t1))
		p.status = uint8(rules.Ongoing)
		return
	}
	theirs := g.colours[p.toMove^1]
	if p.targets(theirs[0], &k)|p.targets(theirs[1], &k) != 0 {
		list.Add(Pass)
		p.status = uint8(rules.Ongoing)
		return
	}
	p.status = uint8(g.final())
}

// countMoves returns the number of moves Moves would list, without listing
// them or caching the result.
func (g *Game) countMoves() uint64 { return g.pos.count(&g.colours) }

// count is countMoves in p, whose players have the colours given.
func (p *position) count(colours *[2][2]Colour) uint64 {
	if p.status != statusUnknown && p.status != uint8(rules.Ongoing) || p.lowCount() <= 2 {
		return 0
	}
	k := p.classes()
	mine := colours[p.toMove]
	if n := bits.OnesCount64(p.targets(mine[0], &k)) + bits.OnesCount64(p.targets(mine[1], &k)); n > 0 {
		return uint64(n)
	}
	theirs := colours[p.toMove^1]
	if p.targets(theirs[0], &k)|p.targets(theirs[1], &k) != 0 {
		return 1 // the forced pass
	}
	return 0
}

// childCounts returns the sum over the moves of p of each resulting
// position's count, the moves being those Moves lists: it finds each move
// from its landing square (targets) and makes it on a copy of the
// squares alone (count reads neither rows nor the result), and a forced
// pass is a copy with the other side to move.
func (p *position) childCounts(colours *[2][2]Colour) uint64 {
	if p.status != statusUnknown && p.status != uint8(rules.Ongoing) || p.lowCount() <= 2 {
		return 0
	}
	k := p.classes()
	mine := colours[p.toMove]
	t := [2]uint64{p.targets(mine[0], &k), p.targets(mine[1], &k)}
	child := *p
	child.toMove ^= 1
	child.status = statusUnknown
	if t[0]|t[1] == 0 {
		theirs := colours[p.toMove^1]
		if p.targets(theirs[0], &k)|p.targets(theirs[1], &k) != 0 {
			return child.count(colours) // the forced pass
		}
		return 0
	}
	var n uint64
	for i, c := range mine {
		own := p.boards[c&3]
		for to := t[i]; to != 0; to &= to - 1 {
			land := to & -to
			move := land | own&colMask(bits.TrailingZeros64(land)&3)
			child.boards[c&3], child.occ = own^move, p.occ^move
			n += child.count(colours)
		}
		child.boards[c&3] = own
	}
	return n
}

// Perft counts the move sequences of length depth as rules.Perft does
// (rules.Perfter): with direct calls, and the last two plies counted
// without playing or listing them (childCounts). It allocates once, for
// the move lists.
func (g *Game) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return g.perft(make([]rules.MoveList, depth-1))
}

// perft counts the sequences of length len(lists)+1, with
// lists[len(lists)-1] as this ply's move list.
func (g *Game) perft(lists []rules.MoveList) uint64 {
	if len(lists) == 0 {
		return g.countMoves()
	}
	if len(lists) == 1 {
		return g.pos.childCounts(&g.colours)
	}
	list := &lists[len(lists)-1]
	g.Moves(list)
	var n uint64
	for _, m := range list.Slice() {
		g.Play(m)
		n += g.perft(lists[:len(lists)-1])
		g.Undo()
	}
	return n
}

// addMoves adds the move of colour c's piece in each column set in mask,
// in column order.
func addMoves(list *rules.MoveList, c Colour, mask uint8) {
	for ; mask != 0; mask &= mask - 1 {
		list.Add(pieceMove(c, bits.TrailingZeros8(mask)))
	}
}

// Play plays m, which must be one of the moves Moves returns.
func (g *Game) Play(m rules.Move) {
	p := &g.pos
	var n uint
	if m != Pass {
		n = p.move(m)
	}
	g.undo[g.ply] = undoInfo{steps: uint8(n), status: p.status}
	g.moves[g.ply] = m
	g.ply++
	p.toMove ^= 1
	p.status = statusUnknown
}

// move moves the piece of m, which is not a pass, and returns the rows it
// moved up; the side to move and the status are the caller's.
func (p *position) move(m rules.Move) uint {
	// Every shift count is below 64; the &63 saves the check.
	shift := 4 * uint(m&15)
	row := uint(p.rows>>shift) & 0xF
	n := uint(nibbleCount>>(4*(p.occ>>(row*4&63)&0xF)&63)) & 0xF
	from := row*4 + uint(m&3)
	move := uint64(1)<<(from&63) | uint64(1)<<((from+4*n)&63)
	p.boards[m>>2&3] ^= move
	p.occ ^= move
	p.rows += uint64(n) << shift
	return n
}

// Undo takes back the last move played; it panics if none was played.
func (g *Game) Undo() {
	if g.ply == 0 {
		panic("upthrust: Undo with no move played")
	}
	g.ply--
	m, u := g.moves[g.ply], g.undo[g.ply]
	p := &g.pos
	if m != Pass {
		shift := 4 * uint(m&15)
		p.rows -= uint64(u.steps) << shift
		from := uint(p.rows>>shift)&0xF*4 + uint(m&3)
		move := uint64(1)<<(from&63) | uint64(1)<<((from+4*uint(u.steps))&63)
		p.boards[m>>2&3] ^= move
		p.occ ^= move
	}
	p.toMove ^= 1
	p.status = u.status
}

// Status returns Ongoing until the game ends, then the result by row
// points.
func (g *Game) Status() rules.Result {
	p := &g.pos
	if p.status == statusUnknown {
		if p.lowCount() > 2 && p.anyMovable() {
			p.status = uint8(rules.Ongoing)
		} else {
			p.status = uint8(g.final())
		}
	}
	return rules.Result(p.status)
}

// final returns the result of a finished game: the higher row points win,
// equal points draw.
func (g *Game) final() rules.Result {
	s := g.Scores()
	return rules.ByScore(s[0], s[1])
}

// Outcome returns the result with its reason and the row points, player 1
// first (the points are there while the game goes on, too). The reason
// follows the order of the rules file's End section: "neither player can
// move" first, then "at most two pieces left below the scoring zone", each
// with the points, the winner's first: "neither player can move, 90 to 70".
func (g *Game) Outcome() rules.Outcome {
	s := g.Scores()
	out := rules.Outcome{Result: g.Status(), Scores: s, HasScores: true}
	if out.Result == rules.Ongoing {
		return out
	}
	hi, lo := max(s[0], s[1]), min(s[0], s[1])
	reason := "at most two pieces left below the scoring zone"
	if !g.pos.anyMovable() {
		reason = "neither player can move"
	}
	out.Reason = fmt.Sprintf("%s, %d to %d", reason, hi, lo)
	return out
}

// Standing returns the row points now: it makes Upthrust a rules.Scorer.
func (g *Game) Standing() ([2]int, string) { return g.Scores(), "points" }
