package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
)

// exactScore is plain minimax with the search's mate-distance scores.
func exactScore(g rules.Game, ply int) int {
	if r := g.Status(); r != rules.Ongoing {
		w, ok := r.Winner()
		switch {
		case !ok:
			return 0
		case w == g.ToMove():
			return Mate - ply
		}
		return -(Mate - ply)
	}
	var list rules.MoveList
	g.Moves(&list)
	best := -inf
	for _, m := range list.Slice() {
		g.Play(m)
		best = max(best, -exactScore(g, ply+1))
		g.Undo()
	}
	return best
}

// randomToy plays n random moves from the start of tic-tac-toe.
func randomToy(r *rand.Rand, n int) *toy {
	t := newToy(".........")
	var list rules.MoveList
	for i := 0; i < n && t.Status() == rules.Ongoing; i++ {
		t.Moves(&list)
		t.Play(list.Moves[r.IntN(list.N)])
	}
	return t
}

func TestSearchMatchesMinimaxOnToy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := NewSearcher[rules.Game](NewTable(1), nil)
	for i := 0; i < 200; i++ {
		g := randomToy(r, 2+r.IntN(5))
		if g.Status() != rules.Ongoing {
			continue
		}
		want := exactScore(g.Clone(), 0)
		before := g.Hash()
		info := s.Search(context.Background(), rules.Game(g), Limits{Depth: 9})
		if info.Score != want {
			t.Fatalf("position %v: score %d, minimax %d", g.board, info.Score, want)
		}
		if g.Hash() != before {
			t.Fatalf("search changed the game it was given")
		}
		// The move chosen must reach the minimax score.
		g.Play(info.Move)
		if got := -exactScore(g, 1); got != want {
			t.Fatalf("position %v: move %d reaches %d, best is %d", g.board, info.Move, got, want)
		}
		g.Undo()
	}
}

func TestSearchToyWinInOneAndTwo(t *testing.T) {
	s := NewSearcher[rules.Game](NewTable(1), nil)
	// Win in one.
	g := newToy("xx. oo. ...")
	info := s.Search(context.Background(), rules.Game(g), Limits{Depth: 4})
	if info.Move != 2 || info.Score != Mate-1 {
		t.Fatalf("win in one: got move %d score %d", info.Move, info.Score)
	}
	// Win in two: X to move, a fork at 6 (threatening 3 and 7) wins next move.
	g = newToy("x.o .o. ..x")
	info = s.Search(context.Background(), rules.Game(g), Limits{Depth: 6})
	if n, ok := MateIn(info.Score); !ok || n != 2 {
		t.Fatalf("win in two: got move %d score %d (%s)", info.Move, info.Score, ScoreString(info.Score))
	}
}

func TestSearchLimits(t *testing.T) {
	s := NewSearcher[rules.Game](NewTable(1), nil)
	g := rules.Game(newToy("........."))
	for _, d := range []int{1, 2, 3} {
		info := s.Search(context.Background(), g, Limits{Depth: d})
		if info.Depth != d {
			t.Errorf("depth limit %d: reached %d", d, info.Depth)
		}
	}
	for _, n := range []uint64{1, 10, 100, 1000} {
		info := s.Search(context.Background(), g, Limits{Nodes: n})
		if info.Nodes > n {
			t.Errorf("node limit %d: visited %d", n, info.Nodes)
		}
		var list rules.MoveList
		g.Moves(&list)
		if !list.Contains(info.Move) {
			t.Errorf("node limit %d: move %d is not legal", n, info.Move)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	info := s.Search(ctx, g, Limits{})
	var list rules.MoveList
	g.Moves(&list)
	if !list.Contains(info.Move) {
		t.Errorf("cancelled context: move %d is not legal", info.Move)
	}
	info = s.Search(context.Background(), g, Limits{MoveTime: time.Millisecond})
	if !list.Contains(info.Move) {
		t.Errorf("1 ms: move %d is not legal", info.Move)
	}
}

// At 20 ms a move the search keeps 2 ms back and starts another iteration
// until three quarters of the rest are gone: at 10 ms of 18 it deepens (an
// iteration of the last depth that Hi-Ya!'s middle games reach in 20 ms
// often ends there), at 14 ms it stops.
func TestTimeUseAtShortMoveTimes(t *testing.T) {
	if got := safetyMargin(20 * time.Millisecond); got != 2*time.Millisecond {
		t.Errorf("safetyMargin(20ms) = %v, want 2ms", got)
	}
	if got := safetyMargin(5 * time.Second); got != 50*time.Millisecond {
		t.Errorf("safetyMargin(5s) = %v, want 50ms", got)
	}
	budget := 18 * time.Millisecond
	for _, c := range []struct {
		elapsed time.Duration
		want    bool
	}{{time.Millisecond, true}, {10 * time.Millisecond, true}, {13 * time.Millisecond, true}, {14 * time.Millisecond, false}, {18 * time.Millisecond, false}} {
		if got := deepen(c.elapsed, budget); got != c.want {
			t.Errorf("deepen(%v, %v) = %v, want %v", c.elapsed, budget, got, c.want)
		}
	}
}

// TestAspirationAgreesWithTheFullWindow: where an iteration's score falls
// outside the window around the last one (Hi-Ya! positions that a deeper
// search finds worse or better, and a forced win and a forced loss found
// late), the search widens the window and reports the score that full
// windows at every root move give.
func TestAspirationAgreesWithTheFullWindow(t *testing.T) {
	for _, tt := range []struct {
		name, moves string
		depth       int
	}{
		{"fails low", aspirationFailsLow, 10},
		{"fails high", aspirationFailsHigh, 10},
		{"fails high to a forced win", aspirationFindsWin, 10},
		{"fails low to a forced loss", aspirationFindsLoss, 11},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := hiyaAfter(t, tt.moves)
			last := NewEngine(16).Search(context.Background(), g, Limits{Depth: tt.depth - 1})
			info := NewEngine(16).Search(context.Background(), g, Limits{Depth: tt.depth})
			_, scores := NewEngine(16).search(context.Background(), g, Limits{Depth: tt.depth}, true)
			want := -inf
			for _, rs := range scores {
				want = max(want, rs.Score)
			}
			if abs(info.Score-last.Score) <= aspirationWindow {
				t.Fatalf("depth %d scores %d after %d at depth %d: within the window, so the test tests nothing", tt.depth, info.Score, last.Score, tt.depth-1)
			}
			if info.Score != want || info.Depth != tt.depth {
				t.Errorf("depth %d, score %d; full windows: %d", info.Depth, info.Score, want)
			}
		})
	}
}

