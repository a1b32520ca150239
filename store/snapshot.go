package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
)

// The embedded backend's data file: every key of the in-process server
// with its value and expiry, as JSON.
//
//	{"format": 1, "saved": "...", "keys": [
//	  {"key": "{ch:1}:game", "type": "hash", "hash": ["id", "7", "version", "3", ...]},
//	  {"key": "{arbiter}:deadlines", "type": "zset", "zset": ["1.7e12", "1/7/3", ...]},
//	  {"key": "{arbiter}:botq", "type": "stream", "stream": {"entries": [...], "groups": [...]}},
//	  {"key": "{arbiter}:lock:clock", "type": "string", "string": "...", "expire_at": 1700000000000}]}
//
// A value that is not valid UTF-8 is written {"base64": "..."} instead of a
// string. A stream group is written with its pending entries; on load the
// group starts just before its oldest pending entry, so those entries are
// delivered again (their workers died with the process).
const snapshotFormat = 1

// snapshot is the data file's content.
type snapshot struct {
	Format int       `json:"format"`
	Saved  time.Time `json:"saved"`
	Keys   []snapKey `json:"keys"`
}

// snapKey is one key. Exactly one value field is set, per Type.
type snapKey struct {
	Key      blob        `json:"key"`
	Type     string      `json:"type"`
	ExpireAt int64       `json:"expire_at,omitempty"` // Unix milliseconds; 0 for none
	String   *blob       `json:"string,omitempty"`
	Hash     []blob      `json:"hash,omitempty"` // field, value, field, value...
	List     []blob      `json:"list,omitempty"`
	Set      []blob      `json:"set,omitempty"`
	ZSet     []blob      `json:"zset,omitempty"` // score, member, score, member...
	Stream   *snapStream `json:"stream,omitempty"`
}

type snapStream struct {
	Entries []snapEntry `json:"entries"`
	Groups  []snapGroup `json:"groups"`
}

type snapEntry struct {
	ID     string `json:"id"`
	Values []blob `json:"values"` // field, value, field, value...
}

type snapGroup struct {
	Name    blob          `json:"name"`
	LastID  string        `json:"last_id"`
	Pending []snapPending `json:"pending,omitempty"`
}

type snapPending struct {
	ID         string `json:"id"`
	Consumer   blob   `json:"consumer"`
	Deliveries int64  `json:"deliveries"`
}

// blob is a binary-safe string: JSON text when it is valid UTF-8, else
// {"base64": "..."}.
type blob string

// MarshalJSON writes b as a JSON string, or as base64 when it is not UTF-8.
func (b blob) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(b)) {
		return json.Marshal(string(b))
	}
	return json.Marshal(map[string]string{"base64": base64.StdEncoding.EncodeToString([]byte(b))})
}

// UnmarshalJSON reads either form MarshalJSON writes.
func (b *blob) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*b = blob(s)
		return nil
	}
	var m struct {
		Base64 *string `json:"base64"`
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Base64 == nil {
		return errors.New("a value is neither a string nor {\"base64\": ...}")
	}
	raw, err := base64.StdEncoding.DecodeString(*m.Base64)
	if err != nil {
		return fmt.Errorf("a base64 value does not decode: %v", err)
	}
	*b = blob(raw)
	return nil
}

// dumpScript returns every key with its type, remaining TTL in ms and
// value, atomically (the server runs a script alone). Streams also carry
// their groups (XINFO GROUPS) and each group's pending entries.
var dumpScript = redis.NewScript(`
local out = {}
for _, k in ipairs(redis.call('KEYS', '*')) do
  local t = redis.call('TYPE', k)
  if type(t) == 'table' then t = t.ok or t['ok'] end
  local e = {k, t, redis.call('PTTL', k)}
  if t == 'string' then e[4] = redis.call('GET', k)
  elseif t == 'hash' then e[4] = redis.call('HGETALL', k)
  elseif t == 'list' then e[4] = redis.call('LRANGE', k, 0, -1)
  elseif t == 'set' then e[4] = redis.call('SMEMBERS', k)
  elseif t == 'zset' then e[4] = redis.call('ZRANGE', k, 0, -1, 'WITHSCORES')
  elseif t == 'stream' then
    e[4] = redis.call('XRANGE', k, '-', '+')
    local groups = redis.call('XINFO', 'GROUPS', k)
    local gs = {}
    for _, g in ipairs(groups) do
      local name, last = nil, nil
      for i = 1, #g, 2 do
        if g[i] == 'name' then name = g[i+1] end
        if g[i] == 'last-delivered-id' then last = g[i+1] end
      end
      if name then
        table.insert(gs, {name, last or '0-0', redis.call('XPENDING', k, name, '-', '+', 1000000)})
      end
    end
    e[5] = gs
  end
  table.insert(out, e)
end
return out
`)

