package tuning

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

type findingCase struct {
	name string
	json string
	code string
	span string // text of the finding's span; "" for a near miss that must not raise code
	msg  string // a fragment of the message
}

var findingCases = []findingCase{
	// TUNING_JSON
	{"truncated", `{"values": {"a.b": 1}`, CodeJSON, `{`, "not valid JSON"},
	{"empty file", ``, CodeJSON, ``, "empty"},
	{"crlf", "{\r\n\"values\": {\"a.b\": 1}\r\n}\r\n", CodeJSON, "", ""},
	{"byte-order mark", "\ufeff{\r\n\"values\": {\"a.b\": 1}\r\n}\r\n", CodeJSON, "\ufeff", "Notepad"},

	// TUNING_SHAPE
	{"array top", `[1]`, CodeShape, `[1]`, "must be one object"},
	{"unknown field", `{"values": {}, "tunables": {}}`, CodeShape, `"tunables"`, "move its keys into values"},
	{"no values", `{"open": {}}`, CodeShape, `{`, "no values field"},
	{"values array", `{"values": []}`, CodeShape, `[]`, "values is an array"},
	{"rules string", `{"values": {}, "rules": "x"}`, CodeShape, `"x"`, "rules is a string"},
	{"all tables", `{"values": {}, "open": {}, "ranges": {}, "rules": {}}`, CodeShape, "", ""},

	// TUNING_KEY
	{"single segment", `{"values": {"dash": 1}}`, CodeKey, `"dash"`, "single segment"},
	{"empty segment", `{"values": {"a..b": 1}}`, CodeKey, `"a..b"`, "empty segment"},
	{"hyphen edge", `{"values": {"a.-b": 1}}`, CodeKey, `"a.-b"`, "hyphen"},
	{"digits only", `{"open": {"1.2": 1}}`, CodeKey, `"1.2"`, "only digits"},
	{"space", `{"values": {"a.b c": 1}, "ranges": {}}`, CodeKey, `"a.b c"`, `" "`},
	{"range key shape", `{"values": {"a.b": 1}, "ranges": {"ab": [0, 1]}}`, CodeKey, `"ab"`, "ranges key"},
	{"good keys", `{"values": {"level.2": 1, "lane.count": 2, "a-b.c_D": 3, "references.x": 4, "open.x": 5}}`, CodeKey, "", ""},

	// TUNING_KEY_RESERVED
	{"palette", `{"values": {"palette.ink_seconds": 1}}`, CodeKeyReserved, `"palette.ink_seconds"`, `revision 0.6 for its own citations; rename the key, for example to "feel.ink_seconds"`},
	{"collections", `{"open": {"collections.x": 1}}`, CodeKeyReserved, `"collections.x"`, `"collections", a segment the format reserved in revision 0.6`},
	{"rules", `{"values": {"rules.x": 1}}`, CodeKeyReserved, `"rules.x"`, "revision 0.7"},
	{"timing", `{"values": {"timing.x": 1}}`, CodeKeyReserved, `"timing.x"`, "revision 0.7"},
	{"build", `{"values": {"build.x": 1}}`, CodeKeyReserved, `"build.x"`, `revision 0.9 for its own citations; rename the key, for example to "feel.x"`},
	{"extension", `{"values": {"hero.json": 1}}`, CodeKeyReserved, `"hero.json"`, `segment "json"`},
	{"extension inside", `{"ranges": {"a.md.b": [0, 1]}, "values": {}}`, CodeKeyReserved, `"a.md.b"`, `"md"`},
	{"near reserved", `{"values": {"feel.ink_seconds": 1, "palettes.x": 2, "x.palette": 3, "a.jsonl": 4}}`, CodeKeyReserved, "", ""},

	// TUNING_NUMBER
	{"string value", `{"values": {"a.b": "3"}}`, CodeNumber, `"3"`, "without quotes"},
	{"null value", `{"values": {"a.b": null}}`, CodeNumber, `null`, "move the key to open"},
	{"bool value", `{"values": {"a.b": true}}`, CodeNumber, `true`, "a boolean"},
	{"huge value", `{"values": {"a.b": 1e400}}`, CodeNumber, `1e400`, "too large"},
	{"open string", `{"values": {}, "open": {"a.b": "x"}}`, CodeNumber, `"x"`, "or null"},
	{"numbers", `{"values": {"a.b": -0, "c.d": 1e300}, "open": {"e.f": null, "g.h": 2}}`, CodeNumber, "", ""},

	// TUNING_OPEN_OVERLAP
	{"overlap", `{"values": {"a.b": 1}, "open": {"a.b": 2}}`, CodeOpenOverlap, `"a.b"`, "both values and open"},
	{"no overlap", `{"values": {"a.b": 1}, "open": {"a.c": 2}}`, CodeOpenOverlap, "", ""},

	// TUNING_RANGE
	{"short", `{"values": {"a.b": 1}, "ranges": {"a.b": [1]}}`, CodeRange, `[1]`, "one element"},
	{"swapped", `{"values": {"a.b": 1}, "ranges": {"a.b": [3, 1]}}`, CodeRange, `[3, 1]`, "minimum 3 above maximum 1"},
	{"string bound", `{"values": {"a.b": 1}, "ranges": {"a.b": [1, "2"]}}`, CodeRange, `"2"`, "maximum"},
	{"object range", `{"values": {"a.b": 1}, "ranges": {"a.b": {"min": 1}}}`, CodeRange, `{"min": 1}`, "an object"},
	{"point range", `{"values": {"a.b": 1}, "ranges": {"a.b": [1, 1]}}`, CodeRange, "", ""},

	// TUNING_RANGE_KEY
	{"range nowhere", `{"values": {"a.b": 1}, "ranges": {"x.y": [0, 1]}}`, CodeRangeKey, `"x.y"`, "neither values nor open"},
	{"range on null open", `{"values": {}, "open": {"x.y": null}, "ranges": {"x.y": [0, 1]}}`, CodeRangeKey, "", ""},

	// TUNING_RANGE_VALUE
	{"value outside", `{"values": {"a.b": 5}, "ranges": {"a.b": [1, 3]}}`, CodeRangeValue, `5`, "outside its range [1, 3]"},
	{"guess outside", `{"values": {}, "open": {"a.b": 0}, "ranges": {"a.b": [1, 3]}}`, CodeRangeValue, `0`, "open guess"},
	{"inclusive", `{"values": {"a.b": 3}, "open": {"c.d": null}, "ranges": {"a.b": [1, 3], "c.d": [0, 1]}}`, CodeRangeValue, "", ""},

	// TUNING_RULE_INVALID
	{"rule name", `{"values": {"a.b": 1}, "rules": {"NoDash": "a.b > 0"}}`, CodeRuleInvalid, `"NoDash"`, "kebab-case"},
	{"rule number", `{"values": {"a.b": 1}, "rules": {"r": 3}}`, CodeRuleInvalid, `3`, "a number"},
	{"rule syntax", `{"values": {"a.b": 1}, "rules": {"r": "a.b >"}}`, CodeRuleInvalid, `>`, "ends too early"},
	{"rule empty", `{"values": {"a.b": 1}, "rules": {"r": ""}}`, CodeRuleInvalid, `""`, "empty"},
	{"two comparisons", `{"values": {"a.b": 1}, "rules": {"r": "0 < a.b < 2"}}`, CodeRuleInvalid, `<`, "exactly one comparison"},
	{"unknown key", `{"values": {"a.b": 1}, "rules": {"r": "a.b >= x.y"}}`, CodeRuleInvalid, `x.y`, "not a key of values or open"},
	{"bare word", `{"values": {"a.b": 1}, "rules": {"r": "a.b >= speed"}}`, CodeRuleInvalid, `speed`, "two or more segments"},
	{"hyphen minus", `{"values": {"a.b": 1, "c.d": 2}, "rules": {"r": "a.b-c.d < 0"}}`, CodeRuleInvalid, `a.b-c.d`, "a.b - c.d"},
	{"unknown function", `{"values": {"a.b": 1}, "rules": {"r": "abs(a.b) > 0"}}`, CodeRuleInvalid, `abs`, "unknown function"},
	{"floor arity", `{"values": {"a.b": 1}, "rules": {"r": "floor(a.b, 2) > 0"}}`, CodeRuleInvalid, `floor(a.b, 2)`, "exactly one"},
	{"division by zero", `{"values": {"a.b": 1, "z.z": 0}, "rules": {"r": "a.b / z.z > 0"}}`, CodeRuleInvalid, `z.z`, "division by zero"},
	{"escaped line", `{"values": {"a.b": 1}, "rules": {"r": "a.b \u003e= x.y"}}`, CodeRuleInvalid, `"a.b \u003e= x.y"`, "x.y"},
	{"literal zero beside a guess", `{"values": {"a.b": 1}, "open": {"o.x": 2}, "rules": {"r": "a.b / 0 > o.x"}}`, CodeRuleInvalid, `0`, "cannot be computed"},
	{"valid rules", `{"values": {"a.b": 1, "c-d.e": 2}, "open": {"o.n": null}, "rules": {"r-1": "a.b >= 0", "r-2": "collections.enemies.swarmer.hull == 1", "r-3": "o.n / 0 > 1", "r-4": "min(a.b, c-d.e) - 1 == 0"}}`, CodeRuleInvalid, "", ""},

	// TUNING_RULE_FAILED
	{"false rule", `{"values": {"a.b": 1}, "rules": {"r": "a.b > 5"}}`, CodeRuleFailed, `"a.b > 5"`, "rule \"r\" does not hold\n  a.b > 5\n  with a.b = 1: 1 > 5 is false"},
	{"exact comparison", `{"values": {"x.one": 0.1, "x.two": 0.2}, "rules": {"sum": "x.one + x.two == 0.3"}}`, CodeRuleFailed, `"x.one + x.two == 0.3"`, "0.30000000000000004 == 0.3 is false"},
	{"true rule", `{"values": {"x.one": 0.1, "x.two": 0.2}, "rules": {"sum": "x.one + x.two != 0.3", "div": "8 / 2 / 2 == 2"}}`, CodeRuleFailed, "", ""},
	{"guess is no decision", `{"values": {}, "open": {"o.x": 12}, "rules": {"r": "o.x < 10"}}`, CodeRuleFailed, "", ""},

	// TUNING_RULE_GUESS_FAILED
	{"guess breaks", `{"values": {"a.b": 1}, "open": {"o.x": 12}, "rules": {"r": "o.x * a.b < 10"}}`, CodeRuleGuessFailed, `"o.x * a.b < 10"`, "o.x = 12 (guess), a.b = 1: 12 < 10 is false"},
	{"guess holds", `{"values": {"a.b": 1}, "open": {"o.x": 12}, "rules": {"r": "o.x * a.b > 10"}}`, CodeRuleGuessFailed, "", ""},
	{"null not evaluated", `{"values": {"a.b": 1}, "open": {"o.x": 12, "o.n": null}, "rules": {"r": "o.x + o.n < 10"}}`, CodeRuleGuessFailed, "", ""},

	// TUNING_RULE_GUESS_UNCOMPUTABLE
	{"guessed divisor", `{"values": {"a.b": 1}, "open": {"o.z": 0}, "rules": {"r": "a.b / o.z > 1"}}`, CodeRuleGuessUncompute, `o.z`, "guesses"},
	{"decided divisor", `{"values": {"a.b": 1}, "open": {"o.x": 2}, "rules": {"r": "a.b / 0 > o.x"}}`, CodeRuleGuessUncompute, "", ""},
}

