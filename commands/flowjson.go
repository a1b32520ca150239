package commands

import (
	"strconv"
	"time"
)

// appendFlow appends f as json.Marshal writes it, byte for byte, without
// reflection: every save of a move writes the flow. ok is false when f
// holds a string that json.Marshal escapes or a time outside RFC 3339;
// the caller then marshals f itself. TestFlowEncodingIsJSON holds the two
// to the same bytes.
func appendFlow(b []byte, f *Flow) (_ []byte, ok bool) {
	b = append(b, '{')
	n := len(b) // a field after this one is preceded by a comma
	field := func(name string) {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), name...), `":`...)
	}
	num := func(name string, v int64) {
		if v != 0 {
			field(name)
			b = strconv.AppendInt(b, v, 10)
		}
	}
	flag := func(name string, v bool) {
		if v {
			field(name)
			b = append(b, "true"...)
		}
	}
	str := func(name, v string) bool {
		if v == "" {
			return true
		}
		field(name)
		b, ok = appendPlain(b, v)
		return ok
	}
	num("v", int64(f.V))
	flag("challenge", f.Challenge)
	flag("challenger_second", f.ChallengerSecond)
	flag("rated", f.Rated)
	num("turn_time", int64(f.TurnTime))
	flag("adjudicate", f.Adjudicate)
	flag("paused", f.Paused)
	num("paused_left", int64(f.PausedLeft))
	if !str("paused_why", f.PausedWhy) {
		return b, false
	}
	num("draw_offer", int64(f.DrawOffer))
	num("undo_offer", int64(f.UndoOffer))
	num("reminders", int64(f.Reminders))
	if !str("style", f.Style) {
		return b, false
	}
	if len(f.Takebacks) > 0 {
		field("takebacks")
		b = append(b, '[')
		for i, t := range f.Takebacks {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendPlain(b, t); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	if !f.TurnFrom.IsZero() {
		field("turn_from")
		if b, ok = appendTimeJSON(b, f.TurnFrom); !ok {
			return b, false
		}
	}
	num("outage", f.Outage)
	// Premoves and vacations are rare: json.Marshal writes those flows.
	if len(f.Premoves[0])+len(f.Premoves[1]) > 0 || len(f.Premoved) > 0 || !f.VacationUntil[0].IsZero() || !f.VacationUntil[1].IsZero() {
		return b, false
	}
	flag("no_premoves", f.NoPremoves)
	flag("no_vacation", f.NoVacation)
	if f.DM != [2]bool{} {
		field("dm")
		b = append(append(append(append(b, '['), strconv.FormatBool(f.DM[0])...), ','), strconv.FormatBool(f.DM[1])...)
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// appendPlain appends s quoted when json.Marshal writes it as it is:
// printable ASCII without '"', '\\' or the characters it escapes for HTML.
func appendPlain(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	return append(append(append(b, '"'), s...), '"'), true
}

// appendTimeJSON appends t as time.Time's MarshalJSON writes it.
func appendTimeJSON(b []byte, t time.Time) ([]byte, bool) {
	b, err := t.AppendText(append(b, '"'))
	if err != nil {
		return b, false
	}
	return append(b, '"'), true
}
