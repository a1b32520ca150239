package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"arbiter/commands"
	"arbiter/internal/httplimit"

	"github.com/joho/godotenv"
)

// config is Arbiter's configuration, read once from the environment (and
// a .env file, whose values never override the environment's).
type config struct {
	DiscordToken     string          // DISCORD_TOKEN: the bot's token; unset runs the console
	DiscordAppID     string          // DISCORD_APP_ID
	DiscordPublicKey string          // DISCORD_PUBLIC_KEY: the application's key (hex), for bot --http
	DevGuildID       string          // DEV_GUILD_ID: register commands to this guild only
	RedisURL         string          // REDIS_URL: unset uses the embedded store
	RedisCluster     bool            // REDIS_CLUSTER: REDIS_URL names a Redis Cluster (redis://h:p?addr=h2:p2&addr=h3:p3)
	RedisPartitions  int             // REDIS_PARTITIONS: bot-turn streams and deadline sets (default 1; 16 on a cluster); never lower it
	RedisWait        int             // REDIS_WAIT_REPLICAS: replicas each save waits for (WAIT); 0 acknowledges on the master alone
	DataDir          string          // DATA_DIR: the embedded store's folder, default ./data
	RefereeRole      string          // REFEREE_ROLE: the name of the role whose members may /referee, default referee
	EngineWorkers    int             // ENGINE_WORKERS: bot-turn workers, default one per core
	ShardID          int             // SHARD_ID
	ShardCount       int             // SHARD_COUNT
	LogLevel         slog.Level      // LOG_LEVEL: debug, info, warn or error
	BotMoveTime      time.Duration   // BOT_MOVE_TIME: overrides each game's bot time per move
	AnalysisMoveTime time.Duration   // ANALYSIS_MOVE_TIME: each position's search in an /analyse
	TurnTime         time.Duration   // TURN_TIME: a person's default time per move, default 48h
	APIAddr          string          // API_ADDR: serve the programs' API and the live wall here; unset: off
	MetricsAddr      string          // METRICS_ADDR: serve /metrics and /healthz here; unset: off
	TrustedProxies   []netip.Prefix  // TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For names the client (default loopback)
	PublicURL        string          // PUBLIC_URL: where people reach API_ADDR (behind the HTTPS proxy), for /wall's and the play page's links
	Activity         bool            // ACTIVITY=on: the application has a Discord Activity showing the play page
	ClientSecret     string          // DISCORD_CLIENT_SECRET: the application's OAuth2 secret, for the Activity
	Limits           commands.Limits // LIMIT_PERSON_GAMES, LIMIT_PERSON_LEVEL5, LIMIT_PERSON_CHALLENGES, LIMIT_GUILD_LEVEL5 (0 or unset: the default)
	StoreStartEmpty  bool            // STORE_START_EMPTY=1: move a damaged embedded database aside and start empty
	StoreBackupEvery time.Duration   // STORE_BACKUP_EVERY: how often the embedded store copies itself into DATA_DIR/backup
	StoreBackupKeep  int             // STORE_BACKUP_KEEP: how many of those copies are kept, the newest (default 24; 0 keeps all)
	ArchiveDays      int             // ARCHIVE_DAYS: finished games older than this many days are forgotten (unset or 0: kept for ever)
	CachedGames      int             // CACHED_GAMES: games a process keeps as it saved them, so a move needs no read (default 2048)
	GamesDir         string          // GAMES_DIR: more described games (*.yaml) to load at start
}

