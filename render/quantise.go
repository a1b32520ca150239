package render

import (
	"cmp"
	"image"
	"image/color"
	"slices"
)

// quantiser maps the colours of a drawing onto a palette of at most 256:
// the painter's solid colours exactly, then the commonest of the blends
// that anti-aliasing made, and anything else to its nearest neighbour.
type quantiser struct {
	palette color.Palette
	rgb     [][3]int32
	index   map[uint32]uint8
	limit   int // the most colours the palette may hold
}

// newQuantiser starts a palette of at most limit colours with the given
// solid colours.
func newQuantiser(solid []color.RGBA, limit int) *quantiser {
	q := &quantiser{index: make(map[uint32]uint8, 1024), limit: limit}
	for _, c := range solid {
		q.add(c)
	}
	return q
}

func pack(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }

// add puts c in the palette unless it is there or the palette is full.
func (q *quantiser) add(c color.RGBA) {
	k := pack(c.R, c.G, c.B)
	if _, ok := q.index[k]; ok || len(q.palette) >= q.limit {
		return
	}
	q.index[k] = uint8(len(q.palette))
	q.palette = append(q.palette, color.RGBA{c.R, c.G, c.B, 0xFF})
	q.rgb = append(q.rgb, [3]int32{int32(c.R), int32(c.G), int32(c.B)})
}

// learn fills the rest of the palette with img's commonest colours.
func (q *quantiser) learn(img *image.RGBA) {
	type count struct {
		key uint32
		n   int
	}
	counts := map[uint32]int{}
	var last uint32 = 1 << 31
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		row := img.Pix[img.PixOffset(img.Rect.Min.X, y):img.PixOffset(img.Rect.Max.X, y)]
		for i := 0; i+3 < len(row); i += 4 {
			k := pack(row[i], row[i+1], row[i+2])
			if k == last {
				continue // runs of one colour count once: edges matter
			}
			last = k
			if _, ok := q.index[k]; !ok {
				counts[k]++
			}
		}
	}
	list := make([]count, 0, len(counts))
	for k, n := range counts {
		list = append(list, count{k, n})
	}
	slices.SortFunc(list, func(a, b count) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	for _, c := range list {
		if len(q.palette) >= q.limit {
			break
		}
		q.add(color.RGBA{uint8(c.key >> 16), uint8(c.key >> 8), uint8(c.key), 0xFF})
	}
}

// nearest returns the palette index of the colour closest to k.
func (q *quantiser) nearest(k uint32) uint8 {
	if i, ok := q.index[k]; ok {
		return i
	}
	r, g, b := int32(k>>16&0xFF), int32(k>>8&0xFF), int32(k&0xFF)
	best, bestD := 0, int32(1<<31-1)
	for i, c := range q.rgb {
		dr, dg, db := r-c[0], g-c[1], b-c[2]
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	q.index[k] = uint8(best)
	return uint8(best)
}

// addTransparent ends the palette with a transparent colour and returns its
// index. The palette must have room for it.
func (q *quantiser) addTransparent() uint8 {
	q.palette = append(q.palette, color.RGBA{})
	return uint8(len(q.palette) - 1)
}

// paletted converts img to the palette, into reuse when it has img's size.
func (q *quantiser) paletted(img *image.RGBA, reuse *image.Paletted) *image.Paletted {
	out := reuse
	if out == nil || out.Rect != img.Rect {
		out = image.NewPaletted(img.Rect, q.palette)
	}
	var last uint32 = 1 << 31
	var idx uint8
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		row := img.Pix[img.PixOffset(img.Rect.Min.X, y):img.PixOffset(img.Rect.Max.X, y)]
		dst := out.Pix[out.PixOffset(img.Rect.Min.X, y):]
		for i, j := 0, 0; i+3 < len(row); i, j = i+4, j+1 {
			k := pack(row[i], row[i+1], row[i+2])
			if k != last {
				idx, last = q.nearest(k), k
			}
			dst[j] = idx
		}
	}
	return out
}

// quantise converts the painter's image to a palette learned from it.
func (p *painter) quantise(q *quantiser) *image.Paletted {
	q.learn(p.img)
	return q.paletted(p.img, nil)
}
