package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/rules"
)

// Summary is an archived game in a listing: enough to show a line of
// history without decoding the position.
type Summary struct {
	ID       string       // the archive id
	Channel  string       // where it was played
	Name     string       // the game's registry name
	Players  [2]Player    // the seats, in turn order
	Result   rules.Result // how it ended
	Reason   string       // the result in words
	Moves    int          // how many moves were played
	Created  time.Time    // when it began
	Finished time.Time    // when it ended
}

// MaxList bounds how many entries one listing returns.
const MaxList = 100

// ListLimit returns how many entries a listing asked for limit returns:
// limit itself, or MaxList when limit is not positive or above MaxList.
func ListLimit(limit int) int {
	if limit <= 0 || limit > MaxList {
		return MaxList
	}
	return limit
}

// Job is a bot turn waiting in, or claimed from, the queue: play the bot's
// move in the game of Channel if it is still game GameID at Version.
type Job struct {
	ID        string    // the stream entry id
	Channel   string    // the game's channel
	GameID    string    // the game's archive id
	Version   int64     // the version of the game the turn was queued for
	Queued    time.Time // when it was queued
	Reclaimed bool      // claimed from a worker that did not ack it in time
	// Lease is how long the job stays its worker's without an
	// ExtendBotTurn: a fraction of the game's time per move, so that the
	// turn of a worker that died is taken over well within the limit.
	// Extend it at least every Lease/3 while thinking.
	Lease time.Duration
	// Deliveries counts the claims of the job, this one included.
	Deliveries int64
	// Part is the backend's queue partition the job is in, set by
	// ClaimBotTurn; callers leave it alone.
	Part int
}

// The bounds of a job's lease: a quarter of its game's time per move,
// at least MinLease (or the claim timeout when that is shorter), at most
// the claim timeout.
const (
	leaseShare = 4
	MinLease   = time.Second
)

// JobLease returns the lease of a bot turn in g, on any backend: a
// quarter of its game's time per move, within [MinLease, claimTimeout].
func JobLease(reg *rules.Registry, claimTimeout time.Duration, g *Game) time.Duration {
	limit := 5 * time.Second
	if d, err := reg.Lookup(g.Name); err == nil && d.MoveTime > 0 {
		limit = d.MoveTime
	}
	return min(max(limit/leaseShare, min(MinLease, claimTimeout)), claimTimeout)
}

// LoadForJob is Store.LoadForJob over a backend's load: the job's game,
// or ErrStaleJob when it is gone or moved on.
func LoadForJob(ctx context.Context, load func(context.Context, string) (*Game, error), job *Job) (*Game, error) {
	if job == nil {
		return nil, fmt.Errorf("load for bot turn: %w: no job", ErrInvalid)
	}
	g, err := load(ctx, job.Channel)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("load for bot turn %s: %w (%w)", job.ID, ErrStaleJob, err)
	}
	if err != nil {
		return nil, fmt.Errorf("load for bot turn %s: %w", job.ID, err)
	}
	if g.ID != job.GameID || g.Version != job.Version || g.Status != Active {
		return nil, fmt.Errorf("load for bot turn %s: %w (queued for game %s version %d, the channel has game %s version %d, %s)",
			job.ID, ErrStaleJob, job.GameID, job.Version, g.ID, g.Version, g.Status)
	}
	return g, nil
}

// Rating is one player's standing in one game in one guild: the Glicko-2
// numbers (computed by the caller; the store only keeps them) and the
// results behind them.
type Rating struct {
	Player     string    `json:"player"`     // a Discord user id, "bot:<level>" or "program:<name>"
	Name       string    `json:"name"`       // the display name at the last update
	Rating     float64   `json:"rating"`     // Glicko-2 rating; also the leaderboard's order
	Deviation  float64   `json:"deviation"`  // Glicko-2 rating deviation
	Volatility float64   `json:"volatility"` // Glicko-2 volatility
	Games      int       `json:"games"`      // rated games played
	Wins       int       `json:"wins"`
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Updated    time.Time `json:"updated"` // when the last result was applied
}

// CheckRatingArgs refuses, with ErrInvalid, a guild, game or player id
// that cannot be stored.
func CheckRatingArgs(guild, game string, players []string) error {
	if err := CheckID("guild", guild); err != nil {
		return err
	}
	if err := CheckID("game", game); err != nil {
		return err
	}
	if len(players) == 0 {
		return fmt.Errorf("%w: no players", ErrInvalid)
	}
	for _, p := range players {
		if p == "" || len(p) > 128 {
			return fmt.Errorf("%w: player id %.20q is empty or too long", ErrInvalid, p)
		}
	}
	return nil
}

