// Package review presents the engine's analysis of a game (package
// engine/analysis) to people: the evaluation graph as a PNG with the
// mistakes marked, and a static HTML page with the moves, the board at each
// ply, the graph and the annotations.
package review

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"arbiter/engine/analysis"
	"arbiter/rules"
)

// StandardGraph draws rep's graph at the size Arbiter posts and writes
// it: 720 × 260 points.
func StandardGraph(rep *analysis.Report) ([]byte, error) {
	return Graph(rep, vg.Points(720), vg.Points(260))
}

// Graph draws the evaluation graph of rep as a PNG of width × height
// points: player 1's expected score in per cent after each ply (the game's
// curve applied to the evaluation, so forced results sit at 0 and 100),
// with each inaccuracy, mistake and blunder marked at its ply in its
// colour.
func Graph(rep *analysis.Report, width, height vg.Length) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s vs %s", rep.Game, rep.Players[0].Name, rep.Players[1].Name)
	p.X.Label.Text = "ply"
	p.Y.Label.Text = rep.Players[0].Name + "'s expected score (%)"
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min = 0
	p.X.Max = float64(max(1, len(rep.Moves)))
	p.Add(plotter.NewGrid())
	half := plotter.NewFunction(func(float64) float64 { return 50 })
	half.Color = color.Gray{Y: 0xa0}
	half.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(half)

	curve := analysis.CurveFor(rep.Game)
	line := plotter.XYs{}
	if len(rep.Moves) > 0 {
		line = append(line, plotter.XY{X: 0, Y: 100 * curve.Expected(rep.Moves[0].EvalBefore, rules.P1)})
	}
	marks := map[analysis.Class]plotter.XYs{}
	for _, m := range rep.Moves {
		xy := plotter.XY{X: float64(m.Ply), Y: 100 * curve.Expected(m.EvalAfter, rules.P1)}
		line = append(line, xy)
		switch m.Class {
		case analysis.Inaccuracy, analysis.Mistake, analysis.Blunder:
			marks[m.Class] = append(marks[m.Class], xy)
		}
	}
	l, err := plotter.NewLine(line)
	if err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	l.Width = vg.Points(1.5)
	p.Add(l)
	legend := plot.NewLegend()
	legend.Top = true
	entries := 0
	for _, c := range []struct {
		class  analysis.Class
		colour color.Color
		shape  draw.GlyphDrawer
	}{
		{analysis.Inaccuracy, color.RGBA{R: 0xe0, G: 0xb0, A: 0xff}, draw.CircleGlyph{}},
		{analysis.Mistake, color.RGBA{R: 0xe0, G: 0x70, A: 0xff}, draw.BoxGlyph{}},
		{analysis.Blunder, color.RGBA{R: 0xd0, G: 0x10, B: 0x10, A: 0xff}, draw.PyramidGlyph{}},
	} {
		if len(marks[c.class]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(marks[c.class])
		if err != nil {
			return nil, fmt.Errorf("graph: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: c.colour, Radius: vg.Points(4), Shape: c.shape}
		p.Add(s)
		legend.Add(string(c.class), s)
		entries++
	}
	img := vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	dc := draw.New(img)
	// The legend has a strip of its own above the plot, off the data.
	strip := vg.Length(0)
	if entries > 0 {
		strip = vg.Length(entries)*legend.TextStyle.Height("M") + 2*legendPad // a row each
	}
	p.Draw(draw.Crop(dc, 0, 0, 0, -strip))
	if strip > 0 {
		legend.Draw(draw.Crop(dc, 0, -legendPad, dc.Max.Y-dc.Min.Y-strip, -legendPad/2))
	}
	var buf bytes.Buffer
	if _, err := img.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	return buf.Bytes(), nil
}

// legendPad is the room around the graph's legend strip.
const legendPad = vg.Length(4)
