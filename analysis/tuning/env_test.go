package tuning

import (
	"github.com/gddls/gddls/analysis/personalization"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// enemies is a collection without a record schema.
var enemies = map[string]string{
	"moth":  `{"name": "Moth", "hull": 3, "speed": 1.5}`,
	"wisp":  `{"name": "Wisp", "hull": 5}`,
	"_note": ``, // never read: not a record id the rules name
}

// levels has a record schema with an open number field, an open integer
// field and a string field.
var levels = map[string]string{
	"_collection": `{"record": {"title": {"type": "string"}, "speed": {"type": "number", "open": true}, "waves": {"type": "integer", "open": true}, "size": {"type": "integer"}, "gap": {"type": "number", "open": true}}}`,
	"first":       `{"title": "First", "speed": 2.5, "waves": null, "size": 4, "gap": 1}`,
	"second":      `{"title": "Second", "speed": null, "size": 6}`,
	"broken":      `{"title": "Broken", "size": `,
}

type envCase struct {
	name        string
	tuning      string
	collections map[string]map[string]string
	pers        string // personalization.json; "" for none
	code        string
	span        string // text of the span in tuning.json; "" for a near miss
	msg         string
	count       int // when > 0, the number of findings of code over Parse and CheckEnvironments
}

var both = map[string]map[string]string{"enemies": enemies, "levels": levels}

var envCases = []envCase{
	// Record-field operands.
	{name: "record rule false", tuning: `{"values": {"a.b": 2}, "rules": {"r": "collections.enemies.moth.hull > a.b * 2"}}`, collections: both,
		code: CodeRuleFailed, span: `"collections.enemies.moth.hull > a.b * 2"`, msg: "with collections.enemies.moth.hull = 3, a.b = 2: 3 > 4 is false"},
	{name: "record rule true", tuning: `{"values": {"a.b": 1}, "rules": {"r": "collections.enemies.moth.hull + collections.enemies.wisp.hull == 8 * a.b"}}`, collections: both,
		code: CodeRuleFailed},
	{name: "record rule in a schema collection", tuning: `{"values": {}, "rules": {"r": "collections.levels.first.size > 5"}}`, collections: both,
		code: CodeRuleFailed, span: `"collections.levels.first.size > 5"`, msg: "4 > 5 is false"},
	{name: "missing field", tuning: `{"values": {}, "rules": {"r": "collections.enemies.moth.armor > 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.enemies.moth.armor`, msg: `collections/enemies/moth.json has no field "armor"`},
	{name: "field of another record", tuning: `{"values": {}, "rules": {"r": "collections.enemies.moth.speed > collections.enemies.wisp.speed"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.enemies.wisp.speed`, msg: `no field "speed"`, count: 1},
	{name: "non-numeric field", tuning: `{"values": {}, "rules": {"r": "collections.enemies.moth.name > 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.enemies.moth.name`, msg: "is a string, not a number"},
	{name: "string type in schema", tuning: `{"values": {}, "rules": {"r": "collections.levels.first.title > 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.levels.first.title`, msg: "type string"},
	{name: "no collection", tuning: `{"values": {}, "rules": {"r": "1 < collections.bosses.moth.hull"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.bosses.moth.hull`, msg: `no collection "bosses"`},
	{name: "no collections at all", tuning: `{"values": {}, "rules": {"r": "1 < collections.bosses.moth.hull"}}`,
		code: CodeRuleInvalid, span: `collections.bosses.moth.hull`, msg: `no collection "bosses"`},
	{name: "no record", tuning: `{"values": {}, "rules": {"r": "collections.enemies.ghost.hull >= 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.enemies.ghost.hull`, msg: `no record "ghost"`},
	{name: "open field missing from record", tuning: `{"values": {}, "rules": {"r": "collections.levels.second.gap >= 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.levels.second.gap`, msg: "does not apply"},
	{name: "unreadable record", tuning: `{"values": {}, "rules": {"r": "collections.levels.broken.size >= 100"}}`, collections: both,
		code: CodeRuleInvalid},
	{name: "annotation", tuning: `{"values": {}, "rules": {"r": "collections.enemies.moth._note >= 1"}}`, collections: both,
		code: CodeRuleInvalid, span: `collections.enemies.moth._note`, msg: "annotation"},

	// Guesses in open record fields.
	{name: "open field guess fails", tuning: `{"values": {}, "rules": {"r": "collections.levels.first.speed < 2"}}`, collections: both,
		code: CodeRuleGuessFailed, span: `"collections.levels.first.speed < 2"`, msg: "collections.levels.first.speed = 2.5 (guess): 2.5 < 2 is false"},
	{name: "open field guess is no error", tuning: `{"values": {}, "rules": {"r": "collections.levels.first.speed < 2"}}`, collections: both,
		code: CodeRuleFailed},
	{name: "open field without guess", tuning: `{"values": {}, "rules": {"r": "collections.levels.second.speed < 0"}}`, collections: both,
		code: CodeRuleGuessFailed},

	// Pins.
	{name: "pin used by another rule", tuning: `{"values": {"a.b": 3}, "rules": {"p": "collections.levels.first.speed == a.b * 2", "r": "collections.levels.first.speed > 10"}}`, collections: both,
		code: CodeRuleFailed, span: `"collections.levels.first.speed > 10"`, msg: "collections.levels.first.speed = 6 (pinned): 6 > 10 is false"},
	{name: "pin replaces the guess", tuning: `{"values": {"a.b": 3}, "rules": {"p": "(collections.levels.first.speed) == a.b * 2", "r": "collections.levels.first.speed > 5"}}`, collections: both,
		code: CodeRuleGuessFailed},
	{name: "pin on the right", tuning: `{"values": {"a.b": 3}, "rules": {"p": "a.b + 1 == collections.levels.second.speed", "r": "collections.levels.second.speed < 4"}}`, collections: both,
		code: CodeRuleFailed, span: `"collections.levels.second.speed < 4"`, msg: "= 4 (pinned)"},
	{name: "pin conflict", tuning: `{"values": {"a.b": 3}, "rules": {"p1": "collections.levels.first.speed == a.b", "p2": "collections.levels.first.speed == 4"}}`, collections: both,
		code: CodePinConflict, span: `"collections.levels.first.speed == 4"`, msg: `rule "p2" pins collections.levels.first.speed to 4, but rule "p1" already pins it to 3`},
	{name: "pins agree", tuning: `{"values": {"a.b": 3}, "rules": {"p1": "collections.levels.first.speed == a.b", "p2": "collections.levels.first.speed == 6 / 2"}}`, collections: both,
		code: CodePinConflict},
	{name: "integer pin fraction", tuning: `{"values": {"a.b": 3}, "rules": {"p": "collections.levels.first.waves == a.b / 2"}}`, collections: both,
		code: CodeRuleInvalid, span: `"collections.levels.first.waves == a.b / 2"`, msg: "to 1.5, which is not a whole number"},
	{name: "number pin fraction", tuning: `{"values": {"a.b": 3}, "rules": {"p": "collections.levels.first.speed == a.b / 2"}}`, collections: both,
		code: CodeRuleInvalid},
	{name: "pin divides by zero", tuning: `{"values": {"a.z": 0}, "rules": {"p": "collections.levels.first.speed == 1 / a.z"}}`, collections: both,
		code: CodeRuleInvalid, span: `a.z`, msg: "cannot be computed over the decided numbers"},
	{name: "guess makes no pin", tuning: `{"values": {}, "open": {"o.x": 9}, "rules": {"p": "collections.levels.first.speed == o.x"}}`, collections: both,
		code: CodeRuleGuessFailed, span: `"collections.levels.first.speed == o.x"`, msg: "2.5 == 9 is false"},
	{name: "pins do not chain", tuning: `{"values": {}, "rules": {"p1": "collections.levels.first.speed == 1", "p2": "collections.levels.second.speed == collections.levels.first.speed", "r": "collections.levels.second.speed > 100"}}`, collections: both,
		code: CodeRuleFailed},
	{name: "closed field is no pin", tuning: `{"values": {}, "rules": {"p": "collections.levels.first.size == 5"}}`, collections: both,
		code: CodeRuleFailed, span: `"collections.levels.first.size == 5"`, msg: "4 == 5 is false"},

	// The package defaults.
	{name: "default breaks a rule", tuning: `{"values": {}, "open": {"o.x": 5}, "rules": {"r": "o.x < 10"}}`,
		pers: `{"questions": [{"id": "pace", "prompt": "?", "type": "number", "default": 12, "sets": "o.x"}]}`,
		code: CodeRuleFailed, span: `"o.x < 10"`, msg: "with the package defaults of personalization.json, rule \"r\" does not hold\n  o.x < 10\n  with o.x = 12 (default): 12 < 10 is false"},
	{name: "default keeps a rule", tuning: `{"values": {}, "open": {"o.x": 5}, "rules": {"r": "o.x < 10"}}`,
		pers: `{"questions": [{"id": "pace", "prompt": "?", "type": "number", "default": 8, "sets": "o.x"}]}`,
		code: CodeRuleFailed},
	{name: "choice default", tuning: `{"values": {"a.b": 2}, "ranges": {"a.b": [0, 9]}, "rules": {"r": "a.b < 5"}}`,
		pers: `{"questions": [{"id": "pace", "prompt": "?", "type": "choice", "default": "fast", "options": [{"id": "slow", "label": "S", "sets": {"a.b": 1}}, {"id": "fast", "label": "F", "sets": {"a.b": 7}}]}]}`,
		code: CodeRuleFailed, span: `"a.b < 5"`, msg: "with the package defaults of personalization.json, rule \"r\" does not hold", count: 1},
	{name: "later default wins", tuning: `{"values": {"a.b": 2}, "ranges": {"a.b": [0, 9]}, "rules": {"r": "a.b < 5"}}`,
		pers: `{"questions": [{"id": "q1", "prompt": "?", "type": "number", "default": 7, "sets": "a.b"}, {"id": "q2", "prompt": "?", "type": "number", "default": 3, "sets": "a.b"}]}`,
		code: CodeRuleFailed},
	{name: "unranged values key is not set", tuning: `{"values": {"a.b": 2}, "rules": {"r": "a.b < 5"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 7, "sets": "a.b"}]}`,
		code: CodeRuleFailed},
	{name: "out-of-range default is not applied", tuning: `{"values": {"a.b": 2}, "ranges": {"a.b": [0, 5]}, "rules": {"r": "a.b < 5"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 7, "sets": "a.b"}]}`,
		code: CodeRuleFailed},
	{name: "identical environments", tuning: `{"values": {"a.b": 2}, "ranges": {"a.b": [0, 9]}, "rules": {"r": "a.b > 5"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 2, "sets": "a.b"}]}`,
		code: CodeRuleFailed, span: `"a.b > 5"`, msg: `rule "r" does not hold`, count: 1},
	{name: "unchanged rule in a changed environment", tuning: `{"values": {"a.b": 2, "c.d": 1}, "open": {"o.x": 1}, "rules": {"r": "a.b > 5", "s": "c.d / 0 > 1"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 2, "sets": "o.x"}]}`,
		code: CodeRuleFailed, span: `"a.b > 5"`, msg: `rule "r" does not hold`, count: 1},
	{name: "false in both environments", tuning: `{"values": {"a.b": 6}, "ranges": {"a.b": [0, 9]}, "rules": {"r": "a.b < 5"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 8, "sets": "a.b"}]}`,
		code: CodeRuleFailed, span: `"a.b < 5"`, msg: "a.b = 8 (default)", count: 2},
	{name: "default decides a guess", tuning: `{"values": {}, "open": {"o.x": 12}, "rules": {"r": "o.x < 10"}}`,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 3, "sets": "o.x"}]}`,
		code: CodeRuleGuessFailed, span: `"o.x < 10"`, msg: "12 (guess)", count: 1},
	{name: "default makes a pin", tuning: `{"values": {}, "open": {"o.x": null}, "rules": {"p": "collections.levels.first.speed == o.x", "r": "collections.levels.first.speed < 3"}}`, collections: both,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 4, "sets": "o.x"}]}`,
		code: CodeRuleFailed, span: `"collections.levels.first.speed < 3"`, msg: "with the package defaults of personalization.json, rule \"r\" does not hold\n  collections.levels.first.speed < 3\n  with collections.levels.first.speed = 4 (pinned): 4 < 3 is false"},
	{name: "default pin conflict", tuning: `{"values": {}, "open": {"o.x": null}, "rules": {"p1": "collections.levels.first.speed == 4", "p2": "collections.levels.first.speed == o.x"}}`, collections: both,
		pers: `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 3, "sets": "o.x"}]}`,
		code: CodePinConflict, span: `"collections.levels.first.speed == o.x"`, msg: "with the package defaults of personalization.json, rule \"p2\" pins"},
	{name: "broken personalization", tuning: `{"values": {}, "open": {"o.x": 5}, "rules": {"r": "o.x < 10"}}`,
		pers: `{"questions": [{"id": "pace", "type": "number", "default": 12, "sets": "o.x"}`,
		code: CodeRuleFailed},
}

