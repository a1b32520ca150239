package rules

import (
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{"", "", ""},
		{"turns=200 edges=on", "edges=on turns=200", ""},
		{"  Turns=200,edges=on ", "edges=on turns=200", ""},
		{"turns=1;turns=2", "", "given twice"},
		{"turns", "", "key=value"},
		{"=5", "", "key=value"},
		{"turns=", "", "key=value"},
	}
	for _, tt := range tests {
		got, err := ParseOptions(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseOptions(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseOptions(%q): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("ParseOptions(%q) = %q, want %q", tt.in, got.String(), tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	specs := []OptionSpec{
		{Key: "turns", Default: "300", Min: 1, Max: 10000},
		{Key: "edges", Default: "off", Values: []string{"on", "off"}},
	}
	tests := []struct {
		in      Options
		want    string
		wantErr string
	}{
		{nil, "edges=off turns=300", ""},
		{Options{"turns": "0200"}, "edges=off turns=200", ""},
		{Options{"edges": "ON"}, "edges=on turns=300", ""},
		{Options{"turns": "abc"}, "", "turns=abc: turns must be a whole number from 1 to 10000"},
		{Options{"turns": "0"}, "", "from 1 to 10000"},
		{Options{"edges": "maybe"}, "", "edges=maybe: edges must be on or off"},
		{Options{"colour": "red"}, "", "sixes has no option colour; it takes turns, edges"},
	}
	for _, tt := range tests {
		got, err := Resolve("sixes", specs, tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Resolve(%v) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%v): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("Resolve(%v) = %q, want %q", tt.in, got.String(), tt.want)
		}
	}
	if _, err := Resolve("hiya", nil, Options{"x": "1"}); err == nil || !strings.Contains(err.Error(), "takes no options") {
		t.Errorf("Resolve with no specs: error = %v", err)
	}
}

func TestOptionSpecValidate(t *testing.T) {
	spec := OptionSpec{Key: "colours", Describe: "two of g, r, b, y", Validate: func(v string) (string, error) {
		if len(v) != 2 {
			return "", errTest
		}
		return strings.ToLower(v), nil
	}}
	if got, err := spec.Check("GB"); err != nil || got != "gb" {
		t.Errorf("Check(GB) = %q, %v", got, err)
	}
	if _, err := spec.Check("gbr"); err == nil || !strings.HasPrefix(err.Error(), "colours=gbr: ") {
		t.Errorf("Check(gbr) error = %v", err)
	}
	if spec.Allowed() != "two of g, r, b, y" {
		t.Errorf("Allowed() = %q", spec.Allowed())
	}
}

var errTest = NewMoveError(ErrUnreadable, "test")

func TestResultAndPlayer(t *testing.T) {
	if Win(P1) != P1Wins || Win(P2) != P2Wins {
		t.Fatal("Win maps players wrongly")
	}
	for r, want := range map[Result]string{Ongoing: "ongoing", P1Wins: "p1", P2Wins: "p2", Draw: "draw"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", r, r.String(), want)
		}
	}
	if p, ok := P2Wins.Winner(); !ok || p != P2 {
		t.Errorf("P2Wins.Winner() = %v, %v", p, ok)
	}
	if _, ok := Draw.Winner(); ok {
		t.Error("Draw has a winner")
	}
	if P1.Other() != P2 || P2.Other() != P1 {
		t.Error("Other is wrong")
	}
}

func TestMoveList(t *testing.T) {
	var l MoveList
	l.Add(3)
	l.Add(7)
	if l.N != 2 || !l.Contains(7) || l.Contains(5) || len(l.Slice()) != 2 {
		t.Fatalf("list = %v", l.Slice())
	}
	l.Reset()
	if l.N != 0 {
		t.Fatal("Reset left moves")
	}
}

func TestByScore(t *testing.T) {
	for _, tt := range []struct {
		p1, p2 int
		want   Result
	}{{14, 11, P1Wins}, {5, 6, P2Wins}, {5, 5, Draw}, {0, 0, Draw}} {
		if got := ByScore(tt.p1, tt.p2); got != tt.want {
			t.Errorf("ByScore(%d, %d) = %v, want %v", tt.p1, tt.p2, got, tt.want)
		}
	}
}

func TestMix64(t *testing.T) {
	// The first output of SplitMix64 seeded with 0: the finaliser of the
	// golden-ratio increment.
	if got := Mix64(0x9E3779B97F4A7C15); got != 0xE220A8397B1DCDAF {
		t.Errorf("Mix64 = %#x, want SplitMix64's 0xe220a8397b1dcdaf", got)
	}
}

// stubGame is a Game for NewFunc; it is never played.
type stubGame struct{ Game }

func TestNewFunc(t *testing.T) {
	failing := NewFunc(func(Options) (*stubGame, error) { return nil, errTest })
	if g, err := failing(nil); g != nil || err != errTest {
		t.Errorf("on an error NewFunc gives %#v, %v; want a nil Game and the error", g, err)
	}
	ok := NewFunc(func(Options) (*stubGame, error) { return &stubGame{}, nil })
	if g, err := ok(nil); err != nil {
		t.Errorf("NewFunc: %v", err)
	} else if _, isStub := g.(*stubGame); !isStub {
		t.Errorf("NewFunc gives %T, want the constructor's game", g)
	}
}

// TestFixedOptions: fixed options give the text of the options they were
// made from, and a copy of them that can be changed without changing them.
func TestFixedOptions(t *testing.T) {
	f := Fix(Options{"turns": "200", "edges": "on"})
	if f.String() != "edges=on turns=200" {
		t.Errorf("String() = %q, want edges=on turns=200", f.String())
	}
	f.Options()["turns"] = "1"
	if got := f.Options(); got["turns"] != "200" || len(got) != 2 {
		t.Errorf("Options() after changing a copy = %v, want the options fixed", got)
	}
	if (FixedOptions{}).String() != "" || len((FixedOptions{}).Options()) != 0 {
		t.Error("no options fixed: want no text and no options")
	}
}
