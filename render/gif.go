package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/gif"

	"arbiter/rules"
)

// DefaultFrameDelay is a GIF frame's time on screen, in hundredths of a
// second, when Options.FrameDelay is 0.
const DefaultFrameDelay = 80

// GIFBudget bounds a replay: its size and its number of frames.
type GIFBudget struct {
	MaxBytes  int // the encoded GIF's limit
	MaxFrames int // frames at most, the first and last included (at least 2)
}

// DefaultGIFBudget fits Discord's upload limit for everyone (8 MiB) and
// keeps a replay to 1,000 frames.
var DefaultGIFBudget = GIFBudget{MaxBytes: 8 << 20, MaxFrames: 1000}

// ReplayGIF is a drawn replay and how it was sampled.
type ReplayGIF struct {
	Data   []byte
	Frames int // frames drawn
	Plies  int // moves in the game
	// Every is the sampling: 1 when every position is shown, k when one
	// position in every k is (the first and the last always are).
	Every int
}

// GIF draws a replay of g within DefaultGIFBudget; see DrawGIF.
func GIF(g rules.Game, opt Options) ([]byte, error) {
	r, err := DrawGIF(context.Background(), g, opt, DefaultGIFBudget)
	return r.Data, err
}

// DrawGIF draws a replay of g as an animated GIF within budget: the
// position the game started from, then one frame a move, each drawn as PNG
// draws it (the move's squares highlighted, the caption saying the move).
// The last frame, with the result, stays four times as long; the replay
// loops. g is not changed.
//
// A game with more moves than budget.MaxFrames allows is sampled: one
// position in every k, the first and last always (ReplayGIF.Every says k);
// when the GIF comes out over budget.MaxBytes, it is drawn again with half
// the frames, and an error says when even that does not fit. Only sampled
// frames are drawn, so memory follows the frames, not the game's length;
// ctx is looked at between frames.
//
// After the first frame each frame holds only the rectangle that changed,
// with the unchanged pixels in it transparent, so a move costs about 5 KB
// (a 293-move HiQUE game makes a 1.3 MB GIF in about a second).
func DrawGIF(ctx context.Context, g rules.Game, opt Options, budget GIFBudget) (ReplayGIF, error) {
	if g == nil {
		return ReplayGIF{}, fmt.Errorf("render: no game")
	}
	if budget.MaxFrames < 2 {
		budget.MaxFrames = 2
	}
	plies := len(g.History())
	every := max(1, (plies+budget.MaxFrames-2)/(budget.MaxFrames-1))
	for {
		data, frames, err := drawGIF(ctx, g, opt, every)
		if err != nil {
			return ReplayGIF{}, err
		}
		if budget.MaxBytes <= 0 || len(data) <= budget.MaxBytes {
			return ReplayGIF{Data: data, Frames: frames, Plies: plies, Every: every}, nil
		}
		if frames <= 2 {
			return ReplayGIF{}, fmt.Errorf("render: a replay of %d bytes in 2 frames is over the %d-byte budget", len(data), budget.MaxBytes)
		}
		every *= 2
	}
}

// drawGIF draws the replay of g showing the start, every every-th
// position, and the end; it returns the GIF and its number of frames.
func drawGIF(ctx context.Context, g rules.Game, opt Options, every int) ([]byte, int, error) {
	fonts, err := loadFonts()
	if err != nil {
		return nil, 0, err
	}
	moves := append([]rules.Move(nil), g.History()...)
	replay := g.Clone()
	for replay.Ply() > 0 {
		replay.Undo()
	}

	// The scenes first: every frame must be as large as the largest.
	fs := newFaces(fonts)
	painters := make([]*painter, 0, len(moves)/every+2)
	width, height := 0, 0
	for i := 0; ; i++ {
		if i == len(moves) || i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("render: replay: %w", err)
			}
			frameOpt := opt
			if i < len(moves) {
				frameOpt.Result = nil // the end shows only on the last frame
			}
			s, err := sceneOf(replay, frameOpt)
			if err != nil {
				return nil, 0, err
			}
			p := newPainter(s, frameOpt, fs)
			width, height = max(width, p.naturalWidth()), max(height, p.naturalHeight())
			painters = append(painters, p)
		}
		if i == len(moves) {
			break
		}
		replay.Play(moves[i])
	}

	delay := opt.FrameDelay
	if delay <= 0 {
		delay = DefaultFrameDelay
	}
	// One palette for the whole replay, learned from the last and first
	// frames (every mark is in the last, every piece in the first).
	last := painters[len(painters)-1]
	last.alloc(width, height, nil)
	last.paint()
	canvas := last.img
	q := newQuantiser(last.colours(), 255)
	q.learn(canvas)
	var (
		clear uint8 // the transparent index: the frame below shows through
		prev  *image.Paletted
		spare *image.Paletted // the frame before prev, to draw the next in
	)
	anim := &gif.GIF{}
	for i, p := range painters {
		if err := ctx.Err(); err != nil {
			return nil, 0, fmt.Errorf("render: replay: %w", err)
		}
		p.alloc(width, height, canvas)
		p.paint()
		if i == 0 {
			q.learn(canvas)
			clear = q.addTransparent()
		}
		frame := q.paletted(canvas, spare)
		var sub *image.Paletted
		if prev == nil {
			// The whole first frame, kept apart from the buffers reused.
			sub = image.NewPaletted(frame.Rect, frame.Palette)
			copy(sub.Pix, frame.Pix)
		} else {
			sub = changed(prev, frame, clear)
		}
		prev, spare = frame, prev
		painters[i] = nil // its memory can go
		d := delay
		if i == len(painters)-1 {
			d *= 4
		}
		anim.Image = append(anim.Image, sub)
		anim.Delay = append(anim.Delay, d)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	anim.Config = image.Config{ColorModel: q.palette, Width: prev.Rect.Dx(), Height: prev.Rect.Dy()}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, 0, fmt.Errorf("render: encode gif: %w", err)
	}
	return buf.Bytes(), len(anim.Image), nil
}

// changed returns the part of next that differs from prev (at least one
// pixel), to be drawn over prev, with the pixels that did not change made
// transparent (index clear) so that they compress to almost nothing.
func changed(prev, next *image.Paletted, clear uint8) *image.Paletted {
	r := image.Rectangle{}
	b := next.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		a := prev.Pix[prev.PixOffset(b.Min.X, y):prev.PixOffset(b.Max.X, y)]
		n := next.Pix[next.PixOffset(b.Min.X, y):next.PixOffset(b.Max.X, y)]
		first := -1
		for x := range n {
			if a[x] != n[x] {
				first = x
				break
			}
		}
		if first < 0 {
			continue
		}
		last := first
		for x := len(n) - 1; x > first; x-- {
			if a[x] != n[x] {
				last = x
				break
			}
		}
		r = r.Union(image.Rect(b.Min.X+first, y, b.Min.X+last+1, y+1))
	}
	if r.Empty() {
		r = image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1)
	}
	out := image.NewPaletted(r, next.Palette)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		o := out.Pix[out.PixOffset(r.Min.X, y):out.PixOffset(r.Max.X, y)]
		a := prev.Pix[prev.PixOffset(r.Min.X, y):prev.PixOffset(r.Max.X, y)]
		n := next.Pix[next.PixOffset(r.Min.X, y):next.PixOffset(r.Max.X, y)]
		for x := range o {
			if n[x] == a[x] {
				o[x] = clear
			} else {
				o[x] = n[x]
			}
		}
	}
	return out
}
