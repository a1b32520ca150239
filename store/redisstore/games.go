package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// saveScript is the compare-and-set of a game. KEYS[1] is the game's
// hash, KEYS[2] its move list and, on one Redis (not a cluster), KEYS[3]
// the deadline index partition of its channel. ARGV[1] holds ten fields,
// each followed by one space (none of them holds a space, and any may be
// empty): the archive id, the expected version ("0": the channel must be
// free), the new version, the new status, a write token, the time (Unix
// ms) after which the write must not apply, how many stored moves to keep,
// the new wake time (ms, "" for none), the deadline entry of the new
// version and the entry of the version replaced ("" for none). ARGV[2] is
// the record without its moves and ARGV[3]... the moves to append after
// the kept ones. Packing the small fields into one argument spares a
// save's client most of the work of sending them.
//
// It returns 1 when applied (or when this very write was applied before and
// is being retried), 0 when the game moved on (or, for a create, the
// channel is busy), -1 when the game is gone (another game or none), -2
// when the stored game is finished and cannot change, -3 when Redis got to
// it too late: the caller has given up (or is about to) and reports that
// nothing was changed, which the script makes true; -4 when the stored
// move list is shorter than the moves to keep (it was damaged).
//
// The deadline entry is written only when the write applies, so a save
// that loses leaves nothing behind in the index. On a cluster the index is
// on another slot, and Save writes the entry right after the script (see
// Redis.run for how a death in between loses nothing).
var saveScript = redis.NewScript(`
local id, expected, version, status, token, applyBy, keep, wake, member, replaced = string.match(ARGV[1],
  '^([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*) $')
if not id then return redis.error_reply('saveScript: ARGV[1] does not hold ten fields') end
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(applyBy) then return -3 end
local cur = redis.call('HMGET', KEYS[1], 'id', 'version', 'status', 'token')
if not cur[2] then
  if expected ~= '0' then return -1 end
else
  if cur[2] == version and cur[1] == id and cur[4] == token then return 1 end
  if expected == '0' then return 0 end
  if cur[1] ~= id then return -1 end
  if cur[2] ~= expected then return 0 end
  if cur[3] == 'finished' then return -2 end
end
keep = tonumber(keep)
if keep == 0 then
  redis.call('DEL', KEYS[2])
elseif redis.call('LLEN', KEYS[2]) < keep then
  return -4
else
  redis.call('LTRIM', KEYS[2], 0, keep - 1)
end
for i = 3, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('HSET', KEYS[1], 'id', id, 'version', version, 'status', status, 'record', ARGV[2], 'token', token)
if KEYS[3] then
  if replaced ~= '' then redis.call('ZREM', KEYS[3], replaced) end
  if wake ~= '' then redis.call('ZADD', KEYS[3], wake, member) end
end
return 1
`)

