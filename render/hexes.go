package render

import (
	"image"
	"image/color"
	"math"
	"strings"
)

// Boards of hexagons (layout hexes): a rhombus whose display row r lies
// (rows-1-r) half cells right of the bottom row, so that each cell
// touches two cells of the rows above and below it, and whose edges that
// belong to a player (Hex: each player's two edges to join) are drawn in
// that player's colour, emoji or text.

// edgeLook is how an edge that belongs to a player is drawn.
type edgeLook struct {
	colour color.RGBA // image: the band along the edge; zero for none
	emoji  string     // emoji boards: the square in the player's colour
	owner  string     // the player, for the text key
}

// hexShift returns the half cells display row r of s lies right of the
// bottom row.
func hexShift(s *scene, r int) int { return s.rows - 1 - r }

// hexTextIndent returns the spaces before display row r of a text board of
// hexagons: a row lies one and a half characters (half a 3-character
// cell) right of the row below, rounded down.
func hexTextIndent(s *scene, r int) int { return hexShift(s, r) * s.textWidth / 2 }

// squareEmoji is the coloured square for a player's round emoji, the
// emoji itself for any other.
func squareEmoji(round string) string {
	switch round {
	case "🔴":
		return "🟥"
	case "🔵":
		return "🟦"
	case "⚫":
		return "⬛"
	case "⚪":
		return "⬜"
	case "🟡":
		return "🟨"
	case "🟢":
		return "🟩"
	case "🟣":
		return "🟪"
	case "🟠":
		return "🟧"
	case "🟤":
		return "🟫"
	}
	return round
}

// emojiHalfCell is the space that moves an emoji board's row half a cell
// right: an en space and a six-per-em space, about half an emoji's width
// as Discord draws it.
const emojiHalfCell = "\u2002\u2006"

// edgesKey says in words whose edges are whose: "Red: top and bottom
// edges; Blue: left and right edges", "" when no edge belongs to anyone.
func edgesKey(s *scene) string {
	names := [4]string{"top", "right", "bottom", "left"}
	var owners []string
	by := map[string][]string{}
	for _, i := range [4]int{0, 2, 3, 1} { // top, bottom, left, right
		e := s.edges[i]
		if e.owner == "" {
			continue
		}
		if _, seen := by[e.owner]; !seen {
			owners = append(owners, e.owner)
		}
		by[e.owner] = append(by[e.owner], names[i])
	}
	parts := make([]string, 0, len(owners))
	for _, o := range owners {
		parts = append(parts, o+": "+strings.Join(by[o], " and ")+" edges")
	}
	return strings.Join(parts, "; ")
}

// hexGeometry is where a board of hexagons lies in an image: cells of
// width sq (pointy-top hexagons of radius r), inside a margin pad that
// holds the edges' bands.
func (p *painter) hexRadius() float32 { return float32(p.sq) / float32(math.Sqrt(3)) }

// hexPad is the room around the cells for the edges' bands.
func (p *painter) hexPad() int { return int(p.hexRadius() * 0.8) }

// hexBoardSize returns the pixels a board of hexagons takes.
func (p *painter) hexBoardSize() (w, h int) {
	s, r := p.s, p.hexRadius()
	w = s.cols*p.sq + (s.rows-1)*p.sq/2 + 2*p.hexPad()
	h = int(float32(s.rows-1)*1.5*r+2*r) + 2*p.hexPad()
	return w, h
}

// hexCentre returns the centre of display cell c, r of a board of
// hexagons.
func (p *painter) hexCentre(c, r int) (float32, float32) {
	rad := p.hexRadius()
	pad := float32(p.hexPad())
	x := float32(p.left) + pad + float32(c)*float32(p.sq) + float32(hexShift(p.s, r))*float32(p.sq)/2 + float32(p.sq)/2
	y := float32(p.top) + pad + rad + float32(r)*1.5*rad
	return x, y
}

// hexCellRect is the rectangle around a hexagon's centre where a click
// finds it: as wide as the cell and as high as a row, so that the cells'
// rectangles tile the board without overlapping.
func (p *painter) hexCellRect(c, r int) image.Rectangle {
	cx, cy := p.hexCentre(c, r)
	w, h := p.sq, int(1.5*p.hexRadius())
	return image.Rect(int(cx)-w/2, int(cy)-h/2, int(cx)-w/2+w, int(cy)-h/2+h)
}

// hexBox is the box around a hexagon: as wide as the cell, two radii
// high.
func (p *painter) hexBox(c, r int) image.Rectangle {
	cx, cy := p.hexCentre(c, r)
	rad := p.hexRadius()
	return image.Rect(int(cx-float32(p.sq)/2+0.5), int(cy-rad+0.5), int(cx+float32(p.sq)/2+0.5), int(cy+rad+0.5))
}

// hexagon paints a pointy-top hexagon of radius rad around cx, cy.
func (p *painter) hexagon(col color.RGBA, cx, cy, rad float32) {
	var pts [12]float32
	for k := range 6 {
		a := math.Pi/6 + float64(k)*math.Pi/3 // 30°, 90° (bottom point), ...
		pts[2*k] = cx + rad*float32(math.Cos(a))
		pts[2*k+1] = cy + rad*float32(math.Sin(a))
	}
	p.polygon(col, pts[:]...)
}

// paintHexes draws a board of hexagons: the owned edges' bands, then each
// cell as a hexagon with the frame's colour between cells.
func (p *painter) paintHexes() {
	s := p.s
	rad := p.hexRadius()
	// The bands: a larger hexagon in the owner's colour under each cell on
	// an owned edge, so that a zigzag band of it shows around the rhombus.
	for r := 0; r < s.rows; r++ {
		for c := 0; c < s.cols; c++ {
			cx, cy := p.hexCentre(c, r)
			for i, on := range [4]bool{r == 0, c == s.cols-1, r == s.rows-1, c == 0} {
				if e := s.edges[i]; on && e.colour != (color.RGBA{}) {
					p.hexagon(e.colour, cx, cy, rad*1.55)
				}
			}
		}
	}
	for r := 0; r < s.rows; r++ {
		for c := 0; c < s.cols; c++ {
			cx, cy := p.hexCentre(c, r)
			p.hexagon(s.palette.frame, cx, cy, rad+0.5)
			p.hexagon(p.ground(c, r, s.at(c, r)), cx, cy, rad-1.5)
		}
	}
}

// hexLabels draws the coordinates of a board of hexagons: the columns'
// above the top row and below the bottom row, each row's at its two ends.
func (p *painter) hexLabels() {
	s := p.s
	pad := float32(p.hexPad())
	rad := p.hexRadius()
	for c := 0; c < s.cols; c++ {
		cx, cy := p.hexCentre(c, 0)
		p.text(labelSize, false, s.colLabels[c], cx, cy-rad-pad-labelMargin/2+4, hex(colLabel))
		cx, cy = p.hexCentre(c, s.rows-1)
		p.text(labelSize, false, s.colLabels[c], cx, cy+rad+pad+labelMargin/2-4, hex(colLabel))
	}
	for r := 0; r < s.rows; r++ {
		x0, cy := p.hexCentre(0, r)
		x1, _ := p.hexCentre(s.cols-1, r)
		half := float32(p.sq) / 2
		p.text(labelSize, false, s.rowLabels[r], x0-half-pad-labelMargin/2+4, cy, hex(colLabel))
		p.text(labelSize, false, s.rowLabels[r], x1+half+pad+labelMargin/2-4, cy, hex(colLabel))
	}
}
