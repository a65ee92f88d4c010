package pack

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

type codeCase struct {
	name string
	// pack is the pack text; empty means the base pack (once + per-row).
	pack string
	// packEdits and adoptEdits are old/new pairs applied to the texts.
	packEdits  []string
	adoptEdits []string
	code       string
	// want is the text under the span; "" asserts that code is silent.
	want string
	// inAdoption says the finding is filed in the adoption.
	inAdoption bool
	dependent  bool
}

func runCodeCases(t *testing.T, cases []codeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			packText := tc.pack
			if packText == "" {
				packText = packOf(onceTemplate, perRowTemplate)
			}
			packText = edit(t, packText, tc.packEdits...)
			p, a, s := setup(t, packText, edit(t, baseAdoption, tc.adoptEdits...))
			adoptionText := string(a.Data)
			all := append(append([]source.Finding{}, p.Findings...), Check(a, s, p)...)
			got := withCode(all, tc.code)
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("want no %s, got %v", tc.code, got)
				}
				return
			}
			for _, f := range got {
				if under(f, packText, adoptionText) != tc.want {
					continue
				}
				wantFile := packFile
				if tc.inAdoption {
					wantFile = adoptionFile
				}
				if f.File != wantFile {
					t.Errorf("filed in %s, want %s: %v", f.File, wantFile, f)
				}
				if f.Dependent != tc.dependent {
					t.Errorf("Dependent = %v, want %v: %v", f.Dependent, tc.dependent, f)
				}
				if f.Message == "" {
					t.Errorf("empty message")
				}
				return
			}
			var unders []string
			for _, f := range got {
				unders = append(unders, under(f, packText, adoptionText)+" <- "+f.Message)
			}
			t.Fatalf("no %s under %q; got %d: %s\nall findings: %v", tc.code, tc.want, len(got), strings.Join(unders, "; "), all)
		})
	}
}

func TestBasePackIsClean(t *testing.T) {
	packText := packOf(onceTemplate, perRowTemplate)
	p, a, s := setup(t, packText, baseAdoption)
	if len(p.Findings) != 0 {
		t.Fatalf("pack findings: %v", p.Findings)
	}
	if fs := Check(a, s, p); len(fs) != 0 {
		t.Fatalf("check findings: %v", fs)
	}
	if fs := CheckSet([]*Pack{p}, nil); len(withCode(fs, CodePackOrphan)) != 1 {
		t.Fatalf("a pack without adoptions must be an orphan: %v", fs)
	}
}

