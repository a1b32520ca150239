package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"arbiter/bot"
	"arbiter/commands"
	"arbiter/engine"
	"arbiter/internal/httplimit"
	"arbiter/metrics"
	"arbiter/rules"
	"arbiter/store"
	"arbiter/term"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// runBot is `arbiter bot`: Arbiter on Discord, over the gateway or, with
// --http, at an HTTP interactions endpoint. It runs bot-turn workers and
// the deadline clock too, unless --workers 0 leaves the turns to `arbiter
// worker` processes. SIGINT or SIGTERM stops it cleanly (exit 0).
func runBot(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runBotAt(ctx, args, stderr, discordAt{})
}

// discordAt is where the bot finds Discord: zero is Discord itself; tests
// aim the HTTP client and the websocket dialer at a fake
// (bot/discordtest).
type discordAt struct {
	client *http.Client
	dialer *websocket.Dialer
}

// runBotAt is runBot reaching Discord through at.
func runBotAt(ctx context.Context, args []string, stderr io.Writer, at discordAt) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve Discord's interactions at this address (e.g. :8080) instead of over the gateway")
	var nWorkers workerCount
	fs.Var(&nWorkers, "workers", "`N` bot turns thought about at once in this process (default ENGINE_WORKERS, else one per core); 0 runs none, leaving them to worker processes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arbiter bot: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 2
	}
	if cfg.DiscordToken == "" {
		fmt.Fprintln(stderr, "arbiter bot: DISCORD_TOKEN is not set: give the bot's token from the Discord developer portal (see .env.example and docs/tutorials/first-server.md)")
		return 2
	}
	if cfg.RedisURL == "" && nWorkers.set && nWorkers.n == 0 {
		fmt.Fprintln(stderr, "arbiter bot: --workers 0 leaves the bot's turns and analyses to worker processes, and workers need Redis: "+
			"REDIS_URL is not set, so nothing would ever take them. Set REDIS_URL for the bot and its workers, or drop --workers 0.")
		return 2
	}
	var key ed25519.PublicKey
	if *httpAddr != "" {
		if key, err = publicKey(cfg.DiscordPublicKey); err != nil {
			fmt.Fprintf(stderr, "arbiter bot: --http needs %v\n", err)
			return 2
		}
	}
	log := newLogger(stderr, cfg.LogLevel)
	build := readBuildInfo()
	log.Info("starting arbiter bot", "build", build)
	logChecks(ctx, log, doctorChecks(ctx, cfg, nil, *httpAddr))
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter bot")
	defer serveAdmin(ctx, st, cfg.DataDir, log)()
	apiLn, cfg, err := listenAPI(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 1
	}
	if apiLn != nil {
		defer apiLn.Close()
	}

	bcfg := bot.Config{
		Token:      cfg.DiscordToken,
		AppID:      cfg.DiscordAppID,
		DevGuildID: cfg.DevGuildID,
		ShardID:    cfg.ShardID,
		ShardCount: cfg.ShardCount,
		PublicKey:  key,
		Logger:     log,
		HTTPClient: at.client,
		Dialer:     at.dialer,
		Version:    build.String(),
	}
	session, err := bot.NewSession(bcfg)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 2
	}
	n := nWorkers.count(cfg)
	meter := metrics.New(st, build.String(), reg.Names())
	svc := gameFlow(cfg, st, reg, session, log, meter, n, fmt.Sprintf("bot-%s-shard%d", hostname(), cfg.ShardID), true)
	b := bot.New(bcfg, session, svc)
	svc.SetAudience(b.Audience())
	if cfg.DiscordAppID != "" {
		log.Info("the bot's invite link, with every permission it needs", "url", bot.InviteURL(cfg.DiscordAppID))
	}
	if cfg.ShardID == 0 { // one shard registers for all
		if err := b.Register(ctx); err != nil {
			fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
			return 1
		}
	}

	loopCtx, stopLoops := context.WithCancel(ctx)
	defer stopLoops()
	var listening atomic.Bool // the interactions endpoint takes requests
	if *httpAddr != "" {
		meter.SetReady(listening.Load)
	} else {
		meter.SetGateway(b.Gateway)
	}
	waitMetrics, err := serveMetrics(loopCtx, cfg.MetricsAddr, meter, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 1
	}
	defer waitMetrics()
	defer serveAPI(loopCtx, apiLn, cfg, svc, log)()
	wait := runLoops(loopCtx, svc, n > 0)
	waitRetention := runRetention(loopCtx, cfg, st, log)
	if *httpAddr != "" {
		err = serveInteractions(ctx, *httpAddr, b, cfg.TrustedProxies, log, &listening)
	} else {
		log.Info("connecting to Discord's gateway", "shard", cfg.ShardID, "shards", cfg.ShardCount, "workers", n)
		err = b.Run(ctx)
	}
	stopLoops()
	wait()
	waitRetention()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter bot: %v\n", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// gameFlow is the game flow of the bot and worker processes, which share