// lookupOf builds a RecordLookup from record texts; the key _collection
// holds the schema file.
func lookupOf(cols map[string]map[string]string) RecordLookup {
	if cols == nil {
		return nil
	}
	return func(id string) (*Collection, bool) {
		files, ok := cols[id]
		if !ok {
			return nil, false
		}
		c := &Collection{Records: map[string]*jsonsrc.Value{}}
		for name, text := range files {
			v, _ := jsonsrc.Parse([]byte(text))
			if name == "_collection" {
				c.HasSchema, c.Schema = true, v
				continue
			}
			c.Records[name] = v
		}
		return c, true
	}
}

func TestEnvironments(t *testing.T) {
	for _, tt := range envCases {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("tuning.json", []byte(tt.tuning))
			env := f.CheckEnvironments(lookupOf(tt.collections), readPersonalization(tt.pers))
			all := append(append([]source.Finding{}, f.Findings...), env...)
			var got []source.Finding
			for _, fd := range all {
				if fd.Span.Start < 0 || fd.Span.End > len(tt.tuning) || fd.Span.Start > fd.Span.End {
					t.Fatalf("finding %v has a span outside the file", fd)
				}
				if fd.Code == tt.code {
					got = append(got, fd)
				}
			}
			if tt.span == "" {
				if len(got) > 0 {
					t.Fatalf("near miss raised %s: %v", tt.code, got)
				}
				return
			}
			if tt.count > 0 && len(got) != tt.count {
				t.Errorf("got %d findings of %s, want %d: %v", len(got), tt.code, tt.count, got)
			}
			for _, fd := range got {
				if tt.tuning[fd.Span.Start:fd.Span.End] == tt.span && strings.Contains(fd.Message, tt.msg) {
					return
				}
			}
			t.Fatalf("no %s on %q with %q; got %v (all: %v)", tt.code, tt.span, tt.msg, got, all)
		})
	}
}

