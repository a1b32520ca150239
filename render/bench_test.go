package render

import (
	"testing"

	"arbiter/rules"
)

// benchPositions returns each game in the middle of a played-out game, and
// each whole game for the GIF.
func benchPositions(b *testing.B) (middles, ends []rules.Game) {
	reg := registry()
	for _, tg := range testGames() {
		_, positions := stages(b, reg, tg)
		middles = append(middles, positions[1])
		ends = append(ends, positions[2])
	}
	return middles, ends
}

// BenchmarkText draws a text board (the goal is under 1 ms).
func BenchmarkText(b *testing.B) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP2, Players: testNames()}
			n := 0
			for b.Loop() {
				n = len(Text(g, opt))
			}
			b.ReportMetric(float64(n), "chars")
		})
	}
}

// BenchmarkTextColour draws a text board with ANSI colour.
func BenchmarkTextColour(b *testing.B) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP2, Players: testNames(), Colour: true}
			for b.Loop() {
				Text(g, opt)
			}
		})
	}
}

// BenchmarkEmoji draws an emoji board (the goal is under 1 ms).
func BenchmarkEmoji(b *testing.B) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP2, Players: testNames()}
			n := 0
			for b.Loop() {
				n = DiscordLength(Emoji(g, opt))
			}
			b.ReportMetric(float64(n), "discord-chars")
		})
	}
}

// BenchmarkPNG draws a PNG image (the goal is under 20 ms).
func BenchmarkPNG(b *testing.B) {
	benchDrawing(b, func(g rules.Game, opt Options) (int, error) {
		data, err := PNG(g, opt)
		return len(data), err
	})
}

// benchDrawing runs draw on every game's middle position, seen from player
// 2 with the test names, and reports the size of what it drew.
func benchDrawing(b *testing.B, draw func(rules.Game, Options) (int, error)) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP2, Players: testNames()}
			n := 0
			for b.Loop() {
				size, err := draw(g, opt)
				if err != nil {
					b.Fatal(err)
				}
				n = size
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// BenchmarkGIF replays a whole played-out game.
func BenchmarkGIF(b *testing.B) {
	_, ends := benchPositions(b)
	for _, g := range ends {
		b.Run(g.Name(), func(b *testing.B) {
			n := 0
			for b.Loop() {
				data, err := GIF(g, Options{Players: testNames()})
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
			b.ReportMetric(float64(g.Ply()+1), "frames")
		})
	}
}

// BenchmarkRecord writes and reads back a whole game.
func BenchmarkRecord(b *testing.B) {
	_, ends := benchPositions(b)
	reg := registry()
	for _, g := range ends {
		b.Run(g.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseRecord(reg, Record(g, Options{Players: testNames()})); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSVG draws the play page's board, and BenchmarkBoardMoves finds
// its legal moves as cells: what the page gets at every change.
func BenchmarkSVG(b *testing.B) {
	benchDrawing(b, func(g rules.Game, opt Options) (int, error) {
		svg, err := SVG(g, opt)
		return len(svg), err
	})
}

func BenchmarkBoardMoves(b *testing.B) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP2}
			n := 0
			for b.Loop() {
				moves, err := BoardMoves(g, opt)
				if err != nil {
					b.Fatal(err)
				}
				n = len(moves)
			}
			b.ReportMetric(float64(n), "moves")
		})
	}
}

// BenchmarkAppendText draws a text board as a move's reply does: the
// board redrawn in reused memory, its last move's effects read and its text
// appended to a reused buffer.
func BenchmarkAppendText(b *testing.B) {
	middles, _ := benchPositions(b)
	for _, g := range middles {
		b.Run(g.Name(), func(b *testing.B) {
			opt := Options{View: FromP1, Players: testNames()}
			buf := make([]byte, 0, 2048)
			var board Board
			for b.Loop() {
				board.Redraw(g, opt)
				buf = append(buf[:0], board.LastMoveEffects()...)
				buf = board.AppendText(buf)
			}
		})
	}
}