// its settings: n bot-turn workers named name in the queue, the later
// messages posted to Discord through session; takesCommands for the bot,
// whose clock beats the heartbeat that keeps time fair.
func gameFlow(cfg config, st store.Store, reg *rules.Registry, session *discordgo.Session, log *slog.Logger, meter commands.Meter, n int, name string, takesCommands bool) *commands.Service {
	return commands.New(commands.Config{
		RefereeRole:    cfg.RefereeRole,
		TurnTime:       cfg.TurnTime,
		BotMoveTime:    cfg.BotMoveTime,
		AnalysisLimits: engine.Limits{MoveTime: cfg.AnalysisMoveTime},
		Workers:        n,
		WorkerName:     name,
		TakesCommands:  takesCommands,
		CachedGames:    cfg.CachedGames,
		Meter:          meter,
		PublicURL:      cfg.PublicURL,
		Limits:         cfg.Limits,
		Deadlines:      bot.Timestamp,
		Terms:          &term.Closer{Store: st, Dir: filepath.Join(cfg.DataDir, term.Dir), Log: log},
	}, st, reg, bot.NewNotifier(session, log), log, nil)
}

// interactionServer is the HTTP server of the interactions endpoint,
// within httplimit's bounds: Discord sends every interaction from its own
// few addresses, so the cap per address is high; the signature check turns
// anyone else away. Behind a proxy in proxies, the address is the one it
// forwards for.
func interactionServer(h http.Handler, proxies []netip.Prefix, log *slog.Logger) *http.Server {
	return httplimit.Server(h, httplimit.Limits{PerAddress: 1024, TrustedProxies: proxies}, log)
}

// serveInteractions serves the HTTP interactions endpoint at addr until
// ctx ends, then stops taking requests and waits for the answers under
// way. listening holds while it takes requests.
func serveInteractions(ctx context.Context, addr string, b *bot.Bot, proxies []netip.Prefix, log *slog.Logger, listening *atomic.Bool) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("interactions endpoint: %w", err)
	}
	srv := interactionServer(b, proxies, log)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	log.Info("serving Discord's interactions", "addr", ln.Addr().String())
	listening.Store(true)
	select {
	case err := <-served:
		listening.Store(false)
		return fmt.Errorf("interactions endpoint: %w", err)
	case <-ctx.Done():
	}
	listening.Store(false)
	b.Shutdown()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	b.Wait()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("interactions endpoint shutdown: %w", err)
	}
	return nil
}

// publicKey decodes the application's public key as the developer portal
// shows it (64 hex digits).
func publicKey(text string) (ed25519.PublicKey, error) {
	if text == "" {
		return nil, errors.New("DISCORD_PUBLIC_KEY: the application's public key from the developer portal's General Information tab")
	}
	key, err := hex.DecodeString(text)
	if err != nil || len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("DISCORD_PUBLIC_KEY: give the %d hex digits of the application's public key", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(key), nil
}

// newLogger logs to w at level, as text.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// hostname names this machine in worker names, so that a restarted
// process takes up the bot turns it was thinking about: the host name with
// only the characters the queue takes, at most 40 of them.
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "local"
	}
	b := []byte(h)
	for i, c := range b {
		if !workerNameChar(rune(c)) {
			b[i] = '-'
		}
	}
	return string(b[:min(len(b), 40)])
}

// maxWorkerName leaves room in the queue's 64-character consumer names for
// the worker number that commands appends ("-12").
const maxWorkerName = 56

// checkWorkerName says what is wrong with a worker name given by hand.
func checkWorkerName(name string) error {
	if name == "" || len(name) > maxWorkerName {
		return fmt.Errorf("--name %q: give 1 to %d characters", name, maxWorkerName)
	}
	for _, r := range name {
		if !workerNameChar(r) {
			return fmt.Errorf("--name %q: use only letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

// workerNameChar reports whether r may be part of a worker name.
func workerNameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}
