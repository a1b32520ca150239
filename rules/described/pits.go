package described

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// Pits is a game on a pits board (board: {shape: pits}): each player has a
// row of houses and a store. The pits form one track, anticlockwise as
// player 1 sees the board: player 1's houses from left to right, player
// 1's store on the right, player 2's houses from right to left, player 2's
// store on the left. Each player numbers their houses from 1 in the
// direction of sowing. A move (notation: the house's number, "3") takes
// every seed of one of the mover's non-empty houses and sows them one a
// pit along the track.
type Pits struct {
	spec *Spec
	opts rules.FixedOptions
	n    int // houses a player

	pit     [2*maxHouses + 2]uint8 // by track index; see trackHouse and trackStore
	toMove  rules.Player
	over    bool         // a player's houses are all empty (after the sweep)
	emptied rules.Player // when over, the player whose houses the last sowing emptied

	hist  []rules.Move
	saved []pitsSaved
}

// pitsSaved is what Undo restores.
type pitsSaved struct {
	pit     [2*maxHouses + 2]uint8
	toMove  rules.Player
	over    bool
	emptied rules.Player
}

var (
	_ rules.Game   = (*Pits)(nil)
	_ rules.Scorer = (*Pits)(nil)
)

func newPits(s *Spec, full rules.Options, houses, seeds int) (*Pits, error) {
	if houses < 1 || houses > maxHouses {
		return nil, fmt.Errorf("%s with %s: %d houses; a pits board has 1 to %d a player", s.Name, full.String(), houses, maxHouses)
	}
	if seeds < 0 || 2*houses*seeds > maxPitSeed {
		return nil, fmt.Errorf("%s with %s: %d seeds in each of %d houses; the board holds 0 to %d seeds in all", s.Name, full.String(), seeds, 2*houses, maxPitSeed)
	}
	g := &Pits{spec: s, opts: rules.Fix(full), n: houses,
		hist: make([]rules.Move, 0, 256), saved: make([]pitsSaved, 0, 256)}
	for p := range 2 {
		for h := range houses {
			g.pit[g.trackHouse(rules.Player(p), h)] = uint8(seeds)
		}
	}
	if g.housesEmpty(rules.P1) || g.housesEmpty(rules.P2) {
		g.over, g.emptied = true, rules.P1
	}
	return g, nil
}

// trackHouse returns the track index of p's house h (from 0).
func (g *Pits) trackHouse(p rules.Player, h int) int { return int(p)*(g.n+1) + h }

// trackStore returns the track index of p's store.
func (g *Pits) trackStore(p rules.Player) int { return int(p)*(g.n+1) + g.n }

// owner returns the player whose house or store track index t is.
func (g *Pits) owner(t int) rules.Player {
	if t > g.n {
		return rules.P2
	}
	return rules.P1
}

// opposite returns the track index of the house across from house t.
func (g *Pits) opposite(t int) int { return 2*g.n - t }

// housesEmpty reports whether p's houses are all empty.
func (g *Pits) housesEmpty(p rules.Player) bool {
	base := g.trackHouse(p, 0)
	for _, v := range g.pit[base : base+g.n] {
		if v != 0 {
			return false
		}
	}
	return true
}

// Houses returns the houses a player has.
func (g *Pits) Houses() int { return g.n }

// House returns the seeds in p's house h (numbered from 1 as in the
// notation).
func (g *Pits) House(p rules.Player, h int) int { return int(g.pit[g.trackHouse(p&1, h-1)]) }

// Store returns the seeds in p's store.
func (g *Pits) Store(p rules.Player) int { return int(g.pit[g.trackStore(p&1)]) }

// Name returns the description's name.
func (g *Pits) Name() string { return g.spec.Name }

// Title returns the game's title.
func (g *Pits) Title() string { return g.spec.Title }

// Spec returns the description the game was started from.
func (g *Pits) Spec() *Spec { return g.spec }

// Options returns the complete options.
func (g *Pits) Options() rules.Options { return g.opts.Options() }

// OptionsString returns Options().String() without copying the options.
func (g *Pits) OptionsString() string { return g.opts.String() }

// ToMove returns the player whose turn it is.
func (g *Pits) ToMove() rules.Player { return g.toMove }

// PlayerName returns the description's name for p.
func (g *Pits) PlayerName(p rules.Player) string { return g.spec.players[p&1].Name }