func TestPackShape(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "syntax", packEdits: []string{`"version": 1,`, `"version": 1,,`}, code: CodePackShape, want: ","},
		{name: "clean", code: CodePackShape},
		{name: "top-level unknown", packEdits: []string{`"version": 1,`, `"version": 1, "extra": true,`}, code: CodePackShape, want: `"extra"`},
		{name: "top-level annotation", packEdits: []string{`"version": 1,`, `"version": 1, "_note": true,`}, code: CodePackShape},
		{name: "template unknown field", packEdits: []string{`"expand": "once",`, `"expand": "once", "weight": 2,`}, code: CodePackShape, want: `"weight"`},
		{name: "bad id", packEdits: []string{`"id": "stops-at-maximum"`, `"id": "Stops"`}, code: CodePackShape, want: `"Stops"`},
		{name: "repeated id", pack: packOf(onceTemplate, onceTemplate), code: CodePackShape, want: `"stops-at-maximum"`},
		{name: "type unlike test.type", packEdits: []string{`"type": "scenario",
        "given"`, `"type": "general",
        "given"`}, code: CodePackShape, want: `"general"`},
		{name: "retired type", packEdits: []string{`"type": "scenario",
      "expand": "once"`, `"type": "property",
      "expand": "once"`}, code: CodePackShape, want: `"property"`},
		{name: "collection on once", packEdits: []string{`"expand": "once",`, `"expand": "once", "collection": "windows",`}, code: CodePackShape, want: `"collection"`},
		{name: "per-row without collection", packEdits: []string{`"collection": "windows",`, ``}, code: CodePackShape, want: `"window-closes"`},
		{name: "contract disagrees with file name", packEdits: []string{`"contract": "clamped-meter"`, `"contract": "other-meter"`}, code: CodePackShape, want: `"other-meter"`},
		{name: "version disagrees with file name", packEdits: []string{`"version": 1`, `"version": 2`}, code: CodePackShape, want: `2`},
		{name: "version not integer", packEdits: []string{`"version": 1`, `"version": 1.5`}, code: CodePackShape, want: `1.5`},
		{name: "unknown input", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "budget": {} },`}, code: CodePackShape, want: `"budget"`},
		{name: "bad input default", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "seeds": { "default": [""] } },`}, code: CodePackShape, want: `[""]`},
		{name: "good input default", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "seeds": { "default": ["s1"] } },`}, code: CodePackShape},
		{name: "test not an object", packEdits: []string{`"test": { "type": "scenario", "given": "{{row.id}} is open", "when": "one {{bind:unit-word}} passes", "then": "{{row.id}} ages" }`, `"test": []`}, code: CodePackShape, want: `[]`},
	})
}

func TestPackHash(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "matching digest", code: CodePackHash},
		{name: "other digest", adoptEdits: []string{`"@PACK@"`, `"sha256:0000000000000000000000000000000000000000000000000000000000000000"`},
			code: CodePackHash, want: `"sha256:0000000000000000000000000000000000000000000000000000000000000000"`, inAdoption: true},
		{name: "no digest", adoptEdits: []string{`"pack": "@PACK@",`, ``}, code: CodePackHash, want: `"contract"`, inAdoption: true},
	})
	p, a, s := setup(t, packOf(onceTemplate), edit(t, baseAdoption, `"pack": "@PACK@",`, ``))
	fs := withCode(Check(a, s, p), CodePackHash)
	if len(fs) != 1 || !strings.Contains(fs[0].Message, p.Digest()) {
		t.Fatalf("the message must carry the digest to paste: %v", fs)
	}
}

const flagBinding = `"bindings": { "how": { "flag": "overflow", "map": { "clamp": "stops", "refuse": "is refused" } } },`

func TestBindings(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "both selectors", packEdits: []string{`"row_field": "unit",`, `"row_field": "unit", "flag": "overflow",`}, code: CodeBindingShape, want: `"row_field"`},
		{name: "no selector", packEdits: []string{`"row_field": "unit",`, ``}, code: CodeBindingShape, want: `"unit-word"`},
		{name: "no map", packEdits: []string{`, "map": { "turns": "turn", "seconds": "second" }`, ``}, code: CodeBindingShape, want: `"unit-word"`},
		{name: "not an object", packEdits: []string{`"unit-word": {`, `"unit-word": 3, "x": {`}, code: CodeBindingShape, want: `3`},
		// §10.7 gives a template's bindings as an object of bindings; the
		// format's validator lets an array pass (docs/VALIDATOR.md).
		{name: "bindings not an object", packEdits: []string{`"expand": "once",`, `"expand": "once", "bindings": ["how"],`}, code: CodePackShape, want: `["how"]`},
		{name: "well formed", code: CodeBindingShape},
		{name: "map key names no option", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + flagBinding, `"refuse": "is refused"`, `"spill": "spills"`}, code: CodeBindingMap, want: `"spill"`},
		{name: "row map key names no field option", packEdits: []string{`"seconds": "second"`, `"minutes": "minute"`}, code: CodeBindingMap, want: `"minutes"`},
		{name: "no phrase for the answer", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + flagBinding, `"clamp": "stops", `, ``},
			code: CodeBindingMap, want: `"clamp"`, inAdoption: true},
		{name: "no phrase for the row value", packEdits: []string{`"seconds": "second"`, `"turn": "x"`},
			code: CodeBindingMap, want: `"seconds"`, inAdoption: true},
		{name: "every value mapped", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + flagBinding}, code: CodeBindingMap},
		{name: "binding reads undeclared question", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + flagBinding, `"flag": "overflow"`, `"flag": "overflw"`},
			code: CodeReference, want: `"overflw"`},
	})
}

func TestPlaceholders(t *testing.T) {
	scopeInput := `"inputs": { "scope": {} },`
	runCodeCases(t, []codeCase{
		{name: "unknown", packEdits: []string{`"a gain of 5 arrives"`, `"a gain of {{amount}} arrives"`}, code: CodePlaceholder, want: `{{amount}}`},
		{name: "retired surface", packEdits: []string{`"a gain of 5 arrives"`, `"{{surface:scope}}"`}, code: CodePlaceholder, want: `{{surface:scope}}`},
		{name: "unknown in a template that is not live", packEdits: []string{`"overflow": ["clamp"]`, `"overflow": ["refuse"]`, `"a gain of 5 arrives"`, `"{{nope}}"`},
			code: CodePlaceholder, want: `{{nope}}`},
		{name: "known forms", code: CodePlaceholder},
		{name: "unresolved input", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + scopeInput, `"a gain of 5 arrives"`, `"a gain within {{inputs:scope}}"`},
			code: CodePlaceholder, want: `{{inputs:scope}}`, dependent: true},
		{name: "input supplied", packEdits: []string{`"expand": "once",`, `"expand": "once", ` + scopeInput, `"a gain of 5 arrives"`, `"a gain within {{inputs:scope}}"`},
			adoptEdits: []string{`"answers"`, `"verification": { "stops-at-maximum": { "scope": "every meter" } }, "answers"`}, code: CodePlaceholder},
		{name: "array inside a string", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "seeds": { "default": ["s1"] } },`, `"a gain of 5 arrives"`, `"seeds {{inputs:seeds}}"`},
			code: CodePlaceholder, want: `{{inputs:seeds}}`},
		{name: "array as a whole value", packEdits: []string{`"when": "a gain of 5 arrives"`, `"when": "{{inputs:seeds}}"`, `"expand": "once",`, `"expand": "once", "inputs": { "seeds": { "default": ["s1"] } },`},
			code: CodePlaceholder},
		{name: "inactive value-cite is not reported", packEdits: []string{`"a gain of 5 arrives"`, `"a gain of {{value-cite:penalty}}"`}, code: CodePlaceholder},
	})
}

