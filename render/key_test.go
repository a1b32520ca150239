package render

import (
	"strings"
	"testing"

	"arbiter/rules"
)

// TestEveryStyleKeysAndMarks: in text and emoji, every game's board marks
// both ends of the last move and the squares where something was removed,
// and says what the marks (and Hi-Ya!'s letters) mean; the text key shows
// the marks as they look on the board: "[O] to", the piece that moved.
func TestEveryStyleKeysAndMarks(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		g := newTestGame(t, reg, tg)
		moves := playOut(g.Clone(), 1)
		sawMove, sawRemoval := false, false
		for _, m := range moves {
			g.Play(m)
			s, err := sceneOf(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			marks := [hitMark + 1]bool{}
			for _, c := range s.cells {
				marks[c.mark] = true
			}
			text, emoji := Text(g, Options{View: FromP1}), Emoji(g, Options{View: FromP2})
			if marks[fromMark] && marks[toMark] && !sawMove {
				sawMove = true
				if !strings.Contains(text, "(") || !strings.Contains(text, "[") || !strings.Contains(text, "Marks: (.) from, ["+markedGlyph(s, toMark)+"] to") || markedGlyph(s, toMark) == "" {
					t.Errorf("%s: the text board does not mark and key both ends:\n%s", tg.name, text)
				}
				if !strings.Contains(emoji, s.palette.fromEmoji) || !strings.Contains(emoji, emojiToRow) || !strings.Contains(emoji, emojiToCol) ||
					!strings.Contains(emoji, "Marks: "+s.palette.fromEmoji+" from, "+emojiToRow+emojiToCol+" to") {
					t.Errorf("%s: the emoji board does not mark and key both ends:\n%s", tg.name, emoji)
				}
			}
			if marks[hitMark] && !sawRemoval {
				sawRemoval = true
				if !strings.Contains(text, "*") || !strings.Contains(text, "*"+markedGlyph(s, hitMark)+"* removed") {
					t.Errorf("%s: the text board does not mark a removal:\n%s", tg.name, text)
				}
				if !strings.Contains(emoji, s.palette.hitEmoji+" removed") {
					t.Errorf("%s: the emoji board does not key a removal:\n%s", tg.name, emoji)
				}
			}
		}
		// Hex only places stones: no move has two ends, none removes. A
		// Lines of Action capture lands on the piece it takes: the
		// square is marked as the move's end.
		// An Amazons move takes nothing: its arrow stays.
		if tg.name != "hex" && !sawMove {
			t.Errorf("%s: no move marked in a played-out game", tg.name)
		}
		if tg.name != "upthrust" && tg.name != "hex" && tg.name != "loa" && tg.name != "amazons" && !sawRemoval {
			t.Errorf("%s: no removal in a played-out game", tg.name)
		}
	}
	hiya, err := reg.New("hiya", nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(hiya, Options{}); !strings.Contains(text, "K King, J Ninja, S Samurai, j mini-Ninja, s mini-Samurai") {
		t.Errorf("Hi-Ya!'s text board has no key to its letters:\n%s", text)
	}
}

// TestImageCaptionKeys: the image's caption keys its marks, and for
// Hi-Ya! (letters on the pieces) and HiQUE (two shapes) its pieces.
func TestImageCaptionKeys(t *testing.T) {
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	reg := registry()
	for name, want := range map[string]string{"hiya": "K King, J Ninja", "hique": "discs runners, squares guards", "sixes": ""} {
		g, err := reg.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		g.Moves(&list)
		g.Play(list.Moves[0])
		s, err := sceneOf(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var caption []string
		for _, row := range newPainter(s, Options{}, newFaces(f)).caption {
			caption = append(caption, row.text)
		}
		all := strings.Join(caption, "\n")
		if !strings.Contains(all, want) || !strings.Contains(all, "Marks: olive from, yellow to") {
			t.Errorf("%s: the image's caption has no key:\n%s", name, all)
		}
	}
}
