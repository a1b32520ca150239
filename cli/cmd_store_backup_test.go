package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/open"
)

// TestStoreBackupWhilePlaying: `arbiter store backup`, run while a process
// holds the embedded store and moves are being played in it, gets its copy
// through that process; `arbiter store restore` refuses while the store is
// in use (naming the process and what to use instead), and into a stopped
// store restores every move acknowledged before the backup started,
// keeping the database it replaced. Export and console say the same on
// the locked store.
func TestStoreBackupWhilePlaying(t *testing.T) {
	bin := buildArbiter(t)
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := games.Registry()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{DataDir: data, Registry: reg, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	stopAdmin := serveAdmin(ctx, st, data, log)
	svc := commands.New(commands.Config{BotMoveTime: 5 * time.Millisecond, Workers: 2, TableMB: 1}, st, reg, discardNotifier{}, log, nil)
	var bg sync.WaitGroup
	bg.Go(func() { svc.RunWorkers(ctx) })

	run := func(env []string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL="), env...)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// Players in several channels, each remembering the moves the store
	// had acknowledged after each of their own was answered.
	type seen struct {
		id    string
		moves []string
	}
	var mu sync.Mutex
	acked := map[string]seen{}
	game := "sixes"
	var players sync.WaitGroup
	playing, stopPlaying := context.WithCancel(ctx)
	for i := range 4 {
		ch := fmt.Sprintf("c%d", i)
		user := commands.User{ID: fmt.Sprintf("10%d", i), Name: "p" + ch}
		players.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			do := func(line string) commands.Reply {
				inv, err := commands.ParseLine(line, commands.CommandSet(reg.Names()))
				if err != nil {
					t.Errorf("%s: %v", line, err)
				}
				inv.Guild, inv.Channel, inv.User = "g", ch, user
				return svc.Handle(ctx, inv)
			}
			for playing.Err() == nil {
				g, err := st.Load(ctx, ch)
				if errors.Is(err, store.ErrNotFound) {
					do("/play game:" + game + " level:1")
					continue
				}
				if err != nil || g.Status != store.Active || g.Players[g.State.ToMove()].Kind != store.Human {
					time.Sleep(time.Millisecond)
					continue
				}
				var list rules.MoveList
				g.State.Moves(&list)
				if r := do("/move " + g.State.FormatMove(list.Moves[rng.IntN(list.N)])); r.Private {
					continue
				}
				if g, err = st.Load(ctx, ch); err == nil {
					mu.Lock()
					acked[ch] = seen{g.ID, texts(g.Moves)}
					mu.Unlock()
				}
			}
		})
	}
	// The backup is taken once moves were acknowledged in at least two
	// channels, however long the machine takes to get there.
	waitFor(t, hangBound, "moves acknowledged in two channels", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) >= 2
	})
	mu.Lock()
	before := map[string]seen{}
	for ch, s := range acked {
		before[ch] = s
	}
	mu.Unlock()
	backup := filepath.Join(t.TempDir(), "class.db")
	out, err := run([]string{"DATA_DIR=" + data}, "store", "backup", backup)
	pid := fmt.Sprintf("%d", os.Getpid())
	if err != nil || !strings.Contains(out, "from the running process "+pid) {
		t.Fatalf("store backup while playing: %v\n%s", err, out)
	}
	// Moves go on after the backup: some channel acknowledges one more.
	waitFor(t, hangBound, "a move acknowledged after the backup", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for ch, s := range acked {
			if s.id != before[ch].id || len(s.moves) != len(before[ch].moves) {
				return true
			}
		}
		return false
	})
	stopPlaying()
	players.Wait()
	if len(before) < 2 {
		t.Fatalf("too few games were played before the backup: %v", before)
	}

	for _, args := range [][]string{{"store", "restore", backup}, {"store", "export", filepath.Join(t.TempDir(), "x.jsonl")}, {"console"}} {
		out, err := run([]string{"DATA_DIR=" + data}, args...)
		if err == nil || !strings.Contains(out, "(pid "+pid+")") || !strings.Contains(out, "/referee export") {
			t.Errorf("arbiter %v on the store in use: %v\n%s", args, err, out)
		}
	}
	cancel()
	bg.Wait()
	stopAdmin()
	if err := st.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	out, err = run([]string{"DATA_DIR=" + data}, "store", "restore", backup)
	if err != nil || !strings.Contains(out, "the database it replaced is kept as ") {
		t.Fatalf("store restore: %v\n%s", err, out)
	}
	kept, _ := filepath.Glob(filepath.Join(data, boltstore.DatabaseFile+".replaced-*"))
	if len(kept) != 1 {
		t.Fatalf("kept %v, want the database replaced", kept)
	}
	ctx = context.Background()
	st, err = open.Store(ctx, store.Config{DataDir: data, Registry: reg, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	for ch, want := range before {
		g, err := st.Load(ctx, ch)
		if err != nil || g.ID != want.id {
			g, err = st.LoadArchived(ctx, "g", want.id)
		}
		if err != nil {
			t.Fatalf("channel %s's game %s is not in the restored store: %v", ch, want.id, err)
		}
		if got := texts(g.Moves); len(got) < len(want.moves) || !slices.Equal(got[:len(want.moves)], want.moves) {
			t.Errorf("channel %s: restored moves %v, want at least the acknowledged %v", ch, got, want.moves)
		}
	}
}

func texts(moves []store.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Text
	}
	return out
}