// takeSnapshot reads every key of the server behind c.
func takeSnapshot(ctx context.Context, c redis.Cmdable, now time.Time) (*snapshot, error) {
	raw, err := dumpScript.Run(ctx, c, nil).Slice()
	if err != nil {
		return nil, fmt.Errorf("dump the embedded data: %w", err)
	}
	snap := &snapshot{Format: snapshotFormat, Saved: now.UTC()}
	for _, item := range raw {
		e, ok := item.([]any)
		if !ok || len(e) < 3 {
			return nil, errors.New("dump the embedded data: a malformed key entry")
		}
		k := snapKey{Key: blob(str(e[0])), Type: str(e[1])}
		ttl, _ := e[2].(int64)
		switch {
		case ttl == -1: // no expiry
		case ttl < 0: // gone meanwhile
			continue
		default: // 0 means under a millisecond to go: it expires at once
			k.ExpireAt = max(now.Add(time.Duration(ttl)*time.Millisecond).UnixMilli(), 1)
		}
		var val any
		if len(e) > 3 {
			val = e[3]
		}
		switch k.Type {
		case "string":
			s := blob(str(val))
			k.String = &s
		case "hash":
			k.Hash = blobs(val)
		case "list":
			k.List = blobs(val)
		case "set":
			k.Set = blobs(val)
		case "zset":
			// WITHSCORES gives member, score; the file keeps score, member.
			ms := blobs(val)
			for i := 0; i+1 < len(ms); i += 2 {
				k.ZSet = append(k.ZSet, ms[i+1], ms[i])
			}
		case "stream":
			st := &snapStream{}
			entries, _ := val.([]any)
			for _, ent := range entries {
				pair, ok := ent.([]any)
				if !ok || len(pair) != 2 {
					continue
				}
				st.Entries = append(st.Entries, snapEntry{ID: str(pair[0]), Values: blobs(pair[1])})
			}
			var groups []any
			if len(e) > 4 {
				groups, _ = e[4].([]any)
			}
			for _, gr := range groups {
				g, ok := gr.([]any)
				if !ok || len(g) != 3 {
					continue
				}
				sg := snapGroup{Name: blob(str(g[0])), LastID: str(g[1])}
				pend, _ := g[2].([]any)
				for _, p := range pend {
					pe, ok := p.([]any)
					if !ok || len(pe) != 4 {
						continue
					}
					n, _ := pe[3].(int64)
					sg.Pending = append(sg.Pending, snapPending{ID: str(pe[0]), Consumer: blob(str(pe[1])), Deliveries: n})
				}
				st.Groups = append(st.Groups, sg)
			}
			k.Stream = st
		default:
			continue // types the store never writes (HyperLogLog...) are not kept
		}
		snap.Keys = append(snap.Keys, k)
	}
	return snap, nil
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func blobs(v any) []blob {
	items, _ := v.([]any)
	out := make([]blob, len(items))
	for i, it := range items {
		out[i] = blob(str(it))
	}
	return out
}

// parseSnapshot reads and checks a data file.
func parseSnapshot(data []byte) (*snapshot, error) {
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return nil, fmt.Errorf("not a data file: %v", err)
	}
	if snap.Format != snapshotFormat {
		return nil, fmt.Errorf("data file format %d, this build reads %d", snap.Format, snapshotFormat)
	}
	for i, k := range snap.Keys {
		if k.Key == "" {
			return nil, fmt.Errorf("key %d has no name", i+1)
		}
		bad := func(what string) error { return fmt.Errorf("key %q: %s", string(k.Key), what) }
		switch k.Type {
		case "string":
			if k.String == nil {
				return nil, bad("a string without a value")
			}
		case "hash":
			if len(k.Hash) == 0 || len(k.Hash)%2 != 0 {
				return nil, bad("a hash needs field, value pairs")
			}
		case "list":
			if len(k.List) == 0 {
				return nil, bad("an empty list")
			}
		case "set":
			if len(k.Set) == 0 {
				return nil, bad("an empty set")
			}
		case "zset":
			if len(k.ZSet) == 0 || len(k.ZSet)%2 != 0 {
				return nil, bad("a sorted set needs score, member pairs")
			}
			for j := 0; j < len(k.ZSet); j += 2 {
				if _, err := strconv.ParseFloat(string(k.ZSet[j]), 64); err != nil {
					return nil, bad(fmt.Sprintf("score %q is not a number", string(k.ZSet[j])))
				}
			}
		case "stream":
			if k.Stream == nil {
				return nil, bad("a stream without its entries")
			}
			for _, e := range k.Stream.Entries {
				if _, ok := parseStreamID(e.ID); !ok || len(e.Values) == 0 || len(e.Values)%2 != 0 {
					return nil, bad(fmt.Sprintf("stream entry %q is malformed", e.ID))
				}
			}
			for _, g := range k.Stream.Groups {
				if _, ok := parseStreamID(g.LastID); !ok || g.Name == "" {
					return nil, bad(fmt.Sprintf("stream group %q is malformed", string(g.Name)))
				}
				for _, p := range g.Pending {
					if _, ok := parseStreamID(p.ID); !ok {
						return nil, bad(fmt.Sprintf("pending entry %q is malformed", p.ID))
					}
				}
			}
		default:
			return nil, bad(fmt.Sprintf("unknown type %q", k.Type))
		}
	}
	return &snap, nil
}

