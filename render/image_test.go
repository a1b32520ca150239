package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"testing"

	"arbiter/rules"
)

// maxPNG is the most bytes a board image may take.
const maxPNG = 100 << 10

// layoutOf lays out g's scene as PNG and GIF do, at least width x height.
func layoutOf(t *testing.T, g rules.Game, opt Options, width, height int) *painter {
	t.Helper()
	s, err := sceneOf(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	f, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	p := newPainter(s, opt, newFaces(f))
	p.alloc(width, height, nil)
	return p
}

// checkPixels checks img against the scene laid out in p: each piece shows
// its body colour, each empty square its ground (highlighted where the last
// move went), each lattice border the frame colour.
func checkPixels(img image.Image, p *painter) error {
	s := p.s
	rgba := func(x, y int) color.RGBA {
		r, g, b, a := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	checked := 0
	for r := 0; r < s.rows; r++ {
		for c := 0; c < s.cols; c++ {
			cl := s.at(c, r)
			rect := p.cellRect(c, r)
			cx, cy := centre(rect)
			var x, y int
			var want color.RGBA
			switch {
			case cl.piece != 0:
				ps := s.pieces[cl.piece]
				radius := float32(p.sq) * float32(ps.size) / 2
				x, y = int(cx+0.6*(radius-max(1.5, float32(p.sq)/30))), int(cy)
				want = ps.fill
			case s.layout == points && cl.kind == blank:
				x, y = int(cx), int(cy)
				want = s.palette.board
			case s.layout == points && cl.mark != hitMark:
				// A point's dot, or the line through a cell between points.
				x, y = int(cx), int(cy)
				want = s.palette.frame
			case cl.kind == square && cl.mark != hitMark:
				x, y = rect.Min.X+3, int(cy)
				want = s.palette.board
				if s.palette.boardAlt != (color.RGBA{}) && (c+r)%2 == 1 {
					want = s.palette.boardAlt
				}
				if cl.zone {
					want = s.palette.zone
				}
				switch cl.mark {
				case fromMark:
					want = blend(want, hex(colFrom), highlightBlend)
				case toMark:
					want = blend(want, hex(colTo), highlightBlend)
				}
			case cl.kind == hedge && cl.mark == noMark:
				x, y = int(cx), int(cy)
				want = s.palette.frame
			default:
				continue
			}
			if got := rgba(x, y); got != want {
				return fmt.Errorf("cell %d,%d (%s %s) at pixel %d,%d is %v, want %v",
					c, r, s.colLabels[c], s.rowLabels[r], x, y, got, want)
			}
			checked++
		}
	}
	if checked < s.rows {
		return fmt.Errorf("only %d cells checked", checked)
	}
	return nil
}

// TestPNG draws every game at its start, middle and end from both sides,
// decodes the PNG and checks its size in pixels and bytes and the colours
// of its squares and pieces.
func TestPNG(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		names, positions := stages(t, reg, tg)
		for i, g := range positions {
			for _, view := range []View{FromP1, FromP2} {
				opt := Options{View: view, Players: testNames()}
				data, err := PNG(g, opt)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s %s %s", tg.name, names[i], view)
				if len(data) > maxPNG {
					t.Errorf("%s: %d bytes, over %d", name, len(data), maxPNG)
				}
				img, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				p := layoutOf(t, g, opt, 0, 0)
				if img.Bounds() != p.img.Bounds() {
					t.Errorf("%s: %v, want %v", name, img.Bounds(), p.img.Bounds())
				}
				if dx, dy := img.Bounds().Dx(), img.Bounds().Dy(); dx < 300 || dy < 300 || dx > 900 || dy > 900 {
					t.Errorf("%s: %dx%d is not a board people can read on a phone", name, dx, dy)
				}
				if err := checkPixels(img, p); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

// TestPNGKnownSquares checks a few squares by their coordinates, from the
// rules' start positions: in HiQUE Black's runner on 3 1 is dark and the
// square 1 1 empty; turned for Black, 3 1 is near the bottom right.
func TestPNGKnownSquares(t *testing.T) {
	g := newTestGame(t, registry(), testGames()[0])
	for _, view := range []View{Standard, FromP1} {
		data, err := PNG(g, Options{View: view})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		p := layoutOf(t, g, Options{View: view}, 0, 0)
		// Display cell of x, y: the standard view has x-1, y-1; turned, the
		// 13x13 grid is reversed.
		cellOf := func(x, y int) image.Rectangle {
			if view == FromP1 {
				return p.cellRect(13-x, 13-y)
			}
			return p.cellRect(x-1, y-1)
		}
		runner := cellOf(3, 1)
		cx, cy := centre(runner)
		if got := color.RGBAModel.Convert(img.At(int(cx), int(cy))); got != p.s.pieces[1].fill {
			t.Errorf("view %s: 3 1 shows %v, want Black's runner %v", view, got, p.s.pieces[1].fill)
		}
		if view == FromP1 && runner.Min.Y < img.Bounds().Dy()/2 {
			t.Errorf("turned for Black, 3 1 is at y %d, in the upper half", runner.Min.Y)
		}
		empty := cellOf(1, 1)
		cx, cy = centre(empty)
		if got := color.RGBAModel.Convert(img.At(int(cx), int(cy))); got != p.s.palette.board {
			t.Errorf("view %s: 1 1 shows %v, want the board %v", view, got, p.s.palette.board)
		}
	}
}

// TestGIF replays each played-out game as a GIF, decodes it, and checks one
// frame a move, the frame size, the delays, and the board at the start (the
// first frame) and at the end (every frame drawn over the ones before).
func TestGIF(t *testing.T) {
	reg := registry()
	for _, tg := range testGames() {
		_, positions := stages(t, reg, tg)
		start, end := positions[0], positions[2]
		opt := Options{View: FromP2, Players: testNames(), FrameDelay: 50}
		data, err := GIF(end, opt)
		if err != nil {
			t.Fatal(err)
		}
		anim, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", tg.name, err)
		}
		if got, want := len(anim.Image), end.Ply()+1; got != want {
			t.Fatalf("%s: %d frames, want %d", tg.name, got, want)
		}
		if anim.Delay[0] != 50 || anim.Delay[len(anim.Delay)-1] != 200 {
			t.Errorf("%s: delays %d ... %d, want 50 ... 200", tg.name, anim.Delay[0], anim.Delay[len(anim.Delay)-1])
		}
		bounds := image.Rect(0, 0, anim.Config.Width, anim.Config.Height)
		if anim.Image[0].Bounds() != bounds {
			t.Errorf("%s: first frame %v, want the whole %v", tg.name, anim.Image[0].Bounds(), bounds)
		}
		canvas := image.NewRGBA(bounds)
		draw.Draw(canvas, bounds, anim.Image[0], image.Point{}, draw.Src)
		if err := checkPixels(canvas, layoutOf(t, start, opt, bounds.Dx(), bounds.Dy())); err != nil {
			t.Errorf("%s first frame: %v", tg.name, err)
		}
		for _, frame := range anim.Image[1:] {
			draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		}
		if err := checkPixels(canvas, layoutOf(t, end, opt, bounds.Dx(), bounds.Dy())); err != nil {
			t.Errorf("%s last frame: %v", tg.name, err)
		}
		t.Logf("%s: %d frames, %dx%d, %d bytes", tg.name, len(anim.Image), bounds.Dx(), bounds.Dy(), len(data))
	}
}

// TestGIFStartOnly replays a game with no moves: one frame.
func TestGIFStartOnly(t *testing.T) {
	g := newTestGame(t, registry(), testGames()[3])
	data, err := GIF(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 1 {
		t.Errorf("%d frames, want 1", len(anim.Image))
	}
	if g.Ply() != 0 {
		t.Error("GIF changed the game")
	}
}
