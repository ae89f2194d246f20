// Package vision measures FIASCO's visual features from a highlight
// screenshot. (Full documentation below is being written.)
package vision
