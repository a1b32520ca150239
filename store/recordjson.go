package store

import (
	"encoding/base64"
	"strconv"
	"time"
)

// appendHead appends r, a record without its moves, to b as
// json.Marshal(r) writes it, byte for byte, without reflection: every
// move's save writes one. ok is false when r holds something that only
// json.Marshal writes right (a string or flow to escape, a time outside
// RFC 3339, moves); the caller then marshals r itself.
// TestHeadEncodingIsJSON holds the two to the same bytes.
func appendHead(b []byte, r *Record) (_ []byte, ok bool) {
	if r.Moves != nil || r.State == nil || !jsonPlain(r.Flow) {
		return b, false
	}
	b = append(b, `{"schema":`...)
	b = strconv.AppendInt(b, int64(r.Schema), 10)
	for _, f := range []struct{ name, value string }{
		{`,"channel":`, r.Channel}, {`,"guild":`, r.Guild}, {`,"id":`, r.ID}, {`,"game":`, r.Name}, {`,"options":`, r.Options},
	} {
		if b, ok = appendString(append(b, f.name...), f.value); !ok {
			return b, false
		}
	}
	b = append(b, `,"players":[`...)
	for i, p := range r.Players {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendPlayer(b, p); !ok {
			return b, false
		}
	}
	b = append(b, `],"state":"`...)
	b = base64.StdEncoding.AppendEncode(b, r.State)
	b = append(b, `","version":`...)
	b = strconv.AppendInt(b, r.Version, 10)
	if b, ok = appendString(append(b, `,"status":`...), string(r.Status)); !ok {
		return b, false
	}
	for _, f := range []struct{ name, value string }{{`,"result":`, r.Result}, {`,"reason":`, r.Reason}} {
		if f.value == "" {
			continue
		}
		if b, ok = appendString(append(b, f.name...), f.value); !ok {
			return b, false
		}
	}
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{`,"deadline":`, r.Deadline}, {`,"remind_at":`, r.RemindAt}, {`,"created":`, &r.Created}, {`,"updated":`, &r.Updated}, {`,"finished":`, r.Finished}} {
		if f.t == nil {
			continue
		}
		if b, ok = appendTime(append(b, f.name...), *f.t); !ok {
			return b, false
		}
	}
	if len(r.Flow) > 0 {
		b = append(append(b, `,"flow":`...), r.Flow...)
	}
	return append(b, '}'), true
}

// appendMove appends m as json.Marshal writes a Move, byte for byte,
// without reflection: every save writes its new moves. ok is false when m
// holds a string to escape or a time outside RFC 3339; the caller then
// marshals m itself. TestMoveEncodingIsJSON holds the two to the same bytes.
func appendMove(b []byte, m Move) (_ []byte, ok bool) {
	if b, ok = appendString(append(b, `{"text":`...), m.Text); !ok {
		return b, false
	}
	b = strconv.AppendUint(append(b, `,"seat":`...), uint64(m.Seat), 10)
	if m.By != "" {
		if b, ok = appendString(append(b, `,"by":`...), m.By); !ok {
			return b, false
		}
	}
	if b, ok = appendTime(append(b, `,"at":`...), m.At); !ok {
		return b, false
	}
	return append(b, '}'), true
}

// appendPlayer appends p as json.Marshal writes a Player.
func appendPlayer(b []byte, p Player) (_ []byte, ok bool) {
	if b, ok = appendString(append(b, `{"kind":`...), string(p.Kind)); !ok {
		return b, false
	}
	if p.UserID != "" {
		if b, ok = appendString(append(b, `,"user":`...), p.UserID); !ok {
			return b, false
		}
	}
	if b, ok = appendString(append(b, `,"name":`...), p.Name); !ok {
		return b, false
	}
	if p.Level != 0 {
		b = strconv.AppendInt(append(b, `,"level":`...), int64(p.Level), 10)
	}
	if p.Program != "" {
		if b, ok = appendString(append(b, `,"program":`...), p.Program); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendString appends s quoted, when json.Marshal writes it as it is:
// printable ASCII without '"', '\\' or the characters it escapes for
// HTML ('<', '>', '&').
func appendString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// appendTime appends t as time.Time's MarshalJSON writes it.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	b = append(b, '"')
	b, err := t.AppendText(b)
	if err != nil {
		return b, false
	}
	return append(b, '"'), true
}

// jsonPlain reports whether compact JSON raw is written by json.Marshal
// as it is: it holds none of the characters escaped for HTML ('<', '>',
// '&', U+2028, U+2029).
func jsonPlain(raw []byte) bool {
	for i, c := range raw {
		switch c {
		case '<', '>', '&':
			return false
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8
			if rest := raw[i:]; len(rest) >= 3 && rest[1] == 0x80 && (rest[2] == 0xA8 || rest[2] == 0xA9) {
				return false
			}
		}
	}
	return true
}
