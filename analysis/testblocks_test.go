package analysis

import (
	"strings"
	"testing"
)

func TestClaimProblem(t *testing.T) {
	dir := []byte(`{"timing": {"flicker-calm": {"key": "a.b", "where": "w"}, "odd.key": {}}, "colors": [1, 2], "palette": {"night": []}}`)
	for _, tc := range []struct {
		dir  []byte
		path string
		want string // a fragment of the problem, "" when the path resolves
	}{
		{dir, "timing.flicker-calm", ""},
		{dir, "timing.odd.key", ""},
		{dir, "timing.flicker-clam", `did you mean "timing.flicker-calm"`},
		{dir, "timing.*", `has no "timing" entry "*"`},
		{dir, "colors.0", `declares no "colors" entries`},
		{dir, "contrast.x", `declares no "contrast" entries`},
		{dir, "palette.night", "not a path to a measured promise"},
		{dir, "timing", "not a path to a measured promise"},
		{nil, "timing.flicker-calm", "no direction.json"},
	} {
		got := claimProblem(tc.dir, tc.path)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("claimProblem(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
