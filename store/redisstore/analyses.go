package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// Analysis keys: all in one slot (the hash tag {analyses}), so that each
// step of the line is one script, on Redis Cluster too; the line is short
// (store.AnalysisShares.Line) and the kept are store.KeptAnalyses.
//
//	{analyses}:line       list of the keys (guild/game) in line, oldest first
//	{analyses}:job:K      hash of a job in line: guild, game, asker, posted, worker, until (ms), deliveries, progress, kept
//	{analyses}:ch:K       list of the channels that asked for K, in order of asking
//	{analyses}:count      hash of the jobs in line per server (g:GUILD) and per asker (p:USER)
//	{analyses}:kept:K     a kept analysis (store.Analysis, JSON)
//	{analyses}:keptorder  list of the kept keys, oldest first
const (
	analysisLine      = "{analyses}:line"
	analysisJobPrefix = "{analyses}:job:"
	analysisChPrefix  = "{analyses}:ch:"
	analysisCount     = "{analyses}:count"
	analysisKeptPre   = "{analyses}:kept:"
	analysisKeptOrder = "{analyses}:keptorder"
)

// askScript puts a game in line or adds a channel to it. KEYS: the line,
// the job, its channels, the counts, its kept analysis. ARGV: the key,
// guild, game, asker, channel, and the line's, server's and person's
// shares. It returns {place, what}: what 0 in line already, 1 kept, 2
// line full, 3 server's share, 4 person's share, 5 put in line.
var askScript = redis.NewScript(`
local pos = redis.call('LPOS', KEYS[1], ARGV[1])
if pos then
  if ARGV[5] ~= '' and not redis.call('LPOS', KEYS[3], ARGV[5]) then redis.call('RPUSH', KEYS[3], ARGV[5]) end
  return {pos + 1, 0}
end
if redis.call('EXISTS', KEYS[5]) == 1 then return {0, 1} end
local n = redis.call('LLEN', KEYS[1])
if n >= tonumber(ARGV[6]) then return {tonumber(ARGV[6]), 2} end
if tonumber(redis.call('HGET', KEYS[4], 'g:' .. ARGV[2]) or '0') >= tonumber(ARGV[7]) then return {tonumber(ARGV[7]), 3} end
if ARGV[4] ~= '' and tonumber(redis.call('HGET', KEYS[4], 'p:' .. ARGV[4]) or '0') >= tonumber(ARGV[8]) then return {tonumber(ARGV[8]), 4} end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[2], 'guild', ARGV[2], 'game', ARGV[3], 'asker', ARGV[4], 'posted', 0, 'deliveries', 0, 'until', 0)
if ARGV[5] ~= '' then redis.call('RPUSH', KEYS[3], ARGV[5]) end
redis.call('HINCRBY', KEYS[4], 'g:' .. ARGV[2], 1)
if ARGV[4] ~= '' then redis.call('HINCRBY', KEYS[4], 'p:' .. ARGV[4], 1) end
redis.call('RPUSH', KEYS[1], ARGV[1])
return {n + 1, 5}
`)

// nowMs is the scripts' clock: Redis's own, in milliseconds.
const nowMs = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// claimScript gives a worker the oldest job whose lease ran out (or that
// none held). KEYS: the line. ARGV: the job keys' prefix, the worker, the
// lease (ms). It returns {guild, game, progress, kept, deliveries} or nil;
// a key in line whose job is missing is dropped on the way. The job keys
// it reads share the line's slot.
var claimScript = redis.NewScript(nowMs + `
for _, key in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local jk = ARGV[1] .. key
  if redis.call('HEXISTS', jk, 'game') == 0 then
    redis.call('LREM', KEYS[1], 0, key) -- a key in line without its job: dropped
  elseif tonumber(redis.call('HGET', jk, 'until') or '0') <= now then
    local d = redis.call('HINCRBY', jk, 'deliveries', 1)
    redis.call('HSET', jk, 'worker', ARGV[2], 'until', now + tonumber(ARGV[3]))
    local f = redis.call('HMGET', jk, 'guild', 'game', 'progress', 'kept')
    return {f[1] or '', f[2] or '', f[3] or '', f[4] or '', d}
  end
end
return false
`)

// heldBy is the start of the scripts that act for a job's worker: they
// return -1 unless ARGV[1] holds the job KEYS[1] now.
const heldBy = nowMs + `
local held = redis.call('HMGET', KEYS[1], 'worker', 'until')
if held[1] ~= ARGV[1] or tonumber(held[2] or '0') <= now then return -1 end
`

// extendScript renews a lease. KEYS: the job. ARGV: the worker, the lease
// (ms), "1" to record the progress, the progress.
var extendAnalysisScript = redis.NewScript(heldBy + `
redis.call('HSET', KEYS[1], 'until', now + tonumber(ARGV[2]))
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'progress', ARGV[4]) end
return 1
`)

