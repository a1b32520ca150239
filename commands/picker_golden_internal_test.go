package commands

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
)

// updating reports whether the golden files are to be rewritten: the
// package's -update flag (go test ./commands -run TestPickerGolden
// -update), which the package's external tests declare.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestPickerGolden: the picker's private steps (the pieces, then one
// piece's destinations with their effects) for a position of each game
// after a few seeded random moves, as the platforms get them.
func TestPickerGolden(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			state, err := reg.New(name, rules.Options{"seed": "5", "colours": "gb"})
			if err != nil {
				state, err = reg.New(name, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			var list rules.MoveList
			for range 9 {
				state.Moves(&list)
				state.Play(list.Moves[rng.IntN(list.N)])
				if state.Status() != rules.Ongoing {
					// A short game: show the position before its last move.
					state.Undo()
					break
				}
			}
			g := &store.Game{ID: "42", Version: 10, Name: name, State: state, Status: store.Active,
				Players: [2]store.Player{{Kind: store.Human, UserID: "1", Name: "ann"}, {Kind: store.Human, UserID: "2", Name: "bob"}}}
			root := pickTree(state)
			var b strings.Builder
			writeStep(&b, pickStep(g, state.ToMove(), root, root, nil))
			// The piece with the most moves, to show destinations and effects.
			best := -1
			for i, k := range root.kids {
				if !k.leaf && (best < 0 || len(k.kids) > len(root.kids[best].kids)) {
					best = i
				}
			}
			if best >= 0 {
				b.WriteString("\n")
				writeStep(&b, pickStep(g, state.ToMove(), root, root.kids[best], []int{best}))
			}
			path := filepath.Join("testdata", "picker", name+".golden")
			if updating() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./commands -run TestPickerGolden -update writes it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("picker of %s:\n%s\nwant (%s):\n%s", name, b.String(), path, want)
			}
		})
	}
}

// writeStep writes a picker step as text: its message, its menu's id and
// placeholder, and one line per option.
func writeStep(b *strings.Builder, m Message) {
	fmt.Fprintf(b, "%s\nmenu %s (%s)\n", m.Text, m.Menu.ID, m.Menu.Placeholder)
	for _, o := range m.Menu.Options {
		fmt.Fprintf(b, "  %-6s %-14s %s\n", o.Value, o.Label, o.Description)
	}
}
