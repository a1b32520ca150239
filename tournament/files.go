package tournament

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arbiter/engine"
	"arbiter/render"
	"arbiter/rules"
)

// The files of a tournament's directory.
const (
	ConfigFile     = "tournament.json"
	ResultsFile    = "results.json"
	StandingsFile  = "standings.csv"
	CrossTableFile = "crosstable.txt"
	GamesDir       = "games"
)

// Transcripter is a player that keeps its dialogue with a program; the
// game's record keeps it.
type Transcripter interface {
	Transcript() string
}

// SavedConfig reads the settings kept in dir, to resume with them.
func SavedConfig(dir string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	return cfg, nil
}

// openOut makes the output directory, or with Resume reads back the
// finished games, checking that the tournament is the same.
func (r *runner) openOut() error {
	dir := r.cfg.OutDir
	if err := os.MkdirAll(filepath.Join(dir, GamesDir), 0o755); err != nil {
		return err
	}
	want, err := json.MarshalIndent(r.cfg, "", "  ")
	if err != nil {
		return err
	}
	have, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if r.cfg.Resume {
			return fmt.Errorf("--resume: no tournament in %s", dir)
		}
		return writeAtomic(filepath.Join(dir, ConfigFile), append(want, '\n'))
	case err != nil:
		return err
	case !r.cfg.Resume:
		return fmt.Errorf("%s already holds a tournament: resume it with --resume, or choose another directory", dir)
	case !bytes.Equal(bytes.TrimSpace(have), want):
		return fmt.Errorf("--resume: the tournament in %s was set up differently:\n%s\nnow:\n%s", dir, have, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &r.results); err != nil {
		return fmt.Errorf("%s: %w", ResultsFile, err)
	}
	for _, res := range r.results {
		r.done[res.ID] = true
	}
	return nil
}

// saveResults rewrites results.json, the standings and the cross table;
// r.mu is held.
func (r *runner) saveResults() error {
	data, err := json.MarshalIndent(r.results, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(r.cfg.OutDir, ResultsFile), append(data, '\n')); err != nil {
		return err
	}
	st := Standings(r.cfg.Players, r.results)
	var csvText bytes.Buffer
	if err := WriteCSV(&csvText, st); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(r.cfg.OutDir, StandingsFile), csvText.Bytes()); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(r.cfg.OutDir, CrossTableFile), []byte(CrossTable(r.cfg.Players, r.results)))
}

// writeGame writes the game's record (with the programs' transcripts as
// comments) and its GIF, and notes their files in res.
func (r *runner) writeGame(res *GameResult, g rules.Game, names [2]string, seats [2]engine.Player) error {
	out := rules.Outcome{Result: rules.P1Wins, Reason: res.Reason}
	switch res.Result {
	case rules.P2Wins.String():
		out.Result = rules.P2Wins
	case rules.Draw.String():
		out.Result = rules.Draw
	}
	if own := g.Outcome(); own.Result != rules.Ongoing {
		out = own // ended by its rules: the record keeps the scores too, as ParseRecord checks
	}
	opt := render.Options{Players: names, Result: &out}
	text := render.Record(g, opt,
		render.Tag{Key: "Event", Value: fmt.Sprintf("%s tournament, round %d", r.cfg.Format, res.Round)},
		render.Tag{Key: "Game-Id", Value: res.ID})
	for side, p := range seats {
		if t, ok := p.(Transcripter); ok && t.Transcript() != "" {
			text += fmt.Sprintf("\n# Transcript of %s (%s):\n", names[side], p)
			for _, line := range strings.Split(strings.TrimRight(t.Transcript(), "\n"), "\n") {
				text += "# " + line + "\n"
			}
		}
	}
	res.Record = filepath.Join(GamesDir, res.ID+".txt")
	if err := writeAtomic(filepath.Join(r.cfg.OutDir, res.Record), []byte(text)); err != nil {
		return err
	}
	if r.cfg.NoGIF {
		return nil
	}
	gif, err := render.GIF(g, opt)
	if err != nil {
		return fmt.Errorf("game %s: %w", res.ID, err)
	}
	res.GIF = filepath.Join(GamesDir, res.ID+".gif")
	return writeAtomic(filepath.Join(r.cfg.OutDir, res.GIF), gif)
}