// TestEnvironmentsRelated checks the related information of a pin conflict
// and of a finding over the defaults.
func TestEnvironmentsRelated(t *testing.T) {
	src := `{"values": {"a.b": 3}, "open": {"o.x": 1}, "rules": {"p1": "collections.levels.first.speed == a.b", "p2": "collections.levels.first.speed == 4", "r": "o.x < 2"}}`
	pers := `{"questions": [{"id": "q", "prompt": "?", "type": "number", "default": 5, "sets": "o.x"}]}`
	f := Parse("tuning.json", []byte(src))
	env := f.CheckEnvironments(lookupOf(both), readPersonalization(pers))
	var conflict, failed *source.Finding
	for i := range env {
		switch env[i].Code {
		case CodePinConflict:
			if conflict == nil {
				conflict = &env[i]
			}
		case CodeRuleFailed:
			failed = &env[i]
		}
	}
	if conflict == nil || len(conflict.Related) != 1 || src[conflict.Related[0].Span.Start:conflict.Related[0].Span.End] != `"collections.levels.first.speed == a.b"` {
		t.Fatalf("pin conflict related: %+v", conflict)
	}
	if failed == nil || len(failed.Related) != 1 || failed.Related[0].File != "personalization.json" || pers[failed.Related[0].Span.Start:failed.Related[0].Span.End] != "5" {
		t.Fatalf("defaults related: %+v", failed)
	}
	if strings.Contains(conflict.Message, "package defaults") {
		t.Errorf("the authored conflict is repeated over the defaults: %q", conflict.Message)
	}
	n := 0
	for _, fd := range env {
		if fd.Code == CodePinConflict {
			n++
		}
	}
	if n != 1 {
		t.Errorf("got %d pin conflicts, want 1 (the defaults change no pin)", n)
	}
}

