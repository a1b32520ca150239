package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Forgetting a person (Store.Forget): every backend walks what it keeps
// with one Scrubber, which decides entry by entry, so that the backends
// agree on what is left of the person:
//
//   - an entry whose key holds their id as a word of its own (a rating,
//     a leaderboard place, their settings, their token's index) is
//     deleted;
//   - an entry that is theirs (a JSON object whose "user" or "player" is
//     their id: a token, a play page link or session, a rating) is
//     deleted;
//   - every other entry that mentions them (a game record, its moves, its
//     flow, an outbox entry) is rewritten: their id becomes FormerID and
//     each of their names FormerName, wherever it stands in a text as a
//     word of its own (never inside another person's longer name or id).
//
// Their names are what the store itself calls them: the "name" of each
// object whose "user" or "player" is their id, learnt in a first pass.

// FormerID is the user id a forgotten person's seats and mentions get.
const FormerID = "former"

// FormerName is the name a forgotten person's seats and mentions get.
const FormerName = "former student"

// ForgetReport says what Forget changed: entries rewritten and deleted.
type ForgetReport struct {
	Rewritten int // entries (records, moves, settings, ...) rewritten
	Deleted   int // entries (ratings, tokens, settings, ...) deleted
}

// Add adds o's counts to r's.
func (r *ForgetReport) Add(o ForgetReport) {
	r.Rewritten += o.Rewritten
	r.Deleted += o.Deleted
}

// minForgetID bounds the ids Forget takes from below: an id of a
// character or two would match inside every other text.
const minForgetID = 3

// Scrubber finds and removes one person's id and names in the bytes a
// backend keeps. Build it with NewScrubber, show it every value with
// Learn, then ask it about each key and value.
type Scrubber struct {
	id    string
	names []string // longest first
}

// NewScrubber returns the Scrubber of the person with user id user;
// ErrInvalid for an id too short to find safely or too long to be one.
func NewScrubber(user string) (*Scrubber, error) {
	if len(user) < minForgetID || len(user) > 128 || user == FormerID {
		return nil, fmt.Errorf("%w: %.20q is not a user id that can be forgotten (%d to 128 characters)", ErrInvalid, user, minForgetID)
	}
	return &Scrubber{id: user}, nil
}

// ID returns the user id of the person the scrubber removes.
func (s *Scrubber) ID() string { return s.id }

// LearnStore shows s everything p holds (each item of an export), for the
// names it gives the person: before Forget, whose own scrubber is gone
// with the names once it returns, so that a caller can remove them from
// files the store does not keep (a term's archive).
func (s *Scrubber) LearnStore(ctx context.Context, p Porter) error {
	return p.Walk(ctx, func(it Item) error {
		data, err := json.Marshal(it)
		if err != nil {
			return err
		}
		s.Learn(data)
		return nil
	})
}

// Names returns how many names of the person the scrubber has learnt.
func (s *Scrubber) Names() int { return len(s.names) }

// Learn reads value (any stored bytes) for names of the person: the
// "name" of each JSON object in it whose "user" or "player" is their id.
func (s *Scrubber) Learn(value []byte) {
	if !bytes.Contains(value, []byte(s.id)) {
		return
	}
	v, ok := decodeJSON(value)
	if !ok {
		return
	}
	walkJSON(v, func(obj map[string]any) {
		if obj["user"] != s.id && obj["player"] != s.id {
			return
		}
		if name, ok := obj["name"].(string); ok && name != "" && name != FormerName && !slices.Contains(s.names, name) {
			s.names = append(s.names, name)
			slices.SortFunc(s.names, func(a, b string) int { return len(b) - len(a) })
		}
	})
}

// KeyMentions reports whether a key holds the person's id as a word of
// its own (not inside a longer id): its entry is theirs, to delete.
func (s *Scrubber) KeyMentions(key []byte) bool { return containsWord(string(key), s.id) }

// Mentions reports whether value holds the person's id or a name of
// theirs, as stored (JSON-escaped or not), as words of their own: "Ann"
// is not in "Anna", nor an id inside a longer one.
func (s *Scrubber) Mentions(value []byte) bool {
	v := string(value)
	if containsWord(v, s.id) {
		return true
	}
	for _, n := range s.names {
		if containsWord(v, n) {
			return true
		}
		if q, err := json.Marshal(n); err == nil && containsWord(v, string(q[1:len(q)-1])) {
			return true
		}
	}
	return false
}

