package markdown

import "testing"

func TestRulesetShape(t *testing.T) {
	for _, tc := range []struct {
		line    string
		at      string // the text the finding covers, "" for none
		initial bool   // MarksInitial
	}{
		{"> RULESET: act-two", "", false},
		{"> RULESET: act-one (initial)", "", true},
		{">   RULESET:   act-one    (initial)  ", "", true},
		{"> > RULESET: a1-b2", "", false},
		{"> RULESET:", "RULESET:", false},
		{"> RULESET:    ", "RULESET:", false},
		{"> RULESET: all", "all", false},
		{"> RULESET: all (initial)", "all", true},
		{"> RULESET: Act-Two", "Act-Two", false},
		{"> RULESET: act_two", "act_two", false},
		{"> RULESET: act--two", "act--two", false},
		{"> RULESET: act-two(initial)", "act-two(initial)", false},
		{"> RULESET: act-two (Initial)", "(Initial)", true},
		{"> RULESET: act-two initial", "initial", false},
		{"> RULESET: act-two (initial) guards patrol", "(initial) guards patrol", false},
		{"> RULESET: act-two Guards patrol.", "Guards patrol.", false},
		{"> DELEGATED: all (initial) whatever", "", false},
	} {
		t.Run(tc.line, func(t *testing.T) {
			d := Parse([]byte(tc.line + "\n"))
			got := ""
			for _, f := range d.Findings {
				if f.Code == "RULESET_TAG_SHAPE" {
					got = at(d, f.Span)
				}
			}
			if got != tc.at {
				t.Errorf("RULESET_TAG_SHAPE on %q, want %q (%v)", got, tc.at, d.Findings)
			}
			if len(d.Tags) != 1 || d.Tags[0].MarksInitial() != tc.initial {
				t.Errorf("tags %+v, want MarksInitial %v", d.Tags, tc.initial)
			}
		})
	}
}