// loadConfig reads the configuration. A malformed value is an error naming
// the variable; secrets are never part of an error or a log.
func loadConfig() (config, error) {
	if err := godotenv.Load(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return config{}, fmt.Errorf("read .env: %w", err)
	}
	c := config{
		DiscordToken:     strings.TrimSpace(os.Getenv("DISCORD_TOKEN")),
		DiscordAppID:     os.Getenv("DISCORD_APP_ID"),
		DiscordPublicKey: strings.TrimSpace(os.Getenv("DISCORD_PUBLIC_KEY")),
		DevGuildID:       os.Getenv("DEV_GUILD_ID"),
		RedisURL:         os.Getenv("REDIS_URL"),
		DataDir:          envOr("DATA_DIR", "./data"),
		RefereeRole:      envOr("REFEREE_ROLE", "referee"),
		APIAddr:          os.Getenv("API_ADDR"),
		MetricsAddr:      os.Getenv("METRICS_ADDR"),
		PublicURL:        strings.TrimSpace(os.Getenv("PUBLIC_URL")),
		StoreStartEmpty:  os.Getenv("STORE_START_EMPTY") == "1",
		ClientSecret:     strings.TrimSpace(os.Getenv("DISCORD_CLIENT_SECRET")),
		StoreBackupKeep:  defaultBackupKeep,
		GamesDir:         os.Getenv("GAMES_DIR"),
		ShardCount:       1,
		TurnTime:         48 * time.Hour,
	}
	var errs []error
	intVar := func(name string, dst *int) {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				errs = append(errs, fmt.Errorf("%s=%q: give a whole number", name, v))
			}
			*dst = n
		}
	}
	intVar("ENGINE_WORKERS", &c.EngineWorkers)
	intVar("SHARD_ID", &c.ShardID)
	intVar("SHARD_COUNT", &c.ShardCount)
	intVar("REDIS_PARTITIONS", &c.RedisPartitions)
	intVar("REDIS_WAIT_REPLICAS", &c.RedisWait)
	intVar("CACHED_GAMES", &c.CachedGames)
	intVar("STORE_BACKUP_KEEP", &c.StoreBackupKeep)
	intVar("ARCHIVE_DAYS", &c.ArchiveDays)
	intVar("LIMIT_PERSON_GAMES", &c.Limits.PersonGames)
	intVar("LIMIT_PERSON_LEVEL5", &c.Limits.PersonStrongBot)
	intVar("LIMIT_PERSON_CHALLENGES", &c.Limits.PersonChallenges)
	intVar("LIMIT_GUILD_LEVEL5", &c.Limits.GuildStrongBot)
	switch v := strings.ToLower(os.Getenv("REDIS_CLUSTER")); v {
	case "", "false", "0", "no":
	case "true", "1", "yes":
		c.RedisCluster = true
	default:
		errs = append(errs, fmt.Errorf("REDIS_CLUSTER=%q: give true or false", v))
	}
	switch v := strings.ToLower(os.Getenv("ACTIVITY")); v {
	case "", "off", "false", "0", "no":
	case "on", "true", "1", "yes":
		c.Activity = true
	default:
		errs = append(errs, fmt.Errorf("ACTIVITY=%q: give on or off", v))
	}
	if c.Activity && (c.ClientSecret == "" || c.DiscordAppID == "" || c.APIAddr == "" || c.PublicURL == "") {
		errs = append(errs, errors.New("ACTIVITY=on needs API_ADDR, PUBLIC_URL, DISCORD_APP_ID and DISCORD_CLIENT_SECRET (docs/how-to/activity.md)"))
	}
	durVar := func(name string, dst *time.Duration) {
		if v := os.Getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				errs = append(errs, fmt.Errorf("%s=%q: give a duration such as 500ms or 48h", name, v))
			}
			*dst = d
		}
	}
	durVar("BOT_MOVE_TIME", &c.BotMoveTime)
	durVar("ANALYSIS_MOVE_TIME", &c.AnalysisMoveTime)
	durVar("TURN_TIME", &c.TurnTime)
	durVar("STORE_BACKUP_EVERY", &c.StoreBackupEvery)
	c.TrustedProxies = httplimit.Loopback()
	if v := os.Getenv("TRUSTED_PROXIES"); strings.TrimSpace(v) != "" {
		p, err := parseProxies(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("TRUSTED_PROXIES=%q: %w", v, err))
		}
		c.TrustedProxies = p
	}
	if v := os.Getenv("LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			errs = append(errs, fmt.Errorf("LOG_LEVEL=%q: give debug, info, warn or error", v))
		}
	}
	if c.ShardCount < 1 || c.ShardID >= c.ShardCount {
		errs = append(errs, fmt.Errorf("SHARD_ID %d must be below SHARD_COUNT %d", c.ShardID, c.ShardCount))
	}
	return c, errors.Join(errs...)
}

// parseProxies reads TRUSTED_PROXIES: addresses and networks (CIDR)
// separated by commas or spaces; "none" trusts no proxy.
func parseProxies(v string) ([]netip.Prefix, error) {
	out := []netip.Prefix{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.EqualFold(f, "none") {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a network such as 172.30.0.0/24; separate them by commas", f)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// defaultBackupKeep is STORE_BACKUP_KEEP's default: a day of hourly
// backups.
const defaultBackupKeep = 24

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