// Hi-Ya! positions where a deeper iteration's score falls outside the
// window around the last one.
const (
	// South's score falls from -1.42 at 9 plies to -2.17 at 10.
	aspirationFailsLow = "E3E4;F6G5;E2C4;G6F5;F3F4;C6C5"
	// South's score rises from 2.59 at 9 plies to 3.31 at 10.
	aspirationFailsHigh = "B3A4;B6B5;B2B4;C7F4;C3D4;G6F5;C2C3;F6E5;G2F3;F5E4;D4E3;G7G6"
	// South, scored 17.56 at 9 plies, is found winning at 10: the King
	// falls 7 plies on.
	aspirationFindsWin = "C3B4;G6F5;B4A5;B6B5;A5B6;F5E4;A3B4;G7G4;B4C5;B7C6;F2C5;E6D5"
	// North, scored -17.56 at 10 plies, is found lost at 11: the King
	// falls 8 plies on.
	aspirationFindsLoss = "C3B4;G6F5;B4A5;B6B5;A5B6;F5E4;A3B4;G7G4;B4C5;B7C6;F2C5"
)

// hiyaAfter returns Hi-Ya! after moves, separated by semicolons.
func hiyaAfter(t *testing.T, moves string) rules.Game {
	t.Helper()
	g := startOf(t, "hiya")
	for _, text := range strings.Split(moves, ";") {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	return g
}

// TestStoppedSearchLineStartsWithItsMove: a search stopped at any point,
// here also while it searches again a move that failed high, plays a move
// whose line starts with it.
func TestStoppedSearchLineStartsWithItsMove(t *testing.T) {
	g := hiyaAfter(t, aspirationFailsHigh)
	for nodes := uint64(7_000); nodes <= 210_000; nodes += 7_000 {
		info := NewEngine(1).Search(context.Background(), g, Limits{Nodes: nodes})
		if len(info.PV) == 0 || info.PV[0] != info.Move {
			t.Errorf("stopped after %d positions: move %s, line %v", nodes, g.FormatMove(info.Move), info.PV)
		}
	}
}

// TestNodeWithoutTableMoveIsSearchedAPlyShallower: a node of iirDepth plies
// or more that the table holds no move for is searched, and stored, a ply
// shallower; with the move it found in the table, the same node is
// searched to its full depth.
func TestNodeWithoutTableMoveIsSearchedAPlyShallower(t *testing.T) {
	s := NewSearcher[rules.Game](NewTable(1), nil)
	s.begin(context.Background(), Limits{}, time.Now())
	s.g = startOf(t, "hiya")
	key := s.g.Hash() ^ s.salt
	for _, want := range []int{iirDepth, iirDepth + 1} {
		s.negamax(iirDepth+1, 1, -inf, inf, false)
		m, _, depth, _, ok := s.tt.probe(key)
		if !ok || m == rules.NoMove || depth != want {
			t.Fatalf("stored move %v at depth %d (found %v), want a move at depth %d", m, depth, ok, want)
		}
	}
}

// TestGameSetsItsFutilityMargin: a search of a game that sets its own
// margin of reverse futility pruning (Hi-Ya!, 100) prunes a position that
// stands above beta by that margin, though not by the default one, and
// searches one that stands above beta by less.
func TestGameSetsItsFutilityMargin(t *testing.T) {
	g := startOf(t, "hiya")
	margin := g.(rules.Pruner).FutilityMargin()
	if margin >= futilityMargin {
		t.Fatalf("Hi-Ya!'s margin %d is not below the default %d", margin, futilityMargin)
	}
	if m := futilityMarginOf(startOf(t, "upthrust")); m != futilityMargin {
		t.Fatalf("Upthrust's margin %d, want the default %d", m, futilityMargin)
	}
	s := NewSearcher[rules.Game](NewTable(1), nil)
	s.Search(context.Background(), g, Limits{Depth: 1}) // the search takes the game's margin
	s.tt.Clear()
	s.begin(context.Background(), Limits{}, time.Now())
	s.g, s.salt = g.Clone(), gameSalt(g.Name())
	stand := s.evaluate()
	beta := stand - (margin+futilityMargin)/2
	if got := s.negamax(1, 1, beta-1, beta, false); got != stand || s.nodes != 1 {
		t.Fatalf("scored %d after %d positions; want the evaluation %d, pruned at once", got, s.nodes, stand)
	}
	s.nodes = 0
	beta = stand - margin/2 // within the margin: searched
	if s.negamax(1, 1, beta-1, beta, false); s.nodes == 1 {
		t.Fatalf("a position %d above beta, within the margin %d, was pruned", margin/2, margin)
	}
}

// countingGame counts the move generations of the game it wraps, and is
// as calm as that game.
type countingGame struct {
	rules.Game
	generated *int
}

func (g countingGame) Moves(list *rules.MoveList) { *g.generated++; g.Game.Moves(list) }
func (g countingGame) Clone() rules.Game          { return countingGame{g.Game.Clone(), g.generated} }
func (g countingGame) Calm() bool                 { return isCalm(g.Game) }

// TestCalmGameStandsPatAtItsLeaves: in Hex, which has no tactical move,
// quiescence scores a leaf by its evaluation without generating its moves;
// in Hi-Ya! it generates them.
func TestCalmGameStandsPatAtItsLeaves(t *testing.T) {
	for _, tc := range []struct {
		game      string
		generates bool
	}{{"hex", false}, {"hiya", true}} {
		var generated int
		g := countingGame{startOf(t, tc.game), &generated}
		s := NewSearcher[rules.Game](NewTable(1), nil)
		s.Search(context.Background(), g, Limits{Depth: 1}) // the search takes the game's calm
		s.begin(context.Background(), Limits{}, time.Now())
		s.g = g.Clone()
		stand := s.evaluate()
		generated = 0
		score := s.quiesce(0, -inf, inf, 0)
		if tc.generates != (generated > 0) || !tc.generates && score != stand {
			t.Errorf("%s: quiescence scored %d after %d move generations; evaluation %d", tc.game, score, generated, stand)
		}
	}
}

// TestCalmLeafWithAWinInOneIsWon: in Pentago, calm, a leaf where the
// player to move has four in a row and the fifth square empty scores as a
// win with its next move, not by its evaluation. Black to move, against
// White's a6-d6: a 1-ply search scores a move elsewhere as lost in 2
// plies, a turn of the quarter of a6-c6 too (White turns it back as it
// places e6), and a marble on e6 as not lost.
func TestCalmLeafWithAWinInOneIsWon(t *testing.T) {
	g := startOf(t, "pentago")
	// Quarter 4 stays empty, so turning it moves nothing.
	for _, text := range []string{"a6 4r", "a1 4r", "b6 4r", "c2 4r", "c6 4r", "b1 4l", "d6 4r"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g.Play(m)
	}
	s := NewSearcher[rules.Game](NewTable(1), nil)
	_, scores := s.search(context.Background(), g, Limits{Depth: 1}, true, time.Now())
	lost := map[string]bool{"f1 4r": true, "a2 3l": true, "e6 3r": false, "e6 4l": false, "f1 1r": true}
	seen := 0
	for _, rs := range scores {
		text := g.FormatMove(rs.Move)
		want, ok := lost[text]
		if !ok {
			continue
		}
		seen++
		if got := rs.Score == -(Mate - 2); got != want {
			t.Errorf("%s scored %d; lost in 2 plies: %v, want %v", text, rs.Score, got, want)
		}
	}
	if seen != len(lost) {
		t.Fatalf("%d of the %d moves checked were scored", seen, len(lost))
	}
}

// TestSearchNarrowsItsMoves: in Gomoku after h8 (its file weighs near 2),
// a search looks at the 24 squares around h8 at the root and at no more
// than the 48 around two stones below it (not 223), while scoring every root move
// (as the weaker levels do) still scores all 224 legal moves.
func TestSearchNarrowsItsMoves(t *testing.T) {
	g := startOf(t, "gomoku")
	m, err := g.ParseMove("h8")
	if err != nil {
		t.Fatal(err)
	}
	g.Play(m)
	s := NewSearcher[rules.Game](NewTable(1), nil)
	if s.Search(context.Background(), g, Limits{Depth: 1}); len(s.root) != 24 {
		t.Fatalf("%d root moves searched, want the 24 around h8", len(s.root))
	}
	info, scores := s.search(context.Background(), g, Limits{Depth: 2}, true, time.Now())
	if len(scores) != 224 {
		t.Fatalf("%d root moves scored, want all 224", len(scores))
	}
	// The first iteration: each root move and its quiescence. The second:
	// each root move, each reply (at most 48) and each reply's quiescence.
	if limit := uint64(1 + 224*2 + 1 + 224*(1+48*2)); info.Nodes > limit {
		t.Fatalf("%d positions searched, want at most %d", info.Nodes, limit)
	}
}

// TestImprovingPositionNeedsAPlyLessMargin: at 2 plies from the leaves,
// a Hi-Ya! position standing above beta by more than one ply's margin of
// reverse futility pruning but less than two is pruned when its evaluation
// improves on the same player's two plies up, and searched when it does
// not.
func TestImprovingPositionNeedsAPlyLessMargin(t *testing.T) {
	g := startOf(t, "hiya")
	s := NewSearcher[rules.Game](NewTable(1), nil)
	s.Search(context.Background(), g, Limits{Depth: 1}) // the search takes the game's margin
	s.begin(context.Background(), Limits{}, time.Now())
	s.g, s.salt = g.Clone(), gameSalt(g.Name())
	stand := s.evaluate() // South, player 1, to move
	beta := stand - s.margin*3/2
	for _, tc := range []struct {
		before int // South's evaluation two plies up
		pruned bool
	}{{stand - 1, true}, {stand + 1, false}, {noStatic, false}} {
		s.tt.Clear()
		s.nodes = 0
		s.static[0] = tc.before
		got := s.negamax(2, 2, beta-1, beta, false)
		if pruned := s.nodes == 1 && got == stand; pruned != tc.pruned {
			t.Errorf("two plies up %d, here %d: pruned %v after %d positions, want %v", tc.before, stand, pruned, s.nodes, tc.pruned)
		}
	}
}

// TestRootMovesFollowTheFirstIterationsScores: in a calm game, after the
// first iteration the root moves stand in the order of their scores, best
// first, so that an iteration the clock stops has searched the likeliest
// moves first. From the empty board: the centre (4 open lines), the
// corners (3), the edges (2), each group in the order the moves are
// listed. A game that is not calm, or that finds wins in one at its leaves
// (rules.Finisher), keeps its order, the best move first.
func TestRootMovesFollowTheFirstIterationsScores(t *testing.T) {
	for _, tc := range []struct {
		g    rules.Game
		want []rules.Move
	}{
		{calmToy{newToy("... ... ...")}, []rules.Move{4, 0, 2, 6, 8, 1, 3, 5, 7}},
		{newToy("... ... ..."), []rules.Move{4, 0, 1, 2, 3, 5, 6, 7, 8}},
		{finishingToy{calmToy{newToy("... ... ...")}}, []rules.Move{4, 0, 1, 2, 3, 5, 6, 7, 8}},
	} {
		s := NewSearcher[rules.Game](NewTable(1), nil)
		s.Search(context.Background(), tc.g, Limits{Depth: 1})
		if !slices.Equal(s.root, tc.want) {
			t.Errorf("%T: root moves after one ply %v, want %v (scores %v)", tc.g, s.root, tc.want, s.rootScores)
		}
	}
}

// calmToy is the toy saying it is calm (rules.Calm).
type calmToy struct{ *toy }

func (c calmToy) Calm() bool        { return true }
func (c calmToy) Clone() rules.Game { return calmToy{c.toy.Clone().(*toy)} }

// finishingToy is the calm toy that looks for wins in one at its leaves
// (rules.Finisher) and finds none.
type finishingToy struct{ calmToy }

func (f finishingToy) WinningMove() rules.Move { return rules.NoMove }
func (f finishingToy) Finishes() bool          { return true }
func (f finishingToy) Clone() rules.Game       { return finishingToy{f.calmToy.Clone().(calmToy)} }
