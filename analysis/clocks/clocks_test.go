package clocks

import (
	"fmt"
	"github.com/gddls/gddls/analysis/analysistest"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// brief renders findings as "CODE@text at the span", sorted by place.
func brief(text string, fs []source.Finding) string {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Span.Start < fs[j].Span.Start })
	var out []string
	for _, f := range fs {
		at := "?"
		if f.Span.Start >= 0 && f.Span.End <= len(text) && f.Span.Start <= f.Span.End {
			at = text[f.Span.Start:f.Span.End]
		}
		s := f.Code + "@" + at
		if f.Severity == source.Warning {
			s += ":warning"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"valid", `{"world": {"unit": "seconds", "advances": ["runtime.scan", "runtime.a.b-c"], "modes": {"playing": "running", "in-mission": "paused"}},
		  "turn": {"unit": "turns", "modes": {"playing": "none", "in-mission": "steps"}}}`, ""},
		{"not an object", `[]`, "CLOCKS_SHAPE@[]"},
		{"empty", `{}`, "CLOCKS_SHAPE@{"},
		{"retired modes root", `{"modes": {"play": "running"}}`, `CLOCKS_SHAPE@"modes"`},
		{"retired clocks root", `{"clocks": {}, "w": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@"clocks"`},
		{"clock name", `{"a.b": {"unit": "s", "modes": {"p": "running"}}, "-x": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@"a.b" CLOCKS_SHAPE@"-x"`},
		{"clock not an object", `{"w": "seconds"}`, `CLOCKS_SHAPE@"seconds"`},
		{"unknown field", `{"w": {"unit": "s", "modes": {"p": "running"}, "rate": 2}}`, `CLOCKS_SHAPE@"rate"`},
		{"unit missing", `{"w": {"modes": {"p": "running"}}}`, `CLOCKS_UNIT@{`},
		{"unit not a string", `{"w": {"unit": 3, "modes": {"p": "running"}}}`, `CLOCKS_UNIT@3`},
		{"unit empty", `{"w": {"unit": "", "modes": {"p": "running"}}}`, `CLOCKS_UNIT@""`},
		{"unit white space", `{"w": {"unit": " \t", "modes": {"p": "running"}}}`, `CLOCKS_UNIT@" \t"`},
		{"advances not an array", `{"w": {"unit": "s", "advances": "runtime.x", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@"runtime.x"`},
		{"advances element", `{"w": {"unit": "s", "advances": ["runtime.", "hp", 3, "runtime.-x", "runtime.ok"], "modes": {"p": "running"}}}`,
			`CLOCKS_SHAPE@"runtime." CLOCKS_SHAPE@"hp" CLOCKS_SHAPE@3 CLOCKS_SHAPE@"runtime.-x"`},
		{"modes missing", `{"w": {"unit": "s"}, "v": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@{`},
		{"modes empty", `{"w": {"unit": "s", "modes": {}}, "v": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@{`},
		{"modes not an object", `{"w": {"unit": "s", "modes": ["p"]}}`, `CLOCKS_SHAPE@["p"]`},
		{"mode id", `{"w": {"unit": "s", "modes": {"In-Mission": "running", "p": "paused"}}, "v": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_SHAPE@"In-Mission"`},
		{"mode word", `{"w": {"unit": "s", "modes": {"p": "stopped", "q": 1, "r": "Running"}}}`, `CLOCKS_MODE_WORD@"stopped" CLOCKS_MODE_WORD@1 CLOCKS_MODE_WORD@"Running"`},
		{"every word", `{"w": {"unit": "s", "modes": {"a": "running", "b": "paused", "c": "steps", "d": "none"}}}`, ""},
		{"mode missing", `{"w": {"unit": "s", "modes": {"p": "running", "q": "paused"}}, "v": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_MODE_MISSING@"modes"`},
		{"two modes missing", `{"w": {"unit": "s", "modes": {"p": "running"}}, "v": {"unit": "s", "modes": {"q": "running", "r": "none"}}}`,
			`CLOCKS_MODE_MISSING@"modes" CLOCKS_MODE_MISSING@"modes" CLOCKS_MODE_MISSING@"modes"`},
		{"a wrong word still names its mode", `{"w": {"unit": "s", "modes": {"p": "go"}}, "v": {"unit": "s", "modes": {"p": "running"}}}`, `CLOCKS_MODE_WORD@"go"`},
		{"advances disjoint", `{"w": {"unit": "s", "advances": ["runtime.x", "runtime.y"], "modes": {"p": "running"}}, "v": {"unit": "s", "advances": ["runtime.y"], "modes": {"p": "running"}}}`,
			`CLOCKS_ADVANCES_DISJOINT@"runtime.y"`},
		{"one clock naming an address twice", `{"w": {"unit": "s", "advances": ["runtime.x", "runtime.x"], "modes": {"p": "running"}}}`, ""},
		{"a clock written twice counts with its last value", `{"w": {"unit": 3, "modes": {"p": "go"}}, "w": {"unit": "t", "modes": {"p": "running", "q": "x", "q": "paused"}}}`, ""},
		{"the last of two is checked", `{"w": {"unit": "s", "modes": {"p": "running"}}, "w": {"unit": "", "modes": {"p": "running"}}}`, `CLOCKS_UNIT@""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse("clocks.json", analysistest.ParseJSON(t, tc.json))
			if got := brief(tc.json, f.Findings); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseModel(t *testing.T) {
	text := `{"world": {"unit": "seconds", "advances": ["runtime.scan", "bad"], "modes": {"playing": "running", "Bad": "paused", "paused": "paused"}},
	  "turn": {"unit": "turns", "advances": ["runtime.turn"], "modes": {"playing": "none", "in-mission": "steps"}}, "x.y": {}}`
	f := Parse("clocks.json", analysistest.ParseJSON(t, text))
	var names []string
	for _, c := range f.Clocks {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "world,turn" {
		t.Errorf("clocks = %s", got)
	}
	var modes []string
	for _, m := range f.Modes {
		modes = append(modes, m.ID)
	}
	if got := strings.Join(modes, ","); got != "playing,paused,in-mission" {
		t.Errorf("modes = %s", got)
	}
	if c, a, ok := f.Advancer("runtime.turn"); !ok || c.Name != "turn" || text[a.Span.Start:a.Span.End] != `"runtime.turn"` {
		t.Errorf("Advancer(runtime.turn) = %v %v %v", c, a, ok)
	}
	if _, _, ok := f.Advancer("bad"); ok {
		t.Error("an advances entry that is not an address is no address of the model")
	}
	if w, ok := f.Clock("turn").Word("in-mission"); !ok || w.Word != "steps" {
		t.Errorf("turn in-mission = %v %v", w, ok)
	}
	if f.ModeFold("IN-Mission") == nil || f.ModeFold("mission") != nil {
		t.Error("ModeFold ignores case only")
	}
	twice := Parse("clocks.json", analysistest.ParseJSON(t, `{"w": {"unit": "a", "modes": {"p": "none"}}, "w": {"unit": "b", "modes": {"p": "steps", "p": "paused"}}}`))
	if len(twice.Clocks) != 1 || twice.Clocks[0].Unit != "b" || twice.Clocks[0].Modes[0].Word != "paused" {
		t.Errorf("a member written twice should count with its last value: %+v", twice.Clocks[0])
	}
	if Parse("x", nil) != nil {
		t.Error("Parse(nil) should be nil")
	}
}

func TestAddress(t *testing.T) {
	for s, want := range map[string]bool{
		"runtime.oxygen_seconds":              true,
		"runtime.case_facts.gallery_argument": true,
		"runtime.HP":                          true,
		"runtime.hp-value":                    true,
		"runtime.a1.2":                        true,
		"runtime.":                            false,
		"runtime":                             false,
		"runtime..hp":                         false,
		"runtime.-hp":                         false,
		"runtime.hp-":                         false,
		"runtime.hp.":                         false,
		"runtime.h p":                         false,
		"runtime.hp:max":                      false,
		"runtime.hé":                          false,
		"state.hp":                            false,
	} {
		if got := IsAddress(s); got != want {
			t.Errorf("IsAddress(%q) = %v, want %v", s, got, want)
		}
		if got := addressPattern.MatchString(s); got != want {
			t.Errorf("the JSON pattern matches %q: %v, want %v", s, got, want)
		}
		if got := AddressProblem(s) == ""; got != want {
			t.Errorf("AddressProblem(%q) = %q", s, AddressProblem(s))
		}
	}
}

func TestModeIDAndClockName(t *testing.T) {
	for s, want := range map[string]bool{"playing": true, "in-mission": true, "a1-2b": true, "": false, "In": false, "a--b": false, "-a": false, "a-": false, "a_b": false} {
		if IsModeID(s) != want {
			t.Errorf("IsModeID(%q) = %v", s, !want)
		}
	}
	for s, want := range map[string]bool{"world_clock": true, "Turn-2": true, "_x": true, "a.b": false, "-a": false, "a-": false, "": false} {
		if IsClockName(s) != want {
			t.Errorf("IsClockName(%q) = %v", s, !want)
		}
	}
}

func TestRetiredState(t *testing.T) {
	for _, tc := range []struct{ token, want string }{
		{"state:number:oxygen", "`runtime.oxygen`"},
		{"state:flag:door_open", "state the condition in a sentence"},
		{"state:", "state the condition"},
		{"state:number:", "state the condition"},
		{"state:<name>", ""},
		{"state:number:<x>", ""},
		{"states:x", ""},
		{"State:x", ""},
		{"runtime.x", ""},
	} {
		got := RetiredState(tc.token)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("RetiredState(%q) = %q, want %q", tc.token, got, tc.want)
		}
	}
}

func TestModeTags(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"one tag", "# Scan [IN-MISSION]\n", "[IN-MISSION]"},
		{"anywhere, several", "## [PAUSED] scanning [playing] now\n", "[PAUSED] [playing]"},
		{"setext", "Scan [PAUSED]\n---\n", "[PAUSED]"},
		{"digits only", "# Stage [2]\n", ""},
		{"digits and letters", "# Stage [2b]\n", "[2b]"},
		{"link text", "# See [PAUSED](#paused) and [x](y.md)\n", ""},
		{"image alt", "# ![LOGO](logo.png) [PAUSED]\n", "[PAUSED]"},
		{"reference link", "# See [PAUSED]\n\n[paused]: https://example.com\n", ""},
		{"inline code", "# The `[PAUSED]` form\n", ""},
		{"not a word", "# [two words] [] [a:b] [x.y]\n", ""},
		{"unclosed", "# [PAUSED\n", ""},
		{"underscore and letters", "# [ÉTÉ] [a_b]\n", "[ÉTÉ] [a_b]"},
		{"nested", "# [[PAUSED]]\n", "[PAUSED]"},
		{"paragraph", "# Title\n\nText [PAUSED].\n", ""},
		{"code block", "```\n# [PAUSED]\n```\n", ""},
		{"all", "# Always [ALL] [all]\n", "[ALL] [all]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := markdown.Parse([]byte(tc.md))
			var got []string
			for _, tag := range ModeTags(doc) {
				at := tc.md[tag.Span.Start:tag.Span.End]
				if at != "["+tag.Word+"]" || tc.md[tag.WordSpan.Start:tag.WordSpan.End] != tag.Word {
					t.Errorf("tag %q has span %q", tag.Word, at)
				}
				got = append(got, at)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("got %q, want %q", g, tc.want)
			}
		})
	}
}

