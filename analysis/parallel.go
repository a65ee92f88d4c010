package analysis

import (
	"runtime"
	"sync"
)

// parallel calls fn(i) for every i in [0, n) on up to workers goroutines
// (every processor when workers is 0) and returns when all calls have.
// Each call must write only what belongs to its i.
func parallel(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// batchesPerWorker is the least number of batches parallelBatches gives
// each worker, so that the work left when one worker runs out is a small
// part of the whole.
const batchesPerWorker = 16

// parallelBatches is parallel for calls too short to be handed out one by
// one (a memo found valid, a parse found in the cache): each goroutine
// takes batch consecutive indices at a time. The batches are made smaller
// when there would be fewer than batchesPerWorker per worker: in a cold
// build the same calls take milliseconds each, and a worker left with a
// long last batch would keep the others idle.
func parallelBatches(n, batch, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batch = batchSize(n, batch, workers)
	parallel((n+batch-1)/batch, workers, func(k int) {
		for i := k * batch; i < min(n, (k+1)*batch); i++ {
			fn(i)
		}
	})
}

// batchSize is the batch parallelBatches hands out: at most batch, and
// small enough for batchesPerWorker batches per worker when n allows.
func batchSize(n, batch, workers int) int {
	return max(min(batch, n/(batchesPerWorker*max(workers, 1))), 1)
}