func TestInjection(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "fence in verification", adoptEdits: []string{`"answers"`, `"verification": { "stops-at-maximum": { "scope": "a ` + "```" + ` b" } }, "answers"`},
			code: CodeInjection, want: `"a ` + "```" + ` b"`, inAdoption: true},
		{name: "braces in a row", adoptEdits: []string{`"id": "stun"`, `"id": "stun", "_n": "{{ok}}", "unit2": ["x}}"]`}, code: CodeInjection, want: `"x}}"`, inAdoption: true},
		{name: "braces in an answer", adoptEdits: []string{`"overflow": "clamp" }`, `"overflow": "{{clamp" }`}, code: CodeInjection, want: `"{{clamp"`, inAdoption: true},
		{name: "near miss", adoptEdits: []string{`"answers"`, `"verification": { "stops-at-maximum": { "scope": "a { { b } ` + "``" + `" } }, "answers"`}, code: CodeInjection},
	})
}

func TestReference(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "flag names undeclared question", packEdits: []string{`"overflow": ["clamp"]`, `"overfloe": ["clamp"]`}, code: CodeReference, want: `"overfloe"`},
		{name: "flag names undeclared option", packEdits: []string{`"overflow": ["clamp"]`, `"overflow": ["clamp", "spill"]`}, code: CodeReference, want: `"spill"`},
		{name: "row names undeclared field", packEdits: []string{`"collection": "windows",`, `"collection": "windows", "when": { "row": { "colour": ["red"] } },`}, code: CodeReference, want: `"colour"`},
		{name: "collection names nothing", packEdits: []string{`"collection": "windows"`, `"collection": "windowz"`}, code: CodeReference, want: `"windowz"`},
		{name: "row_field names nothing", packEdits: []string{`"row_field": "unit"`, `"row_field": "units"`}, code: CodeReference, want: `"units"`},
		{name: "value-cite names nothing", packEdits: []string{`"a gain of 5 arrives"`, `"a gain of {{value-cite:maximun}}"`}, code: CodeReference, want: `maximun`},
		{name: "row placeholder names nothing", packEdits: []string{`"Per row."`, `"{{row.colour}}"`}, code: CodeReference, want: `colour`},
		{name: "row placeholder in a once template", packEdits: []string{`"a gain of 5 arrives"`, `"{{row.id}}"`}, code: CodePlaceholder, want: `id`},
		{name: "undeclared input", packEdits: []string{`"a gain of 5 arrives"`, `"{{inputs:scope}}"`}, code: CodeReference, want: `scope`},
		{name: "undeclared binding", packEdits: []string{`"a gain of 5 arrives"`, `"{{bind:how}}"`}, code: CodeReference, want: `how`},
		{name: "verification names no template", adoptEdits: []string{`"answers"`, `"verification": { "nope": { "scope": "x" } }, "answers"`},
			code: CodeReference, want: `"nope"`, inAdoption: true},
		{name: "verification for a template that is not live", packEdits: []string{`"overflow": ["clamp"]`, `"overflow": ["refuse"]`},
			adoptEdits: []string{`"answers"`, `"verification": { "stops-at-maximum": { "scope": "x" } }, "answers"`},
			code:       CodeReference, want: `"stops-at-maximum"`, inAdoption: true},
		{name: "verification for a template waiting on an answer", packEdits: []string{`"overflow": ["clamp"]`, `"overflow": ["refuse"], "notice": ["show"]`},
			adoptEdits: []string{`"overflow": "clamp"`, `"overflow": "refuse"`, `"answers"`, `"verification": { "stops-at-maximum": { "scope": "x" } }, "answers"`},
			code:       CodeReference, want: `"stops-at-maximum"`, inAdoption: true, dependent: true},
		{name: "missing required input, no verification", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "scope": {} },`},
			code: CodeReference, want: `"contract"`, inAdoption: true},
		{name: "missing required input, other entries", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "scope": {} },`},
			adoptEdits: []string{`"answers"`, `"verification": { "window-closes": {} }, "answers"`},
			code:       CodeReference, want: `"verification"`, inAdoption: true},
		{name: "input has a default", packEdits: []string{`"expand": "once",`, `"expand": "once", "inputs": { "scope": { "default": "all" } },`}, code: CodeReference},
		{name: "all names declared", code: CodeReference},
	})
}

