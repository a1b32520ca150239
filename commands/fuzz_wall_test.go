package commands_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"arbiter/commands"
)

// FuzzWallKey: any text in a wall's address is refused or is a key of 32
// random bytes in base64url, never a panic; nothing else is let through to
// the store.
func FuzzWallKey(f *testing.F) {
	for _, s := range []string{"", "g1", "x1", strings.Repeat("A", 43), strings.Repeat("A", 44), "../../api/v1/me",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQgaGVsbG8gd29y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if commands.CheckWallKey(key) != nil {
			return
		}
		raw, err := base64.RawURLEncoding.DecodeString(key)
		if err != nil || len(raw) != 32 {
			t.Fatalf("CheckWallKey let %q through (%v, %d bytes)", key, err, len(raw))
		}
	})
}

// FuzzEscapeMarkdown: whatever a person types, the escaped text pings
// nobody, links nowhere, stays on one line and leaves no formatting
// character unescaped; written into a buffer it is the same text.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range hostileNames {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := commands.EscapeMarkdown(s)
		if appended := string(commands.AppendEscapeMarkdown([]byte("x"), s)); appended != "x"+got {
			t.Fatalf("EscapeMarkdown(%q) = %q but appended it is %q", s, got, appended[1:])
		}
		if strings.Contains(got, "@everyone") || strings.Contains(got, "@here") || strings.Contains(got, "://") || strings.ContainsAny(got, "\n\r") {
			t.Fatalf("EscapeMarkdown(%q) = %q", s, got)
		}
		escaped := false
		for _, r := range got {
			if !escaped && strings.ContainsRune("*_~`|>#[]<", r) {
				t.Fatalf("EscapeMarkdown(%q) = %q leaves %q unescaped", s, got, r)
			}
			escaped = !escaped && r == '\\'
		}
	})
}
