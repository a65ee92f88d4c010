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
// collection when that is more than the live heap itself.
const (
	checkMemoryFloor = 352 << 20
	checkHeadroom    = 64 << 20
)

// checkGC is the collector policy of a one-shot check, which keeps
// everything it loads until it prints the report. After every collection
// it sets the growth and the soft memory limit from the heap that
// collection found live (checkPolicy), so that neither is fixed: a fixed
// limit below what a large repository keeps live makes the collector run
// back to back.
type checkGC struct {
	gogc, limit bool // which of the two the policy sets
	sample      []metrics.Sample
	stopped     atomic.Bool
}

// tuneCheckGC starts the collector policy of a check and returns the
// function that ends it. GOGC and GOMEMLIMIT in the environment take
// precedence over the growth and the limit it would set.
func tuneCheckGC() (stop func()) {
	g := &checkGC{gogc: os.Getenv("GOGC") == "", limit: os.Getenv("GOMEMLIMIT") == "",
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	if !g.gogc && !g.limit {
		return func() {}
	}
	g.set(0)
	g.arm()
	return func() { g.stopped.Store(true) }
}

// gcSentinel is an object made unreachable on purpose: its cleanup runs
// after the collection that found it so, which is how the policy learns
// of each collection. It is larger than the tiny allocator's blocks, so
// that no other object keeps it alive.
type gcSentinel [32]byte

// arm makes the next collection call adjust.
func (g *checkGC) arm() {
	runtime.AddCleanup(new(gcSentinel), func(g *checkGC) { g.adjust() }, g)
}

// adjust applies the policy to the heap the last collection found live,
// and arms the next one.
func (g *checkGC) adjust() {
	if g.stopped.Load() {
		return
	}
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() == metrics.KindUint64 {
		g.set(g.sample[0].Value.Uint64())
	}
	g.arm()
}

func (g *checkGC) set(live uint64) {
	percent, limit := checkPolicy(live)
	if g.gogc {
		debug.SetGCPercent(percent)
	}
	if g.limit {
		debug.SetMemoryLimit(limit)
	}
}

// checkPolicy returns the growth (GOGC) and the soft memory limit of a
// check for a live heap of live bytes (0 before the first collection).
// The heap may gather checkHeadroom of garbage or as much as is live,
// whichever is more: up to five times live on a small repository (where
// a collection is cheap but still worth saving), twice live on a large
// one (the default growth, so an ever larger live heap never collects
// more often). The soft limit, checkMemoryFloor at the least, stays half
// as much again over the live heap, so it only ever shortens a growth
// that would run far past the floor and never makes the collector run
// back to back.
func checkPolicy(live uint64) (percent int, limit int64) {
	percent = 400
	if live > 0 {
		percent = min(max(int(100*max(live, checkHeadroom)/live), 100), 400)
	}
	return percent, max(int64(checkMemoryFloor), int64(live+live/2))
}

// serveHeapGoal is the heap size up to which the server lets the heap grow
// to three times what is live between collections.
const serveHeapGoal = 300 << 20

// serveGC is the collector policy of `gddls serve`. A language server
// keeps its snapshot for the whole session and allocates a new one on
// every keystroke; with the default GOGC=100 a repository of ordinary size
// collects every few dozen edits, and the edit a collection overlaps is
// the slowest of the session. Letting the heap grow to three times what is
// live (GOGC=200) halves the collections while that stays small; on a
// large repository the growth falls so that the heap's goal stays near
// serveHeapGoal, but never below the default (GOGC=100), since a lower
// growth would only trade collection time for memory. A soft memory
// limit is not used: under a live heap close to it every build would
// collect back to back.
type serveGC struct {
	percent int
	sample  []metrics.Sample
}

// newServeGC returns the policy, or nil when GOGC in the environment
// decides.
func newServeGC() *serveGC {
	if os.Getenv("GOGC") != "" {
		return nil
	}
	// The first build runs at the default growth: the live heap is not
	// known before it, and a growth of 200 during the first load of a
	// large repository would let the heap reach three times its
	// temporaries.
	return &serveGC{percent: 100, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// adjust sets the growth for the heap the last collection found live. It
// runs after every publication of diagnostics, and changes the setting
// only when the growth it computes differs.
func (g *serveGC) adjust() {
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if p := serveGrowth(g.sample[0].Value.Uint64(), serveHeapGoal); p != g.percent {
		g.percent = p
		debug.SetGCPercent(p)
	}
}

// serveGrowth is the GOGC for a live heap of live bytes: 200 while three
// times live stays under goal, then what keeps live×(1+GOGC/100) at goal,
// and 100 at the least. It moves in steps of 10, so that small changes of
// the live heap do not change it.
func serveGrowth(live, goal uint64) int {
	if live == 0 || 3*live <= goal {
		return 200
	}
	p := int(100*goal/live) - 100
	p -= p % 10
	return min(max(p, 100), 200)
}
