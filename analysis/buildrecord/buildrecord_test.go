package buildrecord

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

const valid = `{
  "opengdd": "0.9",
  "spec": { "id": "lantern-maze", "version": "1.2.0" },
  "designer": { "name": "Examples" },
  "builder": { "name": "Studio", "role": "solo" },
  "personalization": { "answers": { "difficulty": "gentle" } },
  "resolved_tuning": { "values": { "lantern.fuel_seconds": 45 } },
  "evidence": {
    "acceptance": {
      "passed": 3, "total": 4, "sampled": ["AT-3"],
      "not_passed": { "AT-4": { "result": "not-run", "reason": "needs a person" } }
    },
    "result_hash": "a3f1c9e07b2d4f68a1c3e5b7d9f02468ace13579bdf02468ace13579bdf02468",
    "payload": { "covers": "AT-1 to AT-3", "file": "evidence/payload.json" },
    "runner": { "id": "r", "version": "1" },
    "checkpoints": [1, 2]
  }
}`

func TestParse(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(valid, old) {
			t.Fatalf("the valid record lacks %q", old)
		}
		return strings.Replace(valid, old, new, 1)
	}
	for _, tc := range []struct {
		name, src string
		want      []string
		at        string // the text the first finding starts at
	}{
		{"valid", valid, nil, ""},
		{"syntax", `{"opengdd": }`, []string{CodeJSON}, "}"},
		{"empty", ``, []string{CodeJSON}, ""},
		{"not an object", `[]`, []string{CodeSchema}, "[]"},
		{"unknown top member", edit(`"opengdd": "0.9",`, `"opengdd": "0.9", "extra": 1,`), []string{CodeSchema}, `"extra"`},
		{"wrong version", edit(`"0.9"`, `"0.8"`), []string{CodeSchema}, `"0.8"`},
		{"spec id", edit(`"lantern-maze"`, `"Lantern"`), []string{CodeSchema}, `"Lantern"`},
		{"spec version", edit(`"1.2.0"`, `"1.2"`), []string{CodeSchema}, `"1.2"`},
		{"empty name", edit(`"Studio"`, `""`), []string{CodeSchema}, `""`},
		{"builder closed", edit(`"role": "solo"`, `"role": "solo", "age": 3`), []string{CodeSchema}, `"age"`},
		{"answer type", edit(`"gentle"`, `true`), []string{CodeSchema}, `true`},
		{"value type", edit(`45`, `"45"`), []string{CodeSchema}, `"45"`},
		{"passed text", edit(`"passed": 3`, `"passed": "3"`), []string{CodeAcceptanceShape, CodeSchema}, `"3"`},
		{"total null", edit(`"total": 4`, `"total": null`), []string{CodeAcceptanceShape, CodeSchema}, `null`},
		{"passed fraction", edit(`"passed": 3`, `"passed": 2.5`), []string{CodeSchema}, `2.5`},
		{"passed negative", edit(`"passed": 3, "total": 4`, `"passed": -1, "total": 0`), []string{CodeSchema}, `-1`},
		{"accounting", edit(`"total": 4`, `"total": 5`), []string{CodeAccounting}, `5`},
		{"accounting without not_passed", edit(`"passed": 3`, `"passed": 4`), []string{CodeAccounting}, `4`},
		{"sampled repeated", edit(`["AT-3"]`, `["AT-3", "AT-3"]`), []string{CodeSchema}, `"AT-3"`},
		{"sampled empty name", edit(`["AT-3"]`, `[""]`), []string{CodeSchema}, `""]`},
		{"result enum", edit(`"not-run"`, `"skipped"`), []string{CodeSchema}, `"skipped"`},
		{"reason empty", edit(`"needs a person"`, `""`), []string{CodeSchema}, `""`},
		{"not_passed empty key", edit(`"AT-4": {`, `"": {`), []string{CodeSchema}, `""`},
		{"hash", edit(`"a3f1`, `"A3f1`), []string{CodeSchema}, `"A3f1`},
		{"payload absolute", edit(`"evidence/payload.json"`, `"/tmp/p.json"`), []string{CodePayloadPath, CodeSchema}, `"/tmp`},
		{"payload scheme", edit(`"evidence/payload.json"`, `"https://x.example/p"`), []string{CodePayloadPath, CodeSchema}, `"https`},
		{"payload drive", edit(`"evidence/payload.json"`, `"C:/p.json"`), []string{CodePayloadPath, CodeSchema}, `"C:`},
		{"payload backslash", edit(`"evidence/payload.json"`, `"evidence\\p.json"`), []string{CodePayloadPath, CodeSchema}, `"evidence\\`},
		{"payload climbs", edit(`"evidence/payload.json"`, `"evidence/../../p.json"`), []string{CodePayloadPath}, `"evidence/..`},
		{"payload inside after climbing", edit(`"evidence/payload.json"`, `"evidence/../p.json"`), nil, ""},
		{"payload empty", edit(`"evidence/payload.json"`, `""`), []string{CodeSchema}, `""`},
		{"ran without hash", edit(`"result_hash": "a3f1c9e07b2d4f68a1c3e5b7d9f02468ace13579bdf02468ace13579bdf02468",`, ``), []string{CodeSchema}, `{
    "acceptance"`},
		{"nothing ran, no hash or payload", `{"opengdd":"0.9","spec":{"id":"a","version":"1.0.0"},"designer":{"name":"d"},"builder":{"name":"b"},
		  "personalization":{"answers":{}},"resolved_tuning":{"values":{}},
		  "evidence":{"acceptance":{"passed":0,"total":1,"not_passed":{"AT-1":{"result":"not-run","reason":"r"}}}}}`, nil, ""},
		{"partial ran, no hash", `{"opengdd":"0.9","spec":{"id":"a","version":"1.0.0"},"designer":{"name":"d"},"builder":{"name":"b"},
		  "personalization":{"answers":{}},"resolved_tuning":{"values":{}},
		  "evidence":{"acceptance":{"passed":0,"total":1,"not_passed":{"AT-1":{"result":"partial","reason":"r"}}}}}`, []string{CodeSchema, CodeSchema}, `{"acceptance"`},
		{"malformed result, no hash", `{"opengdd":"0.9","spec":{"id":"a","version":"1.0.0"},"designer":{"name":"d"},"builder":{"name":"b"},
		  "personalization":{"answers":{}},"resolved_tuning":{"values":{}},
		  "evidence":{"acceptance":{"passed":0,"total":1,"not_passed":{"AT-1":{"result":"skipped","reason":"r"}}}}}`, []string{CodeSchema, CodeSchema, CodeSchema}, `{"acceptance"`},
		{"entry not an object, no hash", `{"opengdd":"0.9","spec":{"id":"a","version":"1.0.0"},"designer":{"name":"d"},"builder":{"name":"b"},
		  "personalization":{"answers":{}},"resolved_tuning":{"values":{}},
		  "evidence":{"acceptance":{"passed":0,"total":1,"not_passed":{"AT-1":"not-run"}}}}`, []string{CodeSchema, CodeSchema, CodeSchema}, `{"acceptance"`},
		{"fractional passed, no hash", `{"opengdd":"0.9","spec":{"id":"a","version":"1.0.0"},"designer":{"name":"d"},"builder":{"name":"b"},
		  "personalization":{"answers":{}},"resolved_tuning":{"values":{}},
		  "evidence":{"acceptance":{"passed":0.5,"total":1,"not_passed":{}}}}`, []string{CodeSchema}, `0.5`},
		{"retired top member", edit(`"opengdd": "0.9",`, `"opengdd": "0.9", "renderer": "webgl",`), []string{CodeSchema}, `"renderer"`},
		{"retired evidence member", edit(`"checkpoints"`, `"algorithm"`), []string{CodeSchema}, `"algorithm"`},
		{"retired tuning", edit(`"values": { "lantern.fuel_seconds": 45 }`, `"tunables": {}`), []string{CodeSchema}, `"tunables"`},
		{"runner closed", edit(`"version": "1" }`, `"version": "1", "os": "x" }`), []string{CodeSchema}, `"os"`},
		{"contracts entry", edit(`"checkpoints": [1, 2]`, `"contracts": [{"adoption": "a", "pack": "sha256:00"}]`), []string{CodeSchema}, `"sha256:00"`},
		{"commerce", edit(`"opengdd": "0.9",`, `"opengdd": "0.9", "commerce": {"license": "opengdd-share-v0", "split": {"designer": 50, "builder": 50}, "x": 1},`), []string{CodeSchema}, `"x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse(FileName, []byte(tc.src))
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Code)
				if f.Span.Start < 0 || f.Span.End > len(tc.src) || f.Span.Start > f.Span.End {
					t.Errorf("finding %v outside the text", f)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("codes %v, want %v\n%v", got, tc.want, r.Findings)
			}
			if tc.at != "" && !strings.HasPrefix(tc.src[r.Findings[0].Span.Start:], tc.at) {
				t.Errorf("first finding at %q, want at %q (%s)", tc.src[r.Findings[0].Span.Start:min(len(tc.src), r.Findings[0].Span.Start+20)], tc.at, r.Findings[0].Message)
			}
		})
	}
}

func TestDerive(t *testing.T) {
	for _, tc := range []struct {
		errors           int
		checked          bool
		tests, notPassed int
		want             Outcome
		exit             int
	}{
		{1, false, 0, 0, Invalid, 1},
		{1, true, 3, 0, Invalid, 1},
		{0, false, 3, 0, NotChecked, 3},
		{0, true, 0, 0, NotVerified, 3},
		{0, true, 3, 1, Incomplete, 3},
		{0, true, 3, 0, Conforming, 0},
	} {
		got := Derive(tc.errors, tc.checked, tc.tests, tc.notPassed)
		if got != tc.want || got.ExitCode() != tc.exit {
			t.Errorf("Derive(%d, %v, %d, %d) = %s (exit %d), want %s (exit %d)", tc.errors, tc.checked, tc.tests, tc.notPassed, got, got.ExitCode(), tc.want, tc.exit)
		}
	}
}

func TestEqual(t *testing.T) {
	// Covered through the commerce check of the analysis package; here the
	// reading of member order and repeats.
	a := Parse("a", []byte(`{"x": {"a": 1, "b": [1, "2"]}}`)).Root
	b := Parse("b", []byte(`{"x": {"b": [1, "2"], "a": 1.0}}`)).Root
	c := Parse("c", []byte(`{"x": {"b": [1, "2"], "a": 2, "a": 1}}`)).Root
	d := Parse("d", []byte(`{"x": {"b": ["2", 1], "a": 1}}`)).Root
	if !Equal(a, b) || !Equal(a, c) || Equal(a, d) {
		t.Errorf("Equal: a=b %v, a=c %v, a=d %v; want true, true, false", Equal(a, b), Equal(a, c), Equal(a, d))
	}
}

// TestLookups: Answer, Value and NotPassedEntry find a key by name, with
// the value it was written with last, and nothing for an absent key.
func TestLookups(t *testing.T) {
	r := Parse(FileName, []byte(`{
  "personalization": { "answers": { "a": 1, "b": "x", "a": 2 } },
  "resolved_tuning": { "values": { "k": 1, "k": 3, "m": 4 } },
  "evidence": { "acceptance": { "passed": 0, "total": 2,
    "not_passed": { "AT-1": { "result": "failed", "reason": "r" }, "AT-2": { "result": "partial", "reason": "r" }, "AT-1": { "result": "not-run", "reason": "r" } } } }
}`))
	for _, tc := range []struct {
		what, got, want string
	}{
		{"answer a", raw(r.Answer("a")), "2"},
		{"answer b", raw(r.Answer("b")), `"x"`},
		{"answer c", raw(r.Answer("c")), "absent"},
		{"value k", raw(r.Value("k")), "3"},
		{"value m", raw(r.Value("m")), "4"},
		{"value a", raw(r.Value("a")), "absent"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if np := r.NotPassedEntry("AT-1"); np == nil || np.Result != "not-run" {
		t.Errorf("NotPassedEntry(AT-1) = %+v, want the last entry, not-run", np)
	}
	if np := r.NotPassedEntry("AT-2"); np == nil || np.Result != "partial" {
		t.Errorf("NotPassedEntry(AT-2) = %+v, want partial", np)
	}
	if np := r.NotPassedEntry("AT-3"); np != nil {
		t.Errorf("NotPassedEntry(AT-3) = %+v, want nil", np)
	}
}

func raw(e *Entry) string {
	if e == nil {
		return "absent"
	}
	if e.Value.Kind() == jsonsrc.String {
		return strconv.Quote(e.Value.Str())
	}
	return e.Value.Raw()
}

// BenchmarkParseLarge parses a record with many answers, values, sampled
// names and not_passed entries and looks each of them up, as the package
// checks do.
func BenchmarkParseLarge(b *testing.B) {
	var answers, values, sampled, notPassed []string
	for i := 0; i < 20000; i++ {
		answers = append(answers, fmt.Sprintf(`"q%d": %d`, i, i))
		values = append(values, fmt.Sprintf(`"k%d": %d`, i, i))
		sampled = append(sampled, fmt.Sprintf(`"AT-%d"`, i+1))
		notPassed = append(notPassed, fmt.Sprintf(`"AT-%d": {"result": "failed", "reason": "r"}`, i+1))
	}
	src := []byte(fmt.Sprintf(`{"personalization": {"answers": {%s}}, "resolved_tuning": {"values": {%s}}, "evidence": {"acceptance": {"passed": 0, "total": 20000, "sampled": [%s], "not_passed": {%s}}}}`,
		strings.Join(answers, ","), strings.Join(values, ","), strings.Join(sampled, ","), strings.Join(notPassed, ",")))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Parse(FileName, src)
		for _, s := range r.Sampled {
			r.NotPassedEntry(s.Key)
			r.Answer(s.Key)
			r.Value(s.Key)
		}
	}
}
