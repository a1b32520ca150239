package commands

import (
	"strings"
	"testing"
	"time"

	"arbiter/rules/games"
)

// FuzzGameOptions feeds /play's game, options and time text to the parser
// the game flow uses: it never panics, and what it accepts is within the
// documented bounds.
func FuzzGameOptions(f *testing.F) {
	for _, seed := range [][3]string{
		{"hique", "", ""}, {"sixes", "rated=on timeout=adjudicate", "10m"}, {"upthrust", "size=4", "2d"},
		{"hiya", "x=y", "999999d"}, {"nope", "", ""}, {"hique", strings.Repeat("a=b ", 50), "52w2d"}, {"sixes", "=", "30d1s"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	s := &Service{reg: games.Registry()}
	f.Fuzz(func(t *testing.T, game, options, turn string) {
		req, err := s.readGameOptions(game, options, turn)
		if err != nil {
			return
		}
		if d := req.flow.TurnTime; d != 0 && (d < 10*time.Second || d > 30*24*time.Hour) {
			t.Fatalf("time %q accepted as %v", turn, d)
		}
	})
}
