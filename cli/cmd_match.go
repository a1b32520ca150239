package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/engine"
	"arbiter/internal/atomicfile"
	"arbiter/render"
	"arbiter/rules"
	"arbiter/sandbox"
	"arbiter/tournament"
)

// runMatch is `arbiter match GAME --p1 SPEC --p2 SPEC [--games N]
// [--movetime D] [--grace D] [--set key=value]... [--seed S] [--openings random:PLIES] [--records DIR]
// [--json]`: N games with
// the players swapping sides every game, a line a game, then the summary.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	p1 := fs.String("p1", "", "the first player: "+tournament.Specs)
	p2 := fs.String("p2", "", "the second player (the same forms)")
	n := fs.Int("games", 2, "games to play; the players swap sides every game")
	var moveTime durationFlag
	fs.Var(&moveTime, "movetime", "time a move, e.g. 100ms or 5s (default: the class's time of the game)")
	var grace durationFlag
	fs.Var(&grace, "grace", "time an outside program may take beyond its move time before it loses on time (default 100ms)")
	var set optionFlags
	fs.Var(&set, "set", "a game option as key=value (repeatable)")
	seed := fs.String("seed", "", "seed of the openings and the players' random choices (default: from the clock)")
	asJSON := fs.Bool("json", false, "end with the summary as one line of JSON")
	openings := fs.String("openings", "", "random:PLIES, each pair of games starts with PLIES random plies (default random:4, none against a class program); against a class program, the other player plays its moves among the first PLIES at random, among those that leave it neither lost nor more than 1.5 pieces behind")
	records := fs.String("records", "", "write each game's record to this directory, as game-N.txt (arbiter analyse reads them)")
	box := addSandboxFlags(fs, "p1 or p2")
	sprtText := fs.String("sprt", "", `play until a sequential probability ratio test (SPRT) decides, e.g. "elo0=0 elo1=20 alpha=0.05 beta=0.05" (--games is then the most games, default 10000)`)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 || *p1 == "" || *p2 == "" {
		fmt.Fprintln(stderr, "usage: arbiter match GAME --p1 SPEC --p2 SPEC [--games N] [--movetime D] [--grace D] [--set key=value]... [--seed S] [--openings random:PLIES] [--records DIR] [--json] [--sprt \"elo0=0 elo1=20 alpha=0.05 beta=0.05\"] [--sandbox on|off] [--limits [p1:|p2:]NAME=VALUE,...]... [--env p1|p2:NAME=VALUE]...")
		fmt.Fprintln(stderr, "a SPEC is "+tournament.Specs)
		return 2
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "arbiter match: --games must be at least 1")
		return 2
	}
	openingPlies := 0
	if o := *openings; o != "" {
		plies, ok := strings.CutPrefix(o, "random:")
		p, err := strconv.Atoi(plies)
		if !ok || err != nil || p < 0 || p > 40 {
			fmt.Fprintf(stderr, "arbiter match: --openings %q: write random:PLIES with PLIES from 0 to 40\n", o)
			return 2
		}
		openingPlies = p
		if p == 0 {
			openingPlies = -1 // none
		}
	}
	var sprt *engine.SPRT
	if *sprtText != "" {
		t, err := engine.ParseSPRT(*sprtText)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter match: %v\n", err)
			return 2
		}
		sprt = &t
		if !flagGiven(fs, "games") {
			*n = 10000
		}
	}
	s := uint64(time.Now().UnixNano())
	if *seed != "" {
		s, err = strconv.ParseUint(*seed, 10, 64)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter match: --seed %q: give a whole number\n", *seed)
			return 2
		}
	}
	reg := gameRegistry(stderr)
	cfg := engine.MatchConfig{
		Registry: reg,
		Game:     rest[0],
		Options:  rules.Options(set),
		P1:       *p1,
		P2:       *p2,
		Games:    *n,
		MoveTime: time.Duration(moveTime),
		Grace:    time.Duration(grace),
		Seed:     s,
		// The class's programs too; they play from the start position.
		OpeningPlies: openingPlies,
		NewPlayer:    tournament.NewPlayer,
		FromStart:    func(spec string) bool { return tournament.FromStart(spec, rest[0]) },
	}
	boxAll, per, err := box.build([]string{"p1", "p2"}, secretPaths(), stderr)
	if err == nil {
		err = refuseUnboxed(boxAll, []string{*p1, *p2})
	}
	if err != nil {
		fmt.Fprintf(stderr, "arbiter match: %v\n", err)
		return 2
	}
	cfg.Sandboxes = [2]*sandbox.Sandbox{boxAll, boxAll}
	for i, name := range []string{"p1", "p2"} {
		if per[name] != nil {
			cfg.Sandboxes[i] = per[name]
		}
	}
	if sprt != nil {
		cfg.Until = func(w, d, l int) bool { return sprt.Decide(w, d, l) != 0 }
	}
	for _, spec := range []string{*p1, *p2} {
		if _, err := tournament.NewPlayer(spec, engine.PlayerOptions{Registry: reg, TableMB: 1}); err != nil {
			fmt.Fprintf(stderr, "arbiter match: %v\n", err)
			return 2
		}
	}
	def, err := cfg.Registry.Lookup(cfg.Game)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter match: %v\n", err)
		return 2
	}
	mt := cfg.MoveTime
	if mt == 0 {
		mt = def.MoveTime
	}
	if *records != "" {
		if err := os.MkdirAll(*records, 0o755); err != nil {
			fmt.Fprintf(stderr, "arbiter match: --records: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "%s: %s vs %s, %s at %v a move, seed %d\n", def.Title, *p1, *p2, countOf(*n, "game", "games"), mt, s)
	res, err := engine.RunMatch(ctx, cfg, func(r engine.GameRecord) {
		verdict := "draw"
		if w, ok := r.Result.Winner(); ok {
			verdict = r.Names[w] + " wins"
		}
		fmt.Fprintf(stdout, "game %d: %s (%s) vs %s (%s): %s, %s, %d plies; --p1 scores %s; opening %s\n",
			r.Number, r.First, r.Names[0], r.Second, r.Names[1], verdict, r.Reason, r.Plies,
			strconv.FormatFloat(r.Score, 'f', -1, 64), strings.Join(r.Opening, "; "))
		if *records != "" {
			if err := writeMatchRecord(*records, reg, def.Name, r); err != nil {
				fmt.Fprintf(stderr, "arbiter match: game %d's record: %v\n", r.Number, err)
			}
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "arbiter match: %v\n", err)
		if res.Games == 0 {
			return 1
		}
	}
	fmt.Fprintf(stdout, "%s vs %s: %s, %s, %s, %s; score %.1f%%; %s\n",
		res.P1, res.P2, countOf(res.Games, "game", "games"), countOf(res.Wins, "win", "wins"), countOf(res.Draws, "draw", "draws"),
		countOf(res.Losses, "loss", "losses"), 100*res.Score, eloText(res.Elo, res.EloError, res.Wins, res.Draws, res.Losses))
	fmt.Fprintf(stdout, "longest move: %s %v, %s %v\n", res.P1, res.LongestMove[0].Round(time.Millisecond),
		res.P2, res.LongestMove[1].Round(time.Millisecond))
	if *asJSON {
		line, err := json.Marshal(res)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter match: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, string(line))
	}
	if sprt != nil {
		fmt.Fprintln(stdout, sprtVerdict(*sprt, res))
	}
	if err != nil {
		return 1
	}
	return 0
}

// writeMatchRecord writes game r of a match of game name to dir as
// game-N.txt: the game record that /history and tournament --out write,
// with the result a forfeit gave where the rules did not end the game.
func writeMatchRecord(dir string, reg *rules.Registry, name string, r engine.GameRecord) error {
	g, err := reg.New(name, r.Options)
	if err != nil {
		return err
	}
	for _, text := range append(slices.Clone(r.Opening), r.Moves...) {
		m, err := g.ParseMove(text)
		if err != nil {
			return fmt.Errorf("replaying %s: %w", text, err)
		}
		g.Play(m)
	}
	out := g.Outcome()
	if out.Result == rules.Ongoing {
		out = rules.Outcome{Result: r.Result, Reason: r.Reason}
	}
	text := render.Record(g, render.Options{Players: [2]string{r.First, r.Second}, Result: &out},
		render.Tag{Key: "Event", Value: fmt.Sprintf("match, game %d", r.Number)})
	return atomicfile.Replace(filepath.Join(dir, fmt.Sprintf("game-%d.txt", r.Number)), func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// sprtVerdict is match's last line under --sprt: "H1 accepted", "H0
// accepted" or "SPRT undecided", with the games, the Elo estimate and the
// log-likelihood ratio against its bounds.
func sprtVerdict(t engine.SPRT, res engine.MatchResult) string {
	verdict := "SPRT undecided"
	switch t.Decide(res.Wins, res.Draws, res.Losses) {
	case 1:
		verdict = "H1 accepted"
	case -1:
		verdict = "H0 accepted"
	}
	lower, upper := t.Bounds()
	return fmt.Sprintf("%s after %d games: Elo %+.0f ± %.0f (95%%); LLR %.2f (%.2f, %.2f) for elo0=%g elo1=%g alpha=%g beta=%g (GSPRT, trinomial)",
		verdict, res.Games, res.Elo, res.EloError, t.LLR(res.Wins, res.Draws, res.Losses), lower, upper, t.Elo0, t.Elo1, t.Alpha, t.Beta)
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// durationFlag reads a duration written as Go writes them (100ms, 1.5s) or
// as a whole number of milliseconds.
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(s string) error {
	if ms, err := strconv.Atoi(s); err == nil && ms > 0 {
		*d = durationFlag(time.Duration(ms) * time.Millisecond)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return fmt.Errorf("write a positive duration such as 100ms or 5s")
	}
	*d = durationFlag(v)
	return nil
}

// countOf is n and the word for one or for many: "1 game", "2 games".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// eloText is the Elo estimate with its 95% margin, "Elo +35 ± 20 (95%)",
// never "-0"; when every game had one result (all wins, all draws or all
// losses) no margin can be told from the games, and it says so.
func eloText(elo, margin float64, wins, draws, losses int) string {
	if n := wins + draws + losses; n == 0 || wins == n || draws == n || losses == n {
		return fmt.Sprintf("Elo not estimated: every game had the same result (%s)", countOf(n, "game", "games"))
	}
	r := math.Round(elo)
	if r == 0 {
		r = 0 // not -0
	}
	return fmt.Sprintf("Elo %+.0f ± %.0f (95%%)", r, margin)
}
