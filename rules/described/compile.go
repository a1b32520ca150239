package described

import (
	"fmt"
	"slices"

	"arbiter/rules"
)

// compiled is a description with its options' values: the tables every
// game with those values shares. Nothing in it changes after build.
type compiled struct {
	w, h, n int // columns, rows, squares (n = w*h); square = row*w + col, row 0 at the top
	words   int // 64-bit words of a square set

	nb    [8][maxCells]int16         // the neighbour in each direction, -1 off the board
	rowOf [maxCells]int16            // each square's row index (square / w, without dividing)
	mask  [maxWords]uint64           // the board's squares
	adj   [maxCells][maxWords]uint64 // the squares next to each square
	// On boards of at most 64 squares, shifting a square set by
	// shiftBy[d] (left if positive) and masking it with shiftMask[d]
	// moves every square one step in direction d.
	shiftBy   [8]int
	shiftMask [8]uint64
	// stepFrom[d] is the squares with a neighbour in direction d, the
	// square shiftBy[d] away on a board of rows (step in board.go).
	stepFrom [8][maxWords]uint64
	// hex: the cells are hexagons (cells: hexagons); one diagonal does
	// not touch, and its neighbours are -1 (connect.go).
	hex bool
	// line[a][sq] is the whole line through sq along axis a (north-south,
	// northeast-southwest, east-west, southeast-northwest), sq included,
	// for slides with distance: line (linemove.go).
	line [4][maxCells][maxWords]uint64
	// graph: the board is points joined by lines (points.go); mills are
	// its mills as square sets (mill.go), millsAt[sq] those through sq.
	graph   bool
	mills   []uint64
	millsAt [][]uint64
	// hand: the pieces each player places first (0 for none), of kind
	// handKind; flyAt[p]: the pieces with which p flies (0 for never);
	// fewer: the fewer-pieces ending's count (0 for none) (mill.go).
	hand     int
	handKind int8
	flyAt    [2]int
	fewer    int
	fewerRes resultKind
	// swap: some rule swaps at the game's second move (swap.go).
	swap bool
	// connects are the connect endings; oneGroup the one-group ending.
	connects    []connectEnd
	oneGroup    bool
	oneGroupRes resultKind
	// cls[p][v] is what a cell holding v is to player p: toEmpty,
	// toFriend or toEnemy.
	cls  [2][16]uint8
	zob  [16][maxCells]uint64 // hash keys by cell value and square
	side uint64               // hash key of player 2 to move

	start     [maxCells]uint8
	startHash uint64

	gens     [2][]gen // each player's move rules, in the description's order
	pass     bool     // a player without a move passes
	hasPlace bool     // some rule places (notation: a square)
	hasDrop  bool     // some rule drops (notation: a column)
	moveOK   bool     // some rule moves a piece (notation: two squares)
	remove   bool     // some rule removes a piece (notation: a square)
	// turnRules[p] has bit t set when some rule of player p is for p's
	// turn t alone: on that turn only those rules apply.
	turnRules [2]uint64
	// openingPlies is the plies during which turn rules may apply; the
	// hash tells those plies apart.
	openingPlies int

	reach      []reachEnd
	calm       bool // no move is ever tactical (noTactics)
	finishes   bool // calm, with lines judged anywhere that win: WinningMove looks for one
	inARow     int  // 0 for none
	inARowRes  resultKind
	anywhere   bool // in-a-row counts every line on the board, of either player
	noPieces   bool
	noPieceRes resultKind
	noMovesRes resultKind // loss when the description says nothing
	boardFull  bool
	fullRes    resultKind
	turns      int // 0 for none
	turnsRes   resultKind
	// compulsory[p]: some rule of p is compulsory.
	compulsory [2]bool
	// The no-progress ending: after progress moves in a row with no
	// capture and no move of a piece of kind progressPiece (-1: none).
	progress      int // 0 for none
	progressPiece int8
	progressRes   resultKind

	material                           [maxKinds]int
	mobility, advance, centre, corners int
	connection                         int
	territory                          int
	territoryMoves                     [2][]reach // territory.go
	lines                              int
	near                               int                 // near.go
	lineStarts                         [4][maxWords]uint64 // lines.go
	lineStep                           [maxSide + 1]int
	doubleThreat                       int                // finish.go
	blockTurns                         [2][]blockTurn     // finish.go
	adv                                [2][maxCells]int16 // rows from the player's own edge
	centrality                         [maxCells]int16
	corner                             [maxWords]uint64
	home                               int
	groups                             int                 // per group of touching pieces fewer than the opponent's
	homeRow                            [2][maxWords]uint64 // each player's own back row, for players moving north or south
}

