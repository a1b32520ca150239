package described

import (
	"fmt"

	"arbiter/rules"
	"gopkg.in/yaml.v3"
)

// boardShape is the kind of board a description plays on.
type boardShape uint8

const (
	shapeGrid boardShape = iota // squares in columns and rows (the default)
	shapePits                   // a track of pits: each player's houses and store (sowing games)
	shapeDots                   // dots in columns and rows, with lines drawn between them (Dots and Boxes)
)

var shapeNames = [...]string{"grid", "pits", "dots"}

// Limits of the boards that are not grids.
const (
	maxHouses  = 12 // houses a player on a pits board
	maxPitSeed = 255
	maxDotSide = 7 // boxes in a row or a column of a dots board (lines fit in 128 bits)
)

// shapedDef is what a description on a pits or dots board says beyond
// the players, options and evaluation.
type shapedDef struct {
	houses      *expr // pits: houses a player
	seeds       *expr // pits: seeds in each house at the start
	skipStore   bool  // sow: the sowing passes over the opponent's store
	captureOpp  bool  // sow: capture from the opposite house
	again       bool  // the mover moves again when the move's again condition holds
	endNode     *yaml.Node
	endHouses   bool // pits: the game ends when either player's houses are all empty
	sweep       bool // pits: at the end each player adds the seeds in their own houses to their store
	endAllDrawn bool // dots: the game ends when every line is drawn
}

// shapedBoard reads the board of a pits or dots description.
func (r *reader) shapedBoard(s *Spec, n *yaml.Node, f map[string]field, names map[string]bool) {
	switch s.shape {
	case shapePits:
		for _, k := range []string{"columns", "rows", "rows-numbered"} {
			if x, has := f[k]; has {
				r.fail(x.key, "a pits board has no %s: it has houses (each player's row) and two stores", k)
			}
		}
		r.require(n, f, "a pits board", "houses")
		if r.err != nil {
			return
		}
		s.shaped.houses = r.known(f["houses"].value, "houses", names)
	case shapeDots:
		if x, has := f["houses"]; has {
			r.fail(x.key, "a dots board has no houses: it has columns and rows of boxes")
		}
		if x, has := f["rows-numbered"]; has {
			r.fail(x.key, "a dots board's rows are numbered from the bottom: leave rows-numbered out")
		}
		r.require(n, f, "a dots board", "columns", "rows")
		if r.err != nil {
			return
		}
		s.columns = r.known(f["columns"].value, "columns", names)
		s.rows = r.known(f["rows"].value, "rows", names)
	}
}

// shapedStart reads the start of a pits or dots description: seeds in
// each house, or nothing (every line undrawn).
func (r *reader) shapedStart(s *Spec, n *yaml.Node, names map[string]bool) {
	items := r.list(n, "start")
	if s.shape == shapeDots {
		if len(items) > 0 && r.err == nil {
			r.fail(n, "a dots board starts with no line drawn: write start: []")
		}
		return
	}
	if r.err == nil && len(items) != 1 {
		r.fail(n, "a pits board's start is one entry, the seeds in each house: start: [{seeds: 4}]")
	}
	if r.err != nil {
		return
	}
	f := r.fields(items[0], "a start entry", "seeds")
	r.require(items[0], f, "a start entry", "seeds")
	if r.err != nil {
		return
	}
	s.shaped.seeds = r.known(f["seeds"].value, "seeds", names)
}

// Move kinds on boards that are not grids.
var shapedKinds = map[boardShape]string{shapePits: "sow", shapeDots: "line"}

// shapedMoves reads the one move rule of a pits board (sow) or a dots
// board (line).
func (r *reader) shapedMoves(s *Spec, n *yaml.Node) {
	items := r.list(n, "moves")
	if r.err == nil && len(items) != 1 {
		r.fail(n, "a %s board has one kind of move: moves: [{kind: %s}]", shapeNames[s.shape], shapedKinds[s.shape])
		return
	}
	if r.err != nil {
		return
	}
	item := items[0]
	var f map[string]field
	if s.shape == shapePits {
		f = r.fields(item, "a sow move", "kind", "skip", "capture", "again")
	} else {
		f = r.fields(item, "a line move", "kind", "again")
	}
	r.require(item, f, "a move", "kind")
	if r.err != nil {
		return
	}
	r.word(f["kind"].value, "kind on a "+shapeNames[s.shape]+" board", shapedKinds[s.shape])
	if sk, ok := f["skip"]; ok {
		r.word(sk.value, "skip", "opponent-store")
		s.shaped.skipStore = true
	}
	if c, ok := f["capture"]; ok {
		r.word(c.value, "capture", "opposite")
		s.shaped.captureOpp = true
	}
	if a, ok := f["again"]; ok {
		if s.shape == shapePits {
			r.word(a.value, "again", "last-in-store")
		} else {
			r.word(a.value, "again", "completes-box")
		}
		s.shaped.again = true
	}
}

