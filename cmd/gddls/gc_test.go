package main

import "testing"

func TestServeGrowth(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 200},         // before the first collection
		{25 * mb, 200},   // a package of ordinary size
		{100 * mb, 200},  // three times live is the goal exactly
		{101 * mb, 190},  // just over: growth falls in steps of ten
		{120 * mb, 150},  // 300/120 = 2.5 times
		{150 * mb, 100},  // twice live is the goal
		{165 * mb, 100},  // ten times the package: never below the default
		{2000 * mb, 100}, // far over
	} {
		if got := serveGrowth(tc.live, 300*mb); got != tc.want {
			t.Errorf("serveGrowth(%d MB) = %d, want %d", tc.live/mb, got, tc.want)
		}
	}
}

func TestServeGCRespectsEnvironment(t *testing.T) {
	t.Setenv("GOGC", "150")
	if g := newServeGC(); g != nil {
		t.Error("newServeGC set a policy although GOGC is in the environment")
	}
}

func TestCheckPolicy(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live    uint64
		percent int
		limitMB int64
	}{
		{0, 400, 352},          // before the first collection
		{10 * mb, 400, 352},    // small: five times live
		{16 * mb, 400, 352},    // 64 MB of headroom is four times live
		{32 * mb, 200, 352},    // headroom of 64 MB: three times live
		{64 * mb, 100, 352},    // the headroom is the live heap
		{200 * mb, 100, 352},   // large: the default growth, under the floor
		{400 * mb, 100, 600},   // over the floor: the limit follows the live heap
		{1000 * mb, 100, 1500}, // far over
	} {
		percent, limit := checkPolicy(tc.live)
		if percent != tc.percent || limit != tc.limitMB*mb {
			t.Errorf("checkPolicy(%d MB) = %d, %d MB; want %d, %d MB", tc.live/mb, percent, limit/mb, tc.percent, tc.limitMB)
		}
	}
}
