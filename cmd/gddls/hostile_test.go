package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis/analysistest"
)

// The hostile-input tests build a package in a temporary folder, damage it
// in one way, and run `gddls check --format json` on it in-process. Each run
// must end (a goroutine with a generous deadline catches hangs), must not
// panic, must exit with 0, 1 or 2, must print valid JSON, and must report
// the expected findings on the expected files.

// hangLimit is how long one check may take before the test calls it a hang.
// It is a hang detector, not a speed requirement.
const hangLimit = 30 * time.Second

// hostileAdoption is a small adoption that checks clean in hostileBase: one
// question, one value, one row set with a citation field and one rule.
const hostileAdoption = `{
  "contract": "lamp-oil",
  "version": 1,
  "origin": "https://catalog.example/lamp-oil-1",
  "summary": "Oil in the lamp.",
  "mechanism": ["The lamp burns its oil."],
  "questions": {
    "refill": {
      "asks": "Can the lamp be refilled?",
      "options": { "yes": { "meaning": "It can." }, "no": { "meaning": "It cannot." } }
    }
  },
  "declares": {
    "values": {
      "capacity": { "description": "Units of oil.", "range": [1, 50] }
    },
    "rows": {
      "sources": {
        "description": "Where each number is set.",
        "record": {
          "id": { "type": "string", "required": true },
          "where": { "type": "citation", "required": true }
        }
      }
    }
  },
  "rules": { "enough-oil": "capacity >= 1" },
  "answers": { "refill": "yes" },
  "values": { "capacity": 12 },
  "rows": { "sources": [ { "id": "burning", "where": "02-mechanics.md#burning" } ] }
}
`

// hostileBase is a minimal package that reports nothing.
var hostileBase = map[string]string{
	"manifest.json": `{
  "opengdd": "0.9",
  "id": "lantern-keeper",
  "version": "0.1.0",
  "title": "Lantern Keeper",
  "designer": { "name": "scenario" },
  "target": { "platform": "web-2d", "genre": "puzzle" }
}
`,
	"tuning.json": `{
  "values": {
    "lantern.oil_units": 12,
    "lantern.burn_seconds": 30
  }
}
`,
	"01-overview.md":          "# Lantern Keeper\n\n```fantasy\nYou keep a lantern lit on a long night walk.\nFeel: quiet, careful, calm\nNOT: frantic\n```\n\n## The game\n\nA short walk home in the dark, one lantern, a little oil.\n",
	"02-mechanics.md":         "# Mechanics\n\n## Burning\n\nThe lantern holds `lantern.oil_units` units of oil and burns one unit every\n`lantern.burn_seconds` seconds.\n",
	"05-build-plan.md":        "# Build plan\n\n## Stage 1: the lantern\n\nBuild the lantern and its oil. Checkpoint: the lantern goes out when the\noil runs out.\n",
	"contracts/lamp-oil.json": hostileAdoption,
}

// writePackage writes hostileBase with changes applied into a new temporary
// folder and returns the folder. A nil change deletes the base file.
func writePackage(t *testing.T, changes map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	files := map[string][]byte{}
	for name, content := range hostileBase {
		files[name] = []byte(content)
	}
	for name, content := range changes {
		if content == nil {
			delete(files, name)
			continue
		}
		files[name] = content
	}
	return analysistest.WriteFiles(t, dir, files)
}

// checkResult is what one hostile run printed.
type checkResult struct {
	code   int
	rep    report
	stdout string
	stderr string
}

// findings returns the findings with the given code on the given file
// (relative to the checked folder, with slashes; "" for any file).
func (r checkResult) findings(code, file string) []reportFinding {
	var out []reportFinding
	for _, f := range r.rep.Findings {
		if f.Code == code && (f.File == file || file == "") {
			out = append(out, f)
		}
	}
	return out
}

// onFile returns every finding on a file.
func (r checkResult) onFile(file string) []reportFinding {
	var out []reportFinding
	for _, f := range r.rep.Findings {
		if f.File == file {
			out = append(out, f)
		}
	}
	return out
}

