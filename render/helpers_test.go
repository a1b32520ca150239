package render

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// testGame is a game the tests play: its options and the seed of its moves.
type testGame struct {
	name string
	opts string
	seed uint64
}

// testGames returns the four games as the tests play them. Upthrust's
// colours are fixed so that its games are the same every time.
func testGames() []testGame {
	return []testGame{
		{"hique", "", 1},
		{"upthrust", "colours=gb", 1},
		{"hiya", "", 1},
		{"sixes", "", 1},
		{"hex", "size=7", 1},
		{"loa", "", 1},
		{"amazons", "", 1},
		{"morris", "", 1},
	}
}

// testNames are the players the tests give, as Discord might.
func testNames() [2]string { return [2]string{"alice", "bob"} }

// newTestGame starts tg from its start position.
func newTestGame(t testing.TB, reg *rules.Registry, tg testGame) rules.Game {
	t.Helper()
	opts, err := rules.ParseOptions(tg.opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := reg.New(tg.name, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playOut plays g to its end with moves chosen by a seeded generator from
// the legal moves in the order of their text (so the game does not depend
// on the order a game generates moves in), taking a tactical move when there
// is one so that pieces come off and games end. It returns the moves.
func playOut(g rules.Game, seed uint64) []rules.Move {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var list rules.MoveList
	var played []rules.Move
	for g.Status() == rules.Ongoing {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		moves := slices.Clone(list.Slice())
		slices.SortFunc(moves, func(a, b rules.Move) int {
			return strings.Compare(g.FormatMove(a), g.FormatMove(b))
		})
		var tactical []rules.Move
		for _, m := range moves {
			if g.Tactical(m) {
				tactical = append(tactical, m)
			}
		}
		if len(tactical) > 0 && rng.IntN(3) > 0 {
			moves = tactical
		}
		m := moves[rng.IntN(len(moves))]
		g.Play(m)
		played = append(played, m)
	}
	return played
}

// stages returns tg at its start, in the middle of a played-out game and at
// its end, named "start", "middle" and "end".
func stages(t testing.TB, reg *rules.Registry, tg testGame) (names []string, positions []rules.Game) {
	t.Helper()
	end := newTestGame(t, reg, tg)
	moves := playOut(end, tg.seed)
	middle := newTestGame(t, reg, tg)
	for _, m := range moves[:len(moves)/2] {
		middle.Play(m)
	}
	return []string{"start", "middle", "end"}, []rules.Game{newTestGame(t, reg, tg), middle, end}
}

// registry returns the registry of every game.
func registry() *rules.Registry { return games.Registry() }
