package main

import (
	"runtime/debug"
	"testing"
)

func TestServeGrowth(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 200},        // before the first collection
		{10 * mb, 200},  // small: at most three times live
		{16 * mb, 200},  // the headroom is twice live
		{20 * mb, 160},  // the headroom of 32 MB over live
		{32 * mb, 100},  // the headroom is the live heap
		{38 * mb, 80},   // the real-content package: steps of ten
		{64 * mb, 50},   // the headroom is half the live heap
		{330 * mb, 50},  // ten times that package: half as much again
		{2000 * mb, 50}, // far over
	} {
		if got := serveGrowth(tc.live, 32*mb); got != tc.want {
			t.Errorf("serveGrowth(%d MB) = %d, want %d", tc.live/mb, got, tc.want)
		}
	}
}

func TestStartGCRespectsEnvironment(t *testing.T) {
	// The policies return the process's own settings, so that it runs on
	// as it was.
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	memLimit := debug.SetMemoryLimit(-1)
	for _, tc := range []struct {
		gogc, limit         string
		wantGrowth, wantLim bool
	}{
		{"150", "", false, true},
		{"", "1GiB", true, false},
		{"150", "1GiB", false, false},
	} {
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.limit)
		growth, limit := false, false
		stop := startGC(func(uint64) int { growth = true; return percent },
			func(uint64) int64 { limit = true; return memLimit })
		stop()
		if growth != tc.wantGrowth || limit != tc.wantLim {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: growth set %v, limit set %v; want %v, %v",
				tc.gogc, tc.limit, growth, limit, tc.wantGrowth, tc.wantLim)
		}
	}
}

func TestCheckPolicy(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live    uint64
		percent int
		limitMB int64
	}{
		{0, 400, 352},         // before the first collection
		{10 * mb, 400, 352},   // small: five times live
		{16 * mb, 400, 352},   // 64 MB of headroom is four times live
		{32 * mb, 200, 352},   // headroom of 64 MB: three times live
		{64 * mb, 100, 352},   // the headroom is the live heap
		{100 * mb, 64, 352},   // 64 MB over live
		{128 * mb, 50, 352},   // the headroom is half the live heap
		{200 * mb, 50, 352},   // large: half as much again, under the floor
		{400 * mb, 50, 600},   // over the floor: the limit follows the live heap
		{1000 * mb, 50, 1500}, // far over
	} {
		percent, limit := checkPolicy(tc.live)
		if percent != tc.percent || limit != tc.limitMB*mb {
			t.Errorf("checkPolicy(%d MB) = %d, %d MB; want %d, %d MB", tc.live/mb, percent, limit/mb, tc.percent, tc.limitMB)
		}
	}
}