func TestFindings(t *testing.T) {
	for _, tt := range findingCases {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("tuning.json", []byte(tt.json))
			var got []source.Finding
			for _, fd := range f.Findings {
				if fd.Span.Start < 0 || fd.Span.End > len(tt.json) || fd.Span.Start > fd.Span.End {
					t.Fatalf("finding %v has a span outside the file", fd)
				}
				if fd.File != "tuning.json" {
					t.Errorf("finding %v names file %q", fd, fd.File)
				}
				if fd.Code == tt.code {
					got = append(got, fd)
				}
			}
			if tt.span == "" && tt.msg == "" {
				if len(got) > 0 {
					t.Errorf("near miss raised %v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s, got %v (all: %v)", tt.code, got, f.Findings)
			}
			fd := got[0]
			if span := tt.json[fd.Span.Start:fd.Span.End]; span != tt.span {
				t.Errorf("span %q, want %q (%s)", span, tt.span, fd.Message)
			}
			if !strings.Contains(fd.Message, tt.msg) {
				t.Errorf("message %q lacks %q", fd.Message, tt.msg)
			}
			wantSev := source.Error
			if tt.code == CodeRuleGuessFailed || tt.code == CodeRuleGuessUncompute {
				wantSev = source.Warning
			}
			if fd.Severity != wantSev {
				t.Errorf("severity %v, want %v", fd.Severity, wantSev)
			}
		})
	}
}

