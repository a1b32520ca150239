package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/render"
	"arbiter/review"
	"arbiter/rules"
)

// analyseUsage is the synopsis of `arbiter analyse`.
const analyseUsage = `usage: arbiter analyse GAME --moves "M1;M2;..." [--set key=value]... [flags]
       arbiter analyse FILE [flags]   (a game record as /history and tournament --out write them)
flags: [--movetime D] [--depth N] [--json] [--plot FILE.png] [--html OUT.html]`

// runAnalyse is `arbiter analyse`: the engine's review of a game given by
// its moves or by a game record. Each position is searched for --movetime
// (default 1s) or to --depth N (with --depth alone the output is the same
// on every run), one position per core. It prints, for every move, the
// evaluations before and after it (player 1's side), the loss of expected
// score, the class and the better move, and per player the accuracy and
// the counts; --json prints one object instead (analysis.Report.JSON),
// --plot writes the evaluation graph as a PNG and --html a static review
// page. A terminal on stderr gets a progress bar.
func runAnalyse(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var pos positionFlags
	pos.register(fs)
	moveTime := durationFlag(time.Second)
	fs.Var(&moveTime, "movetime", "search time a position")
	depth := fs.Int("depth", 0, "search depth a position, in plies (alone: the same output on every run)")
	asJSON := fs.Bool("json", false, "print the analysis as one JSON object")
	plotFile := fs.String("plot", "", "write the evaluation graph to this PNG file")
	htmlFile := fs.String("html", "", "write a static review page to this HTML file")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, analyseUsage)
		return 2
	}
	if *depth < 0 || *depth > engine.MaxDepth {
		fmt.Fprintf(stderr, "arbiter analyse: --depth %d: write a depth from 1 to %d\n", *depth, engine.MaxDepth)
		return 2
	}
	game, err := analyseInput(gameRegistry(stderr), rest[0], pos, flagGiven(fs, "moves") || flagGiven(fs, "set"))
	if err != nil {
		fmt.Fprintf(stderr, "arbiter analyse: %v\n", err)
		return 2
	}
	lim := engine.Limits{MoveTime: time.Duration(moveTime)}
	if *depth > 0 {
		lim.Depth = *depth
		if !flagGiven(fs, "movetime") {
			lim.MoveTime = 0
		}
	}
	opt := analysis.Options{Limits: lim}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar = progressbar.NewOptions(len(game.Moves)+1, progressbar.OptionSetWriter(stderr),
			progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetDescription("positions"), progressbar.OptionFullWidth(),
			progressbar.OptionClearOnFinish())
		opt.Progress = func(done, _ int) { _ = bar.Set(done) }
	}
	rep, err := analysis.Analyse(ctx, game.Start, game.Moves, game.Players, opt)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		fmt.Fprintf(stderr, "arbiter analyse: %v\n", err)
		return 1
	}
	if *plotFile != "" {
		png, err := review.StandardGraph(rep)
		if err == nil {
			err = os.WriteFile(*plotFile, png, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "arbiter analyse: --plot: %v\n", err)
			return 1
		}
	}
	if *htmlFile != "" {
		if err := writePage(*htmlFile, game, rep); err != nil {
			fmt.Fprintf(stderr, "arbiter analyse: --html: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		b, err := rep.JSON()
		if err != nil {
			fmt.Fprintf(stderr, "arbiter analyse: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprint(stdout, rep.Summary())
	return 0
}

// analyseInput reads the game to analyse: a game record from the file arg
// when there is such a file (then --moves and --set must not be given),
// else the game named arg with the position flags' moves.
func analyseInput(reg *rules.Registry, arg string, pos positionFlags, positionGiven bool) (review.Game, error) {
	text, err := os.ReadFile(arg)
	if err == nil {
		if positionGiven {
			return review.Game{}, fmt.Errorf("%s is a game record: --moves and --set are for a game named on the command line", arg)
		}
		rec, err := render.ParseRecord(reg, string(text))
		if err != nil {
			return review.Game{}, fmt.Errorf("%s: %w", arg, err)
		}
		return recordGame(rec), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return review.Game{}, err
	}
	g, gerr := pos.game(reg, arg)
	if gerr != nil {
		if _, lerr := reg.Lookup(arg); lerr != nil {
			return review.Game{}, fmt.Errorf("%s is neither a game record file nor a game: %w", arg, lerr)
		}
		return review.Game{}, gerr
	}
	return startAndMoves(g, nil), nil
}

// recordGame turns a game record into the game to review.
func recordGame(rec *render.GameRecord) review.Game {
	out := rec.Outcome
	rg := startAndMoves(rec.Game, &out)
	rg.Players = rec.Players
	return rg
}

// startAndMoves splits a game into its start position and its moves.
func startAndMoves(g rules.Game, result *rules.Outcome) review.Game {
	moves := append([]rules.Move(nil), g.History()...)
	start := g.Clone()
	for start.Ply() > 0 {
		start.Undo()
	}
	return review.Game{Start: start, Moves: moves, Result: result}
}

// writePage writes the review page to path.
func writePage(path string, g review.Game, rep *analysis.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := review.Page(f, g, rep); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