// TestEnvironmentsUnreadable checks that an unreadable tuning.json gives no
// environment findings and that nil inputs are safe.
func TestEnvironmentsUnreadable(t *testing.T) {
	f := Parse("tuning.json", []byte(`{"values": {}, "rules": {"r": "collections.a.b.c > 1"`))
	if got := f.CheckEnvironments(nil, nil); len(got) != 0 {
		t.Fatalf("unreadable file: %v", got)
	}
	var nilFile *File
	if got := nilFile.CheckEnvironments(nil, nil); got != nil {
		t.Fatalf("nil file: %v", got)
	}
}

// TestEnvironmentsOddInputs feeds malformed personalization files and
// collections: nothing panics and no defaults come from them.
func TestEnvironmentsOddInputs(t *testing.T) {
	src := `{"values": {"a.b": 2}, "open": {"o.x": 1}, "ranges": {"a.b": [0, 9]}, "rules": {"r": "a.b + o.x < 4", "s": "collections.c.r.f > 5"}}`
	pers := []string{
		`[]`, `{"questions": {}}`, `{"questions": [1, null, "x"]}`,
		`{"questions": [{"type": "choice", "default": 3, "options": []}]}`,
		`{"questions": [{"type": "choice", "default": "a", "options": [{"id": "a"}, {"id": "a", "sets": {"a.b": 5}}]}]}`,
		`{"questions": [{"type": "choice", "default": "a", "options": [{"id": "a", "sets": []}]}]}`,
		`{"questions": [{"type": "choice", "default": "a", "options": [{"id": "a", "sets": {"a.b": "5", "o.x": null}}]}]}`,
		`{"questions": [{"type": "number", "default": "5", "sets": "o.x"}, {"type": "number", "default": 5, "sets": 3}]}`,
		`{"questions": [{"type": "number", "default": 5, "sets": "z.z"}, {"type": "text", "default": "x", "sets": "o.x"}]}`,
	}
	schemas := []string{`[]`, `{"record": []}`, `{"record": {"f": 1}}`, `{"record": {"f": {"type": 1}}}`, `{"record": {"f": {"type": "number"}}`}
	for _, p := range pers {
		f := Parse("tuning.json", []byte(src))
		for _, fd := range f.CheckEnvironments(nil, readPersonalization(p)) {
			if strings.Contains(fd.Message, "package defaults") {
				t.Errorf("%s: a finding over defaults: %v", p, fd)
			}
		}
	}
	for _, sc := range schemas {
		f := Parse("tuning.json", []byte(src))
		got := f.CheckEnvironments(lookupOf(map[string]map[string]string{"c": {"_collection": sc, "r": `{"f": 1}`}}), nil)
		if len(got) != 0 {
			t.Errorf("schema %s: findings %v", sc, got)
		}
	}
}