func TestOverlapRelated(t *testing.T) {
	src := `{"values": {"a.b": 1}, "open": {"a.b": 2}}`
	f := Parse("t.json", []byte(src))
	if len(f.Findings) != 1 || len(f.Findings[0].Related) != 1 {
		t.Fatalf("findings %v", f.Findings)
	}
	rel := f.Findings[0].Related[0]
	if rel.Span.Start != strings.Index(src, `"a.b"`) || src[rel.Span.Start:rel.Span.End] != `"a.b"` {
		t.Errorf("related span %v is not the values key", rel.Span)
	}
	if f.Findings[0].Span.Start == rel.Span.Start {
		t.Errorf("finding should sit on the open key")
	}
}

func TestModel(t *testing.T) {
	src := `{
  "values": {"dash.duration_seconds": 0.15, "dash.cooldown_seconds": 0.6, "tile.size_units": 16},
  "open": {"dash.speed_tiles_per_second": 12, "dash.recovery_seconds": null},
  "ranges": {"dash.speed_tiles_per_second": [8, 20], "dash.duration_seconds": [0.1, 0.3]},
  "rules": {
    "no-dash-while-dashing": "dash.cooldown_seconds >= dash.duration_seconds",
    "dash-covers-a-tile": "dash.speed_tiles_per_second * dash.duration_seconds >= 1"
  }
}`
	f := Parse("tuning.json", []byte(src))
	if len(f.Findings) != 0 || !f.Readable {
		t.Fatalf("findings %v readable %v", f.Findings, f.Readable)
	}
	var keys []string
	for _, e := range f.Entries {
		keys = append(keys, e.Key)
	}
	want := "dash.duration_seconds dash.cooldown_seconds tile.size_units dash.speed_tiles_per_second dash.recovery_seconds"
	if strings.Join(keys, " ") != want {
		t.Errorf("entries %v", keys)
	}
	kinds := map[string]Kind{"dash.duration_seconds": Ranged, "tile.size_units": Decided, "dash.speed_tiles_per_second": Open, "dash.recovery_seconds": Open}
	for k, want := range kinds {
		e, ok := f.Lookup(k)
		if !ok || e.Kind() != want {
			t.Errorf("Lookup(%q) = %v %v, want kind %v", k, e, ok, want)
		}
	}
	if e, _ := f.Lookup("dash.recovery_seconds"); e.HasNumber {
		t.Errorf("null guess has a number")
	}
	if e, _ := f.Lookup("dash.speed_tiles_per_second"); !e.HasNumber || e.Number != 12 || e.Range == nil || *e.Range != [2]float64{8, 20} {
		t.Errorf("open guess %+v", e)
	}
	if _, ok := f.Lookup("nope.x"); ok {
		t.Errorf("Lookup of a missing key succeeded")
	}
	r, ok := f.Rule("dash-covers-a-tile")
	if !ok || r.Parsed == nil {
		t.Fatalf("Rule: %v %v", r, ok)
	}
	names := r.Parsed.Names()
	if sp := r.SpanOf(names[0].Start, names[0].End); src[sp.Start:sp.End] != "dash.speed_tiles_per_second" {
		t.Errorf("SpanOf maps to %q", src[sp.Start:sp.End])
	}
	if sp := r.NameSpan; src[sp.Start:sp.End] != `"dash-covers-a-tile"` {
		t.Errorf("NameSpan %q", src[sp.Start:sp.End])
	}
	if rg, ok := f.Range("dash.duration_seconds"); !ok || !rg.Valid || rg.Min != 0.1 || rg.Max != 0.3 {
		t.Errorf("Range = %+v", rg)
	}
	if v, ok := f.Decided("dash.speed_tiles_per_second"); ok {
		t.Errorf("an open key is decided: %v", v)
	}
}

