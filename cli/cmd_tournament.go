package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/tournament"
)

const tournamentUsage = "usage: arbiter tournament GAME --player NAME=SPEC --player NAME=SPEC... [--format roundrobin|gauntlet|swiss|knockout] [--rounds N] [--games N] [--movetime D] [--concurrency N] [--openings random:PLIES|FILE] [--out DIR] [--resume] [--seed S] [--set key=value]... [--no-gif] [--web ADDR] [--analyse [--analyse-movetime D]] [--sandbox on|off] [--limits [PLAYER:]NAME=VALUE,...]... [--env PLAYER:NAME=VALUE]..."

// runTournament is `arbiter tournament`: a tournament between players of a
// game, with a progress bar on a terminal and a line a game when piped,
// ending with the standings; --out keeps every game and the tables.
func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var players playerFlags
	fs.Var(&players, "player", "a player as NAME=SPEC (repeatable); a SPEC is "+tournament.Specs)
	format := fs.String("format", "roundrobin", "roundrobin, gauntlet (the first player against each other), swiss or knockout")
	rounds := fs.Int("rounds", 0, "cycles of a round robin or gauntlet (1), rounds of a Swiss tournament (ceil(log2 players), as in Discord)")
	n := fs.Int("games", 2, "games a pairing plays, half with each side first, pairs from the same opening")
	var moveTime durationFlag
	fs.Var(&moveTime, "movetime", "time a move, e.g. 100ms or 5s (default: the class's time of the game)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	openings := fs.String("openings", "", "random:PLIES (random balanced openings of PLIES plies) or FILE (an opening a line, moves separated by commas)")
	out := fs.String("out", "", "directory for every game's record and GIF, results.json, standings.csv and crosstable.txt")
	resume := fs.Bool("resume", false, "continue the tournament in --out without replaying finished games")
	seed := fs.String("seed", "", "seed of the openings and the players' random choices (default: from the clock, or the one in --out on --resume)")
	noGIF := fs.Bool("no-gif", false, "write no GIF replays")
	analyse := fs.Bool("analyse", false, "after the games, the engine's review of each game into --out (games/ID.analysis.json, .png, .html) and analysis.csv")
	analyseTime := durationFlag(200 * time.Millisecond)
	fs.Var(&analyseTime, "analyse-movetime", "search time a position for --analyse")
	web := fs.String("web", "", "serve a live wall of the games and standings at this address, e.g. localhost:8080")
	var set optionFlags
	fs.Var(&set, "set", "a game option as key=value (repeatable)")
	box := addSandboxFlags(fs, "a player's NAME")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arbiter tournament: "+format+"\n", a...)
		return 2
	}
	if len(rest) != 1 || len(players) < 2 {
		fmt.Fprintln(stderr, tournamentUsage)
		fmt.Fprintln(stderr, "a SPEC is "+tournament.Specs)
		return 2
	}
	f, err := tournament.ParseFormat(*format)
	if err != nil {
		return fail("%v", err)
	}
	if *resume && *out == "" {
		return fail("--resume needs --out DIR")
	}
	if *analyse && *out == "" {
		return fail("--analyse needs --out DIR")
	}
	cfg := tournament.Config{
		Registry: gameRegistry(stderr), Game: rest[0], Options: rules.Options(set), Players: players, Format: f,
		Rounds: *rounds, Games: *n, MoveTime: time.Duration(moveTime), Concurrency: *concurrency,
		OutDir: *out, Resume: *resume, NoGIF: *noGIF,
	}
	if *n < 1 || *concurrency < 1 || *rounds < 0 {
		return fail("--games and --concurrency must be at least 1, --rounds at least 0")
	}
	var names, specs []string
	for _, p := range players {
		names, specs = append(names, p.Name), append(specs, p.Spec)
	}
	if cfg.Sandbox, cfg.Sandboxes, err = box.build(names, secretPaths(*out), stderr); err != nil {
		return fail("%v", err)
	}
	if err := refuseUnboxed(cfg.Sandbox, specs); err != nil {
		return fail("%v", err)
	}
	switch s := *seed; {
	case s != "":
		if cfg.Seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			return fail("--seed %q: give a whole number", s)
		}
	case *resume:
		saved, err := tournament.SavedConfig(*out)
		if err != nil {
			return fail("--resume: %v", err)
		}
		cfg.Seed = saved.Seed
	default:
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	if o := *openings; o != "" {
		if plies, ok := strings.CutPrefix(o, "random:"); ok {
			p, err := strconv.Atoi(plies)
			if err != nil || p < 0 || p > 40 {
				return fail("--openings %q: write random:PLIES with PLIES from 0 to 40", o)
			}
			cfg.OpeningPlies = p
		} else if cfg.Openings, err = readOpenings(o); err != nil {
			return fail("--openings: %v", err)
		}
	}
	progress := newProgress(stdout)
	cfg.OnEvent = progress.event
	wallAddr := ""
	if *web != "" {
		src := newWallSource(fmt.Sprintf("%s %s tournament", cfg.Game, f))
		addr, stop, err := serveWall(ctx, *web, src, stderr)
		if err != nil {
			return fail("%v", err)
		}
		defer stop()
		wallAddr = addr
		fmt.Fprintf(stdout, "live wall at http://%s/\n", addr)
		cfg.OnEvent = func(e tournament.Event) {
			src.event(e)
			progress.event(e)
		}
	}
	sum, err := tournament.Run(ctx, cfg)
	progress.finish()
	if sum == nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "%s %s tournament, %d players, seed %d: %d games (%d played now)\n",
		sum.Config.Game, sum.Config.Format, len(sum.Config.Players), sum.Config.Seed, len(sum.Results), sum.Played)
	fmt.Fprint(stdout, tournament.FormatStandings(sum.Standings))
	if err != nil {
		fmt.Fprintf(stderr, "arbiter tournament: stopped: %v\n", err)
		return 1
	}
	if *analyse {
		lim := engine.Limits{MoveTime: time.Duration(analyseTime)}
		if err := analyseTournament(ctx, cfg.Registry, *out, sum.Results, lim, stdout); err != nil {
			fmt.Fprintf(stderr, "arbiter tournament: --analyse: %v\n", err)
			return 1
		}
	}
	if wallAddr != "" {
		// The wall goes on showing the final standings and boards (for the
		// projector) until the process is stopped.
		fmt.Fprintf(stdout, "the wall at http://%s/ shows the final standings until arbiter is stopped (Ctrl-C)\n", wallAddr)
		<-ctx.Done()
	}
	return 0
}