func (r checkResult) String() string {
	var b strings.Builder
	for _, f := range r.rep.Findings {
		fmt.Fprintf(&b, "  %s:%d:%d %s %s\n", f.File, f.Range.Start.Line+1, f.Range.Start.Character+1, f.Code, truncate(f.Message, 200))
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// checkHostile runs `gddls check --format json dir` in-process and fails the
// test on a panic, a hang, an exit status other than 0, 1 or 2, or output
// that is not a JSON report.
func checkHostile(t *testing.T, dir string) checkResult {
	t.Helper()
	type outcome struct {
		res   checkResult
		panic string
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- o
		}()
		var stdout, stderr bytes.Buffer
		o.res.code = run([]string{"check", "--format", "json", dir}, nil, &stdout, &stderr)
		o.res.stdout, o.res.stderr = stdout.String(), stderr.String()
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(hangLimit):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("gddls check did not finish within %v on %s (hang?); goroutines:\n%s", hangLimit, dir, truncate(string(buf), 3000))
	}
	if o.panic != "" {
		t.Fatalf("gddls check panicked on %s: %s", dir, o.panic)
	}
	res := o.res
	if res.code < 0 || res.code > 2 {
		t.Fatalf("exit status %d, want 0, 1 or 2; stderr: %s", res.code, res.stderr)
	}
	if res.code == 2 {
		return res
	}
	if err := json.Unmarshal([]byte(res.stdout), &res.rep); err != nil {
		t.Fatalf("output is not a JSON report: %v\n%s", err, truncate(res.stdout, 4000))
	}
	if !json.Valid([]byte(res.stdout)) {
		t.Fatalf("output is not valid JSON")
	}
	for _, f := range res.rep.Findings {
		if f.Code == "" || f.Message == "" || f.File == "" || filepath.IsAbs(f.File) {
			t.Errorf("finding lacks a code, message or relative file: %+v", f)
		}
		if f.Range.Start.Line < 0 || f.Range.Start.Character < 0 || f.Range.End.Line < f.Range.Start.Line {
			t.Errorf("finding has a bad range: %+v", f)
		}
	}
	return res
}

// TestHostileBaseIsClean makes sure the base package reports nothing, so
// that every finding in the other tests comes from the damage done.
func TestHostileBaseIsClean(t *testing.T) {
	res := checkHostile(t, writePackage(t, nil))
	if res.code != 0 || len(res.rep.Findings) != 0 {
		t.Fatalf("base package: exit %d, findings:\n%s", res.code, res)
	}
}

// expect is one finding a hostile case must produce.
type expect struct {
	code string
	file string
	line int // 1-based; 0 means any line
}

// hostileCase damages the base package.
type hostileCase struct {
	name    string
	changes map[string][]byte
	// setup runs after the package is written, for symbolic links and
	// files outside the package; dir is the package folder.
	setup func(t *testing.T, dir string)
	want  []expect
	// absent lists files (relative, possibly with ../) on which no finding
	// may appear.
	absent []string
	// clean lists files on which no finding at all may appear (the rest of
	// the package is still checked normally).
	clean []string
	// forbid lists codes that no finding may carry.
	forbid []string
}

func runHostile(t *testing.T, cases []hostileCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writePackage(t, c.changes)
			if c.setup != nil {
				c.setup(t, dir)
			}
			res := checkHostile(t, dir)
			if res.code == 2 {
				t.Fatalf("exit status 2 (usage error) for a readable folder; stderr: %s", res.stderr)
			}
			t.Logf("exit %d, findings:\n%s", res.code, res)
			for _, w := range c.want {
				fs := res.findings(w.code, w.file)
				if len(fs) == 0 {
					t.Errorf("no %s on %s; findings:\n%s", w.code, w.file, res)
					continue
				}
				if w.line > 0 {
					ok := false
					for _, f := range fs {
						ok = ok || f.Range.Start.Line+1 == w.line
					}
					if !ok {
						t.Errorf("%s on %s not at line %d; findings:\n%s", w.code, w.file, w.line, res)
					}
				}
			}
			for _, file := range c.absent {
				for _, f := range res.rep.Findings {
					if f.Code == "FILE_NOT_ANALYSED" && f.File == file {
						continue // saying the link was not followed is right
					}
					if f.File == file || strings.Contains(f.Message, filepath.Base(file)) {
						t.Errorf("finding about %s, which must not be read: %s %s", file, f.Code, f.Message)
					}
				}
			}
			for _, code := range c.forbid {
				if fs := res.findings(code, ""); len(fs) > 0 {
					t.Errorf("unexpected %s:\n%s", code, res)
				}
			}
			for _, file := range c.clean {
				if fs := res.onFile(file); len(fs) > 0 {
					t.Errorf("unexpected findings on %s:\n%s", file, res)
				}
			}
		})
	}
}

const adoptionFile = "contracts/lamp-oil.json"

func b(s string) []byte { return []byte(s) }