func TestCheckTags(t *testing.T) {
	clocks := Parse("clocks.json", analysistest.ParseJSON(t, `{"w": {"unit": "s", "modes": {"playing": "running", "in-mission": "paused"}}}`))
	noModes := Parse("clocks.json", analysistest.ParseJSON(t, `{"w": {"unit": "s", "modes": {}}}`))
	md := "# Scan [IN-MISSION] [Playing] [paused] [ALL] [Playng]\n"
	tags := ModeTags(markdown.Parse([]byte(md)))
	if got, want := brief(md, CheckTags(clocks, tags, "c.md")), "MODE_TAG_DANGLING@[paused] MODE_TAG_DANGLING@[ALL] MODE_TAG_DANGLING@[Playng]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if fs := CheckTags(clocks, tags, "c.md"); !strings.Contains(fs[2].Message, "did you mean [PLAYING]") && !strings.Contains(fs[2].Message, "[playing]") {
		t.Errorf("no suggestion: %s", fs[2].Message)
	}
	if fs := CheckTags(nil, tags, "c.md"); fs != nil {
		t.Errorf("without clocks.json nothing is checked: %v", fs)
	}
	if fs := CheckTags(noModes, tags, "c.md"); fs != nil {
		t.Errorf("without a declared mode nothing is checked: %v", fs)
	}
}