// readOpenings reads an openings file: an opening a line, its moves in the
// game's notation separated by commas; blank lines and # comments skipped.
func readOpenings(path string) ([][]string, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var out [][]string
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var moves []string
		for _, m := range strings.Split(line, ",") {
			if m = strings.TrimSpace(m); m != "" {
				moves = append(moves, m)
			}
		}
		out = append(out, moves)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New(path + " holds no opening")
	}
	return out, nil
}

// playerFlags collects --player NAME=SPEC.
type playerFlags []tournament.Entrant

func (p *playerFlags) String() string { return fmt.Sprint(*p) }

func (p *playerFlags) Set(s string) error {
	name, spec, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(spec) == "" {
		return errors.New("write NAME=SPEC, e.g. alice=class:./alice")
	}
	*p = append(*p, tournament.Entrant{Name: strings.TrimSpace(name), Spec: strings.TrimSpace(spec)})
	return nil
}

// progress shows a running tournament: a bar with the games done, running
// and the time left on a terminal, the leaders in its description, and the
// results above it; piped, a plain line a game.
type progress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionSetDescription("games"), progressbar.OptionFullWidth())
	}
	return p
}

func (p *progress) event(e tournament.Event) {
	switch e.Kind {
	case tournament.GameFinished:
		line := fmt.Sprintf("game %s: %s (%s) vs %s (%s): %s, %s; %d/%d done",
			e.Game.ID, e.Game.First, sideName(e.Game, 0), e.Game.Second, sideName(e.Game, 1), verdict(e.Game), e.Game.Reason, e.Done, e.Total)
		if p.bar == nil {
			fmt.Fprintln(p.w, line)
			return
		}
		_ = p.bar.Clear()
		fmt.Fprintln(p.w, line)
		p.bar.ChangeMax(e.Total)
		var lead []string
		for _, s := range e.Standings[:min(3, len(e.Standings))] {
			lead = append(lead, fmt.Sprintf("%s %s", s.Player, strconv.FormatFloat(s.Points, 'f', -1, 64)))
		}
		p.bar.Describe(fmt.Sprintf("%d running | %s |", e.Running, strings.Join(lead, ", ")))
		_ = p.bar.Set(e.Done)
	case tournament.GameStarted:
		if p.bar != nil {
			p.bar.ChangeMax(e.Total)
			_ = p.bar.Set(e.Done)
		}
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}

func sideName(g tournament.GameResult, i int) string {
	if i < len(g.Sides) {
		return g.Sides[i]
	}
	return "?"
}

func verdict(g tournament.GameResult) string {
	if g.Winner == "" {
		return "draw"
	}
	return g.Winner + " wins"
}
