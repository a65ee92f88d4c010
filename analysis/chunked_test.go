package analysis

import (
	"slices"
	"testing"
)

// TestChunked checks that an edit of a chunked changes the copy it makes
// and never the list it started from, which older builds still read.
func TestChunked(t *testing.T) {
	tests := []struct {
		name string
		n    int
		set  []int
	}{
		{"empty", 0, nil},
		{"one chunk", 5, []int{0, 4}},
		{"chunk boundary", chunkSize * 2, []int{chunkSize - 1, chunkSize, 2*chunkSize - 1}},
		{"partial last chunk", chunkSize*3 + 7, []int{3*chunkSize + 6, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := make([]int, tt.n)
			for i := range orig {
				orig[i] = i
			}
			want := slices.Clone(orig)
			c := chunkedOf(slices.Clone(orig))
			e := c.edit()
			for _, i := range tt.set {
				e.set(i, -i-1)
				want[i] = -i - 1
			}
			d := e.done()
			if got := c.Slice(); !slices.Equal(got, orig) {
				t.Errorf("the original changed: %v", got)
			}
			if got := d.Slice(); !slices.Equal(got, want) {
				t.Errorf("copy = %v, want %v", got, want)
			}
			if d.Len() != tt.n {
				t.Errorf("Len = %d, want %d", d.Len(), tt.n)
			}
			var all []int
			for i, v := range d.All() {
				if v != d.At(i) {
					t.Errorf("All at %d = %d, At = %d", i, v, d.At(i))
				}
				all = append(all, v)
			}
			if !slices.Equal(all, want) && !(len(all) == 0 && len(want) == 0) {
				t.Errorf("All = %v, want %v", all, want)
			}
		})
	}
}