// deleteScript frees a channel of a finished game. KEYS[1] is the game's
// hash, KEYS[2] its move list; ARGV: the archive id and the version. It
// returns 1 when deleted, -1 when that game is not there (already deleted:
// fine), 0 when the game is there at another version or is not finished
// there.
var deleteScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'id', 'version', 'status')
if not cur[2] or cur[1] ~= ARGV[1] then return -1 end
if cur[2] ~= ARGV[2] or cur[3] ~= 'finished' then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`)

// write is one compare-and-set of a game: what saveScript needs.
type write struct {
	g        *store.Game // the game as it is to be stored (its new version)
	expected int64       // the version it replaces, 0 for a create
	head     []byte      // the record without its moves
	token    string
	applyBy  int64
	keep     int      // stored moves kept
	tail     []string // moves appended
	replaced string   // the deadline entry of the version replaced, "" for none
}

// newWrite prepares the write of n (at its new version) over the stored
// version expected, whose move list is stored (nil: unknown, rewrite it).
func (s *Redis) newWrite(ctx context.Context, n *store.Game, expected int64, stored []store.Move) (*write, error) {
	head, err := store.EncodeHead(n)
	if err != nil {
		return nil, err
	}
	w := &write{g: n, expected: expected, head: head, token: store.NewToken(), applyBy: s.writeDeadline(ctx)}
	if stored != nil {
		w.keep = store.CommonPrefix(stored, n.Moves)
	}
	for _, m := range n.Moves[w.keep:] {
		el, err := store.EncodeMove(m)
		if err != nil {
			return nil, err
		}
		w.tail = append(w.tail, el)
	}
	if expected > 0 {
		w.replaced = deadlineMember(n.Channel, n.ID, expected)
	}
	return w, nil
}

// nextStored returns the move list as a save that kept keep moves of
// stored wrote it: moves. A save that only appended (the common case)
// appends to stored's array, so that a move's cost does not grow with
// the game: the elements it writes lie past the end of every copy of
// stored, since only the one save that wins a version writes there, and
// a copy that ends further is made by a later save. A save that trimmed
// moves (an undo) copies the list.
func nextStored(stored, moves []store.Move, keep int) []store.Move {
	if stored == nil || keep < len(stored) {
		return slices.Clone(moves)
	}
	return append(stored, moves[keep:]...)
}

// run sends the write's compare-and-set and returns saveScript's result.
// On a cluster it then writes the deadline entry of an applied write.
func (s *Redis) run(ctx context.Context, w *write) (int64, error) {
	n := w.g
	wake, member := "", deadlineMember(n.Channel, n.ID, n.Version)
	if t := n.Wake(); !t.IsZero() {
		wake = strconv.FormatInt(t.UnixMilli(), 10)
	}
	keys := []string{gameKey(n.Channel), movesKey(n.Channel)}
	if !s.cluster {
		keys = append(keys, s.deadlineKey(n.Channel))
	}
	var fields [256]byte // the packed fields of ARGV[1], each followed by a space
	packed := append(append(fields[:0], n.ID...), ' ')
	packed = append(strconv.AppendInt(packed, w.expected, 10), ' ')
	packed = append(strconv.AppendInt(packed, n.Version, 10), ' ')
	packed = append(append(packed, n.Status...), ' ')
	packed = append(append(packed, w.token...), ' ')
	packed = append(strconv.AppendInt(packed, w.applyBy, 10), ' ')
	packed = append(strconv.AppendInt(packed, int64(w.keep), 10), ' ')
	for _, f := range [...]string{wake, member, w.replaced} {
		packed = append(append(packed, f...), ' ')
	}
	args := make([]any, 0, 2+len(w.tail))
	args = append(args, string(packed), w.head)
	for _, el := range w.tail {
		args = append(args, el)
	}
	// On a cluster the index is on another slot than the game, written in
	// a round trip after the compare-and-set. So that a process dying
	// between the two loses no deadline, the save first notes its intent
	// in the index's slot; Due repairs the entry of a channel whose intent
	// outlives the save (see repairIntents). No intent, no save.
	intent := ""
	if s.cluster && (wake != "" || w.replaced != "") {
		intent = n.Channel + "/" + w.token
		if err := s.rdb.ZAdd(ctx, s.intentKey(n.Channel), redis.Z{Score: float64(s.redisNow().UnixMilli()), Member: intent}).Err(); err != nil {
			return 0, fmt.Errorf("note the save in the deadline index: %w", err)
		}
	}
	var res int64
	var err error
	if s.waitReplicas > 0 {
		res, err = s.saveAndWait(ctx, keys, args)
	} else {
		res, err = saveScript.Run(ctx, s.rdb, keys, args...).Int64()
	}
	if intent == "" || err != nil {
		return res, err // an outcome unknown leaves the intent: Due repairs
	}
	// The entry now that the write applied, and the intent done with, in
	// one round trip (one slot). Should this fail, the intent stays and
	// Due repairs the entry.
	_, ierr := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		if res == 1 {
			if w.replaced != "" {
				pipe.ZRem(ctx, s.deadlineKey(n.Channel), w.replaced)
			}
			if wake != "" {
				pipe.ZAdd(ctx, s.deadlineKey(n.Channel), redis.Z{Score: float64(n.Wake().UnixMilli()), Member: member})
			}
		}
		pipe.ZRem(ctx, s.intentKey(n.Channel), intent)
		return nil
	})
	if ierr != nil {
		s.log.Warn("store: a game is saved but its deadline entry is not yet; the clock repairs it",
			"channel", n.Channel, "version", n.Version, "err", ierr)
	}
	return res, nil
}

// writeDeadline returns the Unix ms, by Redis's clock, after which a
// compare-and-set must not apply: half-way from now to ctx's deadline, so
// that a write Redis gets to late is refused while its caller is still
// waiting for the answer, rather than applied after the caller reported
// that nothing changed. Now is this host's clock corrected by the offset
// last measured against Redis's, so that a host whose clock is off is
// neither refused every save nor let through late.
func (s *Redis) writeDeadline(ctx context.Context) int64 {
	now := s.wall().Add(time.Duration(s.offset.Load()))
	d, ok := ctx.Deadline()
	if !ok {
		return now.Add(time.Minute).UnixMilli()
	}
	return now.Add(time.Until(d) / 2).UnixMilli()
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
	return casOn(ctx, s.rdb, add)
}

// casOn is casResult on client.
func casOn(ctx context.Context, client redis.Cmdable, add func(pipe redis.Pipeliner, retry bool) *redis.Cmd) (int64, error) {
	retry := false
	for {
		pipe := client.Pipeline()
		cmd := add(pipe, retry)
		_, _ = pipe.Exec(ctx)
		n, err := cmd.Int64()
		if err != nil && !retry && redis.HasErrorPrefix(err, "NOSCRIPT") {
			retry = true
			continue
		}
		return n, err
	}
}

// saveAndWait runs saveScript and then WAIT on the same connection, so
// that the write is on cfg.WaitReplicas replicas before Save reports it:
// a master that dies after the acknowledgement then loses nothing, since
// the replica promoted in its place has it. On a cluster the pipeline goes
// to the master of the game's slot; after a failover the first try finds
// a dead or moved master, and the client reloads the cluster's layout and
// tries once more.
func (s *Redis) saveAndWait(ctx context.Context, keys []string, args []any) (int64, error) {
	var lastErr error
	for attempt := range 2 {
		var client redis.Cmdable = s.rdb
		if cc, ok := s.rdb.(*redis.ClusterClient); ok {
			if attempt > 0 {
				cc.ReloadState(ctx)
			}
			m, err := cc.MasterForKey(ctx, keys[0])
			if err != nil {
				lastErr = err
				continue
			}
			client = m
		}
		var script *redis.Cmd
		var wait *redis.Cmd
		res, err := casOn(ctx, client, func(pipe redis.Pipeliner, retry bool) *redis.Cmd {
			script = runScript(ctx, pipe, saveScript, retry, keys, args...)
			wait = pipe.Do(ctx, "WAIT", s.waitReplicas, (s.timeout / 2).Milliseconds())
			return script
		})
		if err != nil && (redis.HasErrorPrefix(err, "MOVED") || unavailable(err)) && s.cluster {
			lastErr = err
			continue
		}
		if err == nil && res == 1 {
			if n, werr := wait.Int64(); werr != nil || n < int64(s.waitReplicas) {
				s.log.Warn("store: a save is on its master but not on enough replicas; a failover now could lose it",
					"key", keys[0], "replicas", n, "want", s.waitReplicas, "err", werr)
			}
		}
		return res, err
	}
	return 0, lastErr
}

// Create stores a new game in g.Channel. g must be active, with its state,
// players and guild set; Create gives it its archive id (unique within the
// guild), version 1 and its created and updated times. A channel with a
// game going on is ErrBusy; a finished game left in the channel (its
// archiving was interrupted) is archived first.
func (s *Redis) Create(ctx context.Context, g *store.Game) error {
	if err := store.CheckNew(g); err != nil {
		return err
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
	for attempt := 0; ; attempt++ {
		w, err := s.newWrite(ctx, &n, 0, nil)
		if err != nil {
			return fmt.Errorf("create game: %w", err)
		}
		res, err := s.run(ctx, w)
		if err == nil && res == 1 {
			// The index of running games, after the game (see
			// runningGame); Running drops the entry of a Create that
			// failed after this.
			if ierr := s.indexRunning(caller, n.Guild, n.Channel, true); ierr != nil {
				s.log.Warn("store: a new game is not yet in its guild's index of running games", "channel", n.Channel, "err", ierr)
			}
		}
		if err != nil {
			if wrongType(err) {
				return &store.DamagedError{Channel: n.Channel, Err: errors.New("its key holds something that is not a game record")}
			}
			return fail(caller, "create game in channel "+n.Channel, err)
		}
		if res == -3 {
			return fmt.Errorf("create game in channel %s: %w (Redis was too slow; the game was not created)", n.Channel, store.ErrUnavailable)
		}
		if res == 1 {
			n.SetStoredMoves(slices.Clone(n.Moves))
			*g = n
			return nil
		}
		// The channel is taken: by a game going on (busy), or by a finished
		// game whose archiving was interrupted (archive it, then try again).
		old, err := s.Load(caller, n.Channel)
		if errors.Is(err, store.ErrNotFound) && attempt < 3 {
			continue
		}
		if err != nil {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, err)
		}
		if old.Status != store.Finished || attempt >= 3 {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, store.ErrBusy)
		}
		if err := s.archive(caller, old); err != nil {
			return fmt.Errorf("create game in channel %s: %w", n.Channel, err)
		}
	}
}

// Load returns the game in channel: ErrNotFound when there is none, a
// *DamagedError when its record cannot be read.
func (s *Redis) Load(ctx context.Context, channel string) (*store.Game, error) {
	if err := store.CheckID("channel", channel); err != nil {
		return nil, fmt.Errorf("load game: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var read gameRead
	err := s.pipeScripts(ctx, func(pipe redis.Pipeliner, retry bool) {
		read = readGame(ctx, pipe, channel, retry)
	})
	if err != nil && !wrongType(err) {
		return nil, fail(caller, "load game in channel "+channel, err)
	}
	return s.gameFromRead(channel, read)
}

// loadScript reads a game at one version: KEYS[1] its hash, KEYS[2] its
// move list. It returns the hash's id, version and record (nil where
// absent) and the move list.
var loadScript = redis.NewScript(loadScriptSource)

const loadScriptSource = `
local h = redis.call('HMGET', KEYS[1], 'id', 'version', 'record')
local moves = {}
if h[3] then moves = redis.call('LRANGE', KEYS[2], 0, -1) end
return {h[1], h[2], h[3], moves}
`

// gameRead is the pending read of a channel's game in a pipeline.
type gameRead struct{ cmd *redis.Cmd }

// readGame adds the read of channel's game to pipe: one script, so that
// the record and the move list are of the same version, and one slot.
func readGame(ctx context.Context, pipe redis.Pipeliner, channel string, retry bool) gameRead {
	return gameRead{runScript(ctx, pipe, loadScript, retry, []string{gameKey(channel), movesKey(channel)})}
}

// pipeScripts runs the pipeline add fills, once with EVALSHA and again
// with EVAL if Redis does not know a script. It returns the first
// command error.
func (s *Redis) pipeScripts(ctx context.Context, add func(pipe redis.Pipeliner, retry bool)) error {
	for retry := false; ; retry = true {
		pipe := s.rdb.Pipeline()
		add(pipe, retry)
		cmds, err := pipe.Exec(ctx)
		if !retry && err != nil && slices.ContainsFunc(cmds, func(c redis.Cmder) bool { return redis.HasErrorPrefix(c.Err(), "NOSCRIPT") }) {
			continue
		}
		return err
	}
}

// fields returns the read's hash values (id, version, record) and move
// list.
func (r gameRead) fields() ([]any, []string, error) {
	vals, err := r.cmd.Slice()
	if err != nil {
		return nil, nil, err
	}
	if len(vals) != 4 {
		return nil, nil, fmt.Errorf("the load script answered %d values", len(vals))
	}
	raw, _ := vals[3].([]any)
	list := make([]string, 0, len(raw))
	for _, v := range raw {
		el, _ := v.(string)
		list = append(list, el)
	}
	return vals[:3], list, nil
}

// gameFromRead decodes a game read by readGame.
func (s *Redis) gameFromRead(channel string, read gameRead) (*store.Game, error) {
	vals, list, err := read.fields()
	if wrongType(err) {
		return nil, &store.DamagedError{Channel: channel, Err: errors.New("its keys hold something that is not a game record")}
	}
	if err != nil {
		return nil, err
	}
	return s.gameFromHash(channel, vals, list)
}

// gameFromHash decodes the values of HMGET id version record, with the
// channel's move list.
func (s *Redis) gameFromHash(channel string, vals []any, list []string) (*store.Game, error) {
	if len(vals) != 3 || vals[2] == nil {
		if len(vals) == 3 && (vals[0] != nil || vals[1] != nil) {
			return nil, &store.DamagedError{Channel: channel, Err: errors.New("its hash has no record")}
		}
		return nil, fmt.Errorf("load game in channel %s: %w", channel, store.ErrNotFound)
	}
	data, _ := vals[2].(string)
	id, _ := vals[0].(string)
	version, _ := vals[1].(string)
	return s.decodeStored(channel, id, version, []byte(data), list)
}

// decodeGame decodes a whole game record (moves inline) stored under
// channel, checking it against the hash's id and version fields.
func (s *Redis) decodeGame(channel, id, version string, data []byte) (*store.Game, error) {
	return s.decodeStored(channel, id, version, data, nil)
}

// decodeStored decodes a game record stored in channel's hash, checking
// it against the hash's id and version fields. A record of schema 2 or
// later there keeps its moves in list; one of schema 1 has them inline
// (and its next Save writes the list). list nil: the moves are inline.
func (s *Redis) decodeStored(channel, id, version string, data []byte, list []string) (*store.Game, error) {
	r, err := store.DecodeRecord(data)
	if err != nil {
		return nil, &store.DamagedError{Channel: channel, Err: err}
	}
	split := list != nil && r.Schema >= 2
	if split {
		if r.Moves, err = store.DecodeMoves(list); err != nil {
			return nil, &store.DamagedError{Channel: channel, Err: err}
		}
	}
	g, err := r.Game(s.reg)
	if err != nil {
		return nil, &store.DamagedError{Channel: channel, Err: err}
	}
	if g.Channel != channel {
		return nil, &store.DamagedError{Channel: channel, Err: fmt.Errorf("its record is of channel %q", g.Channel)}
	}
	if g.ID != id || strconv.FormatInt(g.Version, 10) != version {
		return nil, &store.DamagedError{Channel: channel, Err: fmt.Errorf("its record is game %s version %d but its hash says %s version %s", g.ID, g.Version, id, version)}
	}
	if split {
		g.SetStoredMoves(slices.Clone(g.Moves))
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
func (s *Redis) Save(ctx context.Context, g *store.Game) error {
	if err := store.CheckCreated(g); err != nil {
		return err
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()

	n := store.NextVersion(g, s.now())
	w, err := s.newWrite(ctx, &n, g.Version, g.StoredMoves())
	if err != nil {
		return fmt.Errorf("save game: %w", err)
	}
	res, err := s.run(ctx, w)
	if err != nil {
		if wrongType(err) {
			return &store.DamagedError{Channel: n.Channel, Err: errors.New("its keys hold something that is not a game record")}
		}
		return fail(caller, "save game in channel "+n.Channel, err)
	}
	switch res {
	case 1:
	case 0:
		return fmt.Errorf("save game in channel %s at version %d: %w", n.Channel, g.Version, store.ErrConflict)
	case -1:
		return fmt.Errorf("save game in channel %s: %w: the game is no longer there (%w)", n.Channel, store.ErrConflict, store.ErrNotFound)
	case -2:
		return fmt.Errorf("save game in channel %s: %w: the game is over", n.Channel, store.ErrConflict)
	case -3:
		return fmt.Errorf("save game in channel %s: %w (Redis was too slow; the move was not applied)", n.Channel, store.ErrUnavailable)
	case -4:
		return &store.DamagedError{Channel: n.Channel, Err: errors.New("its move list is shorter than its record says")}
	default:
		return fmt.Errorf("save game in channel %s: unexpected script result %d", n.Channel, res)
	}
	n.SetStoredMoves(nextStored(g.StoredMoves(), n.Moves, w.keep))
	*g = n
	if g.Status == store.Finished {
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
func (s *Redis) Archive(ctx context.Context, g *store.Game) error {
	if g == nil {
		return fmt.Errorf("archive game: %w: no game", store.ErrInvalid)
	}
	return s.archive(ctx, g)
}

// archive writes the archive entry first (guild slot), then deletes the
// channel's record if it is still this finished version (channel slot),
// then drops the channel from the guild's index of running games. Each
// step can be repeated; a failure after the first leaves a finished game
// in the channel, which the next Create there archives, and one after the
// second a stale index entry, which Running drops (so it is only logged).
func (s *Redis) archive(caller context.Context, g *store.Game) error {
	if g.Status != store.Finished {
		return fmt.Errorf("archive game in channel %s: %w: the game is not finished", g.Channel, store.ErrInvalid)
	}
	if err := store.CheckID("archive", g.ID); err != nil {
		return fmt.Errorf("archive game in channel %s: %w", g.Channel, err)
	}
	data, err := store.EncodeRecord(g)
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
		cmd := runScript(ctx, pipe, deleteScript, retry, []string{gameKey(g.Channel), movesKey(g.Channel)}, g.ID, strconv.FormatInt(g.Version, 10))
		pipe.ZRem(ctx, s.deadlineKey(g.Channel), deadlineMember(g.Channel, g.ID, g.Version), deadlineMember(g.Channel, g.ID, g.Version-1))
		return cmd
	})
	if err != nil {
		if wrongType(err) {
			return &store.DamagedError{Channel: g.Channel, Err: errors.New("its key holds something that is not a game record")}
		}
		return fail(caller, "free channel "+g.Channel, err)
	}
	if res == 0 {
		return fmt.Errorf("free channel %s: %w: the game there is at another version, or not finished", g.Channel, store.ErrConflict)
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
	if err := store.CheckID("channel", channel); err != nil {
		return "", fmt.Errorf("quarantine: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	to := damagedKey(channel, s.now())
	ok, err := s.rdb.RenameNX(ctx, gameKey(channel), to).Result()
	if err != nil {
		if strings.Contains(err.Error(), "no such key") {
			return "", fmt.Errorf("quarantine channel %s: %w", channel, store.ErrNotFound)
		}
		return "", fail(caller, "quarantine channel "+channel, err)
	}
	if !ok {
		return "", fmt.Errorf("quarantine channel %s: %s already exists; try again", channel, to)
	}
	// The move list goes with it (a schema 1 record has none).
	if err := s.rdb.Rename(ctx, movesKey(channel), to+":moves").Err(); err != nil && !strings.Contains(err.Error(), "no such key") {
		return to, fail(caller, "quarantine the moves of channel "+channel, err)
	}
	return to, nil
}
