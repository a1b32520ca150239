package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// saveScript is the compare-and-set of a game. KEYS[1] is the game's hash;
// ARGV: the archive id, the expected version ("0": the channel must be
// free), the new version, the new status, the record, a write token, and
// the time (Unix ms) after which the write must not apply.
//
// It returns 1 when applied (or when this very write was applied before and
// is being retried), 0 when the game moved on (or, for a create, the
// channel is busy), -1 when the game is gone (another game or none), -2
// when the stored game is finished and cannot change, -3 when Redis got to
// it too late: the caller has given up (or is about to) and reports that
// nothing was changed, which the script makes true.
var saveScript = redis.NewScript(`
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[7]) then return -3 end
local cur = redis.call('HMGET', KEYS[1], 'id', 'version', 'status', 'token')
if not cur[2] then
  if ARGV[2] ~= '0' then return -1 end
else
  if cur[2] == ARGV[3] and cur[1] == ARGV[1] and cur[4] == ARGV[6] then return 1 end
  if ARGV[2] == '0' then return 0 end
  if cur[1] ~= ARGV[1] then return -1 end
  if cur[2] ~= ARGV[2] then return 0 end
  if cur[3] == 'finished' then return -2 end
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'version', ARGV[3], 'status', ARGV[4], 'record', ARGV[5], 'token', ARGV[6])
return 1
`)

