package redisstore

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// urlError is the text of err, met reading the Redis URL raw, with every
// part of raw that may hold a secret written as xxxxx: parse errors quote
// the URL, or the part that does not read, as given.
func urlError(raw string, err error) string {
	msg := err.Error()
	for _, secret := range urlSecrets(raw) {
		msg = strings.ReplaceAll(msg, secret, "xxxxx")
	}
	return msg
}

// urlSecrets returns the parts of the Redis URL raw that may hold a
// password, read without trusting that raw parses: the user information
// (up to the first '@' and up to the last), its part after ':', and the
// values of password options; each also unescaped; longest first.
func urlSecrets(raw string) []string {
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if u, err := url.PathUnescape(s); err == nil && u != s {
			out = append(out, u)
		}
		if u, err := url.QueryUnescape(s); err == nil && u != s {
			out = append(out, u)
		}
	}
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	for _, at := range []int{strings.Index(rest, "@"), strings.LastIndex(rest, "@")} {
		if at < 0 {
			continue
		}
		user := rest[:at]
		add(user)
		if _, pw, ok := strings.Cut(user, ":"); ok {
			add(pw)
		}
	}
	if _, query, ok := strings.Cut(raw, "?"); ok {
		for _, kv := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.Contains(strings.ToLower(k), "password") {
				add(v)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}
