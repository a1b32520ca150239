// Package described reads a game described in a file (YAML: board,
// pieces, start position, move kinds, endings, evaluation weights; see
// docs/reference/game-format.md) and compiles it into a rules.Game.
//
// Parse checks a description and reports what is wrong at its line and
// column; Spec.New starts a game with the options' values. Each set of
// option values is compiled once into tables (neighbours in each
// direction, hash keys, each player's move generators) that every game
// with those values shares, so move generation, Play and Undo work on
// fixed arrays and allocate nothing per move.
package described

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"arbiter/rules"
	"gopkg.in/yaml.v3"
)

// Limits of a description.
const (
	maxSide  = 19 // columns and rows
	maxCells = maxSide * maxSide
	maxWords = (maxCells + 63) / 64 // 64-bit words of a square set
	maxKinds = 7                    // kinds of piece: a cell holds 1+2*kind+owner in 4 bits
	maxRules = 31                   // move rules: a move holds its rule's index in 5 bits
)

// dir is one of the eight directions on the board as drawn, clockwise from
// north (up).
type dir uint8

const (
	dirNorth dir = iota
	dirNorthEast
	dirEast
	dirSouthEast
	dirSouth
	dirSouthWest
	dirWest
	dirNorthWest
)

var (
	absNames = [8]string{"north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"}
	dirDX    = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	dirDY    = [8]int{-1, -1, 0, 1, 1, 1, 0, -1}
	// relNames are directions relative to a player's forward, by the
	// number of eighths of a turn clockwise from it.
	relNames = [8]string{"forward", "forward-right", "right", "backward-right", "backward", "backward-left", "left", "forward-left"}
	// groups are sets of directions by name.
	groups = map[string][]dir{
		"orthogonal": {dirNorth, dirEast, dirSouth, dirWest},
		"diagonal":   {dirNorthEast, dirSouthEast, dirSouthWest, dirNorthWest},
		"all":        {0, 1, 2, 3, 4, 5, 6, 7},
	}
)

// dirWords lists every word a direction may be written as.
func dirWords() []string {
	w := append(slices.Clone(absNames[:]), relNames[:]...)
	return append(w, "orthogonal", "diagonal", "all")
}

// resolveDirs turns direction words into absolute directions for a player
// whose forward is fw, without repeats.
func resolveDirs(words []string, fw dir) []dir {
	var out []dir
	add := func(d dir) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, w := range words {
		if i := slices.Index(absNames[:], w); i >= 0 {
			add(dir(i))
		} else if i := slices.Index(relNames[:], w); i >= 0 {
			add((fw + dir(i)) % 8)
		} else {
			for _, d := range groups[w] {
				add(d)
			}
		}
	}
	return out
}

// moveKind is what a move rule does.
type moveKind uint8

const (
	kindPlace  moveKind = iota // a new piece on an empty square
	kindDrop                   // a new piece into a column, falling to its lowest empty square
	kindStep                   // a piece one square in a direction
	kindSlide                  // a piece any number of empty squares in a direction
	kindJump                   // a piece over a neighbour to the empty square behind
	kindRemove                 // one of the mover's own pieces taken off the board
	kindSwap                   // the second move of the game: the opponent's pieces become the mover's, mirrored (swap.go)
	kindFly                    // a piece to any empty square, for a player with a given number of pieces (mill.go)
)

var kindNames = [...]string{"place", "drop", "step", "slide", "jump", "remove", "swap", "fly"}

// Named sets of squares a remove move may be limited to (on:).
var squareSetNames = []string{"corners", "centre", "edges"}

func kindOf(s string) moveKind { return moveKind(max(0, slices.Index(kindNames[:], s))) }

// What a target square may hold, as a bit mask.
const (
	toEmpty  uint8 = 1
	toFriend uint8 = 2
	toEnemy  uint8 = 4
)

// outflank is what a move does to lines of enemy pieces it closes off
// with a friendly piece.
type outflank uint8

const (
	outflankNone    outflank = iota
	outflankFlip             // they become the mover's
	outflankCapture          // they are removed
)

func outflankOf(s string) outflank {
	if s == "capture" {
		return outflankCapture
	}
	return outflankFlip
}

// endWhen is an ending's condition.
type endWhen uint8

const (
	whenReach endWhen = iota
	whenInARow
	whenNoPieces
	whenNoMoves
	whenBoardFull
	whenTurns
	whenNoProgress
	whenConnect  // a player's group joins two edges (connect.go)
	whenOneGroup // all of a player's pieces form one group (connect.go)
	whenFewer    // a player has fewer than count pieces once the hands are placed (mill.go)
)

