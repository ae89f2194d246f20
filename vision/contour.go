package vision

import "math"

// pt is a point of the pixel-corner lattice: pixel (x, y) is the unit square
// with corners (x, y) and (x+1, y+1).
type pt struct{ x, y int }

// component is an 8-connected component of a binary mask.
type component struct {
	x0, y0, x1, y1 int // bounding box, pixels [x0,x1) x [y0,y1)
	pixels         int
	startX, startY int // leftmost pixel of the top row
}

// components labels the 8-connected components of the w*h mask m via
// row runs and union-find; it returns them in order of their first pixel.
func components(m []uint8, w, h int) []component {
	type seg struct{ x0, x1, y, parent int }
	var segs []seg
	find := func(i int) int {
		for segs[i].parent != i {
			segs[i].parent = segs[segs[i].parent].parent
			i = segs[i].parent
		}
		return i
	}
	prevStart, prevEnd := 0, 0
	for y := 0; y < h; y++ {
		row := m[y*w : (y+1)*w]
		curStart := len(segs)
		for x := 0; x < w; {
			if row[x] == 0 {
				x++
				continue
			}
			s := x
			for x < w && row[x] != 0 {
				x++
			}
			id := len(segs)
			segs = append(segs, seg{s, x, y, id})
			// 8-connectivity: overlap with [s-1, x+1) in the row above.
			for j := prevStart; j < prevEnd; j++ {
				p := segs[j]
				if p.x1 < s || p.x0 > x {
					continue
				}
				a, b := find(j), find(id)
				if a != b {
					if a < b {
						segs[b].parent = a
					} else {
						segs[a].parent = b
					}
				}
			}
		}
		prevStart, prevEnd = curStart, len(segs)
	}
	root := make(map[int]int)
	var comps []component
	for i := range segs {
		r := find(i)
		s := segs[i]
		k, ok := root[r]
		if !ok {
			k = len(comps)
			root[r] = k
			comps = append(comps, component{x0: s.x0, y0: s.y, x1: s.x1, y1: s.y + 1, startX: s.x0, startY: s.y})
		}
		c := &comps[k]
		c.x0 = min(c.x0, s.x0)
		c.x1 = max(c.x1, s.x1)
		c.y1 = max(c.y1, s.y+1)
		c.pixels += s.x1 - s.x0
	}
	return comps
}

// traceOuter follows the outer boundary of the component whose top-left
// pixel is (sx, sy) along pixel edges (crack following, 8-connectivity,
// clockwise on screen) and returns the corners where it turns: an exact
// rectilinear polygon enclosing the component (holes filled).
func traceOuter(m []uint8, w, h, sx, sy int) []pt {
	fg := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < w && y < h && m[y*w+x] != 0
	}
	// Directions E, S, W, N (y down); right turn is +1.
	dx := [4]int{1, 0, -1, 0}
	dy := [4]int{0, 1, 0, -1}
	x, y, d := sx, sy, 0
	var poly []pt
	poly = append(poly, pt{x, y})
	limit := 4*(w+1)*(h+1) + 8
	for step := 0; step < limit; step++ {
		x, y = x+dx[d], y+dy[d]
		if x == sx && y == sy && d == 3 {
			// Back at the start having come up the left side; the start
			// corner was recorded as the first vertex.
			break
		}
		// Pixels ahead-left and ahead-right of lattice point (x, y).
		var lx, ly, rx, ry int
		switch d {
		case 0: // E
			lx, ly, rx, ry = x, y-1, x, y
		case 1: // S
			lx, ly, rx, ry = x, y, x-1, y
		case 2: // W
			lx, ly, rx, ry = x-1, y, x-1, y-1
		case 3: // N
			lx, ly, rx, ry = x-1, y-1, x, y-1
		}
		nd := d
		switch {
		case fg(lx, ly):
			nd = (d + 3) % 4 // left
		case fg(rx, ry):
			// straight
		default:
			nd = (d + 1) % 4 // right
		}
		if nd != d {
			poly = append(poly, pt{x, y})
			d = nd
		}
		if x == sx && y == sy && d == 0 {
			poly = poly[:len(poly)-1]
			break
		}
	}
	return poly
}

// simplify reduces a closed polygon with Douglas-Peucker at tolerance eps:
// it splits the ring at vertex 0 and the vertex farthest from it and
// simplifies both chains.
func simplify(poly []pt, eps float64) []pt {
	n := len(poly)
	if n <= 4 {
		return poly
	}
	far, best := 0, -1.0
	for i, p := range poly {
		d := math.Hypot(float64(p.x-poly[0].x), float64(p.y-poly[0].y))
		if d > best {
			far, best = i, d
		}
	}
	keep := make([]bool, n+1)
	ring := append(append([]pt(nil), poly...), poly[0])
	keep[0], keep[far], keep[n] = true, true, true
	dp(ring, 0, far, eps, keep)
	dp(ring, far, n, eps, keep)
	var out []pt
	for i := 0; i < n; i++ {
		if keep[i] {
			out = append(out, ring[i])
		}
	}
	// The two split vertices are kept by construction; drop any vertex
	// (split points included) within eps of the chord of its neighbours.
	for changed := true; changed && len(out) > 3; {
		changed = false
		for i := 0; i < len(out) && len(out) > 3; i++ {
			a, b, c := out[(i+len(out)-1)%len(out)], out[i], out[(i+1)%len(out)]
			if segDist(b, a, c) <= eps {
				out = append(out[:i], out[i+1:]...)
				changed = true
				i--
			}
		}
	}
	return out
}

// segDist is the distance of p from the line through a and c (from a if
// they coincide).
func segDist(p, a, c pt) float64 {
	ux, uy := float64(c.x-a.x), float64(c.y-a.y)
	px, py := float64(p.x-a.x), float64(p.y-a.y)
	l := math.Hypot(ux, uy)
	if l == 0 {
		return math.Hypot(px, py)
	}
	return math.Abs(px*uy-py*ux) / l
}

func dp(p []pt, a, b int, eps float64, keep []bool) {
	if b-a < 2 {
		return
	}
	k, best := -1, -1.0
	for i := a + 1; i < b; i++ {
		if d := segDist(p[i], p[a], p[b]); d > best {
			k, best = i, d
		}
	}
	if best > eps {
		keep[k] = true
		dp(p, a, k, eps, keep)
		dp(p, k, b, eps, keep)
	}
}

// polyArea is the shoelace area of a closed polygon.
func polyArea(p []pt) float64 {
	s := 0
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i].x*p[j].y - p[j].x*p[i].y
	}
	return math.Abs(float64(s)) / 2
}
