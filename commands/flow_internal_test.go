package commands

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"arbiter/render"
	"arbiter/store"
)

// TestFlowFromTheStoresBytes: the flow's state is read from the bytes
// the store hands back, older unnumbered layouts included; state that does
// not read, or of a layout newer than this build's, pauses the game and
// says why instead of being taken as empty (a rated game would turn
// unrated, a challenge would start).
func TestFlowFromTheStoresBytes(t *testing.T) {
	for _, tc := range []struct {
		raw       string
		challenge bool
		why       string
	}{
		{`{"challenge":true,"rated":true}`, true, ""},
		{`{"v":1,"challenge":true}`, true, ""},
		{`{"v":2,"challenge":true}`, false, "layout 2 is newer"},
		{`{"challenge":"yes"}`, false, "does not read"},
	} {
		g := &store.Game{Flow: store.RawFlow(tc.raw)}
		f := flow(g)
		if f.Challenge != tc.challenge || !strings.Contains(f.PausedWhy, tc.why) || (tc.why != "") != f.Paused {
			t.Errorf("%s: flow %+v", tc.raw, f)
		}
		if flow(g) != f {
			t.Errorf("%s: read twice", tc.raw)
		}
		b, err := f.FlowBytes()
		if err != nil || !strings.Contains(string(b), `"v":1`) {
			t.Errorf("%s: written back as %s (%v), want layout 1", tc.raw, b, err)
		}
	}
	if f := flow(&store.Game{}); f == nil || f.Paused {
		t.Errorf("a new game's flow: %+v", f)
	}
}

// TestFlowEncodingIsJSON: the flow a save writes is, byte for byte, what
// json.Marshal writes, for flows with any fields set and for values that
// json.Marshal escapes; the fast writer is used for what the flow writes.
func TestFlowEncodingIsJSON(t *testing.T) {
	at := time.Date(2026, 11, 23, 21, 50, 8, 797176769, time.FixedZone("x", 3600))
	rng := rand.New(rand.NewPCG(4, 2))
	random := func() *Flow {
		f := &Flow{}
		bit := func() bool { return rng.IntN(2) == 0 }
		f.Challenge, f.ChallengerSecond, f.Rated, f.Adjudicate, f.Paused = bit(), bit(), bit(), bit(), bit()
		if bit() {
			f.TurnTime, f.PausedLeft = time.Duration(rng.Int64N(1e12)), -time.Duration(rng.Int64N(1e9))
		}
		if bit() {
			f.PausedWhy, f.Style = "the bot cannot post here", "emoji"
		}
		if bit() {
			f.DrawOffer, f.UndoOffer, f.Reminders = rng.IntN(3), rng.IntN(3), rng.IntN(5)
		}
		for range rng.IntN(3) {
			f.Takebacks = append(f.Takebacks, "move 3 (4 2 4 8) taken back by ann")
		}
		if bit() {
			f.TurnFrom, f.Outage = at.Add(time.Duration(rng.Int64N(1e15))), rng.Int64N(1e13)
		}
		f.NoPremoves, f.NoVacation, f.DM = bit(), bit(), [2]bool{bit(), bit()}
		return f
	}
	check := func(f *Flow, fast bool) {
		t.Helper()
		got, err := f.FlowBytes()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("FlowBytes writes\n%s\njson.Marshal writes\n%s", got, want)
		}
		if _, ok := appendFlow(nil, f); ok != fast {
			t.Errorf("%s: the reflection-free writer used: %v, want %v", want, ok, fast)
		}
	}
	check(&Flow{}, true)
	for range 500 {
		check(random(), true)
	}
	check(&Flow{PausedWhy: `"quoted" <b> & more`}, false)
	check(&Flow{Style: "émoji"}, false)
	check(&Flow{Takebacks: []string{"ok", "tab\there"}}, false)
	check(&Flow{Premoves: [2][][]string{nil, {{"c4 d4", "e5 e4"}}}, Premoved: []int{2}}, false)
	check(&Flow{VacationUntil: [2]time.Time{{}, at}}, false)
}

// TestFlowKeepsEveryField: each field of the flow, set alone, reads back
// from what a save writes, so that a field added to Flow but not to the
// reflection-free writer cannot be lost.
func TestFlowKeepsEveryField(t *testing.T) {
	typ := reflect.TypeOf(Flow{})
	for i := range typ.NumField() {
		sf := typ.Field(i)
		if !sf.IsExported() || sf.Name == "V" {
			continue
		}
		f := &Flow{}
		v := reflect.ValueOf(f).Elem().Field(i)
		setNonZero(t, v)
		raw, err := f.FlowBytes()
		if err != nil {
			t.Fatal(err)
		}
		back := &Flow{}
		if err := json.Unmarshal(raw, back); err != nil {
			t.Fatalf("%s: %s does not read: %v", sf.Name, raw, err)
		}
		if got := reflect.ValueOf(back).Elem().Field(i); !reflect.DeepEqual(got.Interface(), v.Interface()) {
			t.Errorf("%s set to %v is written as %s and reads back as %v", sf.Name, v.Interface(), raw, got.Interface())
		}
	}
}

// setNonZero gives v a value other than its zero one.
func setNonZero(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		setNonZero(t, s.Index(0))
		v.Set(s)
	case reflect.Array:
		setNonZero(t, v.Index(v.Len()-1))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)))
			return
		}
		t.Fatalf("no non-zero value for %s", v.Type())
	default:
		t.Fatalf("no non-zero value for %s", v.Type())
	}
}

// TestAppendCodeBlock: a reply's text is the header and the board's code
// block as strings.TrimSpace(header + "\n" + render.CodeBlock(...)) writes
// them, whatever the header.
func TestAppendCodeBlock(t *testing.T) {
	for _, header := range []string{"", " ", "\n\n", "Ann played **4 2 4 8**.", "  lead\n", "a\nb \n"} {
		for _, colour := range []bool{false, true} {
			board := " 1 2\n1 . .\n"
			want := strings.TrimSpace(header + "\n" + render.CodeBlock(board, colour))
			got := string(appendCodeBlock([]byte(header), colour, func(dst []byte) []byte { return append(dst, board...) }))
			if got != want {
				t.Errorf("appendCodeBlock(%q, colour %v) = %q, want %q", header, colour, got, want)
			}
		}
	}
}
