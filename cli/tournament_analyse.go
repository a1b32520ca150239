package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/render"
	"arbiter/review"
	"arbiter/rules"
	"arbiter/tournament"
)

// AnalysisFile is the per-player report `tournament --analyse` writes into
// --out.
const AnalysisFile = "analysis.csv"

// analyseTournament reviews every recorded game of a finished tournament
// in dir: beside each game's record it writes ID.analysis.json (as
// `analyse --json`), ID.analysis.png (the graph) and ID.analysis.html (the
// review page), and into dir analysis.csv, each player's accuracy and
// errors per game (analysis.Tally). A line a game goes to stdout.
func analyseTournament(ctx context.Context, reg *rules.Registry, dir string, results []tournament.GameResult, lim engine.Limits, stdout io.Writer) error {
	var tally analysis.Tally
	for i, res := range results {
		if res.Record == "" {
			continue // a bye
		}
		path := filepath.Join(dir, res.Record)
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rec, err := render.ParseRecord(reg, string(text))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		g := recordGame(rec)
		rep, err := analysis.Analyse(ctx, g.Start, g.Moves, g.Players, analysis.Options{Limits: lim})
		if err != nil {
			return fmt.Errorf("game %s: %w", res.ID, err)
		}
		tally.Add(rep)
		base := strings.TrimSuffix(path, filepath.Ext(path)) + ".analysis"
		js, err := rep.JSON()
		if err != nil {
			return fmt.Errorf("game %s: %w", res.ID, err)
		}
		if err := os.WriteFile(base+".json", append(js, '\n'), 0o644); err != nil {
			return err
		}
		png, err := review.StandardGraph(rep)
		if err != nil {
			return fmt.Errorf("game %s: %w", res.ID, err)
		}
		if err := os.WriteFile(base+".png", png, 0o644); err != nil {
			return err
		}
		if err := writePage(base+".html", g, rep); err != nil {
			return fmt.Errorf("game %s: %w", res.ID, err)
		}
		fmt.Fprintf(stdout, "analysed %s (%d/%d): %s; %s\n", res.ID, i+1, len(results),
			rep.Players[0].Line(), rep.Players[1].Line())
	}
	var csv bytes.Buffer
	if err := tally.WriteCSV(&csv); err != nil {
		return fmt.Errorf("%s: %w", AnalysisFile, err)
	}
	return os.WriteFile(filepath.Join(dir, AnalysisFile), csv.Bytes(), 0o644)
}
