package store

import (
	"context"
	"time"
)

// Store is the contract every backend of the store meets: what the game
// flow (package commands) and the tools call. Each method's doc comment
// on a backend states the promise in detail for it; the contract suite
// (package storetest) holds every backend to what is written here.
type Store interface {
	// Create stores a new game in its channel, giving it an archive id and
	// version 1; ErrExists when the channel has a game.
	Create(ctx context.Context, g *Game) error
	// Load returns the channel's game; ErrNotFound when it has none, a
	// *DamagedError when its record does not decode.
	Load(ctx context.Context, channel string) (*Game, error)
	// Save writes g if the stored game is still the version g was loaded
	// at (compare-and-set), bumping g.Version; ErrConflict otherwise. A
	// finished game is archived and its channel freed.
	Save(ctx context.Context, g *Game) error
	// Archive files a finished game in its guild's archive without it
	// ever having been in a channel (e.g. a match).
	Archive(ctx context.Context, g *Game) error
	// Quarantine moves a channel's damaged record aside, freeing the
	// channel, and returns where it was kept.
	Quarantine(ctx context.Context, channel string) (string, error)

	// Archived lists a guild's finished games, newest first, with the total.
	Archived(ctx context.Context, guild string, offset, limit int) ([]Summary, int64, error)
	// LoadArchived returns one archived game.
	LoadArchived(ctx context.Context, guild, id string) (*Game, error)
	// Running returns the guild's games in progress.
	Running(ctx context.Context, guild string) ([]*Game, error)
	// Due returns up to limit running games whose wake time is at or
	// before now.
	Due(ctx context.Context, now time.Time, limit int) ([]*Game, error)

	// EnqueueBotTurn queues the bot's turn in g at g's version.
	EnqueueBotTurn(ctx context.Context, g *Game) (string, error)
	// ClaimBotTurn gives worker a queued (or abandoned) bot turn, waiting
	// up to wait; ErrNoJob when there is none.
	ClaimBotTurn(ctx context.Context, worker string, wait time.Duration) (*Job, error)
	// ExtendBotTurn keeps a claimed turn from being claimed by another.
	ExtendBotTurn(ctx context.Context, worker string, job *Job) error
	// AckBotTurn removes a finished turn from the queue.
	AckBotTurn(ctx context.Context, job *Job) error
	// LoadForJob loads the job's game; ErrStaleJob when it moved on.
	LoadForJob(ctx context.Context, job *Job) (*Game, error)
	// QueuedBotTurns counts the bot turns queued and not yet acked (those
	// being thought about included).
	QueuedBotTurns(ctx context.Context) (int64, error)

	// Ratings returns the players' ratings in a guild's game.
	Ratings(ctx context.Context, guild, game string, players ...string) ([]Rating, error)
	// UpdateRatings applies update to the players' ratings once per
	// resultID; false when that result was rated before.
	UpdateRatings(ctx context.Context, guild, game, resultID string, players []string,
		update func(current []Rating) ([]Rating, error)) (bool, error)
	// Leaderboard lists a guild's game's ratings, best first.
	Leaderboard(ctx context.Context, guild, game string, offset, limit int) ([]Rating, error)
	// ClearRatings deletes every rating of a guild, in every game, and
	// returns how many; the results already rated stay so (a result is
	// never rated twice, nor one from before into the new ratings).
	ClearRatings(ctx context.Context, guild string) (int, error)

	// ChannelSetting returns one of a channel's settings, "" when unset.
	ChannelSetting(ctx context.Context, channel, key string) (string, error)
	// SetChannelSetting sets one of a channel's settings.
	SetChannelSetting(ctx context.Context, channel, key, value string) error

	// TryLock takes the lock called name for ttl; ErrLocked when another
	// holder has it.
	TryLock(ctx context.Context, name string, ttl time.Duration) (Lock, error)

	// Stats returns the backend's traffic counts since it was opened.
	Stats() Stats
	// Close releases the backend, writing what it must.
	Close(ctx context.Context) error

	// Program tokens (the programs' API, package api): a person's program
	// acts for them with a token, of which only a SHA-256 hash is stored.
	//
	// IssueToken makes hash owner.User's only token in owner.Guild,
	// ending any earlier one of that guild (tokens of other guilds are
	// untouched); ErrRateLimited when they were given one there less than
	// gap ago.
	IssueToken(ctx context.Context, hash string, owner TokenOwner, gap time.Duration) error
	// LookupToken returns the owner of the token with hash; ErrNotFound
	// when there is none (never issued, revoked or replaced).
	LookupToken(ctx context.Context, hash string) (TokenOwner, error)
	// RevokeToken ends user's token in guild at once; false when they had
	// none there.
	RevokeToken(ctx context.Context, guild, user string) (bool, error)

	// Reliability: the store's clock, the heartbeat of the processes that
	// take commands, the outbox of consequences, attempt counts and dead
	// letters. Each backend's methods state the detailed promises.

	// Time returns the store's clock, the one time source of deadlines.
	Time(ctx context.Context) (time.Time, error)
	// Heartbeat records that a command-taking process is up, at the
	// store's time; it returns, to exactly one caller, the outage that
	// ended now when no beat came for longer than stale (zero otherwise),
	// and records it for Outages.
	Heartbeat(ctx context.Context, stale time.Duration) (Outage, error)
	// LastBeat returns the store's time and the last beat (zero if none).
	LastBeat(ctx context.Context) (now, last time.Time, err error)
	// Outages returns the recorded outages that ended after since, oldest
	// first.
	Outages(ctx context.Context, since time.Time) ([]Outage, error)
	// OutboxPut records a consequence of a state change, before the
	// change is saved; OutboxDone removes it once delivered or dropped;
	// OutboxDue lists the entries due at now, earliest first.
	OutboxPut(ctx context.Context, e OutboxEntry) error
	OutboxDone(ctx context.Context, key string) error
	OutboxDue(ctx context.Context, now time.Time, limit int) ([]OutboxEntry, error)
	// Attempt counts a start of the job called key and returns the starts
	// without Finished; Finished forgets them.
	Attempt(ctx context.Context, key string) (int, error)
	Finished(ctx context.Context, key string) error
	// AddDeadLetter keeps a job given up (and forgets its attempts);
	// DeadLetters lists them, newest first.
	AddDeadLetter(ctx context.Context, d DeadLetter) error
	DeadLetters(ctx context.Context, limit int) ([]DeadLetter, error)

	// The play page's one-time links and sessions (playpage.go).
	PlayCredentials
	// The analysis line and the analyses kept (analyses.go).
	Analyses

	// Forget removes or anonymises everything the store keeps of the
	// person with user id user, by the rules of Scrubber (forget.go):
	// their seats, moves and mentions in running and finished games
	// become FormerID and FormerName, and their ratings, leaderboard
	// places, tokens, play page credentials and settings are deleted. A
	// running game they are in moves on a version, so that a save of it
	// loaded before is a conflict. Afterwards no byte of their id or
	// names remains in what the store keeps, nor in a backup or an
	// export made after it. ErrInvalid for an id that cannot be one.
	Forget(ctx context.Context, user string) (ForgetReport, error)
	// ForgetFinished deletes, in every guild, the archived games that
	// finished before before, with their place in the archive's lists,
	// and returns how many it deleted. A zero before deletes nothing.
	ForgetFinished(ctx context.Context, before time.Time) (int, error)
}

// Lock is held by one process at a time, such as the one that keeps a
// single clock loop running. It expires after its TTL unless renewed, so
// a holder that dies frees it; only its holder can renew or release it.
type Lock interface {
	// Renew extends the lock by its TTL from now; ErrLockLost when it
	// expired or another took it: the holder must stop what it guards.
	Renew(ctx context.Context) error
	// Release frees the lock if it is still held; ErrLockLost otherwise.
	Release(ctx context.Context) error
}
