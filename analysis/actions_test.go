package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// fixAdoption is the adoption of the code action, lens and render tests.
// "@PACK@" becomes the digest of fixPack.
const fixAdoption = `{
  "contract": "clamped-meter",
  "version": 1,
  "origin": "https://example.test/clamped-meter-1",
  "summary": "A meter that stays inside its limits.",
  "mechanism": ["No change moves the meter past a limit."],
  "questions": {
    "overflow": {
      "asks": "What does a change past a limit do?",
      "options": { "clamp": { "meaning": "The meter stops at the limit." }, "refuse": { "meaning": "The change is dropped." } }
    },
    "notice": {
      "asks": "Does the player see a dropped change?",
      "when": { "flag": { "overflow": ["refuse"] } },
      "otherwise": "Dropped changes are silent.",
      "options": { "show": { "meaning": "A cue plays." }, "hide": { "meaning": "No cue plays." } }
    }
  },
  "declares": {
    "values": {
      "maximum": { "description": "The top of the meter.", "range": [1, 999] },
      "penalty": { "description": "What a dropped change costs.", "when": { "flag": { "overflow": ["refuse"] } } }
    },
    "rows": {
      "windows": {
        "when-empty": "No timed windows.",
        "record": {
          "id": { "type": "string", "required": true, "pattern": "kebab-case", "unique": true },
          "unit": { "type": "string", "required": true, "options": ["turns", "seconds"] },
          "cap": { "type": "number", "when": { "row": { "unit": ["turns"] } } },
          "source": { "type": "citation" }
        }
      }
    }
  },
  "pack": "@PACK@",
  "answers": { "overflow": "clamp" },
  "values": { "maximum": 100 },
  "rows": { "windows": [ { "id": "poison", "unit": "turns", "cap": 3, "source": "02-mechanics.md#poison" }, { "id": "stun", "unit": "seconds" } ] }
}
`

// fixPack has a once template that is live while overflow is clamp and a
// per-row template over windows.
const fixPack = `{
  "contract": "clamped-meter",
  "version": 1,
  "templates": [
    {
      "id": "holds-at-top",
      "title": "{{instance}} holds at the top",
      "type": "scenario",
      "expand": "once",
      "when": { "flag": { "overflow": ["clamp"] } },
      "test": { "type": "scenario", "given": "{{instance}} sits just under {{value-cite:maximum}}", "when": "a large gain lands", "then": "{{instance}} reads {{value-cite:maximum}}" },
      "text": "No gain lifts {{instance}} over {{value-cite:maximum}}."
    },
    {
      "id": "window-ends",
      "title": "{{row.id}} ends",
      "type": "scenario",
      "expand": "per-row",
      "collection": "windows",
      "test": { "type": "scenario", "given": "{{row.id}} is open", "when": "time passes", "then": "{{row.id}} closes" },
      "text": "Each window closes."
    }
  ]
}
`

const fixTuning = `{
  "values": { "feel.speed": 4, "feel.jump-height": 2 },
  "open": { "feel.drag": null }
}
`

const fixMechanics = "# Mechanics\n\n## Poison\n\nPoison ticks at `feel.speed`.\n\n## Stun windows\n\nA stun lasts a while.\n"

const fixOverview = "# Overview\n\nSee [poison](02-mechanics.md#poison).\n"

// fixFiles returns the files of the test package; edits are old/new pairs
// applied to the named file ("path\x00old", "new").
func fixFiles(t *testing.T, withPack bool) map[string]string {
	t.Helper()
	sum := sha256.Sum256([]byte(fixPack))
	files := map[string]string{
		"manifest.json":                       `{ "name": "fixture" }` + "\n",
		"tuning.json":                         fixTuning,
		"01-overview.md":                      fixOverview,
		"02-mechanics.md":                     fixMechanics,
		"05-build-plan.md":                    "# Build plan\n\nBuild it.\n",
		"contracts/meter.json":                strings.ReplaceAll(fixAdoption, "@PACK@", "sha256:"+hex.EncodeToString(sum[:])),
		"contracts/clamped-meter-1.pack.json": fixPack,
	}
	if !withPack {
		delete(files, "contracts/clamped-meter-1.pack.json")
	}
	return files
}

// fixEdit replaces old with new once in files[name], failing when old is
// missing so that a case cannot silently test the base input.
func fixEdit(t *testing.T, files map[string]string, name, old, new string) {
	t.Helper()
	if !strings.Contains(files[name], old) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	files[name] = strings.Replace(files[name], old, new, 1)
}

// fixWrite writes files under a new temporary folder and loads it.
func fixWrite(t *testing.T, files map[string]string) (string, *Snapshot) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, Load([]string{dir}, Options{})
}

