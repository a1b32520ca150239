package games_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
)

// playRandom plays up to n random legal moves of g, returning it.
func playRandom(g rules.Game, rng *rand.Rand, n int) rules.Game {
	var list rules.MoveList
	for i := 0; i < n; i++ {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		g.Play(list.Moves[rng.IntN(list.N)])
	}
	return g
}

func TestRegistryLookup(t *testing.T) {
	reg := games.Registry()
	if got := strings.Join(reg.Names(), ","); got != "hique,upthrust,hiya,sixes,amazons,breakthrough,checkers,connect4,dots,gomoku,hex,kalah,konane,loa,morris,othello,pentago,tictactoe" {
		t.Fatalf("Names() = %s", got)
	}
	for _, name := range []string{"hique", "HiQUE", " Sixes ", "hi-ya!", "hiya"} {
		if _, err := reg.Lookup(name); err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
		}
	}
	_, err := reg.Lookup("chess")
	if err == nil || !strings.Contains(err.Error(), "the games are hique, upthrust, hiya, sixes, amazons, breakthrough, checkers, connect4, dots, gomoku, hex, kalah, konane, loa, morris, othello, pentago, tictactoe") {
		t.Errorf("Lookup(chess) error = %v", err)
	}
	for _, d := range reg.Definitions() {
		if d.Title == "" || d.Players[0] == "" || d.Players[1] == "" || d.MoveTime <= 0 || d.New == nil {
			t.Errorf("definition of %s is incomplete: %+v", d.Name, d)
		}
	}
}

func TestRegistryNewRejectsBadOptions(t *testing.T) {
	reg := games.Registry()
	for _, tt := range []struct{ game, opts, want string }{
		{"hique", "turns=abc", "turns must be a whole number"},
		{"sixes", "edges=maybe", "edges must be on or off"},
		{"hiya", "first=east", "first must be"},
		{"upthrust", "colours=gg", "colours"},
		{"hique", "edges=on", "hique has no option edges"},
	} {
		opts, err := rules.ParseOptions(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = reg.New(tt.game, opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%s, %s) error = %v, want one containing %q", tt.game, tt.opts, err, tt.want)
		}
	}
}