func TestCheckUnchanged(t *testing.T) {
	clocksText := `{"world": {"unit": "seconds", "advances": ["runtime.scan"], "modes": {"playing": "running", "paused": "paused", "in-mission": "paused", "menu": "none"}},
	  "turn": {"unit": "turns", "advances": ["runtime.faction_turn"], "modes": {"playing": "none", "paused": "none", "in-mission": "steps", "menu": "none"}}}`
	clocks := Parse("clocks.json", analysistest.ParseJSON(t, clocksText))
	if len(clocks.Findings) > 0 {
		t.Fatalf("clocks fixture has findings: %v", clocks.Findings)
	}
	declared := func(addr string) bool {
		_, _, ok := clocks.Advancer(addr)
		return ok || addr == "runtime.in_prose"
	}
	for _, tc := range []struct {
		name, json string
		noClocks   bool
		want       string
	}{
		{"valid", `{"modes": ["paused", "in-mission"], "values": ["runtime.scan"]}`, false, ""},
		{"declared in prose, on no clock", `{"modes": ["playing"], "values": ["runtime.in_prose"]}`, false, ""},
		{"not an object", `["paused"]`, false, `UNCHANGED_SHAPE@["paused"]`},
		{"missing members", `{}`, false, `UNCHANGED_SHAPE@{ UNCHANGED_SHAPE@{`},
		{"unknown member", `{"modes": ["paused"], "values": ["runtime.scan"], "during": 1}`, false, `UNCHANGED_SHAPE@"during"`},
		{"empty arrays", `{"modes": [], "values": []}`, false, `UNCHANGED_SHAPE@[] UNCHANGED_SHAPE@[]`},
		{"wrong types", `{"modes": "paused", "values": [3, "scan", "runtime."]}`, false, `UNCHANGED_SHAPE@"paused" UNCHANGED_SHAPE@3 UNCHANGED_SHAPE@"scan" UNCHANGED_SHAPE@"runtime."`},
		{"mode not kebab", `{"modes": ["Paused", 1], "values": ["runtime.scan"]}`, false, `UNCHANGED_SHAPE@"Paused" UNCHANGED_SHAPE@1`},
		{"no clocks", `{"modes": ["paused"], "values": ["runtime.in_prose"]}`, true, `UNCHANGED_NO_CLOCKS@{`},
		{"no clocks, undeclared value", `{"modes": ["paused"], "values": ["runtime.other"]}`, true, `UNCHANGED_NO_CLOCKS@{ RUNTIME_UNDECLARED@"runtime.other"`},
		{"undeclared mode", `{"modes": ["paused", "sleeping"], "values": ["runtime.scan"]}`, false, `UNCHANGED_MODE@"sleeping"`},
		{"undeclared value", `{"modes": ["paused"], "values": ["runtime.scan", "runtime.hp"]}`, false, `RUNTIME_UNDECLARED@"runtime.hp"`},
		{"advances while running", `{"modes": ["playing"], "values": ["runtime.scan"]}`, false, `UNCHANGED_ADVANCES@"runtime.scan":warning`},
		{"advances while stepping", `{"modes": ["in-mission"], "values": ["runtime.faction_turn"]}`, false, `UNCHANGED_ADVANCES@"runtime.faction_turn":warning`},
		{"undefined while none", `{"modes": ["paused", "menu"], "values": ["runtime.scan", "runtime.faction_turn"]}`, false,
			`UNCHANGED_UNDEFINED@"runtime.scan" UNCHANGED_UNDEFINED@"runtime.faction_turn" UNCHANGED_UNDEFINED@"runtime.faction_turn"`},
		{"an undeclared mode is not read further", `{"modes": ["sleeping"], "values": ["runtime.scan"]}`, false, `UNCHANGED_MODE@"sleeping"`},
		{"repeats are reported once", `{"modes": ["playing", "playing"], "values": ["runtime.scan", "runtime.scan", "runtime.hp", "runtime.hp"]}`, false,
			`UNCHANGED_ADVANCES@"runtime.scan":warning RUNTIME_UNDECLARED@"runtime.hp"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := clocks
			if tc.noClocks {
				f = nil
			}
			fs := CheckUnchanged(f, analysistest.ParseJSON(t, tc.json), declared, "plan.md")
			if got := brief(tc.json, fs); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			for _, x := range fs {
				if x.File != "plan.md" {
					t.Errorf("%s reported in %s", x.Code, x.File)
				}
				for _, r := range x.Related {
					if r.File != "clocks.json" && r.File != "plan.md" {
						t.Errorf("%s related in %s", x.Code, r.File)
					}
				}
			}
		})
	}
	if fs := CheckUnchanged(clocks, nil, declared, "plan.md"); fs != nil {
		t.Errorf("no unchanged, findings %v", fs)
	}
	// Without a declared function, only advances declare.
	if got := brief(`x`, CheckUnchanged(clocks, analysistest.ParseJSON(t, `{"modes": ["paused"], "values": ["runtime.in_prose"]}`), nil, "plan.md")); !strings.HasPrefix(got, "RUNTIME_UNDECLARED") {
		t.Errorf("nil declared: %s", got)
	}
	fs := CheckUnchanged(clocks, analysistest.ParseJSON(t, `{"modes": ["playing"], "values": ["runtime.scan"]}`), declared, "plan.md")
	if len(fs) != 1 || len(fs[0].Related) != 2 || clocksText[fs[0].Related[0].Span.Start:fs[0].Related[0].Span.End] != `"playing"` {
		t.Errorf("UNCHANGED_ADVANCES should relate the clock's mode: %+v", fs)
	}
}

func ExampleCheckUnchanged() {
	v, _ := jsonsrc.Parse([]byte(`{"w": {"unit": "s", "advances": ["runtime.hp"], "modes": {"play": "running", "pause": "paused"}}}`))
	f := Parse("clocks.json", v)
	u, _ := jsonsrc.Parse([]byte(`{"modes": ["play"], "values": ["runtime.hp"]}`))
	for _, x := range CheckUnchanged(f, u, nil, "05-build-plan.md") {
		fmt.Println(x.Code, x.Severity)
	}
	// Output: UNCHANGED_ADVANCES warning
}

// BenchmarkParseManyMembers reads a minified clocks.json of about 100,000
// members (one clock with as many modes, as many clocks without modes) at
// two sizes: each member counts with its last value, and each clock's
// modes are looked up, in linear time (both were quadratic).
func BenchmarkParseManyMembers(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		var sb strings.Builder
		sb.WriteString(`{"big":{"unit":"s","advances":[],"modes":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `"m%d":"running"`, i)
		}
		sb.WriteString(`}}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&sb, `,"c%d":{"unit":"s","advances":[]}`, i)
		}
		sb.WriteByte('}')
		v := analysistest.ParseJSON(b, sb.String())
		b.Run(fmt.Sprint(2*n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f := Parse("clocks.json", v)
				if len(f.Clocks) != n+1 || len(f.Modes) != n {
					b.Fatalf("read %d clocks and %d modes", len(f.Clocks), len(f.Modes))
				}
			}
		})
	}
}
