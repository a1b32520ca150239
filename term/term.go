// Package term closes a class's term in one server: it writes what the
// term left (grades, the finished games and their records, ratings,
// vacation days used) into one zip file, and only once that file is
// whole starts the next term afresh: ratings cleared and everyone's
// vacation days given back. Running games, settings and program tokens
// are left as they are. The command line (arbiter term close) and
// /referee term-close both call Closer.Close.
package term

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/commands"
	"arbiter/internal/atomicfile"
	"arbiter/store"
)

// Dir is where the archives of closed terms go, in the data directory.
const Dir = "terms"

// Closer closes terms over a store.
type Closer struct {
	// Store is where the term's games, ratings and settings are; it must
	// be a store.Porter (both backends are), walked for the records.
	Store store.Store
	// Dir is the folder the archives are written to.
	Dir string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Log hears of each closed term (slog.Default when nil).
	Log *slog.Logger
}

// Closed says what Close did.
type Closed struct {
	File      string // the archive written
	Games     int    // finished games archived
	Ratings   int    // ratings archived and cleared
	Vacations int    // people whose used vacation days were given back
}

// ErrExists means a term of that name was closed in that server before:
// its archive is there, and is not overwritten.
var ErrExists = errors.New("a term of that name was closed already")

// namePattern is what a term's name may be: it names the file.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckName refuses a term name that cannot name a file, with a message
// for the person who gave it.
func CheckName(name string) error {
	if !namePattern.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("%w: a term's name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit (e.g. 2026-autumn), not %.40q",
			store.ErrInvalid, name)
	}
	return nil
}

// File returns the archive of guild's term called name under dir.
func File(dir, guild, name string) string {
	return filepath.Join(dir, guild+"-"+name+".zip")
}

// Close archives guild's term called name into File(c.Dir, guild, name)
// and then resets the server for the next term: its ratings in every
// game cleared, and every person's used vacation days given back. The
// archive is written whole (a temp file, synced and renamed) before
// anything is reset, so a failure before it leaves the term as it was
// (and Closed's File empty); ErrExists when the file is there already.
func (c *Closer) Close(ctx context.Context, guild, name string) (Closed, error) {
	if err := CheckName(name); err != nil {
		return Closed{}, err
	}
	if err := store.CheckID("guild", guild); err != nil {
		return Closed{}, err
	}
	file := File(c.Dir, guild, name)
	if _, err := os.Stat(file); err == nil {
		return Closed{}, fmt.Errorf("close term %s: %w (%s)", name, ErrExists, file)
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return Closed{}, fmt.Errorf("close term %s: %w", name, err)
	}
	var a archive
	err := atomicfile.Create(file, func(w io.Writer) error {
		var err error
		a, err = c.write(ctx, w, guild, name)
		return err
	})
	if errors.Is(err, os.ErrExist) {
		return Closed{}, fmt.Errorf("close term %s: %w (%s)", name, ErrExists, file)
	}
	if err != nil {
		return Closed{}, fmt.Errorf("close term %s: write the archive: %w", name, err)
	}
	out := Closed{File: file, Games: a.games}
	n, err := c.Store.ClearRatings(ctx, guild)
	if err != nil {
		return out, fmt.Errorf("close term %s: the archive is written (%s), but clearing the ratings failed: %w; close it again under another name once the store answers", name, out.File, err)
	}
	out.Ratings = n
	channel, _ := commands.VacationUsedSettings(guild)
	for _, key := range a.vacationKeys {
		if err := c.Store.SetChannelSetting(ctx, channel, key, ""); err != nil {
			return out, fmt.Errorf("close term %s: the archive is written (%s) and the ratings cleared, but giving back vacation days failed: %w", name, out.File, err)
		}
		out.Vacations++
	}
	c.log().Info("term: closed", "guild", guild, "term", name, "file", out.File,
		"games", out.Games, "ratings", out.Ratings, "vacations", out.Vacations)
	return out, nil
}

func (c *Closer) log() *slog.Logger {
	if c.Log == nil {
		return slog.Default()
	}
	return c.Log
}

func (c *Closer) now() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// archive is what write found: the games archived and the settings keys
// of used vacation days, to clear.
type archive struct {
	games        int
	vacationKeys []string
}