// readPersonalization reads a personalization.json text as the package
// reads it; "" is no file. The partial tree of a text that does not parse
// is kept, so that CheckEnvironments is seen to take no defaults from it.
func readPersonalization(src string) *personalization.File {
	if src == "" {
		return nil
	}
	v, _ := jsonsrc.Parse([]byte(src))
	return personalization.Parse("personalization.json", v)
}

func TestSetsTarget(t *testing.T) {
	f := Parse("tuning.json", []byte(`{"values": {"a.b": 1, "a.c": 2, "a.d": 3}, "open": {"o.x": null}, "ranges": {"a.b": [0, 2], "a.d": [5, 1]}}`))
	for key, want := range map[string]Settability{
		"a.b": Settable, "o.x": Settable, "a.c": Unranged, "a.d": RangeBroken, "z.z": NotAKey,
		"contracts.lamp.oil": ContractValue, "contracts.lamp": NotAKey, "contracts.lamp.oil.x": NotAKey,
	} {
		if _, got := f.SetsTarget(key); got != want {
			t.Errorf("SetsTarget(%q) = %d, want %d", key, got, want)
		}
	}
	var absent *File
	if _, got := absent.SetsTarget("a.b"); got != NoTuning {
		t.Errorf("SetsTarget without tuning.json = %d, want NoTuning", got)
	}
	if _, got := absent.SetsTarget("contracts.lamp.oil"); got != ContractValue {
		t.Errorf("a contract value without tuning.json = %d, want ContractValue", got)
	}
	e, _ := f.Lookup("a.b")
	if !e.Admits(0) || !e.Admits(2) || e.Admits(2.5) {
		t.Error("Admits does not read the range as inclusive")
	}
}