// TestHostileJSON feeds broken and odd JSON to the adoption, tuning and
// pack parsers.
func TestHostileJSON(t *testing.T) {
	packFile := "contracts/lamp-oil-1.pack.json"
	validPack := `{"contract": "lamp-oil", "version": 1, "templates": []}`
	var cases []hostileCase
	for _, cut := range []int{1, 10, 20, len(hostileAdoption) / 2, len(hostileAdoption) - 3} {
		// The only file of contracts/ does not parse, so it does not count
		// as an adoption (SPEC §10.1 rule 8) and the folder is reserved;
		// the file keeps its syntax error.
		cases = append(cases, hostileCase{
			name:    fmt.Sprintf("truncated adoption at %d", cut),
			changes: map[string][]byte{adoptionFile: b(hostileAdoption[:cut])},
			want:    []expect{{"CONTRACT_INSTANCE_JSON", adoptionFile, 0}, {"CONTRACT_FOLDER_RESERVED", "contracts", 0}},
		})
	}
	tuning := hostileBase["tuning.json"]
	for _, cut := range []int{1, 5, len(tuning) / 2, len(tuning) - 3} {
		cases = append(cases, hostileCase{
			name:    fmt.Sprintf("truncated tuning at %d", cut),
			changes: map[string][]byte{"tuning.json": b(tuning[:cut])},
			want:    []expect{{"TUNING_JSON", "tuning.json", 0}},
		})
	}
	for _, cut := range []int{1, 12, len(validPack) / 2, len(validPack) - 2} {
		cases = append(cases, hostileCase{
			name:    fmt.Sprintf("truncated pack at %d", cut),
			changes: map[string][]byte{packFile: b(validPack[:cut])},
			want:    []expect{{"CONTRACT_PACK_SHAPE", packFile, 0}},
		})
	}
	for _, top := range []string{`[]`, `"lamp"`, `null`, `42`, `true`, `[{"contract": "lamp-oil"}]`} {
		cases = append(cases,
			hostileCase{
				name:    "adoption top level " + top,
				changes: map[string][]byte{adoptionFile: b(top), "contracts/other.json": b(`{"contract": "other", "version": 1}`)},
				want:    []expect{{"CONTRACT_ENVELOPE_TYPE", adoptionFile, 1}},
			},
			hostileCase{
				name:    "tuning top level " + top,
				changes: map[string][]byte{"tuning.json": b(top)},
				want:    []expect{{"TUNING_SHAPE", "tuning.json", 1}},
			},
			hostileCase{
				name:    "pack top level " + top,
				changes: map[string][]byte{packFile: b(top)},
				want:    []expect{{"CONTRACT_PACK_SHAPE", packFile, 1}},
			},
		)
	}
	cases = append(cases,
		hostileCase{
			name:    "empty tuning",
			changes: map[string][]byte{"tuning.json": {}},
			want:    []expect{{"TUNING_JSON", "tuning.json", 1}},
		},
		hostileCase{
			name:    "empty adoption",
			changes: map[string][]byte{"contracts/empty.json": {}},
			want:    []expect{{"CONTRACT_INSTANCE_JSON", "contracts/empty.json", 1}},
		},
		hostileCase{
			name:    "empty pack",
			changes: map[string][]byte{packFile: {}},
			want:    []expect{{"CONTRACT_PACK_SHAPE", packFile, 1}},
		},
		hostileCase{
			name:    "empty chapter",
			changes: map[string][]byte{"03-content.md": {}},
			clean:   []string{"03-content.md"},
		},
		hostileCase{
			name: "odd numbers in tuning",
			changes: map[string][]byte{"tuning.json": b(`{
  "values": {
    "lantern.oil_units": 12,
    "lantern.burn_seconds": 30,
    "lantern.huge": 1e400,
    "lantern.negative_zero": -0,
    "lantern.exponent": 1E+2,
    "lantern.tiny": 1e-400
  },
  "ranges": { "lantern.huge": [0, 1E+2] },
  "rules": { "huge-is-big": "lantern.huge > lantern.exponent" }
}
`)},
			want: []expect{{"TUNING_NUMBER", "tuning.json", 5}},
		},
		hostileCase{
			name:    "odd numbers in adoption values",
			changes: map[string][]byte{adoptionFile: b(strings.Replace(hostileAdoption, `"capacity": 12`, `"capacity": 1e400`, 1))},
			want:    []expect{{"CONTRACT_VALUE_TYPE", adoptionFile, 0}},
		},
		hostileCase{
			name:    "negative zero and exponent in adoption",
			changes: map[string][]byte{adoptionFile: b(strings.Replace(strings.Replace(hostileAdoption, `"capacity": 12`, `"capacity": -0`, 1), `[1, 50]`, `[-0, 1E+2]`, 1))},
			want:    []expect{{"CONTRACT_RULE_FAILED", adoptionFile, 0}},
		},
		hostileCase{
			name:    "invalid UTF-8 in adoption strings",
			changes: map[string][]byte{adoptionFile: b(strings.Replace(strings.Replace(hostileAdoption, "Oil in the lamp.", "Oil \xff\xfe in \xc3 the lamp.", 1), `"capacity": 12`, `"capacity": 12, "ca\xffpacity": 3`, 1))},
			// JSON text must be UTF-8 (RFC 8259 §8.1): the parser rejects it
			// at the first bad byte, on line 5.
			want: []expect{{"CONTRACT_INSTANCE_JSON", adoptionFile, 5}},
		},
		hostileCase{
			name:    "invalid UTF-8 in tuning key",
			changes: map[string][]byte{"tuning.json": b("{\"values\": {\"lantern.oil_units\": 12, \"lantern.burn_seconds\": 30, \"lantern.\xff\": 1}}")},
			want:    []expect{{"TUNING_JSON", "tuning.json", 1}},
		},
		hostileCase{
			name:    "BOM in adoption",
			changes: map[string][]byte{adoptionFile: b("\ufeff" + hostileAdoption)},
		},
		hostileCase{
			name:    "BOM in tuning and chapters",
			changes: map[string][]byte{"tuning.json": b("\ufeff" + tuning), "02-mechanics.md": b("\ufeff" + hostileBase["02-mechanics.md"])},
		},
		hostileCase{
			name:    "binary JSON",
			changes: map[string][]byte{"contracts/blob.json": binaryBytes(4096, true), "collections/items/blob.json": binaryBytes(4096, false)},
			// A binary file of a JSON kind is a syntax error of that kind.
			want:   []expect{{"CONTRACT_INSTANCE_JSON", "contracts/blob.json", 1}, {"COLLECTION_RECORD_JSON", "collections/items/blob.json", 1}},
			forbid: []string{"FILE_NOT_ANALYSED"},
		},
		hostileCase{
			name:    "NUL byte in tuning",
			changes: map[string][]byte{"tuning.json": b("{\"values\": {\"lantern.oil_units\": 12,\x00 \"lantern.burn_seconds\": 30}}")},
			want:    []expect{{"TUNING_JSON", "tuning.json", 1}},
		},
		hostileCase{
			// Binary Markdown is still Markdown (CommonMark reads NUL as
			// U+FFFD): it is parsed, not skipped.
			name:    "binary Markdown",
			changes: map[string][]byte{"03-content.md": binaryBytes(8192, true), "notes/blob.md": binaryBytes(8192, false)},
			forbid:  []string{"FILE_NOT_ANALYSED"},
		},
		hostileCase{
			name:    "NUL byte in a chapter with a broken link",
			changes: map[string][]byte{"03-content.md": b("# Content\n\nA stray \x00 byte.\n\nSee [the map](missing-map.md).\n")},
			want:    []expect{{"DOC_LINK_FILE", "03-content.md", 5}},
		},
	)
	runHostile(t, cases)
}