// gen is one move rule for one player.
type gen struct {
	rule       uint8
	kind       moveKind
	piece      int8 // -1: any
	to, over   uint8
	capture    bool
	chain      bool
	route      bool  // chain: route
	routeDirs  []dir // route: both players' directions, in the order north ... northwest
	compulsory bool
	outflank   outflank
	must       bool
	rng        int   // slide: most squares, 0 for no limit
	dirs       []dir // absolute, for this player
	promoteRow int   // row index, -1 for none
	promoteTo  uint8 // cell value (with the owner) of the promoted piece
	off        bool  // the rule is the other player's
	turn       int   // the player's turn the rule is for, 0 for every turn
	// remove: the squares allowed (every square when the rule names
	// none), and whether the piece must be next to an empty square.
	onMask [maxWords]uint64
	nextTo bool
	// place: after the placement one block of rotate × rotate squares
	// turns a quarter (blocks numbered from 1, left to right, top to
	// bottom as drawn); 0 for none.
	rotate int
	// slide: exactly as many squares as pieces stand on the line
	// (distance: line).
	lineDist bool
	// mill: a move making a mill removes an enemy piece; hand: the rule
	// places from a hand of that many; flyAt: a fly rule's pieces (mill.go).
	mill  bool
	hand  int
	flyAt int
	// step or slide: the directions of the blocker shot from the landing
	// square after the move, none for no shot (shoot.go).
	shoot []dir
}

// reachEnd is a reach ending: a player's piece arriving on a row.
type reachEnd struct {
	row    [2]int // row index for each player
	piece  int8   // -1: any
	result resultKind
}

// reachedBy reports whether player p's piece of kind k arriving on row
// ends the game by re.
func (re *reachEnd) reachedBy(row int, p rules.Player, k int8) bool {
	return row == re.row[p] && (re.piece < 0 || re.piece == k)
}

// cellValue is the value of a cell holding player p's piece of kind k.
func cellValue(k int, p rules.Player) uint8 { return uint8(1 + 2*k + int(p)) }

// build compiles s with the named values env.
func build(s *Spec, env map[string]int) (*compiled, error) {
	eval := func(e *expr, what string) (int, error) {
		v, err := e.eval(env)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		return v, nil
	}
	c := &compiled{}
	var err error
	if c.w, err = eval(s.columns, "columns"); err != nil {
		return nil, err
	}
	if c.h, err = eval(s.rows, "rows"); err != nil {
		return nil, err
	}
	if c.w < 1 || c.w > maxSide || c.h < 1 || c.h > maxSide {
		return nil, fmt.Errorf("the board is %d columns by %d rows; each must be from 1 to %d", c.w, c.h, maxSide)
	}
	c.n = c.w * c.h
	c.words = (c.n + 63) / 64
	c.hex = s.hexagons
	for sq := range c.n {
		c.mask[sq/64] |= 1 << (sq % 64)
		col, row := sq%c.w, sq/c.w
		c.rowOf[sq] = int16(row)
		for d := range 8 {
			x, y := col+dirDX[d], row+dirDY[d]
			c.nb[d][sq] = -1
			if x >= 0 && x < c.w && y >= 0 && y < c.h && c.touching(dir(d), s.rowsFromTop) {
				t := y*c.w + x
				c.nb[d][sq] = int16(t)
				c.adj[sq][t/64] |= 1 << (t % 64)
			}
		}
	}
	c.buildLines()
	if err := c.buildGraph(s); err != nil {
		return nil, err
	}
	for d := range 8 {
		c.shiftBy[d] = dirDY[d]*c.w + dirDX[d]
		for sq := range c.n {
			if c.nb[d][sq] >= 0 {
				c.stepFrom[d][sq/64] |= 1 << (sq % 64)
			}
		}
		c.shiftMask[d] = c.mask[0]
		if !c.touching(dir(d), s.rowsFromTop) {
			c.shiftMask[d] = 0
		}
		for sq := range min(c.n, 64) {
			col := sq % c.w
			if dirDX[d] == 1 && col == 0 || dirDX[d] == -1 && col == c.w-1 {
				c.shiftMask[d] &^= 1 << sq
			}
		}
	}
	for p := range 2 {
		for v := range 16 {
			switch {
			case v == 0:
				c.cls[p][v] = toEmpty
			case uint8(v) == blocker:
				c.cls[p][v] = toBlocked
			case (v-1)&1 == p:
				c.cls[p][v] = toFriend
			default:
				c.cls[p][v] = toEnemy
			}
		}
	}
	seed := rules.Mix64(uint64(len(s.Name)) ^ 0x5DEECE66D)
	for v := 1; v < 16; v++ {
		for sq := range c.n {
			seed = rules.Mix64(seed + 0x9E3779B97F4A7C15)
			c.zob[v][sq] = seed
		}
	}
	c.side = rules.Mix64(seed ^ 0xA5A5A5A5)

	if err := c.buildStart(s, eval); err != nil {
		return nil, err
	}
	if err := c.buildGens(s, eval); err != nil {
		return nil, err
	}
	if err := c.buildEnds(s, eval); err != nil {
		return nil, err
	}
	if c.turns > 0 {
		c.startHash ^= c.turnKey(0)
	}
	if c.openingPlies > 0 {
		c.startHash ^= c.openingKey(0)
	}
	c.buildEval(s)
	c.buildOpenLines()
	c.calm = c.noTactics()
	c.finishes = c.calm && c.inARow > 0 && c.anywhere && c.inARowRes == resWin
	c.buildBlockTurns()
	if err := c.buildReach(); err != nil {
		return nil, err
	}
	return c, nil
}