// write writes the term's zip to w: README.txt, grades.csv, games.csv,
// ratings.csv, vacation.csv and records.jsonl (the server's finished
// games and ratings in the export format, which arbiter store import
// reads into an empty store).
func (c *Closer) write(ctx context.Context, w io.Writer, guild, name string) (archive, error) {
	var a archive
	p, ok := c.Store.(store.Porter)
	if !ok {
		return a, fmt.Errorf("this store (%T) cannot be walked", c.Store)
	}
	now := c.now().UTC()
	rows, games, err := commands.Grades(ctx, c.Store, guild, time.Time{}, time.Time{})
	if err != nil {
		return a, err
	}
	a.games = len(games)
	vacChannel, vacPrefix := commands.VacationUsedSettings(guild)
	var (
		records  []store.Item
		ratings  []store.Rating
		rGames   []string
		vacation [][]string
	)
	err = p.Walk(ctx, func(it store.Item) error {
		switch {
		case (it.Type == "archived" || it.Type == "sequence" || it.Type == "rated") && it.Guild == guild:
			records = append(records, it)
		case it.Type == "rating" && it.Guild == guild && it.Rating != nil:
			records = append(records, it)
			ratings = append(ratings, *it.Rating)
			rGames = append(rGames, it.Game)
		case it.Type == "setting" && it.Channel == vacChannel && strings.HasPrefix(it.Key, vacPrefix):
			a.vacationKeys = append(a.vacationKeys, it.Key)
			vacation = append(vacation, []string{strings.TrimPrefix(it.Key, vacPrefix), it.Value})
		}
		return nil
	})
	if err != nil {
		return a, err
	}
	slices.SortFunc(vacation, func(x, y []string) int { return strings.Compare(x[0], y[0]) })

	z := zip.NewWriter(w)
	file := func(fname string, fill func(w io.Writer) error) error {
		f, err := z.CreateHeader(&zip.FileHeader{Name: fname, Method: zip.Deflate, Modified: now})
		if err != nil {
			return err
		}
		return fill(f)
	}
	readme := fmt.Sprintf(`Arbiter: the term %q of server %s, closed %s.

grades.csv     each player's games, wins, draws, losses, points and rating, per game
games.csv      every finished game: when, who, the result
ratings.csv    the ratings as they stood at the close, per game
vacation.csv   the vacation days each person had used
records.jsonl  the finished games with their moves and the ratings, in Arbiter's
               export format (docs/reference/export-formats.md): "arbiter store
               import records.jsonl" reads it into an empty store

After the close the server's ratings started again and everyone had their
whole vacation allowance again. Games going on were left as they were.
`, name, guild, now.Format(time.RFC3339))
	steps := []struct {
		name string
		fill func(w io.Writer) error
	}{
		{"README.txt", func(w io.Writer) error { _, err := io.WriteString(w, readme); return err }},
		{"grades.csv", func(w io.Writer) error { return commands.WriteGradesCSV(w, rows) }},
		{"games.csv", func(w io.Writer) error { return commands.WriteGamesCSV(w, games) }},
		{"ratings.csv", func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"game", "player", "name", "rating", "deviation", "games", "wins", "draws", "losses"})
			for i, r := range ratings {
				_ = cw.Write([]string{rGames[i], r.Player, r.Name, strconv.FormatFloat(r.Rating, 'f', 1, 64),
					strconv.FormatFloat(r.Deviation, 'f', 1, 64), strconv.Itoa(r.Games), strconv.Itoa(r.Wins),
					strconv.Itoa(r.Draws), strconv.Itoa(r.Losses)})
			}
			cw.Flush()
			return cw.Error()
		}},
		{"vacation.csv", func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write([]string{"person", "days used"})
			_ = cw.WriteAll(vacation)
			return cw.Error()
		}},
		{"records.jsonl", func(w io.Writer) error {
			_, err := store.Export(ctx, itemList(records), w, now)
			return err
		}},
	}
	for _, s := range steps {
		if err := file(s.name, s.fill); err != nil {
			return a, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return a, z.Close()
}

// itemList is a store.Porter over items already read, for store.Export.
type itemList []store.Item

func (l itemList) Walk(_ context.Context, fn func(store.Item) error) error {
	for _, it := range l {
		if err := fn(it); err != nil {
			return err
		}
	}
	return nil
}

func (l itemList) Empty(context.Context) (bool, error) { return len(l) == 0, nil }

func (l itemList) Put(context.Context, []store.Item) error {
	return errors.New("a term's records are read only")
}

// CloseTerm is Close for /referee term-close (commands.TermCloser).
func (c *Closer) CloseTerm(ctx context.Context, guild, name string) (commands.TermClosed, error) {
	done, err := c.Close(ctx, guild, name)
	if errors.Is(err, ErrExists) {
		err = fmt.Errorf("%w: %w", commands.ErrTermClosed, err)
	}
	return commands.TermClosed{File: done.File, Games: done.Games, Ratings: done.Ratings, Vacations: done.Vacations}, err
}