func TestRowIDWhenDomainDirectionClaims(t *testing.T) {
	runCodeCases(t, []codeCase{
		{name: "id not unique", adoptEdits: []string{`"pattern": "kebab-case", "unique": true`, `"pattern": "kebab-case"`}, code: CodeRowID, want: `"id"`, inAdoption: true},
		{name: "no id field", adoptEdits: []string{`"id": { "type": "string", "required": true, "pattern": "kebab-case", "unique": true },`, ``, `"id": "poison", `, ``, `"id": "stun", `, ``},
			code: CodeRowID, want: `"windows"`, inAdoption: true},
		{name: "proper id", code: CodeRowID},
		{name: "row in a once template", packEdits: []string{`"flag": { "overflow": ["clamp"] }`, `"flag": { "overflow": ["clamp"] }, "row": { "unit": ["turns"] }`}, code: CodeWhenDomain, want: `"row"`},
		{name: "row in a per-row template", packEdits: []string{`"collection": "windows",`, `"collection": "windows", "when": { "row": { "unit": ["turns"] } },`}, code: CodeWhenDomain},
		{name: "direction claims", packEdits: []string{`"when": "a gain of 5 arrives",`, `"when": "a gain of 5 arrives", "direction_claims": ["colors.meter"],`}, code: CodeDirectionClaims, want: `"direction_claims"`},
		{name: "annotated direction claims", packEdits: []string{`"when": "a gain of 5 arrives",`, `"when": "a gain of 5 arrives", "_direction_claims": ["colors.meter"],`}, code: CodeDirectionClaims},
	})
}

func TestCheckSet(t *testing.T) {
	p1 := ParsePack("contracts/clamped-meter-1.pack.json", []byte(packOf(onceTemplate)))
	p2 := ParsePack("contracts/clamped-meter-01.pack.json", []byte(packOf(onceTemplate)))
	p3 := ParsePack("contracts/other-2.pack.json", []byte(`{"contract": "other", "version": 2, "templates": []}`))
	_, a, _ := setup(t, packOf(onceTemplate), baseAdoption)
	fs := CheckSet([]*Pack{p1, p3, p2}, []*contracts.Adoption{a})
	shape := withCode(fs, CodePackShape)
	if len(shape) != 1 || shape[0].File != p1.File || len(shape[0].Related) != 1 || shape[0].Related[0].File != p2.File {
		t.Errorf("second pack: %v", shape)
	}
	orphan := withCode(fs, CodePackOrphan)
	if len(orphan) != 1 || orphan[0].File != p3.File || string(packOf(onceTemplate)) == "" {
		t.Errorf("orphan: %v", orphan)
	}
	if got := `"other"`; orphan[0].Span.End > 0 && `{"contract": "other", "version": 2, "templates": []}`[orphan[0].Span.Start:orphan[0].Span.End] != got {
		t.Errorf("orphan span covers %q", `{"contract": "other", "version": 2, "templates": []}`[orphan[0].Span.Start:orphan[0].Span.End])
	}
	if fs := CheckSet([]*Pack{p1}, []*contracts.Adoption{a}); len(fs) != 0 {
		t.Errorf("one matching pack: %v", fs)
	}
}

func TestCheckPromised(t *testing.T) {
	_, a, s := setup(t, packOf(onceTemplate), edit(t, baseAdoption, `"id": "stun"`, `"id": "st{{un"`, `"pack": "@PACK@",`, ``))
	fs := Check(a, s, nil)
	if len(fs) != 1 || fs[0].Code != CodeInjection || under(fs[0], "", string(a.Data)) != `"st{{un"` {
		t.Fatalf("a promised adoption gets injection findings only: %v", fs)
	}
}