// binaryBytes returns n bytes of deterministic noise, with NUL bytes when
// nul is set and without them otherwise.
func binaryBytes(n int, nul bool) []byte {
	out := make([]byte, n)
	x := uint32(2463534242)
	for i := range out {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out[i] = byte(x)
		if !nul && out[i] == 0 {
			out[i] = 0xff
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonPaths lists the path of every value below v (not v itself), depth
// first. A path is a list of object keys (string) and array indexes (int).
func jsonPaths(v any, prefix []any) [][]any {
	var out [][]any
	add := func(step any, child any) {
		p := append(append([]any{}, prefix...), step)
		out = append(out, p)
		out = append(out, jsonPaths(child, p)...)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			add(k, v[k])
		}
	case []any:
		for i, e := range v {
			add(i, e)
		}
	}
	return out
}

// replaceAt returns a copy of v with the value at path replaced by r.
func replaceAt(v any, path []any, r any) any {
	if len(path) == 0 {
		return r
	}
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = e
		}
		k := path[0].(string)
		c[k] = replaceAt(v[k], path[1:], r)
		return c
	case []any:
		c := append([]any{}, v...)
		i := path[0].(int)
		c[i] = replaceAt(v[i], path[1:], r)
		return c
	}
	return v
}

func valueAt(v any, path []any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// typeChangeAllowed lists field paths (joined with "/") whose value may
// legitimately take another JSON type: a replacement there need not raise a
// finding. Every entry says why.
var typeChangeAllowed = map[string]string{}

// TestHostileWrongTypes replaces every value of a valid adoption, one at a
// time, with null, 1, "x", [], {} and true. No replacement may panic or
// hang, and a replacement that changes the JSON type of the value must
// raise at least one finding on the adoption.
func TestHostileWrongTypes(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(hostileAdoption), &doc); err != nil {
		t.Fatal(err)
	}
	replacements := []any{nil, 1.0, "x", []any{}, map[string]any{}, true}
	paths := jsonPaths(doc, nil)
	if len(paths) < 30 {
		t.Fatalf("only %d paths; the walk is broken", len(paths))
	}
	for _, p := range paths {
		var parts []string
		for _, s := range p {
			parts = append(parts, fmt.Sprint(s))
		}
		key := strings.Join(parts, "/")
		orig := valueAt(doc, p)
		for _, r := range replacements {
			name := key + "=" + jsonKind(r)
			t.Run(name, func(t *testing.T) {
				data, err := json.MarshalIndent(replaceAt(doc, p, r), "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				res := checkHostile(t, writePackage(t, map[string][]byte{adoptionFile: data}))
				t.Logf("exit %d, findings:\n%s", res.code, res)
				if jsonKind(orig) == jsonKind(r) {
					return
				}
				if _, ok := typeChangeAllowed[key]; ok {
					return
				}
				// The finding may land on the adoption or, for a change that
				// stops the file from claiming to be an adoption, on the
				// package.
				if len(res.onFile(adoptionFile)) == 0 && len(res.findings("CONTRACT_FOLDER_RESERVED", "contracts")) == 0 {
					t.Errorf("%s: %s replaced by %s raised no finding on the adoption; findings:\n%s", key, jsonKind(orig), jsonKind(r), res)
				}
			})
		}
	}
}

// withLineEnds rewrites every "\n" of s as eol.
func withLineEnds(s, eol string) []byte { return []byte(strings.ReplaceAll(s, "\n", eol)) }

// TestHostileLineEnds checks that CRLF (and lone CR) line ends move no
// finding: each damaged file gives the same ranges as with LF.
func TestHostileLineEnds(t *testing.T) {
	adoption := strings.Replace(hostileAdoption, `"capacity": 12`, `"capacity": 99`, 1)
	adoption = strings.Replace(adoption, `02-mechanics.md#burning`, `02-mechanics.md#burnin`, 1)
	chapter := hostileBase["02-mechanics.md"] + "\n## Oil\n\nSee `lantern.missing_key` and [the plan](05-build-plan.md#no-such-stage).\n"
	tuning := "{\n  \"values\": {\n    \"lantern.oil_units\": 12,\n    \"lantern.burn_seconds\": 30,\n    \"Bad Key\": 1\n  }\n}\n"
	var lf checkResult
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		res := checkHostile(t, writePackage(t, map[string][]byte{
			adoptionFile:      withLineEnds(adoption, eol),
			"02-mechanics.md": withLineEnds(chapter, eol),
			"tuning.json":     withLineEnds(tuning, eol),
		}))
		if eol == "\n" {
			lf = res
			for _, w := range []expect{
				{"CONTRACT_VALUE_RANGE", adoptionFile, 29},
				{"CONTRACT_CITATION_DANGLING", adoptionFile, 30},
				{"TUNING_KEY", "tuning.json", 5},
			} {
				fs := res.findings(w.code, w.file)
				if len(fs) != 1 || fs[0].Range.Start.Line+1 != w.line {
					t.Errorf("LF: want one %s on %s line %d; findings:\n%s", w.code, w.file, w.line, res)
				}
			}
			if len(res.onFile("02-mechanics.md")) < 2 {
				t.Errorf("LF: want findings on the chapter; findings:\n%s", res)
			}
			continue
		}
		if len(res.rep.Findings) != len(lf.rep.Findings) {
			t.Errorf("%q: %d findings, LF gave %d:\n%s\nLF:\n%s", eol, len(res.rep.Findings), len(lf.rep.Findings), res, lf)
			continue
		}
		for i, f := range res.rep.Findings {
			g := lf.rep.Findings[i]
			if f.Code != g.Code || f.File != g.File || f.Range != g.Range {
				t.Errorf("%q: finding %s %s at %+v, LF gave %s %s at %+v", eol, f.File, f.Code, f.Range, g.File, g.Code, g.Range)
			}
		}
	}
}