// keepScript keeps a result. KEYS: the job, its kept analysis, the keeping
// order. ARGV: the worker, the key, the analysis, the kept keys' prefix,
// how many are kept. The kept keys it deletes share the job's slot.
var keepScript = redis.NewScript(heldBy + `
redis.call('SET', KEYS[2], ARGV[3])
redis.call('LREM', KEYS[3], 0, ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[2])
while redis.call('LLEN', KEYS[3]) > tonumber(ARGV[5]) do
  redis.call('DEL', ARGV[4] .. redis.call('LPOP', KEYS[3]))
end
redis.call('HSET', KEYS[1], 'kept', '1')
redis.call('HDEL', KEYS[1], 'progress')
return 1
`)

// outOfLine takes the job KEYS[1] (channels KEYS[2]) out of the line
// KEYS[3], its counts KEYS[4]; ARGV[3] is its key.
const outOfLine = `
local f = redis.call('HMGET', KEYS[1], 'guild', 'asker')
redis.call('LREM', KEYS[3], 0, ARGV[3])
if f[1] and redis.call('HINCRBY', KEYS[4], 'g:' .. f[1], -1) <= 0 then redis.call('HDEL', KEYS[4], 'g:' .. f[1]) end
if f[2] and f[2] ~= '' and redis.call('HINCRBY', KEYS[4], 'p:' .. f[2], -1) <= 0 then redis.call('HDEL', KEYS[4], 'p:' .. f[2]) end
redis.call('DEL', KEYS[1], KEYS[2])
`

// nextPostScript records a post and gives the next channel. KEYS: the
// job, its channels, the line, the counts. ARGV: the worker, the channel
// posted ("" for none), the key. It returns the next channel, or "" once
// the job is out of line.
var nextPostScript = redis.NewScript(heldBy + `
local p = tonumber(redis.call('HGET', KEYS[1], 'posted') or '0')
if ARGV[2] ~= '' and redis.call('LINDEX', KEYS[2], p) == ARGV[2] then
  p = p + 1
  redis.call('HSET', KEYS[1], 'posted', p)
end
local ch = redis.call('LINDEX', KEYS[2], p)
if ch then return ch end
` + outOfLine + `
return ''
`)

// dropScript takes a job out of line. KEYS and ARGV as nextPostScript's.
var dropScript = redis.NewScript(heldBy + outOfLine + `
return 1
`)

// AskAnalysis puts a game in line, or adds a channel to the game in line
// (store.Analyses), in one script.
func (s *Redis) AskAnalysis(ctx context.Context, ask store.AnalysisAsk, shares store.AnalysisShares) (int, bool, error) {
	if err := store.CheckAnalysisAsk(ask, shares); err != nil {
		return 0, false, err
	}
	key := store.AnalysisKey(ask.Guild, ask.Game)
	what := "ask for the analysis of " + key
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	res, err := askScript.Run(ctx, s.rdb, []string{analysisLine, analysisJobPrefix + key, analysisChPrefix + key, analysisCount, analysisKeptPre + key},
		key, ask.Guild, ask.Game, ask.Asker, ask.Channel, shares.Line, shares.Server, shares.Person).Int64Slice()
	if err != nil {
		return 0, false, fail(caller, what, err)
	}
	if len(res) != 2 {
		return 0, false, fmt.Errorf("%s: the script answered %v", what, res)
	}
	place := int(res[0])
	switch res[1] {
	case 0:
		return place, false, nil
	case 1:
		return 0, false, fmt.Errorf("%s: %w", what, store.ErrAnalysisKept)
	case 2:
		return place, false, fmt.Errorf("%s: %w", what, store.ErrLineFull)
	case 3:
		return place, false, fmt.Errorf("%s: %w", what, store.ErrServerShare)
	case 4:
		return place, false, fmt.Errorf("%s: %w", what, store.ErrPersonShare)
	}
	return place, true, nil
}

// ClaimAnalysis gives worker the oldest job in line whose lease ran out,
// by Redis's clock, or that none held.
func (s *Redis) ClaimAnalysis(ctx context.Context, worker string, lease time.Duration) (*store.AnalysisJob, error) {
	if err := store.CheckID("worker", worker); err != nil {
		return nil, fmt.Errorf("claim an analysis: %w", err)
	}
	if lease < time.Millisecond {
		return nil, fmt.Errorf("claim an analysis: %w: lease %s", store.ErrInvalid, lease)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	res, err := claimScript.Run(ctx, s.rdb, []string{analysisLine}, analysisJobPrefix, worker, lease.Milliseconds()).Slice()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("claim an analysis: %w", store.ErrNoJob)
	}
	if err != nil {
		return nil, fail(caller, "claim an analysis", err)
	}
	str := func(i int) string { v, _ := res[i].(string); return v }
	if len(res) != 5 {
		return nil, fmt.Errorf("claim an analysis: the script answered %v", res)
	}
	d, _ := res[4].(int64)
	job := &store.AnalysisJob{Guild: str(0), Game: str(1), Worker: worker, Lease: lease, Kept: str(3) == "1", Deliveries: int(d)}
	if p := str(2); p != "" {
		job.Progress = []byte(p)
	}
	return job, nil
}

