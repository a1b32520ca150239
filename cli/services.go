package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"time"

	"arbiter/commands"
	"arbiter/retention"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redisstore"
)

// The pieces the console, the bot and the worker share: the store, the
// game flow's background loops, and how many workers to run.

// openStore opens the store the configuration names (its Redis, or the
// embedded store under DATA_DIR) with the games' registry.
func openStore(ctx context.Context, cfg config, log *slog.Logger) (store.Store, *rules.Registry, error) {
	reg, errs := games.WithDir(cfg.GamesDir)
	for _, err := range errs {
		log.Error("a game file in GAMES_DIR is refused; the other games load", "err", err)
	}
	redisstore.RouteClientLogs(log)
	st, err := open.Store(ctx, cfg.storeConfig(log, reg))
	if err != nil {
		return nil, nil, err
	}
	return st, reg, nil
}

// registry returns the games: the built-in and shipped ones and those in
// GAMES_DIR. A file there that fails to load is reported on stderr with
// its line and column, and the other games still load.
func (cfg config) registry(stderr io.Writer) *rules.Registry {
	reg, errs := games.WithDir(cfg.GamesDir)
	for _, err := range errs {
		fmt.Fprintf(stderr, "arbiter: GAMES_DIR: %v (refused; the other games load)\n", err)
	}
	return reg
}

// gameRegistry is registry for the subcommands that need no other
// configuration: a malformed variable they do not use is no error for them.
func gameRegistry(stderr io.Writer) *rules.Registry {
	cfg, _ := loadConfig()
	return cfg.registry(stderr)
}

// storeConfig is the store's configuration.
func (cfg config) storeConfig(log *slog.Logger, reg *rules.Registry) store.Config {
	return store.Config{RedisURL: cfg.RedisURL, Cluster: cfg.RedisCluster, Partitions: cfg.RedisPartitions, WaitReplicas: cfg.RedisWait,
		DataDir: cfg.DataDir, StartEmpty: cfg.StoreStartEmpty, BackupEvery: cfg.StoreBackupEvery, BackupKeep: cfg.StoreBackupKeep,
		Logger: log, Registry: reg, ClaimTimeout: 30 * time.Second}
}

// closeStore closes st and reports a failure on stderr as who.
func closeStore(ctx context.Context, st store.Store, stderr io.Writer, who string) {
	if err := st.Close(context.WithoutCancel(ctx)); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
	}
}

// runLoops runs svc's bot-turn workers (when withWorkers) and its deadline
// clock until ctx ends. The function it returns waits until they stopped;
// a worker stopped mid-think leaves its turn to be taken up again.
func runLoops(ctx context.Context, svc *commands.Service, withWorkers bool) (wait func()) {
	var bg sync.WaitGroup
	if withWorkers {
		bg.Go(func() { svc.RunWorkers(ctx) })
	}
	bg.Go(func() { svc.RunClock(ctx) })
	return bg.Wait
}

// runRetention forgets the finished games older than ARCHIVE_DAYS, now
// and once a day, until ctx ends (nothing when it is unset). The function
// it returns waits until it stopped.
func runRetention(ctx context.Context, cfg config, st store.Store, log *slog.Logger) (wait func()) {
	var bg sync.WaitGroup
	k := &retention.Keeper{Store: st, Days: cfg.ArchiveDays, Log: log}
	bg.Go(func() { k.Run(ctx) })
	return bg.Wait
}

// workerCount is the --workers flag of `arbiter bot` and `arbiter worker`:
// bot turns thought about at once in this process. Unset, the process runs
// workers(cfg).
type workerCount struct {
	n   int
	set bool
}

// String is the flag's value; empty when unset.
func (w *workerCount) String() string {
	if w == nil || !w.set {
		return ""
	}
	return strconv.Itoa(w.n)
}

// Set reads a whole number of workers, 0 or more.
func (w *workerCount) Set(text string) error {
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return fmt.Errorf("%q: give a whole number of workers, 0 or more", text)
	}
	w.n, w.set = n, true
	return nil
}

// count is the workers to run: the flag's value when given, else
// workers(cfg).
func (w workerCount) count(cfg config) int {
	if w.set {
		return w.n
	}
	return workers(cfg)
}

// workers is the number of bot-turn workers: ENGINE_WORKERS, or one per
// core when it is unset or 0.
func workers(cfg config) int {
	if cfg.EngineWorkers > 0 {
		return cfg.EngineWorkers
	}
	return runtime.NumCPU()
}
