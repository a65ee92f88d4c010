package analysis

import (
	"iter"
	"slices"

	"github.com/gddls/gddls/contracts"
)

// chunked is a list that each build after an edit changes in a few places
// while the builds before it keep reading it: the elements are held in
// chunks of chunkSize, and a change copies the list of chunks and the
// chunks it touches, sharing all others. An edit of one element of a list
// of thousands thus copies a few hundred bytes rather than the list,
// whatever the size of the package. A chunked is not changed once built
// (see chunkedEdit).
type chunked[T any] struct {
	chunks [][]T
	n      int
}

// chunkSize is how many elements a chunk of a chunked holds.
const chunkSize = 64

// chunkedOf returns a chunked of the elements of s, which it shares: s
// must not change afterwards.
func chunkedOf[T any](s []T) chunked[T] {
	c := chunked[T]{n: len(s), chunks: make([][]T, 0, (len(s)+chunkSize-1)/chunkSize)}
	for i := 0; i < len(s); i += chunkSize {
		j := min(i+chunkSize, len(s))
		c.chunks = append(c.chunks, s[i:j:j])
	}
	return c
}

// Len returns the number of elements.
func (c chunked[T]) Len() int { return c.n }

// At returns the element at position i, which must be in range.
func (c chunked[T]) At(i int) T { return c.chunks[i/chunkSize][i%chunkSize] }

// All returns the positions and elements in order.
func (c chunked[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for _, ch := range c.chunks {
			for _, v := range ch {
				if !yield(i, v) {
					return
				}
				i++
			}
		}
	}
}

// Slice returns the elements in a new slice.
func (c chunked[T]) Slice() []T {
	out := make([]T, 0, c.n)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	return out
}

// chunkedEdit makes a changed copy of a chunked without changing it: it
// copies a chunk the first time it sets an element of it.
type chunkedEdit[T any] struct {
	c     chunked[T]
	owned []int // the chunks copied, few
}

// edit starts a changed copy of c.
func (c chunked[T]) edit() *chunkedEdit[T] {
	return &chunkedEdit[T]{c: chunked[T]{chunks: slices.Clone(c.chunks), n: c.n}}
}

// at returns the element at position i of the copy.
func (e *chunkedEdit[T]) at(i int) T { return e.c.At(i) }

// set sets the element at position i of the copy.
func (e *chunkedEdit[T]) set(i int, v T) {
	k := i / chunkSize
	if !slices.Contains(e.owned, k) {
		e.c.chunks[k] = slices.Clone(e.c.chunks[k])
		e.owned = append(e.owned, k)
	}
	e.c.chunks[k][i%chunkSize] = v
}

// done returns the copy; the edit must not be used afterwards.
func (e *chunkedEdit[T]) done() chunked[T] { return e.c }

// AdoptionList is the adoptions of a package in file name order. The
// builds that follow an edit share most of it with the build before, so
// it is read through Len, At and All rather than as a slice.
type AdoptionList struct {
	chunked[*contracts.Adoption]
}