// bigJSON returns a valid adoption of at least n bytes: the base adoption
// with a long annotation string.
func bigJSON(n int) []byte {
	pad := strings.Repeat("oil ", n/4+1)
	return []byte(strings.Replace(hostileAdoption, `"summary"`, `"_padding": "`+pad+`", "summary"`, 1))
}

// TestHostileSizes covers files past the size limit, deep nesting and very
// long or very many constructs.
func TestHostileSizes(t *testing.T) {
	const twenty = 20 << 20
	bigChapter := bytes.Repeat([]byte("Some prose about the lantern and its oil.\n"), twenty/42+1)
	headings := make([]byte, 0, 100000*12)
	for i := 0; i < 100000; i++ {
		headings = fmt.Appendf(headings, "## H %d\n", i)
	}
	longRule := strings.Repeat("capacity + ", 100*1024/11) + "1 > 0"
	deepRule := strings.Repeat("(", 50*1024) + "capacity" + strings.Repeat(")", 50*1024) + " > 0"
	negRule := strings.Repeat("-", 100*1024) + "capacity > 0"
	withRules := func(rules string) []byte {
		return []byte(strings.Replace(hostileAdoption, `"rules": { "enough-oil": "capacity >= 1" }`, `"rules": {`+rules+`}`, 1))
	}
	deep := func(open, close string, n int) []byte {
		return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
	}
	cases := []hostileCase{
		{
			// Files far larger than any real design file are analysed and
			// their findings reported.
			name:    "20 MB adoption",
			changes: map[string][]byte{"contracts/huge.json": []byte(strings.Replace(string(bigJSON(twenty)), `"refill": "yes"`, `"refill": "sometimes"`, 1))},
			want:    []expect{{"CONTRACT_ANSWER_UNKNOWN", "contracts/huge.json", 0}},
			clean:   []string{adoptionFile, "02-mechanics.md"},
		},
		{
			name:    "20 MB chapter",
			changes: map[string][]byte{"03-content.md": append(append([]byte{}, bigChapter...), "\nSee [the map](missing-map.md).\n"...), "tuning.json": b(`{"values": {"lantern.oil_units": 12, "lantern.burn_seconds": 30, "Bad Key": 1}}`)},
			want:    []expect{{"DOC_LINK_FILE", "03-content.md", 0}, {"TUNING_KEY", "tuning.json", 1}},
			clean:   []string{adoptionFile},
		},
		{
			name:    "adoption nested 100000 deep",
			changes: map[string][]byte{"contracts/deep.json": []byte(`{"contract": "deep", "version": 1, "x": ` + string(deep("[", "]", 100000)) + `}`)},
			want:    []expect{{"CONTRACT_INSTANCE_JSON", "contracts/deep.json", 1}},
		},
		{
			name:    "adoption objects nested 100000 deep",
			changes: map[string][]byte{adoptionFile: []byte(`{"contract": "lamp-oil", "version": 1, "questions": ` + strings.Repeat(`{"a": `, 100000) + "1" + strings.Repeat("}", 100000) + `}`)},
			want:    []expect{{"CONTRACT_INSTANCE_JSON", adoptionFile, 1}},
		},
		{
			name:    "tuning nested 100000 deep",
			changes: map[string][]byte{"tuning.json": []byte(`{"values": ` + string(deep("[", "]", 100000)) + `}`)},
			want:    []expect{{"TUNING_JSON", "tuning.json", 1}},
		},
		{
			name:    "pack nested 100000 deep",
			changes: map[string][]byte{"contracts/lamp-oil-1.pack.json": deep("[", "]", 100000)},
			want:    []expect{{"CONTRACT_PACK_SHAPE", "contracts/lamp-oil-1.pack.json", 1}},
		},
		{
			// Two JSON levels per condition level: 250 levels stay under the
			// parser's limit of 512, so the condition code itself recurses.
			name:    "conditions nested 250 deep",
			changes: map[string][]byte{adoptionFile: []byte(strings.Replace(hostileAdoption, `"range": [1, 50]`, `"range": [1, 50], "when": `+strings.Repeat(`{"all": [`, 250)+`{"flag": {"refill": ["yes"]}}`+strings.Repeat("]}", 250), 1))},
		},
		{
			name:    "chapter with 100000 headings",
			changes: map[string][]byte{"03-content.md": headings},
		},
		{
			name:    "chapter with 100000 nested quotes",
			changes: map[string][]byte{"03-content.md": []byte(strings.Repeat(">", 100000) + " deep\n")},
		},
		{
			// Deeper nesting is in TestHostileMarkdownBlowup: the cost
			// grows with the square of the depth.
			name:    "chapter with 20000 nested lists",
			changes: map[string][]byte{"03-content.md": []byte(strings.Repeat("- ", 20000) + "deep\n")},
		},
		{
			name:    "chapter with 50000 unclosed brackets",
			changes: map[string][]byte{"03-content.md": []byte(strings.Repeat("[", 50000) + strings.Repeat("](x)", 10) + strings.Repeat("`", 50000) + "\n")},
		},
		{
			name:    "rule line 100 KB long",
			changes: map[string][]byte{adoptionFile: withRules(`"long": "` + longRule + `"`)},
			clean:   []string{"02-mechanics.md"},
		},
		{
			name:    "rule line nested 50000 deep",
			changes: map[string][]byte{adoptionFile: withRules(`"deep": "` + deepRule + `"`)},
			want:    []expect{{"CONTRACT_RULE_INVALID", adoptionFile, 0}},
		},
		{
			name:    "rule line of 100000 minus signs",
			changes: map[string][]byte{adoptionFile: withRules(`"neg": "` + negRule + `"`)},
			want:    []expect{{"CONTRACT_RULE_INVALID", adoptionFile, 0}},
		},
		{
			name: "tuning rule 100 KB long",
			changes: map[string][]byte{"tuning.json": b(`{"values": {"lantern.oil_units": 12, "lantern.burn_seconds": 30}, "rules": {"long": "` +
				strings.Repeat("lantern.oil_units + ", 100*1024/20) + `1 > 0", "deep": "` + strings.Repeat("(", 50000) + "1" + strings.Repeat(")", 50000) + ` > 0"}}`)},
			want: []expect{{"TUNING_RULE_INVALID", "tuning.json", 1}},
		},
	}
	runHostile(t, cases)
}

