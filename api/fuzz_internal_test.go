package api

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseAction: any bytes a program sends are either a well-formed
// action (known type, naming its game) or a refusal with a code, never a
// panic; a refusal echoes at most a clipped id.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","channel":"c1","gameId":"7","version":3,"move":"a2 a3","id":"m1"}`,
		`{"type":"decline","channel":"c1","gameId":"7","reason":"busy"}`,
		`{"type":"accept"}`, `{"type":"nope","channel":"c","gameId":"1"}`, `{}{}`, `[]`, `"x"`, ``,
		`{"type":"move","channel":"c","gameId":"1","move":"  "}`, `{"extra":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, refusal := parseAction(data)
		if refusal != nil {
			if refusal.Type != "error" || refusal.Code == "" || refusal.Error == "" || len(refusal.Ref) > 64 {
				t.Fatalf("refusal %+v", refusal)
			}
			return
		}
		switch m.Type {
		case "accept", "decline", "move", "resign":
		default:
			t.Fatalf("accepted type %q", m.Type)
		}
		if m.Channel == "" || m.GameID == "" || m.Type == "move" && strings.TrimSpace(m.Move) == "" || len(m.ID) > 64 {
			t.Fatalf("accepted %+v", m)
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzInert: nothing Inert returns holds a control character, and text
// without one is unchanged.
func FuzzInert(f *testing.F) {
	for _, s := range []string{"alice", "\x1b[2J", "a\r\nb", "\u202eevil", "\xc2\x9b31m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Inert(s)
		clean := true
		for _, r := range s {
			if isControl(r) {
				clean = false
			}
		}
		for _, r := range got {
			if isControl(r) {
				t.Fatalf("Inert(%q) = %q keeps %U", s, got, r)
			}
		}
		if clean && utf8.ValidString(s) && got != s {
			t.Fatalf("Inert(%q) = %q changed clean text", s, got)
		}
	})
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f
}