// fixApply applies edits to content, last first.
func fixApply(t *testing.T, content []byte, edits []TextEdit) []byte {
	t.Helper()
	sorted := append([]TextEdit{}, edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Span.Start > sorted[j].Span.Start })
	out := append([]byte{}, content...)
	for _, e := range sorted {
		if e.Span.Start < 0 || e.Span.End > len(out) || e.Span.Start > e.Span.End {
			t.Fatalf("edit span %v out of range", e.Span)
		}
		out = append(append(append([]byte{}, out[:e.Span.Start]...), e.NewText...), out[e.Span.End:]...)
	}
	return out
}

func fixCount(s *Snapshot, path, code string) int {
	n := 0
	for _, d := range s.Diagnostics(path) {
		if d.Code == code {
			n++
		}
	}
	return n
}

func TestCodeActions(t *testing.T) {
	const adoption = "contracts/meter.json"
	cases := []struct {
		name string
		// file is the file queried; edits are old/new pairs applied to it.
		file  string
		edits []string
		crlf  bool
		// at is a text of file whose first occurrence is the queried span.
		at   string
		code string
		// titles must all be offered; apply is the one applied.
		titles    []string
		apply     string
		preferred bool
		// want must occur in the file after the edit.
		want string
	}{
		{name: "answer into empty answers", file: adoption,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": {}`}, at: `"answers"`, code: "CONTRACT_ANSWER_MISSING",
			titles: []string{"Answer overflow with clamp: The meter stops at the limit.", "Answer overflow with refuse: The change is dropped."},
			apply:  "Answer overflow with clamp: The meter stops at the limit.",
			want:   "\"answers\": {\n    \"overflow\": \"clamp\"\n  },"},
		{name: "answer into empty answers with CRLF", file: adoption, crlf: true,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": {}`}, at: `"answers"`, code: "CONTRACT_ANSWER_MISSING",
			apply: "Answer overflow with clamp: The meter stops at the limit.",
			want:  "\"answers\": {\r\n    \"overflow\": \"clamp\"\r\n  },"},
		{name: "answer into non-empty answers", file: adoption,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse" }`, `"values": { "maximum": 100 }`, `"values": { "maximum": 100, "penalty": 2 }`},
			at:    `"answers"`, code: "CONTRACT_ANSWER_MISSING",
			titles: []string{"Answer notice with show: A cue plays.", "Answer notice with hide: No cue plays."},
			apply:  "Answer notice with hide: No cue plays.",
			want:   `"answers": { "overflow": "refuse", "notice": "hide" }`},
		{name: "answers absent", file: adoption,
			edits: []string{`  "answers": { "overflow": "clamp" },` + "\n", ``}, at: `{`, code: "CONTRACT_ANSWER_MISSING",
			apply: "Answer overflow with clamp: The meter stops at the limit.",
			want:  "] },\n  \"answers\": { \"overflow\": \"clamp\" }\n}"},
		{name: "missing required row field", file: adoption,
			edits: []string{`"unit": "turns", "cap": 3,`, `"unit": "turns",`}, at: `{ "id": "poison"`, code: "CONTRACT_ROW_FIELD",
			apply: `Add the missing required field "cap"`, preferred: true, want: `"source": "02-mechanics.md#poison", "cap": 0 }`},
		{name: "missing field whose placeholder requires another", file: adoption,
			edits: []string{`{ "id": "stun", "unit": "seconds" }`, `{ "id": "stun" }`}, at: `{ "id": "stun"`, code: "CONTRACT_ROW_FIELD",
			apply: `Add the missing required fields "unit", "cap"`, preferred: true, want: `{ "id": "stun", "unit": "turns", "cap": 0 }`},
		{name: "missing field of an empty row", file: adoption,
			edits: []string{`{ "id": "stun", "unit": "seconds" }`, `{}`}, at: `{}`, code: "CONTRACT_ROW_FIELD",
			apply: `Add the missing required fields "id", "unit", "cap"`, preferred: true, want: `{ "id": "", "unit": "turns", "cap": 0 }`},
		{name: "rows absent", file: adoption,
			edits: []string{",\n  \"rows\": { \"windows\": [ { \"id\": \"poison\", \"unit\": \"turns\", \"cap\": 3, \"source\": \"02-mechanics.md#poison\" }, { \"id\": \"stun\", \"unit\": \"seconds\" } ] }", ""},
			at:    `{`, code: "CONTRACT_ROWS_BINDING", apply: `Add row set "windows" to rows, with no rows`, preferred: true,
			want: "\"values\": { \"maximum\": 100 },\n  \"rows\": { \"windows\": [] }\n}"},
		{name: "rows empty", file: adoption,
			edits: []string{"\"rows\": { \"windows\": [ { \"id\": \"poison\", \"unit\": \"turns\", \"cap\": 3, \"source\": \"02-mechanics.md#poison\" }, { \"id\": \"stun\", \"unit\": \"seconds\" } ] }", `"rows": {}`},
			at:    `"rows": {}`, code: "CONTRACT_ROWS_BINDING", apply: `Add row set "windows" to rows, with no rows`, preferred: true,
			want: "\"rows\": {\n    \"windows\": []\n  }\n}"},
		{name: "undeclared row set", file: adoption,
			edits: []string{`"rows": { "windows": [`, `"rows": { "window": [`}, at: `"window"`, code: "CONTRACT_ROWS_BINDING",
			apply: `Replace "window" with "windows"`, preferred: true, want: `"rows": { "windows": [`},
		{name: "missing value takes the range minimum", file: adoption,
			edits: []string{`"values": { "maximum": 100 }`, `"values": {}`}, at: `"values": {}`, code: "CONTRACT_VALUE_MISSING",
			apply: `Add value "maximum" = 1`, preferred: true, want: "\"values\": {\n    \"maximum\": 1\n  },"},
		{name: "two missing values", file: adoption,
			edits: []string{`"values": { "maximum": 100 }`, `"values": {}`, `"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse", "notice": "show" }`},
			at:    `"values": {}`, code: "CONTRACT_VALUE_MISSING", titles: []string{`Add value "maximum" = 1`, `Add value "penalty" = 0`},
			apply: "Add every missing value", preferred: true, want: "\"maximum\": 1,\n    \"penalty\": 0\n"},
		{name: "answer is not an option", file: adoption,
			edits: []string{`"overflow": "clamp" }`, `"overflow": "clam" }`}, at: `"clam"`, code: "CONTRACT_ANSWER_UNKNOWN",
			titles: []string{`Replace "clam" with "refuse"`}, apply: `Replace "clam" with "clamp"`, preferred: true,
			want: `"answers": { "overflow": "clamp" }`},
		{name: "answer is a number", file: adoption,
			edits: []string{`"overflow": "clamp" }`, `"overflow": 3 }`}, at: `3 }`, code: "CONTRACT_ANSWER_UNKNOWN",
			apply: `Replace "3" with "refuse"`, want: `"answers": { "overflow": "refuse" }`},
		{name: "answer names no question", file: adoption,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflw": "clamp" }`}, at: `"overflw"`, code: "CONTRACT_ANSWER_UNKNOWN",
			apply: `Replace "overflw" with "overflow"`, preferred: true, want: `"answers": { "overflow": "clamp" }`},
		{name: "row choice", file: adoption,
			edits: []string{`"unit": "seconds"`, `"unit": "second"`}, at: `"second"`, code: "CONTRACT_ROW_CHOICE",
			titles: []string{`Replace "second" with "turns"`}, apply: `Replace "second" with "seconds"`, preferred: true,
			want: `{ "id": "stun", "unit": "seconds" }`},
		{name: "dangling anchor in a row citation", file: adoption,
			edits: []string{`02-mechanics.md#poison`, `02-mechanics.md#poisn`}, at: `"02-mechanics.md#poisn"`, code: "CONTRACT_CITATION_DANGLING",
			titles: []string{`Replace "02-mechanics.md#poisn" with "02-mechanics.md#mechanics"`}, apply: `Replace "02-mechanics.md#poisn" with "02-mechanics.md#poison"`,
			preferred: true, want: `"source": "02-mechanics.md#poison"`},
		{name: "dangling chapter file", file: adoption,
			edits: []string{`02-mechanics.md#poison`, `02-mechanic.md#poison`}, at: `"02-mechanic.md#poison"`, code: "CONTRACT_CITATION_DANGLING",
			apply: `Replace "02-mechanic.md#poison" with "02-mechanics.md#poison"`, preferred: true, want: `"source": "02-mechanics.md#poison"`},
		{name: "dangling tuning key in a row citation", file: adoption,
			edits: []string{`02-mechanics.md#poison`, `feel.sped`}, at: `"feel.sped"`, code: "CONTRACT_CITATION_DANGLING",
			apply: `Replace "feel.sped" with "feel.speed"`, preferred: true, want: `"source": "feel.speed"`},
		{name: "dangling prose citation", file: "02-mechanics.md",
			edits: []string{"`feel.speed`", "`feel.sped`"}, at: "`feel.sped`", code: "PROSE_CITATION_DANGLING",
			apply: "Replace `feel.sped` with `feel.speed`", preferred: true, want: "Poison ticks at `feel.speed`."},
		{name: "dangling link anchor", file: "01-overview.md",
			edits: []string{"#poison)", "#poisn)"}, at: "poisn", code: "DOC_LINK_ANCHOR",
			titles: []string{"Replace #poisn with \"stun-windows\""}, apply: "Replace #poisn with \"poison\"", preferred: true,
			want: "[poison](02-mechanics.md#poison)"},
		{name: "reserved tuning key", file: "tuning.json",
			edits: []string{`"feel.jump-height": 2`, `"timing.jump": 2`}, at: `"timing.jump"`, code: "TUNING_KEY_RESERVED",
			apply: `Rename the key "timing.jump" to "feel.jump"`, want: `"feel.jump": 2`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := fixFiles(t, true)
			for i := 0; i+1 < len(tc.edits); i += 2 {
				fixEdit(t, files, tc.file, tc.edits[i], tc.edits[i+1])
			}
			if tc.crlf {
				files[tc.file] = strings.ReplaceAll(files[tc.file], "\n", "\r\n")
			}
			dir, snap := fixWrite(t, files)
			path := filepath.Join(dir, filepath.FromSlash(tc.file))
			if fixCount(snap, path, tc.code) == 0 {
				t.Fatalf("the case does not raise %s: %v", tc.code, snap.Diagnostics(path))
			}
			content := snap.File(path).Content
			at := strings.Index(string(content), tc.at)
			if at < 0 {
				t.Fatalf("%q not in %s", tc.at, tc.file)
			}
			actions := snap.CodeActions(path, source.Span{Start: at, End: at})
			byTitle := map[string]CodeAction{}
			var titles []string
			for _, a := range actions {
				byTitle[a.Title] = a
				titles = append(titles, a.Title)
			}
			for _, want := range append(append([]string{}, tc.titles...), tc.apply) {
				if _, ok := byTitle[want]; !ok {
					t.Fatalf("no action %q; got %q", want, titles)
				}
			}
			act := byTitle[tc.apply]
			if act.Kind != "quickfix" || len(act.Codes) != 1 || act.Codes[0] != tc.code {
				t.Errorf("kind %q codes %v, want quickfix [%s]", act.Kind, act.Codes, tc.code)
			}
			if act.Preferred != tc.preferred {
				t.Errorf("Preferred = %v, want %v", act.Preferred, tc.preferred)
			}
			if len(act.Edits) != 1 || act.Edits[path] == nil {
				t.Fatalf("edits must touch only %s: %v", path, act.Edits)
			}
			got := fixApply(t, content, act.Edits[path])
			if strings.HasSuffix(path, ".json") && !json.Valid(got) {
				t.Fatalf("the edit leaves invalid JSON:\n%s", got)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("the edited file lacks %q:\n%s", tc.want, got)
			}
			after := Load([]string{dir}, Options{Overlay: Overlay{path: got}})
			if n := fixCount(after, path, tc.code); n != 0 {
				t.Errorf("%d %s remain after the edit: %v\n%s", n, tc.code, after.Diagnostics(path), got)
			}
		})
	}
}

