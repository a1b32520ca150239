package commands

import (
	"strings"
	"testing"

	"arbiter/store"
)

// TestFlowFromTheStoresBytes: the flow's state is read from the bytes
// the store hands back, older unnumbered layouts included; state that does
// not read, or of a layout newer than this build's, pauses the game and
// says why instead of being taken as empty (a rated game would turn
// unrated, a challenge would start).
func TestFlowFromTheStoresBytes(t *testing.T) {
	for _, tc := range []struct {
		raw       string
		challenge bool
		why       string
	}{
		{`{"challenge":true,"rated":true}`, true, ""},
		{`{"v":1,"challenge":true}`, true, ""},
		{`{"v":2,"challenge":true}`, false, "layout 2 is newer"},
		{`{"challenge":"yes"}`, false, "does not read"},
	} {
		g := &store.Game{Flow: store.RawFlow(tc.raw)}
		f := flow(g)
		if f.Challenge != tc.challenge || !strings.Contains(f.PausedWhy, tc.why) || (tc.why != "") != f.Paused {
			t.Errorf("%s: flow %+v", tc.raw, f)
		}
		if flow(g) != f {
			t.Errorf("%s: read twice", tc.raw)
		}
		b, err := f.FlowBytes()
		if err != nil || !strings.Contains(string(b), `"v":1`) {
			t.Errorf("%s: written back as %s (%v), want layout 1", tc.raw, b, err)
		}
	}
	if f := flow(&store.Game{}); f == nil || f.Paused {
		t.Errorf("a new game's flow: %+v", f)
	}
}
