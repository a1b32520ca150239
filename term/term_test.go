package term_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
	"arbiter/term"
)

// backends opens an empty store of each backend: the embedded one and a
// real redis-server.
func backends(t *testing.T, reg *rules.Registry) map[string]func(t *testing.T) store.Store {
	return map[string]func(t *testing.T) store.Store{
		"embedded": func(t *testing.T) store.Store {
			s, err := boltstore.Open(context.Background(), store.Config{Registry: reg, Logger: storetest.QuietLogger(), DataDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			return s
		},
		"redis": func(t *testing.T) store.Store {
			cfg := store.Config{RedisURL: redistest.Start(t, redistest.Options{}).URL(), Registry: reg, Logger: storetest.QuietLogger()}
			s, err := redisstore.Open(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			return s
		},
	}
}

const (
	guild = "5100"
	other = "5200"
	ann   = "811112223334445556"
	ben   = "822223334445556667"
)

// fill plays a term in guild: three finished games between Ann and Ben,
// rated; one running game; a program token; vacation days used by both;
// and ratings in another guild.
func fill(t *testing.T, s store.Store, reg *rules.Registry) {
	t.Helper()
	ctx := storetest.Context(t)
	rng := rand.New(rand.NewPCG(7, 7))
	seats := [2]store.Player{{Kind: store.Human, UserID: ann, Name: "Ann"}, {Kind: store.Human, UserID: ben, Name: "Ben"}}
	for i := range 3 {
		g := storetest.NewGame(t, reg, "hique", "5101", guild)
		g.Players = seats
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 4 && g.Status == store.Active; j++ {
			storetest.PlayRandom(g, rng, seats[j%2].UserID)
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if g.Status == store.Active {
			g.Status, g.Result, g.Reason = store.Finished, rules.P1Wins, "Ben resigned"
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		for _, gd := range []string{guild, other} {
			if _, err := s.UpdateRatings(ctx, gd, "hique", g.ID, []string{ann, ben}, func(cur []store.Rating) ([]store.Rating, error) {
				next := append([]store.Rating(nil), cur...)
				for k, n := range []string{"Ann", "Ben"} {
					next[k].Name, next[k].Rating, next[k].Deviation, next[k].Volatility = n, 1500+float64(10*k*i), 300, 0.06
					next[k].Games++
				}
				return next, nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := storetest.NewGame(t, reg, "sixes", "5102", guild)
	if err := s.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	if err := s.IssueToken(ctx, strings.Repeat("a", 64), store.TokenOwner{User: ann, Name: "Ann", Guild: guild}, 0); err != nil {
		t.Fatal(err)
	}
	ch, prefix := commands.VacationUsedSettings(guild)
	for _, kv := range [][2]string{{prefix + ann, "3"}, {prefix + ben, "1"}, {"vacation.days", "10"}} {
		if err := s.SetChannelSetting(ctx, ch, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClose closes a term on each store: the archive holds the grades,
// the games, the ratings and the vacation days, and its records import
// into an empty store; then the guild's ratings and used vacation days
// are gone while the allowance, the running game, the token and the other
// guild's ratings stay. A second close of the name is refused and leaves
// the archive as it was.
func TestClose(t *testing.T) {
	reg := games.Registry()
	for name, open := range backends(t, reg) {
		t.Run(name, func(t *testing.T) {
			ctx := storetest.Context(t)
			s := open(t)
			fill(t, s, reg)
			dir := t.TempDir()
			at := time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC)
			c := &term.Closer{Store: s, Dir: dir, Now: func() time.Time { return at }, Log: storetest.QuietLogger()}
			done, err := c.Close(ctx, guild, "2026-autumn")
			if err != nil {
				t.Fatal(err)
			}
			if done.File != filepath.Join(dir, guild+"-2026-autumn.zip") || done.Games != 3 || done.Ratings != 2 || done.Vacations != 2 {
				t.Errorf("Close = %+v", done)
			}
			files := readZip(t, done.File)
			for _, want := range []struct{ file, text string }{
				{"README.txt", "2026-autumn"},
				{"grades.csv", "Ann"},
				{"games.csv", "Ben"},
				{"ratings.csv", ann},
				{"vacation.csv", ann + ",3"},
				{"records.jsonl", `"type":"archived"`},
			} {
				if !strings.Contains(files[want.file], want.text) {
					t.Errorf("%s does not hold %q:\n%s", want.file, want.text, files[want.file])
				}
			}
			if strings.Contains(files["records.jsonl"], `"guild":"`+other+`"`) {
				t.Error("the archive holds another guild's records")
			}
			// The records are an export that reads into an empty store.
			empty := open(t)
			n, err := store.Import(ctx, empty.(store.Porter), reg, func() (io.ReadCloser, error) {
				return io.NopCloser(strings.NewReader(files["records.jsonl"])), nil
			})
			if err != nil || n < 5 {
				t.Fatalf("import the term's records: %d items, %v", n, err)
			}
			if _, total, err := empty.Archived(ctx, guild, 0, 10); err != nil || total != 3 {
				t.Errorf("the imported archive: %d games, %v", total, err)
			}

			if b, err := s.Leaderboard(ctx, guild, "hique", 0, 10); err != nil || len(b) != 0 {
				t.Errorf("the leaderboard after the close: %+v, %v", b, err)
			}
			if b, err := s.Leaderboard(ctx, other, "hique", 0, 10); err != nil || len(b) != 2 {
				t.Errorf("another guild's leaderboard: %+v, %v", b, err)
			}
			ch, prefix := commands.VacationUsedSettings(guild)
			for key, want := range map[string]string{prefix + ann: "", prefix + ben: "", "vacation.days": "10"} {
				if v, err := s.ChannelSetting(ctx, ch, key); err != nil || v != want {
					t.Errorf("setting %s = %q, %v; want %q", key, v, err, want)
				}
			}
			if _, err := s.Load(ctx, "5102"); err != nil {
				t.Errorf("the running game: %v", err)
			}
			if _, err := s.LookupToken(ctx, strings.Repeat("a", 64)); err != nil {
				t.Errorf("the token: %v", err)
			}
			if _, total, err := s.Archived(ctx, guild, 0, 10); err != nil || total != 3 {
				t.Errorf("the store's archive after: %d, %v", total, err)
			}

			before, _ := os.ReadFile(done.File)
			if _, err := c.Close(ctx, guild, "2026-autumn"); !errors.Is(err, term.ErrExists) {
				t.Errorf("closing the same term again: %v", err)
			}
			if after, _ := os.ReadFile(done.File); !bytes.Equal(before, after) {
				t.Error("closing again changed the archive")
			}
			if _, err := c.Close(ctx, guild, "../up"); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("a name with a path: %v", err)
			}
			left, _ := os.ReadDir(dir)
			if len(left) != 1 {
				t.Errorf("the archive folder holds %d files, want the one archive", len(left))
			}
		})
	}
}

// readZip returns the files of a zip archive by name.
func readZip(t *testing.T, path string) map[string]string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	out := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = string(data)
	}
	return out
}