// square returns the square of column and row numbered from 1 as in the
// notation, or -1 off the board.
func (c *compiled) square(col, row int, fromTop bool) int {
	if col < 1 || col > c.w || row < 1 || row > c.h {
		return -1
	}
	r := c.h - row
	if fromTop {
		r = row - 1
	}
	return r*c.w + col - 1
}

// rowIndex turns a row numbered as in the notation into a row index (0 at
// the top), or -1 off the board.
func (c *compiled) rowIndex(row int, fromTop bool) int {
	if row < 1 || row > c.h {
		return -1
	}
	if fromTop {
		return row - 1
	}
	return c.h - row
}

func (c *compiled) buildStart(s *Spec, eval func(*expr, string) (int, error)) error {
	for i, st := range s.start {
		for j, re := range st.rows {
			row, err := eval(re, "start row")
			if err != nil {
				return err
			}
			r := c.rowIndex(row, s.rowsFromTop)
			if r < 0 {
				return &placedError{at: st.rowsAt[j], err: fmt.Errorf("start entry %d: row %d is off the board (rows 1 to %d)", i+1, row, c.h)}
			}
			for col := range c.w {
				c.start[r*c.w+col] = cellValue(st.piece, rules.Player(st.player))
			}
		}
		for j, at := range st.at {
			col, err := eval(at[0], "start column")
			if err != nil {
				return err
			}
			row, err := eval(at[1], "start row")
			if err != nil {
				return err
			}
			sq := c.square(col, row, s.rowsFromTop)
			if sq < 0 {
				return &placedError{at: st.atAt[j], err: fmt.Errorf("start entry %d: square [%d, %d] is off the board (%d columns, %d rows)", i+1, col, row, c.w, c.h)}
			}
			c.start[sq] = cellValue(st.piece, rules.Player(st.player))
		}
		if st.checkered {
			for col := 1; col <= c.w; col++ {
				for row := 1; row <= c.h; row++ {
					c.start[c.square(col, row, s.rowsFromTop)] = cellValue(st.piece, rules.Player((col+row)&1))
				}
			}
		}
	}
	for sq := range c.n {
		if v := c.start[sq]; v != 0 {
			c.startHash ^= c.zob[v][sq]
		}
	}
	return nil
}

// turnKey is the hash key of n moves played, for games with a turn limit.
func (c *compiled) turnKey(n int) uint64 { return rules.Mix64(c.side + uint64(n)) }

// openingKey is the hash key of n moves played (n at most openingPlies),
// for games with rules for certain turns.
func (c *compiled) openingKey(n int) uint64 { return rules.Mix64(c.side ^ 0x0E1A_0000 + uint64(n)) }

