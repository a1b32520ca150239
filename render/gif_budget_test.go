package render

import (
	"bytes"
	"context"
	"errors"
	"image/gif"
	"testing"
)

// TestGIFBudget: a game longer than the frame budget is sampled (first and
// last positions kept), a GIF over the byte budget is drawn again with
// fewer frames, and a cancelled context stops the drawing.
func TestGIFBudget(t *testing.T) {
	reg := registry()
	tg := testGames()[0]
	_, positions := stages(t, reg, tg)
	end := positions[2].Clone()
	for end.Ply() > 24 { // enough to sample, short enough for -race
		end.Undo()
	}
	plies := end.Ply()
	if plies < 10 {
		t.Fatalf("the test game has %d plies; want a longer one", plies)
	}
	r, err := DrawGIF(context.Background(), end, Options{}, GIFBudget{MaxFrames: 5})
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(r.Data))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != r.Frames || r.Frames > 5 || r.Every < 2 || r.Plies != plies {
		t.Fatalf("sampled replay of %d plies: %d frames (%d decoded), every %d; want at most 5 frames", plies, r.Frames, len(anim.Image), r.Every)
	}
	full, err := DrawGIF(context.Background(), end, Options{}, DefaultGIFBudget)
	if err != nil || full.Every != 1 || full.Frames != plies+1 {
		t.Fatalf("unsampled replay: %d frames every %d, %v", full.Frames, full.Every, err)
	}
	small, err := DrawGIF(context.Background(), end, Options{}, GIFBudget{MaxFrames: 1000, MaxBytes: len(full.Data) * 2 / 3})
	if err != nil || len(small.Data) > len(full.Data)*2/3 || small.Every < 2 {
		t.Fatalf("byte budget of %d: %d bytes, every %d, %v", len(full.Data)*2/3, len(small.Data), small.Every, err)
	}
	if _, err := DrawGIF(context.Background(), end, Options{}, GIFBudget{MaxFrames: 1000, MaxBytes: 10}); err == nil {
		t.Fatal("a 10-byte budget was met")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := DrawGIF(ctx, end, Options{}, DefaultGIFBudget); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if end.Ply() != plies {
		t.Fatal("DrawGIF changed the game")
	}
}