// runHeld runs a script of the job's worker; ErrStaleJob when it answers
// -1 (the job is no longer the worker's).
func (s *Redis) runHeld(ctx context.Context, what string, job *store.AnalysisJob, script *redis.Script, keys []string, args ...any) (any, error) {
	if err := store.CheckAnalysisJob(what, job); err != nil {
		return nil, err
	}
	what += " " + store.AnalysisKey(job.Guild, job.Game)
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	res, err := script.Run(ctx, s.rdb, keys, append([]any{job.Worker}, args...)...).Result()
	if err != nil {
		return nil, fail(caller, what, err)
	}
	if n, ok := res.(int64); ok && n == -1 {
		return nil, fmt.Errorf("%s: %w", what, store.ErrStaleJob)
	}
	return res, nil
}

// ExtendAnalysis renews job's lease from now and records its progress.
func (s *Redis) ExtendAnalysis(ctx context.Context, job *store.AnalysisJob, progress []byte) error {
	if job == nil {
		return fmt.Errorf("extend the analysis: %w: no job", store.ErrInvalid)
	}
	record := "0"
	if progress != nil {
		record = "1"
	}
	key := store.AnalysisKey(job.Guild, job.Game)
	_, err := s.runHeld(ctx, "extend the analysis", job, extendAnalysisScript, []string{analysisJobPrefix + key},
		max(job.Lease, time.Millisecond).Milliseconds(), record, progress)
	return err
}

// KeepAnalysis keeps job's result, forgetting the analysis kept longest
// ago beyond store.KeptAnalyses.
func (s *Redis) KeepAnalysis(ctx context.Context, job *store.AnalysisJob, a store.Analysis) error {
	if job == nil {
		return fmt.Errorf("keep the analysis: %w: no job", store.ErrInvalid)
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("keep the analysis: %w", err)
	}
	key := store.AnalysisKey(job.Guild, job.Game)
	_, err = s.runHeld(ctx, "keep the analysis", job, keepScript, []string{analysisJobPrefix + key, analysisKeptPre + key, analysisKeptOrder},
		key, data, analysisKeptPre, store.KeptAnalyses)
	return err
}

// NextAnalysisPost records a post and returns the next channel to post
// to, taking the job out of line when there is none.
func (s *Redis) NextAnalysisPost(ctx context.Context, job *store.AnalysisJob, posted string) (string, bool, error) {
	if job == nil {
		return "", false, fmt.Errorf("post the analysis: %w: no job", store.ErrInvalid)
	}
	key := store.AnalysisKey(job.Guild, job.Game)
	res, err := s.runHeld(ctx, "post the analysis", job, nextPostScript,
		[]string{analysisJobPrefix + key, analysisChPrefix + key, analysisLine, analysisCount}, posted, key)
	if err != nil {
		return "", false, err
	}
	ch, _ := res.(string)
	return ch, ch != "", nil
}

// DropAnalysis takes job out of line without a result.
func (s *Redis) DropAnalysis(ctx context.Context, job *store.AnalysisJob) error {
	if job == nil {
		return fmt.Errorf("drop the analysis: %w: no job", store.ErrInvalid)
	}
	key := store.AnalysisKey(job.Guild, job.Game)
	_, err := s.runHeld(ctx, "drop the analysis", job, dropScript,
		[]string{analysisJobPrefix + key, analysisChPrefix + key, analysisLine, analysisCount}, "", key)
	return err
}

// KeptAnalysis returns a kept analysis.
func (s *Redis) KeptAnalysis(ctx context.Context, guild, game string) (store.Analysis, error) {
	key := store.AnalysisKey(guild, game)
	what := "read the analysis of " + key
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	data, err := s.rdb.Get(ctx, analysisKeptPre+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return store.Analysis{}, fmt.Errorf("%s: %w", what, store.ErrNotFound)
	}
	if err != nil {
		return store.Analysis{}, fail(caller, what, err)
	}
	var a store.Analysis
	if err := json.Unmarshal(data, &a); err != nil {
		return store.Analysis{}, fmt.Errorf("%s: the record is damaged: %w", what, err)
	}
	return a, nil
}

// AnalysesInLine counts the jobs in line.
func (s *Redis) AnalysesInLine(ctx context.Context) (int, error) {
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	n, err := s.rdb.LLen(ctx, analysisLine).Result()
	if err != nil {
		return 0, fail(caller, "count the analyses in line", err)
	}
	return int(n), nil
}