func (c *compiled) buildGens(s *Spec, eval func(*expr, string) (int, error)) error {
	for i, r := range s.rules {
		for p := range 2 {
			g := gen{rule: uint8(i), kind: r.kind, piece: int8(r.piece), to: r.to, over: r.over,
				capture: r.capture, chain: r.chain, outflank: r.outflank, must: r.mustOutflank,
				promoteRow: -1, off: r.player != 0 && r.player != p+1, nextTo: r.nextTo,
				route: r.route, compulsory: r.compulsory, lineDist: r.lineDistance}
			if r.cond != nil {
				v, err := eval(r.cond, "if")
				if err != nil {
					return err
				}
				g.off = g.off || v == 0
			}
			if r.kind == kindSwap && !g.off {
				if c.w != c.h {
					return fmt.Errorf("move %d: a swap mirrors pieces across the board's diagonal, so the board must be square, not %d columns by %d rows", i+1, c.w, c.h)
				}
				c.swap = true
				c.openingPlies = max(c.openingPlies, 2)
			}
			g.dirs = resolveDirs(r.dirs, s.players[p].forward)
			if len(r.shoot) > 0 {
				g.shoot = resolveDirs(r.shoot, s.players[p].forward)
			}
			if r.route {
				both := append(resolveDirs(r.dirs, s.players[0].forward), resolveDirs(r.dirs, s.players[1].forward)...)
				for d := range dir(8) {
					if slices.Contains(both, d) {
						g.routeDirs = append(g.routeDirs, d)
					}
				}
				if len(g.routeDirs) > 4 {
					return fmt.Errorf("move %d: a chain: route jump goes in at most four directions, both players' together", i+1)
				}
			}
			if r.compulsory && !g.off {
				c.compulsory[p] = true
			}
			if r.turn != nil {
				v, err := eval(r.turn, "turn")
				if err != nil {
					return err
				}
				if v < 1 || v > 63 {
					return fmt.Errorf("turn %d: a rule's turn is from 1 to 63", v)
				}
				g.turn = v
				if !g.off {
					c.turnRules[p] |= 1 << v
					c.openingPlies = max(c.openingPlies, 2*v)
				}
			}
			if r.rotate != nil {
				v, err := eval(r.rotate, "rotate block")
				if err != nil {
					return err
				}
				if v < 2 || c.w%v != 0 || c.h%v != 0 || (c.w/v)*(c.h/v) > maxBlocks {
					return fmt.Errorf("rotate block %d: it must be 2 or more, divide the %d columns and %d rows, and make at most %d blocks", v, c.w, c.h, maxBlocks)
				}
				g.rotate = v
			}
			g.onMask = c.mask
			if len(r.on) > 0 {
				g.onMask = c.squareSet(r.on)
			}
			if r.rangeE != nil {
				v, err := eval(r.rangeE, "range")
				if err != nil {
					return err
				}
				g.rng = max(v, 0)
			}
			if r.promote {
				row := c.farRow(s.players[p].forward)
				if r.promoteRow != nil {
					v, err := eval(r.promoteRow, "promote row")
					if err != nil {
						return err
					}
					row = c.rowIndex(v, s.rowsFromTop)
				}
				g.promoteRow = row
				g.promoteTo = cellValue(r.promoteTo, rules.Player(p))
			}
			if err := c.compileMillRule(r, &g, p, eval); err != nil {
				return err
			}
			c.gens[p] = append(c.gens[p], g)
		}
		switch r.kind {
		case kindPlace:
			c.hasPlace = true
		case kindDrop:
			c.hasDrop = true
		case kindRemove:
			c.remove = true
		case kindSwap:
		case kindFly:
			c.moveOK = true
		default:
			c.moveOK = true
		}
	}
	return nil
}

// squareSet returns the squares of the named sets (squareSetNames).
func (c *compiled) squareSet(names []string) [maxWords]uint64 {
	var set [maxWords]uint64
	for sq := range c.n {
		col, row := sq%c.w, sq/c.w
		edgeCol, edgeRow := col == 0 || col == c.w-1, row == 0 || row == c.h-1
		centre := (col == (c.w-1)/2 || col == c.w/2) && (row == (c.h-1)/2 || row == c.h/2)
		for _, name := range names {
			if name == "corners" && edgeCol && edgeRow || name == "edges" && (edgeCol || edgeRow) || name == "centre" && centre {
				set[sq/64] |= 1 << (sq % 64)
			}
		}
	}
	return set
}

