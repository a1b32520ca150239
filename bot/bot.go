package bot

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Config is what the Discord side is told at start.
type Config struct {
	// Token is the bot's token, with or without the "Bot " prefix. It is
	// never logged.
	Token string
	// AppID is the application's id; empty means the bot user's id, which
	// is the application's for every bot made in the developer portal.
	AppID string
	// DevGuildID, when set, registers the commands in this guild only
	// (instantly, for development) instead of globally.
	DevGuildID string
	// ShardID and ShardCount are this process's gateway shard; zero
	// ShardCount means one shard.
	ShardID, ShardCount int
	// PublicKey is the application's Ed25519 key, for HTTP mode.
	PublicKey ed25519.PublicKey
	// DeferAfter is how long a command may run before its interaction is
	// deferred; default 1.5 s, half of Discord's 3 s.
	DeferAfter time.Duration
	// MaxRequestAge is how old an HTTP interaction's signed timestamp may
	// be (either way) before it is refused as a replay; default 5 minutes.
	MaxRequestAge time.Duration
	// HTTPClient and Dialer, when set, replace discordgo's for REST and the
	// gateway (tests aim them at a fake Discord).
	HTTPClient *http.Client
	Dialer     *websocket.Dialer
	// LibraryLogLevel is discordgo's own log level (its lines go to the
	// standard logger): 0 is discordgo.LogError, -1 silences it. Above
	// discordgo.LogWarning it prints request URLs, which hold interaction
	// tokens.
	LibraryLogLevel int
	// Logger receives the bot's logs; default slog.Default().
	Logger *slog.Logger
	// Version says which Arbiter this is (`arbiter version`'s line);
	// /diagnose shows it.
	Version string
	// GatewayStuckAfter is how long discordgo may hold its gateway
	// session's lock (dialling, handshaking, resuming) before Run gives up
	// with ErrGatewayStuck; default 2 minutes, beyond the dialler's 45 s
	// handshake timeout.
	GatewayStuckAfter time.Duration
	// Now is the clock that judges request ages (an HTTP request's signed
	// timestamp, an interaction's creation); default time.Now.
	Now func() time.Time
}

// LogValue shows the configuration in logs without its token.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("app_id", c.AppID),
		slog.String("dev_guild_id", c.DevGuildID),
		slog.Int("shard_id", c.ShardID),
		slog.Int("shard_count", c.ShardCount),
		slog.Bool("http_mode_key", len(c.PublicKey) > 0),
		slog.Duration("defer_after", c.DeferAfter),
	)
}