func TestUnreadable(t *testing.T) {
	src := `{"values": {"a.b": "x", "c.d": 2}, "rules": {"r": "a.b >`
	f := Parse("tuning.json", []byte(src))
	if f.Readable {
		t.Errorf("truncated file is readable")
	}
	if len(f.Findings) != 1 || f.Findings[0].Code != CodeJSON {
		t.Errorf("want only TUNING_JSON, got %v", f.Findings)
	}
	if _, ok := f.Lookup("c.d"); !ok {
		t.Errorf("partial tree lost c.d")
	}
}

func TestCheckKey(t *testing.T) {
	tests := []struct {
		key      string
		problem  bool
		reserved string
	}{
		{"hazard.interval_seconds", false, ""},
		{"level.2", false, ""},
		{"1.2", true, ""},
		{"dash", true, ""},
		{"palette.ink", false, "palette"},
		{"x.md", false, "md"},
		{"must_keep.x.json", false, "must_keep"},
		{"a-.b", true, ""},
	}
	for _, tt := range tests {
		problem, reserved, ok := CheckKey(tt.key)
		if (problem != "") != tt.problem || reserved != tt.reserved || ok != (!tt.problem && tt.reserved == "") {
			t.Errorf("CheckKey(%q) = %q, %q, %v", tt.key, problem, reserved, ok)
		}
	}
	if len(ReservedFirstSegments()) != 17 {
		t.Errorf("reserved first segments: %v", ReservedFirstSegments())
	}
	for _, s := range ReservedFirstSegments() {
		if !IsReservedFirstSegment(s) {
			t.Errorf("%q not reserved", s)
		}
	}
	if !IsReservedExtension("json") || IsReservedExtension("open") {
		t.Errorf("IsReservedExtension")
	}
	for seg, want := range map[string]string{"palette": "0.6", "collections": "0.6", "values": "0.7", "contrast": "0.7", "pillars": "0.9", "json": "0.9"} {
		if got := ReservedRevision(seg); got != want {
			t.Errorf("ReservedRevision(%q) = %q, want %q", seg, got, want)
		}
	}
	for s, want := range map[string]bool{"a-b": true, "A_1": true, "-a": false, "a-": false, "a b": false, "": false} {
		if ValidSegment(s) != want {
			t.Errorf("ValidSegment(%q) != %v", s, want)
		}
	}
}