// TestHostileManyAdoptions checks a package with 300 adoptions that cite
// each other in a chain.
func TestHostileManyAdoptions(t *testing.T) {
	changes := map[string][]byte{}
	for i := 0; i < 300; i++ {
		a := strings.Replace(hostileAdoption, `"contract": "lamp-oil"`, fmt.Sprintf(`"contract": "lamp-oil-n%d"`, i), 1)
		changes[fmt.Sprintf("contracts/lamp-%03d.json", i)] = []byte(a)
	}
	res := checkHostile(t, writePackage(t, changes))
	if res.code != 0 {
		t.Errorf("exit %d; findings:\n%s", res.code, truncate(res.String(), 4000))
	}
}

// outsideFile writes a file next to the package folder, outside it, and
// returns its path.
func outsideFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(filepath.Dir(dir), "outside", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	// Wine reports success but makes a link nothing can see.
	if _, err := os.Lstat(link); err != nil {
		t.Skipf("symbolic links made here cannot be seen: %v", err)
	}
}

// evilChapter would raise findings if it were read: a dangling prose
// citation and a broken link.
const evilChapter = "# Evil\n\n## Secret\n\nThe `lantern.secret_key` is [here](nowhere.md).\n"

// TestHostilePaths covers symbolic links and citations or links that try
// to leave the package.
func TestHostilePaths(t *testing.T) {
	citing := func(where string) []byte {
		return []byte(strings.Replace(hostileAdoption, `"02-mechanics.md#burning"`, where, 1))
	}
	cases := []hostileCase{
		{
			name: "folder symlink loops",
			setup: func(t *testing.T, dir string) {
				symlink(t, "..", filepath.Join(dir, "notes", "up"))
				symlink(t, ".", filepath.Join(dir, "self"))
				symlink(t, dir, filepath.Join(dir, "contracts-link"))
				symlink(t, "loop-b", filepath.Join(dir, "loop-a.md"))
				symlink(t, "loop-a.md", filepath.Join(dir, "loop-b"))
			},
			clean: []string{adoptionFile, "02-mechanics.md"},
		},
		{
			name: "symlinked files outside the package",
			setup: func(t *testing.T, dir string) {
				evil := outsideFile(t, dir, "evil.md", evilChapter)
				bad := outsideFile(t, dir, "evil.json", `{"contract": "evil", "version": "x", `)
				symlink(t, evil, filepath.Join(dir, "03-content.md"))
				symlink(t, evil, filepath.Join(dir, "notes", "evil.md"))
				symlink(t, "../../outside/evil.md", filepath.Join(dir, "notes", "relative.md"))
				symlink(t, bad, filepath.Join(dir, "contracts", "evil-link.json"))
				symlink(t, filepath.Dir(evil), filepath.Join(dir, "outside-folder"))
			},
			absent: []string{"03-content.md", "notes/evil.md", "notes/relative.md", "outside-folder/evil.md", "../outside/evil.md", "nowhere.md"},
		},
		{
			name: "symlinked file inside the package is read",
			changes: map[string][]byte{
				"notes/real.md": []byte(evilChapter),
			},
			setup: func(t *testing.T, dir string) {
				symlink(t, "real.md", filepath.Join(dir, "notes", "alias.md"))
			},
			want: []expect{{"DOC_LINK_FILE", "notes/alias.md", 5}},
		},
		{
			name:    "citation with ../",
			changes: map[string][]byte{adoptionFile: citing(`"../../etc/passwd.md#root"`)},
			setup:   func(t *testing.T, dir string) { outsideFile(t, dir, "passwd.md", "# Root\n") },
			want:    []expect{{"CONTRACT_CITATION_DANGLING", adoptionFile, 30}},
		},
		{
			name:    "citation of an absolute path",
			changes: map[string][]byte{adoptionFile: citing(`"/etc/passwd.md#root"`)},
			want:    []expect{{"CONTRACT_CITATION_DANGLING", adoptionFile, 30}},
		},
		{
			name:    "citation of a sibling package through ..",
			changes: map[string][]byte{adoptionFile: citing(`"../outside/evil.md#secret"`)},
			setup:   func(t *testing.T, dir string) { outsideFile(t, dir, "evil.md", evilChapter) },
			want:    []expect{{"CONTRACT_CITATION_DANGLING", adoptionFile, 30}},
		},
		{
			name:    "citation that leaves and comes back",
			changes: map[string][]byte{adoptionFile: citing(`"contracts/../../pkg/02-mechanics.md#burning"`)},
			want:    []expect{{"CONTRACT_CITATION_DANGLING", adoptionFile, 30}},
		},
		{
			name:    "citation with a backslash",
			changes: map[string][]byte{adoptionFile: citing(`"..\\..\\x.md#a"`)},
			want:    []expect{{"CONTRACT_CITATION_DANGLING", adoptionFile, 30}},
		},
		{
			// SPEC §10.10: a citation that holds a colon is a grammar error,
			// which comes before any lookup.
			name:    "citation of a drive letter",
			changes: map[string][]byte{adoptionFile: citing(`"C:\\x.md#a"`)},
			want:    []expect{{"CONTRACT_CITATION_GRAMMAR", adoptionFile, 30}},
		},
		{
			name: "Markdown links outside the roots",
			changes: map[string][]byte{
				"03-content.md": []byte("# Content\n\n## Links\n\nSee [x](../../../../etc/passwd), [y](../outside/evil.md#nothing), [z](/../../etc/passwd.md#root) and [w](%2e%2e/%2e%2e/etc/passwd).\n\n[r]: ../../../../etc/shadow\n"),
			},
			// The checked folder has no .git above it, so it is the top of
			// the repository: each link climbing above it leads nowhere. It
			// is reported without reading anything outside (a read of
			// evil.md would show as DOC_LINK_ANCHOR for #nothing).
			setup:  func(t *testing.T, dir string) { outsideFile(t, dir, "evil.md", evilChapter) },
			want:   []expect{{"DOC_LINK_FILE", "03-content.md", 5}, {"DOC_LINK_FILE", "03-content.md", 7}},
			forbid: []string{"DOC_LINK_ANCHOR"},
		},
		{
			name:    "Markdown link outside the roots to a missing file",
			changes: map[string][]byte{"03-content.md": []byte("# Content\n\nSee [x](../no/such/file.md).\n")},
			want:    []expect{{"DOC_LINK_FILE", "03-content.md", 3}},
		},
	}
	for _, where := range []string{"../../etc/passwd.md#root", "/etc/passwd.md#root", "../outside/evil.md#secret"} {
		cases = append(cases, hostileCase{
			name:    "prose citation " + where,
			changes: map[string][]byte{"03-content.md": []byte("# Content\n\n## Cite\n\nSee `" + where + "`.\n")},
			setup:   func(t *testing.T, dir string) { outsideFile(t, dir, "evil.md", evilChapter) },
			absent:  []string{"../outside/evil.md"},
		})
	}
	runHostile(t, cases)
}

