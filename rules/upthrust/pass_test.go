package upthrust

import (
	"testing"

	"arbiter/rules"
)

// TestPassIsMarked: the contract says which move is a pass (rules.Passer),
// so that the game flow never reads it from the move's text.
func TestPassIsMarked(t *testing.T) {
	g, err := New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rules.IsPass(g, Pass) {
		t.Error("rules.IsPass(upthrust, Pass) = false")
	}
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range list.Slice() {
		if rules.IsPass(g, m) {
			t.Errorf("the piece move %s is marked a pass", g.FormatMove(m))
		}
	}
}