// FuzzParse checks that no input panics and every span lies in the file.
func FuzzParse(f *testing.F) {
	for _, c := range findingCases {
		f.Add(c.json)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file := Parse("tuning.json", []byte(src))
		for _, fd := range file.Findings {
			if fd.Span.Start < 0 || fd.Span.End > len(src) || fd.Span.Start > fd.Span.End {
				t.Fatalf("span %v outside %q", fd.Span, src)
			}
		}
	})
}

// BenchmarkParseManyKeys reads a minified tuning.json of 100,000 keys (as
// many in values as in open, and a range for each) at two sizes: looking
// each open and ranges key up in the other tables is linear (it was
// quadratic).
func BenchmarkParseManyKeys(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		var values, open, ranges strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				values.WriteByte(',')
				open.WriteByte(',')
				ranges.WriteByte(',')
			}
			fmt.Fprintf(&values, `"v.k%d":1`, i)
			fmt.Fprintf(&open, `"o.k%d":null`, i)
			fmt.Fprintf(&ranges, `"v.k%d":[0,2]`, i)
		}
		data := []byte(`{"values":{` + values.String() + `},"open":{` + open.String() + `},"ranges":{` + ranges.String() + `}}`)
		b.Run(fmt.Sprint(2*n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f := Parse("tuning.json", data)
				if len(f.Entries) != 2*n || len(f.Findings) != 0 {
					b.Fatalf("read %d entries, %d findings", len(f.Entries), len(f.Findings))
				}
			}
		})
	}
}