// DecodeRatings turns the stored ratings vals (JSON strings, or nil for a
// player without one) of players into Ratings, in order.
func DecodeRatings(guild, game string, players []string, vals []any) ([]Rating, error) {
	out := make([]Rating, len(players))
	for i, v := range vals {
		out[i] = Rating{Player: players[i]}
		data, ok := v.(string)
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(data), &out[i]); err != nil {
			return nil, fmt.Errorf("the %s rating of %s in guild %s is damaged: %v", game, players[i], guild, err)
		}
		out[i].Player = players[i]
	}
	return out, nil
}

// ErrRateLimited means a person asked for a new program token too soon
// after the last one.
var ErrRateLimited = errors.New("rate limited")

// TokenOwner is the person a program token acts for.
type TokenOwner struct {
	User   string    `json:"user"`  // their user id
	Name   string    `json:"name"`  // their name as shown in the server
	Guild  string    `json:"guild"` // the server the token was given in
	Issued time.Time `json:"issued"`
}

// CheckTokenArgs refuses a hash, guild or user id that cannot be a key.
func CheckTokenArgs(hash, guild, user string) error {
	switch {
	case hash != "" && (len(hash) != 64):
		return fmt.Errorf("%w: a token hash is 64 hex digits", ErrInvalid)
	case len(user) > 100:
		return fmt.Errorf("%w: the user id is over 100 characters", ErrInvalid)
	case len(guild) > 100 || strings.ContainsAny(guild, ":{}\x00"):
		return fmt.Errorf("%w: the guild id %.20q cannot be a key", ErrInvalid, guild)
	}
	return nil
}

// Outage is a time during which no process that takes players' commands
// was up and reaching the store, by the store's clock. Its end is its id.
type Outage struct {
	From, To time.Time
}

// Length is how long the outage lasted.
func (o Outage) Length() time.Duration { return o.To.Sub(o.From) }

// ID names the outage: its end in Unix milliseconds.
func (o Outage) ID() int64 { return o.To.UnixMilli() }

// IsZero reports whether o is no outage.
func (o Outage) IsZero() bool { return o.To.IsZero() }

// OutboxEntry is a consequence of one state change of a game that must
// happen once the change is saved: an announcement, a rating, a notice.
// It is put before the change is saved and removed once delivered; a sweep
// delivers what a crash left behind, if the change was saved, and drops it
// otherwise.
type OutboxEntry struct {
	// Key is the idempotency key, unique per consequence, e.g.
	// "<channel>/<game>/<version>"; delivery carries it (as Discord's
	// message nonce) so that a repeated delivery is a no-op.
	Key     string `json:"key"`
	Channel string `json:"channel"`
	Guild   string `json:"guild"`
	Game    string `json:"game"`    // the game's archive id
	Version int64  `json:"version"` // the version the state change writes
	// Check fingerprints the state change (the caller's own format), so
	// that a sweep tells this change from a rival one at the same version.
	Check string `json:"check"`
	// Payload is what to do, in the caller's own format.
	Payload json.RawMessage `json:"payload"`
	// Due is when a sweep may take the entry (store time): after the save
	// it follows has certainly been applied or refused.
	Due time.Time `json:"due"`
	// Tries counts the sweep's failed deliveries, for its backoff.
	Tries int `json:"tries,omitempty"`
}

// EncodeOutboxEntry checks e and returns it as stored.
func EncodeOutboxEntry(e OutboxEntry) ([]byte, error) {
	if e.Key == "" || len(e.Key) > 256 {
		return nil, fmt.Errorf("outbox: %w: key %.20q is empty or too long", ErrInvalid, e.Key)
	}
	if len(e.Payload) > maxOutboxEntry {
		return nil, fmt.Errorf("outbox %s: %w: payload of %d bytes is over %d", e.Key, ErrInvalid, len(e.Payload), maxOutboxEntry)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("outbox %s: %w: %v", e.Key, ErrInvalid, err)
	}
	return data, nil
}

// DeadLetter is a job given up after failing again and again, kept for
// people to look at.
type DeadLetter struct {
	Key     string    `json:"key"`     // the job, as given to Attempt
	Channel string    `json:"channel"` // its game's channel
	Failure string    `json:"failure"` // the last failure (a panic and its stack)
	Record  string    `json:"record"`  // the position's record, for a test case
	At      time.Time `json:"at"`
}

// DamagedRetry is how long Due leaves a damaged game's entry alone before
// it looks (and logs) again.
const DamagedRetry = time.Hour

// NewToken returns a random token for write idempotency and locks.
func NewToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// maxOutboxEntry is an outbox entry's payload limit (1 MiB).
const maxOutboxEntry = 1 << 20

// What a backend keeps of its history: the newest MaxOutages outages and
// MaxDeadLetters dead letters.
const (
	MaxOutages     = 1000
	MaxDeadLetters = 1000
)
