package engine

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"arbiter/rules/games"
)

func FuzzNewPlayer(f *testing.F) {
	for _, s := range []string{"arbiter", "arbiter:3", "ARBITER:5", "random", "greedy", "alphabeta:4", "alphabeta:x", "exec:./prog", "exec:", ":", "arbiter:", "alphabeta:-1", "arbiter:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := NewPlayer(spec, PlayerOptions{TableMB: 1})
		if err != nil {
			if err.Error() == "" {
				t.Errorf("NewPlayer(%q): an empty error", spec)
			}
			return
		}
		// A player's spec reads back as the same player.
		q, err := NewPlayer(p.String(), PlayerOptions{TableMB: 1})
		if err != nil || q.String() != p.String() {
			t.Errorf("NewPlayer(%q).String() = %q does not read back: %v", spec, p.String(), err)
		}
	})
}

// FuzzServe feeds the program side of the protocol arbitrary host input: it
// must never panic or hang, and answer only protocol lines.
func FuzzServe(f *testing.F) {
	f.Add("game sixes\noptions\nside 1\ntime 5\nisready\ngo\nplayed e1 e3\ngo\nresult win x\nquit\n")
	f.Add("game hique\noptions turns=300\nside 2\ntime 5\nisready\nplayed 11 1 13 1\ngo\n")
	f.Add("game upthrust\noptions colours=gb\ngo\ngo\ngo\n")
	f.Add("game hiya\nplayed E2B5\ngo\n")
	f.Add("game chess\n")
	f.Add("options turns=\nisready\n")
	f.Add("time -5\ngo\n")
	f.Add("played\n\n\nhello\n")
	f.Fuzz(func(t *testing.T, input string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var out bytes.Buffer
		p, _ := NewPlayer("random", PlayerOptions{})
		_ = Serve(ctx, strings.NewReader(input), &out, io.Discard, games.Registry(), "", p)
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			word, _, _ := strings.Cut(line, " ")
			if line != "" && word != "ready" && word != "move" && word != "info" {
				t.Errorf("input %q: answered %q", input, line)
			}
		}
	})
}
