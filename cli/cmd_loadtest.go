package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"arbiter/loadtest"
	"arbiter/store/open"
	"arbiter/store/redisstore"
)

// runLoadtest is `arbiter loadtest`: it drives the command path (commands,
// the store, workers and the clock; no Discord) with many channels and
// prints one summary line a run, naming moves/s and p99. With --plot it
// runs at 10, 100, 1,000... channels up to --channels and draws latency and
// throughput against channels.
func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	channels := fs.Int("channels", 1000, "channels with a student-vs-student game")
	bots := fs.Int("bots", 0, "channels with a game against the bot")
	clients := fs.Int("clients", 1, "moves sent at once")
	duration := fs.Duration("duration", 10*time.Second, "how long to send moves (each run, with --plot)")
	storeKind := fs.String("store", "embedded", "embedded (a temporary data directory), redis (REDIS_URL) or cluster (REDIS_URL names a Redis Cluster)")
	plotFile := fs.String("plot", "", "run at 10, 100, 1,000... channels up to --channels and draw latency and throughput to this PNG")
	botTime := fs.Duration("bot-time", time.Second, "the bot's time a move")
	workersN := fs.Int("workers", 0, "bot-turn workers (default one per core)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the runs to this file (go tool pprof)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return 2
	}
	if *channels < 0 || *bots < 0 || *clients < 1 || *duration <= 0 {
		fmt.Fprintln(stderr, "arbiter loadtest: --channels and --bots must be 0 or more, --clients 1 or more, --duration positive")
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	redisstore.RouteClientLogs(log)
	reg := cfg.registry(stderr)
	scfg := cfg.storeConfig(log, reg)
	switch *storeKind {
	case "embedded":
		dir, err := os.MkdirTemp("", "arbiter-loadtest")
		if err != nil {
			fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
			return 1
		}
		defer os.RemoveAll(dir)
		scfg.RedisURL, scfg.Cluster, scfg.DataDir = "", false, dir
	case "redis", "cluster":
		if cfg.RedisURL == "" {
			fmt.Fprintf(stderr, "arbiter loadtest: --store %s needs REDIS_URL\n", *storeKind)
			return 2
		}
		scfg.Cluster = *storeKind == "cluster"
	default:
		fmt.Fprintf(stderr, "arbiter loadtest: --store must be embedded, redis or cluster, not %q\n", *storeKind)
		return 2
	}
	st, err := open.Store(ctx, scfg)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter loadtest")

	steps := []int{*channels}
	if *plotFile != "" {
		steps = nil
		for n := 10; n < *channels; n *= 10 {
			steps = append(steps, n)
		}
		steps = append(steps, *channels)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	var results []loadtest.Result
	for _, n := range steps {
		res, err := loadtest.Run(ctx, loadtest.Config{Channels: n, Bots: *bots, Clients: *clients, Duration: *duration,
			BotMoveTime: *botTime, Workers: *workersN, Progress: stderr}, st, reg)
		if err != nil {
			fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, res.Summary(*storeKind))
		results = append(results, res)
	}
	if *plotFile != "" {
		if err := drawCurve(*plotFile, *storeKind, results); err != nil {
			fmt.Fprintf(stderr, "arbiter loadtest: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "loadtest: plot written to %s\n", *plotFile)
	}
	return 0
}

// drawCurve draws /move latency (p50, p99) and moves/s against channels,
// side by side, to a PNG.
func drawCurve(file, storeName string, results []loadtest.Result) error {
	lat, thr := plot.New(), plot.New()
	lat.Title.Text = "/move latency (" + storeName + ")"
	lat.Y.Label.Text = "ms"
	thr.Title.Text = "throughput (" + storeName + ")"
	thr.Y.Label.Text = "moves/s"
	for _, p := range []*plot.Plot{lat, thr} {
		p.X.Label.Text = "channels"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Add(plotter.NewGrid())
	}
	var p50, p99, mps plotter.XYs
	for _, r := range results {
		x := float64(max(r.Channels, 1))
		p50 = append(p50, plotter.XY{X: x, Y: float64(r.P50) / float64(time.Millisecond)})
		p99 = append(p99, plotter.XY{X: x, Y: float64(r.P99) / float64(time.Millisecond)})
		mps = append(mps, plotter.XY{X: x, Y: r.MovesPerSec})
	}
	for _, s := range []struct {
		p    *plot.Plot
		name string
		xys  plotter.XYs
		dash bool
	}{{lat, "p50", p50, false}, {lat, "p99", p99, true}, {thr, "moves/s", mps, false}} {
		line, points, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		if s.dash {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		s.p.Add(line, points)
		s.p.Legend.Add(s.name, line)
	}
	img := vgimg.New(vg.Points(900), vg.Points(360))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(20), PadY: vg.Points(10), PadTop: vg.Points(10), PadBottom: vg.Points(10), PadLeft: vg.Points(10), PadRight: vg.Points(10)}
	canvases := plot.Align([][]*plot.Plot{{lat, thr}}, tiles, dc)
	lat.Draw(canvases[0][0])
	thr.Draw(canvases[0][1])
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plot: %w", err)
	}
	return f.Close()
}