// deleteScript frees a channel of a finished game. KEYS[1] is the game's
// hash; ARGV: the archive id and the version. It returns 1 when deleted, -1
// when that game is not there (already deleted: fine), 0 when the game is
// there at another version or is not finished there.
var deleteScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'id', 'version', 'status')
if not cur[2] or cur[1] ~= ARGV[1] then return -1 end
if cur[2] ~= ARGV[2] or cur[3] ~= 'finished' then return 0 end
redis.call('DEL', KEYS[1])
return 1
`)

// writeDeadline returns the Unix ms after which a compare-and-set must not
// apply: half-way from now to ctx's deadline, so that a write Redis gets
// to late is refused while its caller is still waiting for the answer,
// rather than applied after the caller reported that nothing changed.
func writeDeadline(ctx context.Context) int64 {
	now := time.Now()
	d, ok := ctx.Deadline()
	if !ok {
		return now.Add(time.Minute).UnixMilli()
	}
	return now.Add(d.Sub(now) / 2).UnixMilli()
}

// runScript adds script to pipe by its hash, or by its source when retry
// is set (after NOSCRIPT).
func runScript(ctx context.Context, pipe redis.Pipeliner, script *redis.Script, retry bool, keys []string, args ...any) *redis.Cmd {
	if retry {
		return script.Eval(ctx, pipe, keys, args...)
	}
	return script.EvalSha(ctx, pipe, keys, args...)
}

// casResult runs a pipeline whose one script command is made by add, once
// with EVALSHA and again with EVAL if Redis does not know the script. It
// returns the script's integer result.
func (s *Redis) casResult(ctx context.Context, add func(pipe redis.Pipeliner, retry bool) *redis.Cmd) (int64, error) {
	retry := false
	for {
		pipe := s.rdb.Pipeline()
		cmd := add(pipe, retry)
		_, _ = pipe.Exec(ctx)
		for _, c := range pipe.Cmds() {
			if c != cmd && c.Err() != nil && !unavailable(c.Err()) {
				s.log.Error("store: index update failed", "command", c.Name(), "err", c.Err())
			}
		}
		n, err := cmd.Int64()
		if err != nil && !retry && redis.HasErrorPrefix(err, "NOSCRIPT") {
			retry = true
			continue
		}
		return n, err
	}
}

// Create stores a new game in g.Channel. g must be active, with its state,
// players and guild set; Create gives it its archive id (unique within the
// guild), version 1 and its created and updated times. A channel with a
// game going on is ErrBusy; a finished game left in the channel (its
// archiving was interrupted) is archived first.
func (s *Redis) Create(ctx context.Context, g *Game) error {
	if g == nil {
		return fmt.Errorf("create game: %w: no game", ErrInvalid)
	}
	if g.Status == "" {
		g.Status = Active
	}
	if g.Status != Active {
		return fmt.Errorf("create game in channel %s: %w: a new game must be active", g.Channel, ErrInvalid)
	}
	if err := g.check(); err != nil {
		return fmt.Errorf("create game: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()

	seq, err := s.rdb.Incr(ctx, seqKey(g.Guild)).Result()
	if err != nil {
		return fail(caller, "create game in channel "+g.Channel, err)
	}
	n := *g
	n.ID = strconv.FormatInt(seq, 10)
	n.Version = 1
	now := s.now()
	if n.Created.IsZero() {
		n.Created = now
	}
	n.Updated = now
	data, err := encodeGame(&n)
	if err != nil {
		return fmt.Errorf("create game: %w", err)
	}
	token := newToken()
	for attempt := 0; ; attempt++ {
		applyBy := writeDeadline(ctx)
		res, err := s.casResult(ctx, func(pipe redis.Pipeliner, retry bool) *redis.Cmd {
			if wake := n.Wake(); !wake.IsZero() {
				pipe.ZAddLT(ctx, deadlinesKey, redis.Z{Score: float64(wake.UnixMilli()), Member: deadlineMember(n.Channel, n.ID, 1)})
			}
			cmd := runScript(ctx, pipe, saveScript, retry, []string{gameKey(n.Channel)}, n.ID, "0", "1", string(n.Status), data, token, applyBy)
			// The index of running games, after the game (see runningGame);
			// Running drops the entry of a Create that failed.
			pipe.SAdd(ctx, activeKey(n.Guild), n.Channel)
			return cmd
		})
		if err != nil {
			if wrongType(err) {
				return &DamagedError{Channel: n.Channel, Err: errors.New("its key holds something that is not a game record")}
			}
			return fail(caller, "create game in channel "+n.Channel, err)
		}
		if res == -3 {
			return fmt.Errorf("create game in channel %s: %w (Redis was too slow; the game was not created)", n.Channel, ErrUnavailable)
		}
		if res == 1 {
			*g = n
			return nil
		}
		// The channel is taken: by a game going on (busy), or by a finished
		// game whose archiving was interrupted (archive it, then try again).
		old, err := s.Load(caller, n.Channel)
		if errors.Is(err, ErrNotFound) && attempt < 3 {
			continue
		}
		if err != nil {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, err)
		}
		if old.Status != Finished || attempt >= 3 {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, ErrBusy)
		}
		if err := s.archive(caller, old); err != nil {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, err)
		}
	}
}

// Load returns the game in channel: ErrNotFound when there is none, a
// *DamagedError when its record cannot be read.
func (s *Redis) Load(ctx context.Context, channel string) (*Game, error) {
	if err := checkID("channel", channel); err != nil {
		return nil, fmt.Errorf("load game: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	vals, err := s.rdb.HMGet(ctx, gameKey(channel), "id", "version", "record").Result()
	if err != nil {
		if wrongType(err) {
			return nil, &DamagedError{Channel: channel, Err: errors.New("its key holds something that is not a game record")}
		}
		return nil, fail(caller, "load game in channel "+channel, err)
	}
	return s.gameFromHash(channel, vals)
}

// gameFromHash decodes the values of HMGET id version record.
func (s *Redis) gameFromHash(channel string, vals []any) (*Game, error) {
	if len(vals) != 3 || vals[2] == nil {
		if len(vals) == 3 && (vals[0] != nil || vals[1] != nil) {
			return nil, &DamagedError{Channel: channel, Err: errors.New("its hash has no record")}
		}
		return nil, fmt.Errorf("load game in channel %s: %w", channel, ErrNotFound)
	}
	data, _ := vals[2].(string)
	id, _ := vals[0].(string)
	version, _ := vals[1].(string)
	return s.decodeGame(channel, id, version, []byte(data))
}

// decodeGame decodes a game record stored under channel, checking it
// against the hash's id and version fields.
func (s *Redis) decodeGame(channel, id, version string, data []byte) (*Game, error) {
	r, err := decodeRecord(data)
	if err != nil {
		return nil, &DamagedError{Channel: channel, Err: err}
	}
	g, err := r.game(s.reg)
	if err != nil {
		return nil, &DamagedError{Channel: channel, Err: err}
	}
	if g.Channel != channel {
		return nil, &DamagedError{Channel: channel, Err: fmt.Errorf("its record is of channel %q", g.Channel)}
	}
	if g.ID != id || strconv.FormatInt(g.Version, 10) != version {
		return nil, &DamagedError{Channel: channel, Err: fmt.Errorf("its record is game %s version %d but its hash says %s version %s", g.ID, g.Version, id, version)}
	}
	return g, nil
}

// Save stores g as the next version of the game, if the stored game is
// still the version g was loaded at: a compare-and-set. On success g's
// Version grows by one and Updated is now. If another change was saved
// first the error is ErrConflict and nothing is stored; if the game is no
// longer in its channel (it finished and was archived, or was removed) the
// error wraps both ErrConflict and ErrNotFound.
//
// Saving a game whose Status is Finished also archives it under its guild
// and frees the channel. If that fails after the save (Redis went away in
// between), Save still reports success, since the game is saved: the
// finished game stays in its channel, Load returns it, and the next Create
// there (or a call to Archive) files it.
//
// ErrUnavailable means nothing was changed, with one exception that no
// client can rule out: Redis applied the save and then went away (or the
// connection broke) before its reply came back, and no retry got through.
// A save that reaches Redis late is refused rather than applied after its
// caller gave up: the compare-and-set carries a time, half the operation's
// timeout from when it is sent, after which Redis does not apply it (by
// Redis's clock; on another host, clock skew of more than that margin
// could let a very late write through). Retries of one Save inside the
// client (after a lost connection) carry a write token, so a write applied
// once is never applied twice nor reported as a conflict.
func (s *Redis) Save(ctx context.Context, g *Game) error {
	if g == nil {
		return fmt.Errorf("save game: %w: no game", ErrInvalid)
	}
	if g.Version < 1 || g.ID == "" {
		return fmt.Errorf("save game in channel %s: %w: the game was never created (version %d, id %q)", g.Channel, ErrInvalid, g.Version, g.ID)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()

	n := *g
	n.Version = g.Version + 1
	n.Updated = s.now()
	if n.Status == Finished && n.Finished.IsZero() {
		n.Finished = n.Updated
	}
	data, err := encodeGame(&n)
	if err != nil {
		return fmt.Errorf("save game: %w", err)
	}
	token := newToken()
	applyBy := writeDeadline(ctx)
	res, err := s.casResult(ctx, func(pipe redis.Pipeliner, retry bool) *redis.Cmd {
		if wake := n.Wake(); !wake.IsZero() {
			pipe.ZAddLT(ctx, deadlinesKey, redis.Z{Score: float64(wake.UnixMilli()), Member: deadlineMember(n.Channel, n.ID, n.Version)})
		}
		cmd := runScript(ctx, pipe, saveScript, retry, []string{gameKey(n.Channel)},
			n.ID, strconv.FormatInt(g.Version, 10), strconv.FormatInt(n.Version, 10), string(n.Status), data, token, applyBy)
		if g.Version >= 2 {
			// Versions only grow, so the entry of the version before the
			// one loaded is stale whatever this save's fate.
			pipe.ZRem(ctx, deadlinesKey, deadlineMember(n.Channel, n.ID, g.Version-1))
		}
		return cmd
	})
	if err != nil {
		if wrongType(err) {
			return &DamagedError{Channel: n.Channel, Err: errors.New("its key holds something that is not a game record")}
		}
		return fail(caller, "save game in channel "+n.Channel, err)
	}
	switch res {
	case 1:
	case 0:
		return fmt.Errorf("save game in channel %s at version %d: %w", n.Channel, g.Version, ErrConflict)
	case -1:
		return fmt.Errorf("save game in channel %s: %w: the game is no longer there (%w)", n.Channel, ErrConflict, ErrNotFound)
	case -2:
		return fmt.Errorf("save game in channel %s: %w: the game is over", n.Channel, ErrConflict)
	case -3:
		return fmt.Errorf("save game in channel %s: %w (Redis was too slow; the move was not applied)", n.Channel, ErrUnavailable)
	default:
		return fmt.Errorf("save game in channel %s: unexpected script result %d", n.Channel, res)
	}
	*g = n
	if g.Status == Finished {
		// The save is done; filing it can wait if Redis went away just now.
		if err := s.archive(caller, g); err != nil {
			s.log.Warn("store: a finished game is saved but not yet archived; the next Create in its channel archives it",
				"channel", g.Channel, "id", g.ID, "err", err)
		}
	}
	return nil
}

// Archive files a finished game under its guild and frees its channel. It
// is idempotent: archiving the same game again does no harm. Save calls it
// for a game that finishes; call it for a finished game found in a channel
// after an interrupted save.
func (s *Redis) Archive(ctx context.Context, g *Game) error {
	if g == nil {
		return fmt.Errorf("archive game: %w: no game", ErrInvalid)
	}
	return s.archive(ctx, g)
}

// archive writes the archive entry first (guild slot), then deletes the
// channel's record if it is still this finished version (channel slot),
// then drops the channel from the guild's index of running games. Each
// step can be repeated; a failure after the first leaves a finished game
// in the channel, which the next Create there archives, and one after the
// second a stale index entry, which Running drops (so it is only logged).
func (s *Redis) archive(caller context.Context, g *Game) error {
	if g.Status != Finished {
		return fmt.Errorf("archive game in channel %s: %w: the game is not finished", g.Channel, ErrInvalid)
	}
	if err := checkID("archive", g.ID); err != nil {
		return fmt.Errorf("archive game in channel %s: %w", g.Channel, err)
	}
	data, err := encodeGame(g)
	if err != nil {
		return fmt.Errorf("archive game: %w", err)
	}
	ctx, cancel := s.op(caller, 0)
	defer cancel()
	finished := g.Finished
	if finished.IsZero() {
		finished = g.Updated
	}
	_, err = s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, archiveKey(g.Guild), g.ID, data)
		pipe.ZAdd(ctx, archiveIndexKey(g.Guild), redis.Z{Score: float64(finished.UnixMilli()), Member: g.ID})
		return nil
	})
	if err != nil {
		return fail(caller, fmt.Sprintf("archive game %s of guild %s", g.ID, g.Guild), err)
	}
	res, err := s.casResult(ctx, func(pipe redis.Pipeliner, retry bool) *redis.Cmd {
		cmd := runScript(ctx, pipe, deleteScript, retry, []string{gameKey(g.Channel)}, g.ID, strconv.FormatInt(g.Version, 10))
		pipe.ZRem(ctx, deadlinesKey, deadlineMember(g.Channel, g.ID, g.Version), deadlineMember(g.Channel, g.ID, g.Version-1))
		return cmd
	})
	if err != nil {
		if wrongType(err) {
			return &DamagedError{Channel: g.Channel, Err: errors.New("its key holds something that is not a game record")}
		}
		return fail(caller, "free channel "+g.Channel, err)
	}
	if res == 0 {
		return fmt.Errorf("free channel %s: %w: the game there is at another version, or not finished", g.Channel, ErrConflict)
	}
	if _, err := s.dropRunning(caller, g.Guild, g.Channel); err != nil {
		s.log.Warn("store: an archived game's channel is still in the index of running games; Running drops it",
			"channel", g.Channel, "guild", g.Guild, "err", err)
	}
	return nil
}

// Quarantine moves the record in channel aside (to a key of the same
// channel holding the time) so that a new game can start there, and
// returns the key it now lives under. It is meant for a damaged record; it
// works on any.
func (s *Redis) Quarantine(ctx context.Context, channel string) (string, error) {
	if err := checkID("channel", channel); err != nil {
		return "", fmt.Errorf("quarantine: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	to := damagedKey(channel, s.now())
	ok, err := s.rdb.RenameNX(ctx, gameKey(channel), to).Result()
	if err != nil {
		if strings.Contains(err.Error(), "no such key") {
			return "", fmt.Errorf("quarantine channel %s: %w", channel, ErrNotFound)
		}
		return "", fail(caller, "quarantine channel "+channel, err)
	}
	if !ok {
		return "", fmt.Errorf("quarantine channel %s: %s already exists; try again", channel, to)
	}
	return to, nil
}