// shapedEnds reads the ending of a pits board (houses-empty) or a dots
// board (board-full: every line drawn); either is decided by the score.
func (r *reader) shapedEnds(s *Spec, n *yaml.Node) {
	items := r.list(n, "end")
	want := map[boardShape]string{shapePits: "houses-empty", shapeDots: "board-full"}[s.shape]
	if r.err == nil && len(items) != 1 {
		r.fail(n, "a %s board has one ending: end: [{when: %s, result: score}]", shapeNames[s.shape], want)
		return
	}
	if r.err != nil {
		return
	}
	item := items[0]
	var f map[string]field
	if s.shape == shapePits {
		f = r.fields(item, "an ending", "when", "result", "sweep")
	} else {
		f = r.fields(item, "an ending", "when", "result")
	}
	r.require(item, f, "an ending", "when", "result")
	if r.err != nil {
		return
	}
	r.word(f["when"].value, "when on a "+shapeNames[s.shape]+" board", want)
	r.word(f["result"].value, "result on a "+shapeNames[s.shape]+" board", "score")
	s.shaped.endNode = item
	if s.shape == shapePits {
		s.shaped.endHouses = true
		if sw, ok := f["sweep"]; ok {
			s.shaped.sweep = r.word(sw.value, "sweep", "own", "none") == "own"
		}
	} else {
		s.shaped.endAllDrawn = true
	}
}

// scoreWords returns the words score: may take on the description's board.
func (s *Spec) scoreWords() []string {
	switch s.shape {
	case shapePits:
		return []string{"stores"}
	case shapeDots:
		return []string{"boxes"}
	}
	return []string{"pieces"}
}

// shapedCheck checks a pits or dots description as a whole.
func (r *reader) shapedCheck(s *Spec, score, pieces *yaml.Node) {
	if r.err == nil && score == nil {
		r.fail(s.shaped.endNode, "result: score needs score: %s in the description", s.scoreWords()[0])
	}
	if r.err == nil && len(s.pieces) != 1 {
		r.fail(pieces, "a %s board has one kind of piece", shapeNames[s.shape])
	}
}

// newShaped starts a game on a pits or dots board.
func (s *Spec) newShaped(opts rules.Options) (rules.Game, error) {
	full, err := rules.Resolve(s.Name, s.OptionSpecs(), opts)
	if err != nil {
		return nil, err
	}
	env, err := s.env(full)
	if err != nil {
		return nil, err
	}
	eval := func(e *expr, what string) (int, error) {
		v, err := e.eval(env)
		if err != nil {
			return 0, fmt.Errorf("%s with %s: %s: %w", s.Name, full.String(), what, err)
		}
		return v, nil
	}
	if s.shape == shapePits {
		houses, err := eval(s.shaped.houses, "houses")
		if err != nil {
			return nil, err
		}
		seeds, err := eval(s.shaped.seeds, "seeds")
		if err != nil {
			return nil, err
		}
		return newPits(s, full, houses, seeds)
	}
	cols, err := eval(s.columns, "columns")
	if err != nil {
		return nil, err
	}
	rows, err := eval(s.rows, "rows")
	if err != nil {
		return nil, err
	}
	return newDots(s, full, cols, rows)
}

// env returns the values of the options and lets for the complete
// options full.
func (s *Spec) env(full rules.Options) (map[string]int, error) {
	env := map[string]int{}
	for _, o := range s.options {
		v, err := o.value(full[o.Key])
		if err != nil {
			return nil, fmt.Errorf("%s=%s: not a whole number", o.Key, full[o.Key])
		}
		env[o.Key] = v
	}
	for _, l := range s.lets {
		v, err := l.e.eval(env)
		if err != nil {
			return nil, fmt.Errorf("let %s: %w", l.name, err)
		}
		env[l.name] = v
	}
	return env, nil
}