// PlayerColour returns p's colour from the description, and false when it
// gives none.
func (g *Pits) PlayerColour(p rules.Player) ([3]uint8, bool) {
	c, err := parseColour(g.spec.players[p&1].Colour)
	return c, err == nil
}

// PlayerEmoji returns p's emoji from the description, "" when it gives none.
func (g *Pits) PlayerEmoji(p rules.Player) string { return g.spec.players[p&1].Emoji }

// BoardColour returns the description's board colour, and false when it
// gives none.
func (g *Pits) BoardColour() ([3]uint8, bool) {
	c, err := parseColour(g.spec.boardColour)
	return c, err == nil
}

// Ply returns the number of moves played.
func (g *Pits) Ply() int { return len(g.hist) }

// History returns the moves played, oldest first.
func (g *Pits) History() []rules.Move { return g.hist[:len(g.hist):len(g.hist)] }

// Moves fills list with the houses the player to move may sow, in order.
func (g *Pits) Moves(list *rules.MoveList) {
	list.N = 0
	if g.over {
		return
	}
	base := g.trackHouse(g.toMove, 0)
	for h := range g.n {
		if g.pit[base+h] != 0 {
			list.Moves[list.N] = rules.Move(h + 1)
			list.N++
		}
	}
}

// sow sows p's house h (from 0) on pit and returns the track index
// where its last seed fell and whether the capture from the opposite
// house applied.
func (g *Pits) sow(pit *[2*maxHouses + 2]uint8, p rules.Player, h int) (last int, captured bool) {
	sh := &g.spec.shaped
	t := g.trackHouse(p, h)
	track := 2*g.n + 2
	skip := -1
	if sh.skipStore {
		skip = g.trackStore(p ^ 1)
	}
	k := pit[t]
	pit[t] = 0
	for k > 0 {
		t = (t + 1) % track
		if t != skip {
			pit[t]++
			k--
		}
	}
	store := g.trackStore(p)
	if sh.captureOpp && t != store && g.owner(t) == p && pit[t] == 1 {
		if o := g.opposite(t); pit[o] != 0 {
			pit[store] += 1 + pit[o]
			pit[t], pit[o] = 0, 0
			captured = true
		}
	}
	return t, captured
}

// Play plays m, which must be one of the moves Moves returns.
func (g *Pits) Play(m rules.Move) {
	g.saved = append(g.saved, pitsSaved{pit: g.pit, toMove: g.toMove, over: g.over, emptied: g.emptied})
	g.hist = append(g.hist, m)
	p := g.toMove
	sh := &g.spec.shaped
	last, _ := g.sow(&g.pit, p, int(m)-1)
	if !(sh.again && last == g.trackStore(p)) {
		g.toMove = p ^ 1
	}
	if !sh.endHouses {
		return
	}
	switch {
	case g.housesEmpty(p):
		g.over, g.emptied = true, p
	case g.housesEmpty(p ^ 1):
		g.over, g.emptied = true, p^1
	}
	if g.over && sh.sweep {
		for q := range rules.Player(2) {
			base := g.trackHouse(q, 0)
			for h := range g.n {
				g.pit[g.trackStore(q)] += g.pit[base+h]
				g.pit[base+h] = 0
			}
		}
	}
}

// Undo takes back the last move.
func (g *Pits) Undo() {
	n := len(g.saved) - 1
	if n < 0 {
		panic("described: Undo with no move played")
	}
	s := &g.saved[n]
	g.pit, g.toMove, g.over, g.emptied = s.pit, s.toMove, s.over, s.emptied
	g.saved = g.saved[:n]
	g.hist = g.hist[:n]
}

// Status returns the result so far: when the game is over, the player
// with more seeds in their store wins.
func (g *Pits) Status() rules.Result {
	if !g.over {
		return rules.Ongoing
	}
	return rules.ByScore(g.Store(rules.P1), g.Store(rules.P2))
}

// Standing returns the seeds in each player's store.
func (g *Pits) Standing() ([2]int, string) {
	return [2]int{g.Store(rules.P1), g.Store(rules.P2)}, "seeds in store"
}

// Outcome returns the result with the seeds in the stores.
func (g *Pits) Outcome() rules.Outcome {
	out := rules.Outcome{Result: g.Status(), Scores: [2]int{g.Store(rules.P1), g.Store(rules.P2)}, HasScores: true}
	if out.Result == rules.Ongoing {
		return out
	}
	a, b := out.Scores[0], out.Scores[1]
	counts := fmt.Sprintf("%d seeds to %d", max(a, b), min(a, b))
	if a == b {
		counts = fmt.Sprintf("%d seeds each", a)
	}
	out.Reason = fmt.Sprintf("%s's houses are empty: %s", g.PlayerName(g.emptied), counts)
	return out
}

