package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// checkMemoryFloor is the least soft memory limit of `gddls check`, and
// checkHeadroom the garbage the heap may gather over what is live before a
// collection when that is more than half the live heap.
const (
	checkMemoryFloor = 352 << 20
	checkHeadroom    = 64 << 20
)

// gcPolicy adjusts the collector after every collection from the heap
// that collection found live: the growth (GOGC) is what percent returns
// for it and, when limit is non-nil, the soft memory limit what limit
// returns, so that neither is fixed. A fixed limit below what a large repository keeps
// live makes the collector run back to back; a fixed growth lets the heap
// of a large one reach twice or three times what it keeps.
type gcPolicy struct {
	percent func(live uint64) int
	limit   func(live uint64) int64
	sample  []metrics.Sample
	stopped atomic.Bool
}

// startGC starts a policy and returns the function that ends it. GOGC and
// GOMEMLIMIT in the environment take precedence over the growth and the
// limit it would set; with both set it does nothing.
func startGC(percent func(live uint64) int, limit func(live uint64) int64) (stop func()) {
	g := &gcPolicy{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	if os.Getenv("GOGC") == "" {
		g.percent = percent
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		g.limit = limit
	}
	if g.percent == nil && g.limit == nil {
		return func() {}
	}
	g.set(0)
	g.arm()
	return func() { g.stopped.Store(true) }
}

// tuneCheckGC starts the collector policy of a one-shot check
// (checkPolicy), which keeps everything it loads until it prints the
// report, and returns the function that ends it.
func tuneCheckGC() (stop func()) {
	return startGC(func(live uint64) int { p, _ := checkPolicy(live); return p },
		func(live uint64) int64 { _, l := checkPolicy(live); return l })
}

// tuneServeGC starts the collector policy of `gddls serve`
// (serveGrowth), with no soft memory limit, and returns the function that
// ends it.
func tuneServeGC() (stop func()) {
	return startGC(func(live uint64) int { return serveGrowth(live, serveHeadroom) }, nil)
}

// gcSentinel is an object made unreachable on purpose: its cleanup runs
// after the collection that found it so, which is how the policy learns
// of each collection. It is larger than the tiny allocator's blocks, so
// that no other object keeps it alive.
type gcSentinel [32]byte

// arm makes the next collection call adjust.
func (g *gcPolicy) arm() {
	runtime.AddCleanup(new(gcSentinel), func(g *gcPolicy) { g.adjust() }, g)
}

// adjust applies the policy to the heap the last collection found live,
// and arms the next one.
func (g *gcPolicy) adjust() {
	if g.stopped.Load() {
		return
	}
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() == metrics.KindUint64 {
		g.set(g.sample[0].Value.Uint64())
	}
	g.arm()
}

func (g *gcPolicy) set(live uint64) {
	if g.percent != nil {
		debug.SetGCPercent(g.percent(live))
	}
	if g.limit != nil {
		debug.SetMemoryLimit(g.limit(live))
	}
}

// checkPolicy returns the growth (GOGC) and the soft memory limit of a
// check for a live heap of live bytes (0 before the first collection).
// The heap may gather checkHeadroom of garbage or half as much as is
// live, whichever is more: up to five times live on a small repository
// (where a collection is cheap but still worth saving), half as much
// again on a large one, as the server's heap (serveGrowth), so that the
// peak of a check that keeps 150 MB stays near 225 MB rather than 300.
// The soft limit, checkMemoryFloor at the least, stays half as much
// again over the live heap, so it only ever shortens a growth that would
// run far past the floor and never makes the collector run back to back.
func checkPolicy(live uint64) (percent int, limit int64) {
	percent = 400
	if live > 0 {
		percent = min(max(int(100*max(live/2, checkHeadroom)/live), 50), 400)
	}
	return percent, max(int64(checkMemoryFloor), int64(live+live/2))
}

// serveHeadroom is the garbage the server's heap may gather over what is
// live before a collection, when that is more than half the live heap.
const serveHeadroom = 32 << 20

// serveGrowth is the GOGC of `gddls serve` for a live heap of live bytes
// (0 before the first collection). A language server keeps its snapshot
// for the whole session and allocates a new one on every keystroke: the
// heap may gather headroom bytes of garbage, or half the live heap when
// that is more, between collections. A keystroke allocates well under a
// megabyte, so that is still dozens of edits between collections on a
// small repository, whose growth is at most 200 (three times live); on a
// large one the growth falls to 50, so that the heap stays within half as
// much again as what the server keeps (the default growth of 100 let it
// reach twice that, and 200 three times). It moves in steps of ten, so
// that small changes of the live heap do not change it.
func serveGrowth(live, headroom uint64) int {
	if live == 0 {
		return 200
	}
	p := int(min(100*max(headroom, live/2)/live, 200))
	p -= p % 10
	return max(p, 50)
}