// farRow is the row index a player moving towards fw moves towards: the
// top row for north, the bottom for south, -1 for a sideways forward.
func (c *compiled) farRow(fw dir) int {
	switch fw {
	case dirNorth, dirNorthEast, dirNorthWest:
		return 0
	case dirSouth, dirSouthEast, dirSouthWest:
		return c.h - 1
	}
	return -1
}

func (c *compiled) buildEnds(s *Spec, eval func(*expr, string) (int, error)) error {
	c.noMovesRes = resLoss
	for _, e := range s.ends {
		switch e.when {
		case whenReach:
			re := reachEnd{piece: int8(e.piece), result: e.result}
			for p := range 2 {
				re.row[p] = c.farRow(s.players[p].forward)
				if e.row != nil {
					v, err := eval(e.row, "reach row")
					if err != nil {
						return err
					}
					re.row[p] = c.rowIndex(v, s.rowsFromTop)
				}
			}
			c.reach = append(c.reach, re)
		case whenInARow:
			v, err := eval(e.count, "in-a-row length")
			if err != nil {
				return err
			}
			if v < 2 {
				return fmt.Errorf("in-a-row length %d: it must be 2 or more", v)
			}
			c.inARow, c.inARowRes, c.anywhere = v, e.result, e.anywhere
		case whenNoPieces:
			c.noPieces, c.noPieceRes = true, e.result
		case whenNoMoves:
			c.noMovesRes = e.result
			c.pass = e.result == resPass
		case whenBoardFull:
			c.boardFull, c.fullRes = true, e.result
		case whenTurns:
			v, err := eval(e.count, "turns count")
			if err != nil {
				return err
			}
			if v < 1 {
				return fmt.Errorf("turns count %d: it must be 1 or more", v)
			}
			c.turns, c.turnsRes = v, e.result
		case whenNoProgress:
			v, err := eval(e.count, "no-progress count")
			if err != nil {
				return err
			}
			if v < 1 {
				return fmt.Errorf("no-progress count %d: it must be 1 or more", v)
			}
			c.progress, c.progressPiece, c.progressRes = v, int8(e.piece), e.result
		case whenConnect:
			c.connects = append(c.connects, c.connectEnd(e))
		case whenOneGroup:
			c.oneGroup, c.oneGroupRes = true, e.result
		case whenFewer:
			v, err := eval(e.count, "fewer-pieces count")
			if err != nil {
				return err
			}
			if v < 1 {
				return fmt.Errorf("fewer-pieces count %d: it must be 1 or more", v)
			}
			c.fewer, c.fewerRes = v, e.result
		}
	}
	return nil
}

func (c *compiled) buildEval(s *Spec) {
	copy(c.material[:], s.eval.material)
	c.mobility, c.advance, c.centre, c.corners = s.eval.mobility, s.eval.advance, s.eval.centre, s.eval.corners
	c.connection, c.territory, c.lines, c.near = s.eval.connection, s.eval.territory, s.eval.lines, s.eval.near
	c.home, c.groups = s.eval.home, s.eval.groups
	for sq := range c.n {
		col, row := sq%c.w, sq/c.w
		for p := range 2 {
			if far := c.farRow(s.players[p].forward); far >= 0 {
				own := c.h - 1 - far // the player's own back row
				c.adv[p][sq] = int16(max(row-own, own-row))
				if row == own {
					c.homeRow[p][sq/64] |= 1 << (sq % 64)
				}
			}
		}
		// Centrality: how far in from the nearest edge, in rows and columns.
		c.centrality[sq] = int16(min(col, c.w-1-col) + min(row, c.h-1-row))
	}
	for _, sq := range []int{0, c.w - 1, c.n - c.w, c.n - 1} {
		c.corner[sq/64] |= 1 << (sq % 64)
	}
}

// progressKey is the hash key of n moves in a row without progress, for
// games with a no-progress ending; 0 for none.
func (c *compiled) progressKey(n int) uint64 {
	if n == 0 {
		return 0
	}
	return rules.Mix64(c.side ^ 0x9A0_0000 + uint64(n))
}