// writeAtomic replaces path with data through a renamed temporary file, so
// that a reader (or a resume after a kill) sees the old or the new file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteCSV writes the standings as CSV: a header row, then a row per
// player (rank, player, spec, games, points, wins, draws, losses, byes,
// elo, elo_low, elo_high, los_next).
func WriteCSV(w *bytes.Buffer, st []Standing) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"rank", "player", "spec", "games", "points", "wins", "draws", "losses", "byes", "elo", "elo_low", "elo_high", "los_next"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, s := range st {
		_ = c.Write([]string{strconv.Itoa(s.Rank), s.Player, s.Spec, strconv.Itoa(s.Games), f(s.Points),
			strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses), strconv.Itoa(s.Byes),
			f(s.Elo), f(s.EloLow), f(s.EloHigh), f(s.LOSNext)})
	}
	c.Flush()
	return c.Error()
}

// FormatStandings writes the standings as a text table.
func FormatStandings(st []Standing) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%4s  %-16s %6s %7s %5s %5s %5s  %6s  %-15s %6s\n", "rank", "player", "games", "points", "W", "D", "L", "Elo", "95%", "LOS")
	for _, s := range st {
		los := ""
		if s.Rank < len(st) {
			los = fmt.Sprintf("%.0f%%", 100*s.LOSNext)
		}
		fmt.Fprintf(&b, "%4d  %-16s %6d %7s %5d %5d %5d  %+6.0f  [%+.0f, %+.0f] %6s\n", s.Rank, s.Player, s.Games,
			strconv.FormatFloat(s.Points, 'f', -1, 64), s.Wins, s.Draws, s.Losses, s.Elo, s.EloLow, s.EloHigh, los)
	}
	return b.String()
}

// CrossTable writes who scored what against whom: a row per player in the
// order of the standings, a column per opponent, "points/games".
func CrossTable(players []Entrant, results []GameResult) string {
	st := Standings(players, results)
	pos := map[string]int{}
	for i, s := range st {
		pos[s.Player] = i
	}
	n := len(st)
	pts := make([][]float64, n)
	games := make([][]int, n)
	for i := range pts {
		pts[i], games[i] = make([]float64, n), make([]int, n)
	}
	for _, r := range results {
		if r.Bye {
			continue
		}
		a, okA := pos[r.First]
		b, okB := pos[r.Second]
		if !okA || !okB {
			continue
		}
		s := r.firstScore()
		pts[a][b] += s
		pts[b][a] += 1 - s
		games[a][b]++
		games[b][a]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-3s %-16s %7s", "", "player", "points")
	for i := range st {
		fmt.Fprintf(&b, " %7d", i+1)
	}
	b.WriteByte('\n')
	for i, s := range st {
		fmt.Fprintf(&b, "%-3d %-16s %7s", i+1, s.Player, strconv.FormatFloat(s.Points, 'f', -1, 64))
		for j := range st {
			cell := "-"
			if i == j {
				cell = "x"
			} else if games[i][j] > 0 {
				cell = strconv.FormatFloat(pts[i][j], 'f', -1, 64) + "/" + strconv.Itoa(games[i][j])
			}
			fmt.Fprintf(&b, " %7s", cell)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Cross returns the cross table in the order of st: cell [i][j] lists what
// st[i] scored against st[j], game by game ("1 ½ 0"), "" before they met.
func Cross(st []Standing, results []GameResult) [][]string {
	pos := map[string]int{}
	for i, s := range st {
		pos[s.Player] = i
	}
	cells := make([][][]string, len(st))
	for i := range cells {
		cells[i] = make([][]string, len(st))
	}
	word := map[float64]string{1: "1", 0.5: "½", 0: "0"}
	for _, r := range results {
		a, okA := pos[r.First]
		b, okB := pos[r.Second]
		if r.Bye || !okA || !okB {
			continue
		}
		s := r.firstScore()
		cells[a][b] = append(cells[a][b], word[s])
		cells[b][a] = append(cells[b][a], word[1-s])
	}
	out := make([][]string, len(st))
	for i := range out {
		out[i] = make([]string, len(st))
		for j := range out[i] {
			out[i][j] = strings.Join(cells[i][j], " ")
		}
	}
	return out
}
