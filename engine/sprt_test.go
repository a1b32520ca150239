package engine

import (
	"context"
	"testing"
	"time"

	"arbiter/rules/games"
)

func TestParseSPRT(t *testing.T) {
	got, err := ParseSPRT("elo0=0 elo1=20")
	if err != nil || got != (SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("defaults: %+v, %v", got, err)
	}
	got, err = ParseSPRT("elo0=-5, elo1=10,alpha=0.1 beta=0.2")
	if err != nil || got != (SPRT{Elo0: -5, Elo1: 10, Alpha: 0.1, Beta: 0.2}) {
		t.Errorf("all keys: %+v, %v", got, err)
	}
	for _, bad := range []string{"", "elo0=0", "elo0=20 elo1=0", "elo0=0 elo1=20 alpha=0", "elo0=0 elo1=x", "elo0=0 elo1=20 gamma=1", "elo0=0 elo1=NaN"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q): no error", bad)
		}
	}
}

// TestSPRTDecidesStrongerAndEqual runs the test as match --sprt does: greedy
// is far stronger than random (H1: stronger by 100 Elo), random is even
// with random (H0).
func TestSPRTDecidesStrongerAndEqual(t *testing.T) {
	sprt := SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	for _, tt := range []struct {
		p1, p2 string
		want   int
	}{{"greedy", "random", 1}, {"random", "random", -1}} {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := RunMatch(context.Background(), MatchConfig{
				Registry: games.Registry(), Game: "sixes", P1: tt.p1, P2: tt.p2, Games: 2000,
				MoveTime: 5 * time.Millisecond, Seed: seed,
				Until: func(w, d, l int) bool { return sprt.Decide(w, d, l) != 0 },
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := sprt.Decide(res.Wins, res.Draws, res.Losses); got != tt.want {
				t.Errorf("%s vs %s, seed %d: decision %d after %d games (%d-%d-%d), want %d",
					tt.p1, tt.p2, seed, got, res.Games, res.Wins, res.Draws, res.Losses, tt.want)
			}
			if res.Games >= 2000 {
				t.Errorf("%s vs %s, seed %d: undecided", tt.p1, tt.p2, seed)
			}
		}
	}
}

func TestSPRTLLRSigns(t *testing.T) {
	sprt := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	if sprt.LLR(60, 0, 40) <= 0 || sprt.LLR(40, 0, 60) >= 0 {
		t.Errorf("LLR: 60-40 %.2f, 40-60 %.2f", sprt.LLR(60, 0, 40), sprt.LLR(40, 0, 60))
	}
	if sprt.Decide(0, 0, 0) != 0 || sprt.Decide(1, 0, 0) != 0 {
		t.Error("decided on no evidence")
	}
}

// TestMatchHooks: a match makes its players with MatchConfig.NewPlayer and
// starts at the start position when FromStart says a player needs it.
func TestMatchHooks(t *testing.T) {
	var made []string
	var openings []int
	_, err := RunMatch(context.Background(), MatchConfig{
		Registry: games.Registry(), Game: "hiya", P1: "greedy", P2: "random", Games: 2, MoveTime: 5 * time.Millisecond,
		NewPlayer: func(spec string, opt PlayerOptions) (Player, error) {
			made = append(made, spec)
			return NewPlayer(spec, opt)
		},
		FromStart: func(spec string) bool { return spec == "random" },
	}, func(r GameRecord) { openings = append(openings, len(r.Opening)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 2 || len(openings) != 2 || openings[0] != 0 || openings[1] != 0 {
		t.Errorf("players made %v, opening lengths %v", made, openings)
	}
}