// TestEncodeDecodeRoundTrip plays random games of every game and checks
// that decode(encode(g)) is the same game: options, moves, position, result.
func TestEncodeDecodeRoundTrip(t *testing.T) {
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range reg.Names() {
		for i := 0; i < 40; i++ {
			g, err := reg.New(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			playRandom(g, rng, rng.IntN(400))
			data := rules.Encode(g)
			back, err := reg.Decode(data)
			if err != nil {
				t.Fatalf("%s: decode: %v", name, err)
			}
			if back.Hash() != g.Hash() || back.Ply() != g.Ply() || back.Options().String() != g.Options().String() ||
				back.Outcome() != g.Outcome() || back.ToMove() != g.ToMove() {
				t.Fatalf("%s: round trip differs after %d moves", name, g.Ply())
			}
			if !bytes.Equal(rules.Encode(back), data) {
				t.Fatalf("%s: re-encoding differs", name)
			}
		}
	}
}

// TestOptionsString: every game that gives its options' String form
// itself (so that Encode need not copy them) gives Options().String(),
// with default and with chosen options.
func TestOptionsString(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		for _, opts := range []rules.Options{nil, {"seed": "7"}} {
			g, err := reg.New(name, opts)
			if err != nil {
				continue // an option this game does not take
			}
			s, ok := g.(interface{ OptionsString() string })
			if !ok {
				t.Errorf("%s: no OptionsString; Encode copies its options", name)
				continue
			}
			if got, want := s.OptionsString(), g.Options().String(); got != want {
				t.Errorf("%s %v: OptionsString() = %q, Options().String() = %q", name, opts, got, want)
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	reg := games.Registry()
	g, _ := reg.New("sixes", nil)
	good := rules.Encode(playRandom(g, rand.New(rand.NewPCG(3, 4)), 10))
	bad := map[string][]byte{
		"empty":         nil,
		"wrong magic":   append([]byte{'B'}, good[1:]...),
		"wrong version": append([]byte{'A', 99}, good[2:]...),
		"cut short":     good[:len(good)-1],
		"stray bytes":   append(append([]byte{}, good...), 0),
		"unknown game":  rules.Encode(fakeName{g}),
	}
	illegal := append([]byte{}, good...)
	illegal[len(illegal)-1] ^= 0x3f // the last move becomes another, illegal one
	bad["illegal move"] = illegal
	for name, data := range bad {
		if _, err := reg.Decode(data); !errors.Is(err, rules.ErrCorrupt) {
			t.Errorf("%s: Decode error = %v, want ErrCorrupt", name, err)
		}
	}
}

// fakeName is a game that claims an unknown name.
type fakeName struct{ rules.Game }

func (fakeName) Name() string { return "chess" }

// FuzzDecode feeds the decoder anything: it must never panic, and what it
// accepts must decode again from its own encoding to the same position
// (not always the same bytes: a record may spell its options or varints
// unnormalised).
func FuzzDecode(f *testing.F) {
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range reg.Names() {
		for _, n := range []int{0, 3, 30} {
			g, _ := reg.New(name, nil)
			f.Add(rules.Encode(playRandom(g, rng, n)))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{'A', 1, 200, 200, 200, 200, 200, 200, 200, 200, 200, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := reg.Decode(data)
		if err != nil {
			if !errors.Is(err, rules.ErrCorrupt) {
				t.Fatalf("Decode error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if again, err := reg.Decode(rules.Encode(g)); err != nil || again.Hash() != g.Hash() {
			t.Fatalf("re-decode: %v", err)
		}
	})
}

func TestReplayNamesTheBadMove(t *testing.T) {
	reg := games.Registry()
	_, err := reg.Replay("sixes", nil, []string{"a1 c1", "a5 a4", "zz"})
	if err == nil || !strings.HasPrefix(err.Error(), "move 3 (zz): ") {
		t.Errorf("Replay error = %v", err)
	}
}

// TestNoDraws: only Hi-Ya!'s rules have no draws.
func TestNoDraws(t *testing.T) {
	for _, d := range games.Registry().Definitions() {
		if d.NoDraws != (d.Name == "hiya") {
			t.Errorf("%s: NoDraws = %v", d.Name, d.NoDraws)
		}
	}
}

// TestScorers: HiQUE, Upthrust, Sixes, Othello, Kalah and Dots and Boxes have scoring that can decide an
// unfinished game, and it matches their outcome's scores at the start;
// Hi-Ya! has none.
func TestScorers(t *testing.T) {
	want := map[string]string{"hique": "timing option", "upthrust": "points", "sixes": "pieces", "othello": "pieces", "kalah": "seeds in store", "dots": "boxes"}
	reg := games.Registry()
	for _, name := range reg.Names() {
		g, err := reg.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc, ok := g.(rules.Scorer)
		if ok != (want[name] != "") {
			t.Errorf("%s: Scorer %v", name, ok)
			continue
		}
		if !ok {
			continue
		}
		scores, what := sc.Standing()
		if what != want[name] {
			t.Errorf("%s: Standing counts %q, want %q", name, what, want[name])
		}
		if out := g.Outcome(); out.HasScores && out.Scores != scores {
			t.Errorf("%s: Standing %v, Outcome scores %v", name, scores, out.Scores)
		}
	}
}

// TestWithDir loads an instructor's directory: a good file joins the
// registry, a bad one is refused with its line and column, a file that
// takes a game's name is refused, and every other game still loads.
func TestWithDir(t *testing.T) {
	dir := t.TempDir()
	good := "name: noughts\nplayers: [{name: X}, {name: O}]\nrules: Three in a row wins.\nboard: {columns: 3, rows: 3}\npieces: [{name: mark}]\nstart: []\nmoves: [{kind: place}]\nend: [{when: in-a-row, length: 3, result: win}, {when: board-full, result: draw}]\n"
	files := map[string]string{
		"noughts.yaml": good,
		"broken.yaml":  strings.Replace(good, "name: noughts", "name: broken", 1) + "evaluation: {mobility: lots}\n",
		"sixes.yaml":   strings.Replace(good, "name: noughts", "name: sixes", 1),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg, errs := games.WithDir(dir)
	if got := strings.Join(reg.Names(), ","); got != "hique,upthrust,hiya,sixes,amazons,breakthrough,checkers,connect4,dots,gomoku,hex,kalah,konane,loa,morris,othello,pentago,tictactoe,noughts" {
		t.Errorf("Names() = %s", got)
	}
	msgs := fmt.Sprint(errs)
	for _, want := range []string{filepath.Join(dir, "broken.yaml") + ":9:24: mobility \"lots\" must be a whole number",
		filepath.Join(dir, "sixes.yaml") + ": game name already taken: sixes is a game already"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("errors %s lack %q", msgs, want)
		}
	}
	if len(errs) != 2 {
		t.Errorf("%d errors, want 2: %v", len(errs), errs)
	}
	if strings.Contains(msgs, dir+": ") {
		t.Errorf("errors %s name the folder apart from the file", msgs)
	}
	if _, errs := games.WithDir(filepath.Join(dir, "none")); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), filepath.Join(dir, "none")+": ") {
		t.Errorf("a missing GAMES_DIR: %v", errs)
	}
	if _, err := reg.New("noughts", nil); err != nil {
		t.Error(err)
	}
}