func TestCodeActionsOutsideFindings(t *testing.T) {
	files := fixFiles(t, true)
	fixEdit(t, files, "contracts/meter.json", `"overflow": "clamp" }`, `"overflow": "clam" }`)
	dir, snap := fixWrite(t, files)
	path := filepath.Join(dir, "contracts", "meter.json")
	if got := snap.CodeActions(path, source.Span{Start: 0, End: 0}); len(got) != 0 {
		t.Errorf("actions away from any finding: %v", got)
	}
	if got := snap.CodeActions(filepath.Join(dir, "nothing.json"), source.Span{}); got != nil {
		t.Errorf("actions for a file that does not exist: %v", got)
	}
}

// TestQueriesSurviveBrokenFiles cuts every file of the fixture at many
// points and runs the queries over the whole file: none may panic.
func TestQueriesSurviveBrokenFiles(t *testing.T) {
	base := fixFiles(t, true)
	for _, name := range []string{"contracts/meter.json", "tuning.json", "01-overview.md", "02-mechanics.md"} {
		full := base[name]
		for cut := 0; cut < len(full); cut += 37 {
			files := fixFiles(t, true)
			files[name] = full[:cut]
			_, snap := fixWrite(t, files)
			for _, f := range snap.Files() {
				snap.CodeActions(f.Path, source.Span{Start: 0, End: len(f.Content)})
				snap.CodeLenses(f.Path)
				_, _ = snap.RenderTests(f.Path)
			}
		}
	}
}