// NewSession returns a discordgo session for cfg: REST is usable at once
// (a worker process needs nothing more); Bot.Run opens its gateway with the
// GUILDS intent alone, which is all that interactions, roles and threads
// need.
func NewSession(cfg Config) (*discordgo.Session, error) {
	token := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cfg.Token), "Bot "))
	if token == "" {
		return nil, errors.New("discord session: no bot token")
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	if cfg.HTTPClient != nil {
		s.Client = cfg.HTTPClient
	}
	if cfg.Dialer != nil {
		s.Dialer = cfg.Dialer
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	s.ShardID, s.ShardCount = cfg.ShardID, max(cfg.ShardCount, 1)
	s.LogLevel = cfg.LibraryLogLevel
	s.MaxRestRetries = 3
	return s, nil
}

// Bot routes Discord's interactions to the game flow. It is safe for
// concurrent use.
type Bot struct {
	cfg   Config
	s     *discordgo.Session
	svc   *commands.Service
	specs []commands.CommandSpec
	log   *slog.Logger
	roles *roleNames
	aud   *audience
	// closing turns new interactions away politely during shutdown.
	closing atomic.Bool
	// inflight counts interactions being answered, for a clean shutdown;
	// once drained (Wait has begun) no new one is counted.
	inflight sync.WaitGroup
	mu       sync.Mutex
	drained  bool
	// connected says the gateway is connected; connects counts its
	// connections (every one after the first is a reconnect).
	connected atomic.Bool
	connects  atomic.Int64
	// unverified bounds the HTTP bodies read before their signature is
	// checked (http.go).
	unverified unverified
}

// Gateway returns whether the gateway connection is up now and how often
// it has been connected again since the first connection.
func (b *Bot) Gateway() (connected bool, reconnects int64) {
	return b.connected.Load(), max(0, b.connects.Load()-1)
}

// New returns a bot over the session s (from NewSession) and the game
// flow svc.
func New(cfg Config, s *discordgo.Session, svc *commands.Service) *Bot {
	if cfg.DeferAfter <= 0 {
		cfg.DeferAfter = 1500 * time.Millisecond
	}
	if cfg.MaxRequestAge <= 0 {
		cfg.MaxRequestAge = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.GatewayStuckAfter <= 0 {
		cfg.GatewayStuckAfter = 2 * time.Minute
	}
	return &Bot{
		cfg:   cfg,
		s:     s,
		svc:   svc,
		specs: commandSpecs(svc.Registry().Names()),
		log:   cfg.Logger,
		roles: newRoleNames(s, cfg.Now),
		aud:   newAudience(s, cfg.Now),
	}
}

// commandSpecs is every command the bot registers: the game flow's, with
// gameNames as the choices of game options, and the bot's own /diagnose.
func commandSpecs(gameNames []string) []commands.CommandSpec {
	return append(commands.CommandSet(gameNames), diagnoseSpec)
}

// Audience tells the game flow which channels every member of their
// server can view (for the live wall), from Discord's permissions.
func (b *Bot) Audience() commands.Audience { return b.aud }

// Register replaces the application's commands with Arbiter's command set
// in one bulk overwrite: in Config.DevGuildID when set, else globally.
func (b *Bot) Register(ctx context.Context) error {
	appID := b.cfg.AppID
	if appID == "" {
		me, err := b.s.User("@me", discordgo.WithContext(ctx))
		if err != nil {
			return fmt.Errorf("register commands: find the application id: %w", err)
		}
		appID = me.ID
	}
	cmds, err := appCommands(b.specs, b.cfg.DevGuildID == "")
	if err != nil {
		return fmt.Errorf("register commands: %w", err)
	}
	var got []*discordgo.ApplicationCommand
	if b.cfg.DevGuildID == "" {
		got, err = b.overwriteGlobal(ctx, appID, cmds)
	} else {
		got, err = b.s.ApplicationCommandBulkOverwrite(appID, b.cfg.DevGuildID, cmds, discordgo.WithContext(ctx))
	}
	if err != nil {
		return fmt.Errorf("register commands: %w", err)
	}
	where := "globally"
	if b.cfg.DevGuildID != "" {
		where = "in guild " + b.cfg.DevGuildID
	}
	b.log.Info("commands registered", "count", len(got), "where", where)
	return nil
}

// Run connects to the gateway and answers interactions until ctx ends;
// then it stops taking interactions, closes the gateway and waits for the
// answers under way. It returns ErrGatewayStuck early, without closing,
// when discordgo's gateway session is stuck: the process should restart.
func (b *Bot) Run(ctx context.Context) error {
	remove := b.s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
		b.fromGateway(ic.Interaction)
	})
	defer remove()
	ready := b.s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		b.log.Info("gateway ready", "shard", b.s.ShardID, "shards", b.s.ShardCount, "guilds", len(r.Guilds))
	})
	defer ready()
	defer b.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Connect) {
		b.connects.Add(1)
		b.connected.Store(true)
	})()
	defer b.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { b.connected.Store(false) })()
	if err := b.s.Open(); err != nil {
		return fmt.Errorf("open the gateway: %w", err)
	}
	// keepAlive returns when ctx ends, or early when the gateway is stuck.
	if err := b.keepAlive(ctx); err != nil {
		// Closing would wait for the stuck lock forever.
		b.closing.Store(true)
		b.Wait()
		return err
	}
	b.closing.Store(true)
	err := b.s.Close()
	b.Wait()
	if err != nil {
		return fmt.Errorf("close the gateway: %w", err)
	}
	return nil
}

// Shutdown makes the bot turn new interactions away ("restarting") while
// what is under way finishes; Run does it by itself when its context ends.
func (b *Bot) Shutdown() { b.closing.Store(true) }

// Wait waits until every interaction under way is answered, its deferred
// reply included. Interactions that arrive afterwards are dropped: call it
// once the bot takes no more.
func (b *Bot) Wait() {
	b.mu.Lock()
	b.drained = true
	b.mu.Unlock()
	b.inflight.Wait()
}

// enter counts an interaction in, unless the bot is drained.
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drained {
		return false
	}
	b.inflight.Add(1)
	return true
}

// fromGateway answers an interaction that came over the gateway: the first
// answer is a REST callback.
func (b *Bot) fromGateway(i *discordgo.Interaction) {
	if !b.enter() {
		b.log.Warn("interaction after shutdown dropped", "interaction", i.ID)
		return
	}
	defer b.inflight.Done()
	respond := func(r *discordgo.InteractionResponse) error {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if r.Data != nil && len(r.Data.Files) > 0 {
			return b.s.InteractionRespond(i, r, discordgo.WithContext(ctx)) // multipart
		}
		endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
		_, err := b.s.RequestWithBucketID(http.MethodPost, endpoint, wire(r), endpoint, discordgo.WithContext(ctx))
		return err
	}
	b.answer(i, b.cfg.Now(), respond, nil)
}
