package analysis

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestParallelBatches checks that every index is handed out exactly once,
// whatever the batch size and the number of workers.
func TestParallelBatches(t *testing.T) {
	for _, tt := range []struct{ n, batch, workers int }{
		{0, 32, 0}, {1, 32, 0}, {31, 32, 2}, {32, 32, 2}, {33, 32, 2},
		{2000, 32, 0}, {100, 1, 3}, {100, 0, 2}, {7, 3, 1},
	} {
		t.Run(fmt.Sprintf("n%d-batch%d-workers%d", tt.n, tt.batch, tt.workers), func(t *testing.T) {
			calls := make([]atomic.Int32, tt.n)
			parallelBatches(tt.n, tt.batch, tt.workers, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Errorf("index %d called %d times, want 1", i, c)
				}
			}
		})
	}
}

// TestBatchSize checks that a batch never exceeds the one asked for and
// that a short list is cut fine enough to share out evenly.
func TestBatchSize(t *testing.T) {
	for _, tt := range []struct{ n, batch, workers, want int }{
		{0, 32, 2, 1},
		{10, 32, 2, 1},
		{200, 32, 2, 6},    // 200 adoptions on two cores: 34 batches
		{319, 16, 4, 4},    // the files of the real-content package, four readers
		{20000, 32, 2, 32}, // a long list keeps the batch asked for
		{100000, 16, 4, 16},
		{200, 0, 2, 1},
		{200, 32, 0, 12}, // no workers counts as one
	} {
		if got := batchSize(tt.n, tt.batch, tt.workers); got != tt.want {
			t.Errorf("batchSize(%d, %d, %d) = %d, want %d", tt.n, tt.batch, tt.workers, got, tt.want)
		}
	}
}
