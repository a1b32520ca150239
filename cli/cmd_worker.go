package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"arbiter/bot"
	"arbiter/metrics"
)

// runWorker is `arbiter worker`: bot-turn workers (and a deadline clock;
// a lock in Redis keeps one clock running) in a process of their own, so
// that engine work can move to other machines. It shares the bot's games
// through REDIS_URL and posts the bot's moves with Discord's REST API; it
// needs no gateway. SIGINT or SIGTERM stops it (exit 0): a turn being
// thought about is left in the queue, taken up again by the next worker.
func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWorkerAt(ctx, args, stderr, discordAt{})
}

// runWorkerAt is runWorker reaching Discord through at.
func runWorkerAt(ctx context.Context, args []string, stderr io.Writer, at discordAt) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "this worker's name in the bot-turn queue; keep it across restarts (default worker-HOSTNAME)")
	var nWorkers workerCount
	fs.Var(&nWorkers, "workers", "`N` bot turns thought about at once, 1 or more (default ENGINE_WORKERS, else one per core)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if nWorkers.set && nWorkers.n == 0 {
		fmt.Fprintln(stderr, "arbiter worker: --workers 0 would think about no bot turn: give 1 or more, or leave it out for ENGINE_WORKERS "+
			"(0 is for `arbiter bot --workers 0`, which leaves its bot turns to worker processes)")
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arbiter worker: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter worker: %v\n", err)
		return 2
	}
	if cfg.RedisURL == "" {
		fmt.Fprintln(stderr, "arbiter worker: REDIS_URL is not set. A worker takes the bot's turns from the Redis the bot uses; "+
			"the embedded store lives inside one process, where the bot runs its own workers. Give the bot and its workers the same REDIS_URL.")
		return 2
	}
	if cfg.DiscordToken == "" {
		fmt.Fprintln(stderr, "arbiter worker: DISCORD_TOKEN is not set: a worker posts the bot's moves to Discord with the bot's token")
		return 2
	}
	if *name == "" {
		*name = "worker-" + hostname()
	}
	if err := checkWorkerName(*name); err != nil {
		fmt.Fprintf(stderr, "arbiter worker: %v\n", err)
		return 2
	}
	n := nWorkers.count(cfg)
	log := newLogger(stderr, cfg.LogLevel)
	log.Info("starting arbiter worker", "build", readBuildInfo())
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter worker: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter worker")
	session, err := bot.NewSession(bot.Config{Token: cfg.DiscordToken, HTTPClient: at.client}) // REST only: never opened
	if err != nil {
		fmt.Fprintf(stderr, "arbiter worker: %v\n", err)
		return 2
	}
	meter := metrics.New(st, readBuildInfo().String(), reg.Names())
	svc := gameFlow(cfg, st, reg, session, log, meter, n, *name, false)
	waitMetrics, err := serveMetrics(ctx, cfg.MetricsAddr, meter, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter worker: %v\n", err)
		return 1
	}
	log.Info("bot-turn workers running", "name", *name, "workers", n)
	runLoops(ctx, svc, true)()
	waitMetrics()
	log.Info("stopped")
	return 0
}
