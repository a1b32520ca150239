package store_test

import (
	"strings"
	"testing"

	"arbiter/store"
)

// TestScrubberWords: the person's id and names are replaced where they
// stand as words of their own, never inside another person's longer id
// or name; an entry that is theirs is dropped; a name of two letters is
// replaced only as a whole value.
func TestScrubberWords(t *testing.T) {
	sc, err := store.NewScrubber("412345678901234567")
	if err != nil {
		t.Fatal(err)
	}
	sc.Learn([]byte(`{"players":[{"kind":"human","user":"412345678901234567","name":"Ann"},{"kind":"human","user":"4123456789012345678","name":"Anna"}]}`))
	sc.Learn([]byte(`{"player":"412345678901234567","name":"Al"}`))
	if sc.Names() != 2 {
		t.Fatalf("learnt %d names, want 2 (Ann, Al)", sc.Names())
	}
	for _, tc := range []struct{ in, want string }{
		{`Ann resigned`, `former student resigned`},
		{`Anna resigned`, `Anna resigned`},
		{`<@412345678901234567> won`, `<@former> won`},
		{`<@4123456789012345678> won`, `<@4123456789012345678> won`},
		{`vacation.used.412345678901234567`, `vacation.used.former`},
		{`Al`, `former student`},
		{`Alpha and Al`, `Alpha and Al`},
		{`Ann, Anna, Annabel`, `former student, Anna, Annabel`},
		{`Ånn Ann`, `Ånn former student`},
	} {
		out, drop, changed := sc.Rewrite([]byte(tc.in))
		if drop || string(out) != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("Rewrite(%q) = %q, drop %v, changed %v; want %q", tc.in, out, drop, changed, tc.want)
		}
	}
	out, _, _ := sc.Rewrite([]byte(`{"players":[{"user":"412345678901234567","name":"Ann"},{"user":"4123456789012345678","name":"Anna"}],"state":"QW5uIEFubg=="}`))
	if got := string(out); !strings.Contains(got, `"name":"former student","user":"former"`) ||
		!strings.Contains(got, `"name":"Anna","user":"4123456789012345678"`) || !strings.Contains(got, `"state":"QW5uIEFubg=="`) {
		t.Errorf("a record rewritten: %s", got)
	}
	if _, drop, _ := sc.Rewrite([]byte(`{"user":"412345678901234567","name":"Ann","guild":"1"}`)); !drop {
		t.Error("her token was not dropped")
	}
	if _, drop, _ := sc.Rewrite([]byte(`{"user":"4123456789012345678","name":"Anna","guild":"1"}`)); drop {
		t.Error("another person's token was dropped")
	}
	if sc.KeyMentions([]byte("vacation.used.4123456789012345678")) || !sc.KeyMentions([]byte("{tokuser:1:412345678901234567}:hash")) {
		t.Error("KeyMentions does not tell her keys from another's")
	}
	if _, err := store.NewScrubber("ab"); err == nil {
		t.Error("an id of two characters was taken")
	}
}
