// Package vision measures FIASCO's visual features: the geometry of the
// regions that the text blocks of a page occupy once rendered.
//
// # Contract
//
// The renderer paints every target node (block) N's own text as solid bars
// of background colour Palette(n)[N] with transparent glyphs, so that each
// text line is a solid rectangle of that colour, and leaves everything else
// white. Measure takes the screenshot and returns one Features per block.
// It is a pure function of its arguments (no context, no I/O, no
// randomness); it returns an error only for invalid arguments, and blocks
// that do not appear in the image get Found == false and zero features.
//
// # Palette and decoding
//
// Colours lie on a grid of Step = 8 per channel (32 levels, 0..248). A
// pixel decodes to a block when each channel is within Tolerance = 2 of a
// grid value and that grid colour is in the palette; white, off-grid
// (blended) pixels and grid colours beyond n are ignored. Excluded from the
// palette: near-white colours (every channel >= 208) and grey-ish ones
// (channels within 16 of each other, black included), which blends of
// colours with white and page remnants produce. MaxColors = 32058 colours.
// The palette is a fixed sequence (Palette(n) is a prefix of Palette(m));
// the first SafeColors = 2958 have a channel at exactly 0, coarse grid
// colours first, so small palettes are well separated. For them a blend
// with white, c + t(255-c), is provably either decoded as c (when the 0
// channel rose by <= 2, every channel moved by <= 2) or rejected (the 0
// channel is off grid, or lands on a colour with no 0 channel, index >=
// SafeColors >= n). A step of 16, as first planned, allows only 16^3 = 4096
// colours, too few for 20,000 blocks. Blends between two palette colours,
// and blends of colours beyond SafeColors, can decode to a third colour:
// they are one pixel thin, and are dropped as runs shorter than 2 pixels or
// blobs thinner than 3 pixels.
//
// # Pipeline (as computed)
//
//  1. One pass over the image, row by row, collects runs of consecutive
//     pixels that decode to the same block (an unchanged pixel value is not
//     decoded again). Runs shorter than 2 px are dropped. *image.RGBA and
//     *image.NRGBA are read directly; other images are first drawn over
//     white. Coordinates are those of the image (its Bounds().Min).
//  2. Per block, its runs give its bounding box, and a binary mask is made
//     for that box only (no page-sized masks).
//  3. Line height L: Options.LineHeight[i] * Scale if given (at most
//     MaxLineHeight: a page's CSS can ask for millions), else estimated
//     from the mask: rows are grouped into segments of consecutive rows with
//     the same horizontal extent (within 2 px); the bar height H is the
//     lower median of the segment heights (segments of 3 px or more); the
//     inter-line gap G is the median of the blank gaps between segments that
//     are shorter than H; L = H + G (at least 4). The bars of a justified
//     paragraph that touch each other cannot be separated: the estimate is
//     then the whole paragraph's height, so pass CSS line heights.
//  4. Blur: three passes of a box filter of radius rx = max(1, round(L/16))
//     along x and three of radius ry = max(1, round(L/2)) along y (a
//     separable approximation of an anisotropic Gaussian with
//     sigma = sqrt(r(r+1)) per axis: within 0.03 of imaging.Blur), everything
//     outside the mask counting as 0. The blur is strongly vertical because
//     the bars are already solid along x: its job is to bridge the blank
//     gaps between lines; a round blur would also fill notches at the ends
//     of lines and round every corner, adding vertices that say nothing
//     about the text. Thresholding three box passes at 0.5 fills a gap
//     between two bars up to about 1.35 sigma, about 0.67 L: the inter-line
//     gaps of a paragraph are filled, a blank line (gap >= L) is not.
//     Computation exploits text structure: the x passes run once per
//     distinct mask row and the y passes once per distinct column (columns
//     differ only within 3 rx of a run end); the result equals the plain
//     2-D cascade (tested), and much faster than imaging.Blur
//     (BenchmarkBlur).
//  5. Threshold: a pixel belongs to the region if it is in the mask or its
//     blurred value is >= 0.5 (the union keeps thin lines that a blur
//     alone would erase; for a convex shape the thresholded blur lies inside
//     the shape, so a solid rectangle stays exactly itself).
//  6. Connected components (8-connectivity). Components whose bounding box
//     is thinner than 3 px in x or y are dropped. Each remaining one is a
//     blob.
//  7. Enclosing polygon: the outer boundary of the blob is traced along
//     pixel edges (crack following; holes are ignored, i.e. filled), which
//     gives an exact rectilinear polygon with vertices on pixel corners; it
//     is simplified with Douglas-Peucker at tolerance
//     eps = max(1.5, L/8) px (split at the start corner and the vertex
//     farthest from it, then vertices within eps of the chord of their
//     neighbours are removed). This is a polygon approximation, not a convex
//     hull: the features below count and place the polygon's vertices, and
//     a convex hull would erase exactly what they measure (the ragged right
//     edge of a list has many vertices, a justified paragraph has 4 to 6;
//     the hull of both is 4 to 6 points).
//  8. Bounding rectangle: the minimal axis-aligned rectangle of the
//     polygon. Screen text is axis-aligned, so the minimal rotated rectangle
//     would be the same up to pixel rounding.
//
// # Features, exactly as computed
//
// Per blob b: polygon P_b with V_b vertices, shoelace area A(P_b),
// rectangle R_b of width W_b and height H_b (px), lines
// N_b = max(1, round(H_b / L)).
//
//   - SolidityI = sum_b min(A(P_b), W_b H_b) / sum_b W_b H_b: polygon area
//     over bounding-rectangle area; with several blobs, the mean of the
//     blobs' ratios weighted by rectangle area. 1 for a solid rectangle.
//   - SolidityII = sum_b V_b / sum_b N_b: polygon vertices per text line
//     (region height in line units, rounded, at least 1 per blob). A solid
//     one-line bar gives 4; a justified paragraph of k lines 4/k or 6/k; a
//     ragged list about 2 per line.
//   - SolidityIII = sum_b W_b H_b m_b / sum_b W_b H_b, where
//     m_b = mean over P_b's vertices of |x_v - x_c| / (W_b/2), x_c the
//     rectangle's centre: the mean distance of the vertices from the centre
//     along x, normalised to [0,1] (1 when all vertices are on the left and
//     right sides); area-weighted over blobs.
//   - RelWidth = Box.Dx() / the largest Box.Dx() of any found block on the
//     page, where Box is the union of the block's blob rectangles.
//   - Headline = (Box.Dy() - HH) / HH, where the headline height HH is the
//     mean Box.Dy() of the page's found blocks with Lines == 1 (the typical
//     one-line block: headings, links, captions); if the page has none, the
//     mean line height L of its found blocks.
//   - Found (a blob exists), Blobs, Box, Pixels (decoded pixels before
//     blurring), LineHeight (L), Lines (sum_b N_b), Vertices (sum_b V_b).
//   - Left, Top, Right, Bottom = Box's edges over the image width and
//     height (0..1, relative to the image's origin).
//   - X, Y = centre of Box over the image width and height (0..1, relative
//     to the image's origin); Area = sum_b A(P_b) / (image width * height).
//   - FontSize = Options.FontSize[i] as given (0 without it), and
//     FontSizeRel = FontSize / M, where M is the upper median (element n/2
//     of the n sorted values) of the FontSize > 0 of the page's found
//     blocks; 0 when no found block has one.
//   - Style = Options.Style[i] as given (the renderer's reading of the
//     computed style: font weight, WCAG contrast ratio with the background,
//     fixed or sticky container), and Screens = (Box.Min.Y - image top) /
//     Options.Screen, FirstScreen = Screens < 1 (both only with a Screen).
//
// MeasureBlobs also returns every block's blobs (polygons and rectangles),
// e.g. to draw them.
//
// # Feature columns
//
// [Fields] is the one list of the measurements that become columns of the
// classifier's feature schema (package features), in column order: each
// entry's Name is the column's name, the name trained models store, and
// its Get reads the value from Features (vis_found = Found as 0/1,
// vis_solidity1..3 = SolidityI..III, vis_relwidth, vis_headline, vis_x,
// vis_y, vis_area, vis_fontsize = FontSizeRel, vis_lines = ln(1 + Lines);
// from the style: vis_bold = weight >= 600, vis_contrast = ln(contrast) /
// ln(21), vis_fixed, vis_first_screen, vis_screens = ln(1 + Screens)).
// To add a visual feature, compute it into Features (measureBlock for one
// block, pageFeatures for what is relative to the page) and append its
// entry to Fields; if it needs something only the renderer knows, pass
// that in through Options (as FontSize is). Package features and the
// pipeline need no change; models trained before do not name the new
// column and are not affected.
//
// # Speed
//
// The blur is a box cascade that exploits text structure instead of
// imaging.Blur, which is far slower on full pages; BenchmarkBlur,
// BenchmarkBlurThreshold, BenchmarkMeasure and BenchmarkDecode measure it
// (figures in RESULTS.md). Options.Workers spreads blocks over goroutines;
// the pipeline renders pages in parallel anyway, so 1 is a good choice
// there.
//
// # Tutorial
//
// [Palette] gives the colours the renderer paints blocks with; [Measure]
// reads the screenshot back (the package example draws one by hand);
// [Outline] draws the blobs over the page for "fiasco inspect".
package vision