// Hash identifies the position: the seeds in every pit and the player to
// move.
func (g *Pits) Hash() uint64 {
	h := uint64(g.toMove) * 0x9E3779B97F4A7C15
	for t, v := range g.pit[:2*g.n+2] {
		h ^= rules.Mix64(uint64(t)<<8 | uint64(v) + 0x51ED2701)
	}
	if g.over {
		h = ^h
	}
	return h
}

// FormatMove writes m: the house's number, "3".
func (g *Pits) FormatMove(m rules.Move) string {
	if m < 1 || int(m) > g.n {
		return fmt.Sprintf("invalid move %d", uint32(m))
	}
	return strconv.Itoa(int(m))
}

// ParseMove reads a house's number ("3") and checks that the player to
// move may sow it.
func (g *Pits) ParseMove(text string) (rules.Move, error) {
	if r := g.Status(); r != rules.Ongoing {
		winner := "it is a draw"
		if p, ok := r.Winner(); ok {
			winner = g.PlayerName(p) + " won"
		}
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver, fmt.Sprintf("the game is over: %s (%s)", winner, g.Outcome().Reason))
	}
	s := strings.TrimSpace(text)
	h, err := strconv.Atoi(s)
	if err != nil {
		return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: write the number of one of your houses, 1 to %d, such as 3", s, g.n))
	}
	if h < 1 || h > g.n {
		return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf("there is no house %d: your houses are 1 to %d", h, g.n))
	}
	if g.House(g.toMove, h) == 0 {
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("house %d is empty: sow a house that holds seeds", h))
	}
	return rules.Move(h), nil
}

// Announce returns "": described games say nothing with a move.
func (g *Pits) Announce(rules.Move) string { return "" }

// Tactical reports whether m captures from the opposite house or ends in
// the mover's store (and so moves again).
func (g *Pits) Tactical(m rules.Move) bool {
	p := g.toMove
	pit := g.pit
	last, captured := g.sow(&pit, p, int(m)-1)
	return captured || g.spec.shaped.again && last == g.trackStore(p)
}

// Evaluate scores the position for the player to move: the material
// weight of the kind of piece (a seed) for each seed more in the store
// than the opponent's, the houses weight for each seed more in the
// player's own houses, and the mobility weight for each house more that
// can be sown.
func (g *Pits) Evaluate() int {
	p := g.toMove
	score := g.Material()
	var seeds, sown int // own minus the opponent's
	for h := range g.n {
		own, theirs := g.pit[g.trackHouse(p, h)], g.pit[g.trackHouse(p^1, h)]
		seeds += int(own) - int(theirs)
		sown += min(int(own), 1) - min(int(theirs), 1)
	}
	score += g.spec.eval.houses*seeds + g.spec.eval.mobility*sown
	return score
}

// Material scores the stores for the player to move.
func (g *Pits) Material() int {
	p := g.toMove
	return g.spec.eval.material[0] * (g.Store(p) - g.Store(p^1))
}

// Clone returns an independent copy.
func (g *Pits) Clone() rules.Game {
	c := *g
	c.hist = append(make([]rules.Move, 0, cap(g.hist)), g.hist...)
	c.saved = append(make([]pitsSaved, 0, cap(g.saved)), g.saved...)
	return &c
}

// LastMover returns the player who made the last move (a move again
// leaves the same player to move), and false before the first move.
func (g *Pits) LastMover() (rules.Player, bool) {
	if len(g.saved) == 0 {
		return rules.P1, false
	}
	return g.saved[len(g.saved)-1].toMove, true
}

// Terms counts the position for each player: seeds in the store, seeds
// in the houses, and houses that can be sown.
func (g *Pits) Terms() []rules.Term {
	var stores, seeds, houses [2]int
	for p := range 2 {
		stores[p] = int(g.pit[g.trackStore(rules.Player(p))])
		for h := range g.n {
			n := int(g.pit[g.trackHouse(rules.Player(p), h)])
			seeds[p] += n
			if n != 0 {
				houses[p]++
			}
		}
	}
	return []rules.Term{{Name: "seeds in the store", Count: stores}, {Name: "seeds in the houses", Count: seeds}, {Name: "houses that can be sown", Count: houses}}
}
