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

// parallelBatches is parallel for calls too short to be handed out one by
// one (a memo found valid, a parse found in the cache): each goroutine
// takes batch consecutive indices at a time.
func parallelBatches(n, batch, workers int, fn func(i int)) {
	batch = max(batch, 1)
	parallel((n+batch-1)/batch, workers, func(k int) {
		for i := k * batch; i < min(n, (k+1)*batch); i++ {
			fn(i)
		}
	})
}
