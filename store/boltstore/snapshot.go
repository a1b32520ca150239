package boltstore

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The data file of the earlier embedded backend (an in-process Redis),
// which Bolt imports once (legacy.go): every key with its value and
// expiry, as JSON.
//
//	{"format": 1, "saved": "...", "keys": [
//	  {"key": "{ch:1}:game", "type": "hash", "hash": ["id", "7", "version", "3", ...]},
//	  {"key": "{arbiter}:deadlines", "type": "zset", "zset": ["1.7e12", "1/7/3", ...]},
//	  {"key": "{arbiter}:botq", "type": "stream", "stream": {"entries": [...], "groups": [...]}},
//	  {"key": "{arbiter}:lock:clock", "type": "string", "string": "...", "expire_at": 1700000000000}]}
//
// A value that is not valid UTF-8 is written {"base64": "..."} instead of a
// string. A stream group is written with its pending entries.
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