// TestHostileDangleMessage checks that an escaping citation says why it
// dangles.
func TestHostileDangleMessage(t *testing.T) {
	for _, where := range []string{"../../etc/passwd.md#root", "/etc/passwd.md#root"} {
		dir := writePackage(t, map[string][]byte{adoptionFile: []byte(strings.Replace(hostileAdoption, "02-mechanics.md#burning", where, 1))})
		res := checkHostile(t, dir)
		fs := res.findings("CONTRACT_CITATION_DANGLING", adoptionFile)
		if len(fs) != 1 || !strings.Contains(fs[0].Message, "outside the package") {
			t.Errorf("%s: want one dangling citation that says it leaves the package; findings:\n%s", where, res)
		}
	}
}

// TestHostileOnlyAdoptionBinary checks a contracts/ folder whose only
// adoption holds a NUL byte: the file is a syntax error of its kind, and
// since it does not parse it does not count as an adoption.
func TestHostileOnlyAdoptionBinary(t *testing.T) {
	res := checkHostile(t, writePackage(t, map[string][]byte{adoptionFile: append([]byte(`{"contract": "lamp-oil", "version": 1, `), 0)}))
	t.Logf("findings:\n%s", res)
	if fs := res.findings("CONTRACT_INSTANCE_JSON", adoptionFile); len(fs) != 1 || fs[0].Range.Start.Character != 39 {
		t.Errorf("want CONTRACT_INSTANCE_JSON at the NUL byte (column 40)")
	}
	if len(res.findings("CONTRACT_FOLDER_RESERVED", "contracts")) != 1 {
		t.Errorf("want CONTRACT_FOLDER_RESERVED on the folder contracts")
	}
	if len(res.findings("FILE_NOT_ANALYSED", adoptionFile)) != 0 {
		t.Errorf("FILE_NOT_ANALYSED is not a code of the format: a binary adoption is a syntax error")
	}
}

