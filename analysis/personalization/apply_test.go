package personalization

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// TestApply runs the ordered answer procedure of §5 with a build's
// answers: the supplied answer, else the default; an answer that does not
// fit assigns nothing; a later assignment comes later.
func TestApply(t *testing.T) {
	f := read(t, `{"questions": [`+choice+`,
		{"id": "n", "prompt": "N?", "type": "number", "default": 4, "sets": "a.b"},
		{"id": "free", "prompt": "F?", "type": "number", "default": 9},
		{"id": "name", "prompt": "T?", "type": "text", "default": "x"}]}`)
	for _, tc := range []struct {
		name    string
		answers string // a JSON object of answers; "" for none
		want    string
	}{
		{"defaults", "", "a.b=2 o.x=3 a.b=4"},
		{"supplied choice", `{"pace": "slow"}`, "a.b=1 a.b=4"},
		{"supplied number", `{"n": 7.5}`, "a.b=2 o.x=3 a.b=7.5"},
		{"unknown option", `{"pace": "warp"}`, "a.b=4"},
		{"wrong types", `{"pace": 3, "n": "7"}`, ""},
		{"a number question without sets", `{"free": 1}`, "a.b=2 o.x=3 a.b=4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var answers *jsonsrc.Value
			if tc.answers != "" {
				answers, _ = jsonsrc.Parse([]byte(tc.answers))
			}
			var got []string
			for _, a := range f.Apply(func(q *Question) *jsonsrc.Value { return answers.Get(q.ID) }) {
				got = append(got, fmt.Sprintf("%s=%g", a.Key, a.Value))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("Apply = %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
	var defaults []string
	for _, a := range f.Defaults() {
		defaults = append(defaults, fmt.Sprintf("%s=%g", a.Key, a.Value))
	}
	if strings.Join(defaults, " ") != "a.b=2 o.x=3 a.b=4" {
		t.Errorf("Defaults = %v", defaults)
	}
}