// Rewrite returns value without the person: drop when the whole entry is
// theirs (a JSON object whose "user" or "player" is their id), else the
// value with their id and names replaced; changed says whether it is
// other than value.
func (s *Scrubber) Rewrite(value []byte) (out []byte, drop, changed bool) {
	if !s.Mentions(value) {
		return value, false, false
	}
	v, ok := decodeJSON(value)
	if !ok {
		t := s.text(string(value), &changed)
		return []byte(t), false, changed
	}
	if obj, ok := v.(map[string]any); ok && (obj["user"] == s.id || obj["player"] == s.id) {
		return nil, true, true
	}
	v = s.value(v, &changed)
	if !changed {
		return value, false, false
	}
	out, err := json.Marshal(v)
	if err != nil { // cannot happen: v was decoded from JSON
		return []byte(s.text(string(value), &changed)), false, true
	}
	return out, false, true
}

// RewriteRecord is Rewrite of a game record (schema 1 or 2), with its
// version moved on by one when bump, so that a save of the game loaded
// before is refused as a conflict rather than writing the person back.
func (s *Scrubber) RewriteRecord(value []byte, bump bool) (out []byte, changed bool, err error) {
	out, _, changed = s.Rewrite(value)
	if !changed || !bump {
		return out, changed, nil
	}
	var r Record
	if err := json.Unmarshal(out, &r); err != nil {
		return nil, false, fmt.Errorf("forget: a game record does not read: %w", err)
	}
	r.Version++
	out, err = json.Marshal(&r)
	return out, true, err
}

// text replaces the person's id in t, and their names: wherever they
// stand as words of their own when of minForgetID characters or more,
// else only as the whole of t. *changed is set when t changes.
func (s *Scrubber) text(t string, changed *bool) string {
	out := replaceWord(t, s.id, FormerID)
	for _, n := range s.names {
		if len(n) >= minForgetID {
			out = replaceWord(out, n, FormerName)
		} else if out == n {
			out = FormerName
		}
	}
	if out != t {
		*changed = true
	}
	return out
}

// containsWord reports whether word is in t with neither a letter nor a
// digit just before or after it.
func containsWord(t, word string) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], word)
		if j < 0 {
			return false
		}
		if isWordAt(t, i+j, len(word)) {
			return true
		}
		i += j + 1
	}
}

// replaceWord replaces each of word in t that containsWord would find.
func replaceWord(t, word, with string) string {
	if word == "" || !strings.Contains(t, word) {
		return t
	}
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(t[i:], word)
		if j < 0 {
			b.WriteString(t[i:])
			return b.String()
		}
		if isWordAt(t, i+j, len(word)) {
			b.WriteString(t[i : i+j])
			b.WriteString(with)
			i += j + len(word)
			continue
		}
		_, size := utf8.DecodeRuneInString(t[i+j:])
		b.WriteString(t[i : i+j+size])
		i += j + size
	}
}

// isWordAt reports whether t[at:at+n] has neither a letter nor a digit
// on either side.
func isWordAt(t string, at, n int) bool {
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	if at > 0 {
		if r, _ := utf8.DecodeLastRuneInString(t[:at]); alnum(r) {
			return false
		}
	}
	if end := at + n; end < len(t) {
		if r, _ := utf8.DecodeRuneInString(t[end:]); alnum(r) {
			return false
		}
	}
	return true
}

// value replaces the person's id and names in every string of a decoded
// JSON value, and their id in every object key. A game record's "state"
// (its position, in base64) is left alone: it holds no names, and a name
// found in it would be chance.
func (s *Scrubber) value(v any, changed *bool) any {
	switch v := v.(type) {
	case string:
		return s.text(v, changed)
	case []any:
		for i := range v {
			v[i] = s.value(v[i], changed)
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			nk := replaceWord(k, s.id, FormerID)
			if nk != k {
				*changed = true
			}
			if st, ok := e.(string); ok && k == "state" {
				out[nk] = st
				continue
			}
			out[nk] = s.value(e, changed)
		}
		return out
	}
	return v
}

// decodeJSON decodes an object or array, keeping numbers as written.
func decodeJSON(b []byte) (any, bool) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(t))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil, false
	}
	return v, true
}

// walkJSON calls fn with every object in v.
func walkJSON(v any, fn func(map[string]any)) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			walkJSON(e, fn)
		}
	case map[string]any:
		fn(v)
		for _, e := range v {
			walkJSON(e, fn)
		}
	}
}

// Retention: finished games older than a set number of days leave the
// archive (Store.ForgetFinished), and with them what they alone held of
// the people who played them.

// RetentionCutoff returns the finish time before which archived games are
// forgotten under a retention of days, at now; zero (keep everything)
// when days is not positive.
func RetentionCutoff(now time.Time, days int) time.Time {
	if days <= 0 {
		return time.Time{}
	}
	return now.Add(-time.Duration(days) * 24 * time.Hour)
}
