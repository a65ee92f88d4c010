package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// checkMemoryLimit is the soft memory limit of `gddls check`.
const checkMemoryLimit = 352 << 20

// tuneCheckGC sets the garbage collector for a one-shot check, which keeps
// everything it loads until it prints the report: the heap may grow to five
// times what is live (GOGC=400) instead of twice, which saves most of the
// collections on a repository of ordinary size, while a soft limit of
// 352 MiB makes it collect as often as needed on a large one. GOGC and
// GOMEMLIMIT in the environment take precedence.
func tuneCheckGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(checkMemoryLimit)
	}
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