// streamID is a stream entry id, milliseconds and sequence.
type streamID struct{ ms, seq uint64 }

func parseStreamID(s string) (streamID, bool) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = "0" // "5" means 5-0
	}
	ms, err1 := strconv.ParseUint(a, 10, 64)
	seq, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil {
		return streamID{}, false
	}
	return streamID{ms, seq}, true
}

func (id streamID) String() string { return fmt.Sprintf("%d-%d", id.ms, id.seq) }

func (id streamID) less(o streamID) bool {
	return id.ms < o.ms || id.ms == o.ms && id.seq < o.seq
}

// before returns the id just before id (0-0 stays 0-0).
func (id streamID) before() streamID {
	switch {
	case id.seq > 0:
		return streamID{id.ms, id.seq - 1}
	case id.ms > 0:
		return streamID{id.ms - 1, ^uint64(0)}
	}
	return id
}

// groupStart is where a restored group starts reading: its last delivered
// id, or just before its oldest pending entry so that entry is delivered
// again.
func groupStart(g snapGroup) string {
	start, _ := parseStreamID(g.LastID)
	for _, p := range g.Pending {
		id, ok := parseStreamID(p.ID)
		if ok && !start.less(id.before()) {
			start = id.before()
		}
	}
	return start.String()
}

// restoreSnapshot writes every key of snap through c, skipping keys that
// expired since it was taken. It returns how many keys it wrote.
func restoreSnapshot(ctx context.Context, c redis.Cmdable, snap *snapshot, now time.Time) (int, error) {
	pipe := c.Pipeline()
	n := 0
	flush := func() error {
		if pipe.Len() == 0 {
			return nil
		}
		cmds, err := pipe.Exec(ctx)
		if err != nil {
			for _, cmd := range cmds {
				if cmd.Err() != nil {
					args := cmd.Args()
					if len(args) > 2 {
						args = args[:2]
					}
					return fmt.Errorf("restore %v: %w", args, cmd.Err())
				}
			}
			return fmt.Errorf("restore: %w", err)
		}
		return nil
	}
	for _, k := range snap.Keys {
		if pipe.Len() >= 512 {
			if err := flush(); err != nil {
				return 0, err
			}
		}
		if k.ExpireAt != 0 && k.ExpireAt <= now.UnixMilli() {
			continue
		}
		key := string(k.Key)
		switch k.Type {
		case "string":
			pipe.Do(ctx, "set", key, string(*k.String))
		case "hash":
			pipe.Do(ctx, append([]any{"hset", key}, anys(k.Hash)...)...)
		case "list":
			pipe.Do(ctx, append([]any{"rpush", key}, anys(k.List)...)...)
		case "set":
			pipe.Do(ctx, append([]any{"sadd", key}, anys(k.Set)...)...)
		case "zset":
			pipe.Do(ctx, append([]any{"zadd", key}, anys(k.ZSet)...)...)
		case "stream":
			for _, e := range k.Stream.Entries {
				pipe.Do(ctx, append([]any{"xadd", key, e.ID}, anys(e.Values)...)...)
			}
			for _, g := range k.Stream.Groups {
				pipe.Do(ctx, "xgroup", "create", key, string(g.Name), groupStart(g), "mkstream")
			}
			if len(k.Stream.Entries) == 0 && len(k.Stream.Groups) == 0 {
				continue
			}
		}
		if k.ExpireAt != 0 {
			pipe.Do(ctx, "pexpireat", key, k.ExpireAt)
		}
		n++
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return n, nil
}

func anys(bs []blob) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}