// TestHostileContractsSymlinkOutside checks the finding on a .json entry of
// contracts/ that is a symbolic link leading outside the package: the file
// must not be read, and the finding must not claim it is not .json.
func TestHostileContractsSymlinkOutside(t *testing.T) {
	dir := writePackage(t, nil)
	bad := outsideFile(t, dir, "evil.json", `{"contract": "evil", "version": "x", `)
	symlink(t, bad, filepath.Join(dir, "contracts", "evil.json"))
	res := checkHostile(t, dir)
	t.Logf("findings:\n%s", res)
	for _, f := range res.rep.Findings {
		if f.Code == "CONTRACT_INSTANCE_JSON" || f.Code == "CONTRACT_ENVELOPE_TYPE" || strings.Contains(f.File, "outside") {
			t.Errorf("the outside file was read: %s %s %s", f.File, f.Code, f.Message)
		}
		if strings.Contains(f.Message, "evil.json is a file that is not .json") {
			t.Errorf("misleading finding on a .json symbolic link: %s %s", f.Code, f.Message)
		}
	}
}

// TestHostileMarkdownBlowup feeds chapters of a few hundred kilobytes that
// make CommonMark parsing super-linear. Each must finish within hangLimit.
// At the time of writing they do not: goldmark (v1.8.7) is quadratic or
// worse on these shapes (nested list markers on one line, mixed emphasis
// delimiters, unclosed link openers; see yuin/goldmark#555 for emphasis),
// so a 16 MiB chapter, which is under the size limit, stalls the checker and
// the server for hours.
func TestHostileMarkdownBlowup(t *testing.T) {
	for name, content := range map[string]string{
		"160000 nested list markers":   strings.Repeat("- ", 160000) + "x\n",
		"60000 mixed emphasis":         strings.Repeat("*a_", 60000) + "\n",
		"100000 unclosed link openers": strings.Repeat("[a](", 100000) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkHostile(t, writePackage(t, map[string][]byte{"03-content.md": []byte(content)}))
		})
	}
}