var whenNames = [...]string{"reach", "in-a-row", "no-pieces", "no-moves", "board-full", "turns", "no-progress", "connect", "one-group", "fewer-pieces"}

func whenOf(s string) endWhen { return endWhen(max(0, slices.Index(whenNames[:], s))) }

// resultKind is what an ending means for the player it is about.
type resultKind uint8

const (
	resWin resultKind = iota
	resLoss
	resDraw
	resPass
	resScore
)

var resultNames = [...]string{"win", "loss", "draw", "pass", "score"}

func resultOf(s string) resultKind { return resultKind(max(0, slices.Index(resultNames[:], s))) }

// Spec is a parsed game description. It is safe for concurrent use: games
// started from it share compiled tables, built once for each set of
// option values.
type Spec struct {
	File     string        // the file it was read from, as given to Parse
	Name     string        // registry name: "breakthrough"
	Title    string        // as people write it: "Breakthrough"
	Rules    string        // the rules in words, for players
	MoveTime time.Duration // the engine's default time a move

	players       [2]playerDef
	options       []optionDef
	lets          []letDef
	columns, rows *expr
	rowsFromTop   bool
	hexagons      bool         // cells: hexagons, each touching six (connect.go)
	points        []pointRef   // board points (points.go); nil: every square
	lines, mills  [][]pointRef // lines joining points, mills (points.go, mill.go)
	boardColour   string       // "#rrggbb" or ""
	boardDark     string       // a checkered board's other colour, or ""
	boardEmoji    string       // an empty square's emoji, or ""
	pieces        []pieceDef
	start         []startDef
	rules         []ruleDef
	ends          []endDef
	scoreByPieces bool
	eval          evalDef
	shape         boardShape // grid, pits or dots
	shaped        shapedDef  // what a pits or dots board says (shape.go)

	mu       sync.Mutex
	compiled map[string]*compiled // by Options.String()
}

type playerDef struct {
	Name    string
	Colour  string // "#rrggbb" or ""
	Emoji   string
	forward dir
}

type optionDef struct {
	Key      string
	Default  int
	Min, Max int
	Values   []int
	Help     string
	// Switch: the values are on and off (1 and 0 in expressions).
	Switch bool
}

type letDef struct {
	name string
	e    *expr
}

type pieceDef struct {
	Name   string
	Text   [2]string // text glyph of player 1's and player 2's piece
	Letter string    // drawn on image boards, "" for none
}

type startDef struct {
	player    int
	piece     int
	rows      []*expr
	rowsAt    []place // where each of rows is written
	at        [][2]*expr
	atAt      []place // where each of at is written
	checkered bool
}

// place is a line and column of the description.
type place struct{ line, col int }

// placedError is an error found in building a game from its description
// with some option values, at the place in the file that caused it.
type placedError struct {
	at  place
	err error
}

func (e *placedError) Error() string { return e.err.Error() }
func (e *placedError) Unwrap() error { return e.err }

type ruleDef struct {
	kind         moveKind
	piece        int // -1: any piece
	dirs         []string
	to           uint8
	over         uint8
	capture      bool
	chain        bool
	route        bool // chain: route, the whole sequence of jumps is one move
	compulsory   bool // when the rule has a move, only compulsory rules' moves are legal
	rangeE       *expr
	outflank     outflank
	mustOutflank bool
	promote      bool
	promoteRow   *expr // nil: the far row
	promoteTo    int
	player       int      // 0: both players; 1 or 2: that player's rule only
	turn         *expr    // nil: every turn; else only on that turn of its player
	on           []string // remove: the squares allowed, by squareSetNames; nil for all
	nextTo       bool     // remove: only a piece next to an empty square (in dirs, default orthogonal)
	rotate       *expr    // place: the side of the blocks one of which turns after the placement; nil for none
	cond         *expr    // if: the rule applies only when this is not 0; nil for always
	lineDistance bool     // slide with distance: line, exactly as far as pieces stand on its line
	hand         *expr    // place: pieces each player places before other rules apply (mill.go)
	flyPieces    *expr    // fly: the pieces a player has when flying
	mill         bool     // mill: remove, a move making a mill removes an enemy piece
	node         *yaml.Node
	shoot        []string // step or slide: the directions of the blocker shot from the landing square (shoot.go)
}

type endDef struct {
	node   *yaml.Node
	when   endWhen
	result resultKind
	row    *expr // reach: nil for the far row
	piece  int   // reach, no-progress: -1 for any
	count  *expr // in-a-row's length, turns' and no-progress's count
	// in-a-row: lines anywhere on the board count, either player's, not
	// only the mover's through the square moved to.
	anywhere bool
	// connect: the player whose group counts (0 for either, else 1 or
	// 2) and the two edges it joins (dirNorth, dirEast, ...).
	player int
	edges  [2]dir
}

type evalDef struct {
	material                           []int
	mobility, advance, centre, corners int
	home                               int // per piece on its owner's own back row
	groups                             int // per group of touching pieces fewer (connect.go)
	connection                         int // per step of shortest connection (connect.go)
	territory                          int // per empty square reached first (territory.go)
	lines                              int // per open line, by its pieces (lines.go)
	houses                             int // per seed in the player's own houses (pits.go)
	near                               int // the search's placements within near steps of a piece (near.go)
}

// OptionSpecs returns the game's options for the registry.
func (s *Spec) OptionSpecs() []rules.OptionSpec {
	out := make([]rules.OptionSpec, 0, len(s.options))
	for _, o := range s.options {
		spec := rules.OptionSpec{Key: o.Key, Default: o.text(o.Default), Min: o.Min, Max: o.Max, Help: o.Help}
		for _, v := range o.Values {
			spec.Values = append(spec.Values, o.text(v))
		}
		if spec.Help == "" {
			spec.Help = o.Key
		}
		out = append(out, spec)
	}
	return out
}

// Players returns the players' names, player 1 first.
func (s *Spec) Players() [2]string { return [2]string{s.players[0].Name, s.players[1].Name} }

// Definition describes the game to the registry.
func (s *Spec) Definition() rules.Definition {
	return rules.Definition{
		Name:     s.Name,
		Title:    s.Title,
		Players:  s.Players(),
		Options:  s.OptionSpecs(),
		MoveTime: s.MoveTime,
		Summary:  s.Rules,
		New: func(opts rules.Options) (rules.Game, error) {
			if s.shape != shapeGrid {
				return s.newShaped(opts)
			}
			g, err := s.New(opts)
			switch {
			case err != nil:
				return nil, err
			case s.scoreByPieces:
				return Scored{g}, nil
			}
			return g, nil
		},
	}
}

// New starts a game from the start position. opts may be partial or nil:
// missing options take their defaults. Values that make no board (too
// large, a start square off the board) are errors.
func (s *Spec) New(opts rules.Options) (*Game, error) {
	if s.shape != shapeGrid {
		return nil, fmt.Errorf("%s is played on a %s board: start it with Definition().New", s.Name, shapeNames[s.shape])
	}
	full, err := rules.Resolve(s.Name, s.OptionSpecs(), opts)
	if err != nil {
		return nil, err
	}
	c, err := s.compile(full)
	if err != nil {
		return nil, err
	}
	g := &Game{
		spec:  s,
		c:     c,
		opts:  rules.Fix(full),
		hist:  make([]rules.Move, 0, 2*c.n+16),
		saved: make([]savedState, 0, 2*c.n+16),
		undo:  make([]uint16, 0, 8*c.n+64),
	}
	for sq := range c.n {
		if v := c.start[sq]; v != 0 {
			g.put(sq, v)
		}
	}
	g.empties = c.points() - int(g.total[0]+g.total[1])
	g.hash = c.startHash
	return g, nil
}

// compile returns the tables for the option values full, building them on
// first use.
func (s *Spec) compile(full rules.Options) (*compiled, error) {
	key := full.String()
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.compiled[key]; ok {
		return c, nil
	}
	env, err := s.env(full)
	if err != nil {
		return nil, err
	}
	c, err := build(s, env)
	if err != nil {
		var pe *placedError
		if errors.As(err, &pe) {
			return nil, &placedError{at: pe.at, err: fmt.Errorf("%s with %s: %w", s.Name, key, pe.err)}
		}
		return nil, fmt.Errorf("%s with %s: %w", s.Name, key, err)
	}
	if s.compiled == nil {
		s.compiled = map[string]*compiled{}
	}
	s.compiled[key] = c
	return c, nil
}

// text writes an option's value as players write it: on or off for a
// switch, else the number.
func (o optionDef) text(v int) string {
	if o.Switch {
		if v != 0 {
			return "on"
		}
		return "off"
	}
	return strconv.Itoa(v)
}

// value reads an option's value as text writes it.
func (o optionDef) value(s string) (int, error) {
	if o.Switch {
		switch s {
		case "on":
			return 1, nil
		case "off":
			return 0, nil
		}
		return 0, fmt.Errorf("%s=%s: write on or off", o.Key, s)
	}
	return strconv.Atoi(s)
}
