package pack

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

const packFile = "contracts/clamped-meter-1.pack.json"
const adoptionFile = "contracts/meter.json"

// baseAdoption is a small adoption that the cases edit by replacing
// fragments. "@PACK@" becomes the digest of the case's pack.
const baseAdoption = `{
  "contract": "clamped-meter",
  "version": 1,
  "origin": "https://example.test/clamped-meter-1",
  "summary": "A meter.",
  "mechanism": ["The meter stays inside its limits."],
  "questions": {
    "overflow": {
      "asks": "What happens past a limit?",
      "options": { "clamp": { "meaning": "Stops." }, "refuse": { "meaning": "Refused." } }
    },
    "notice": {
      "asks": "Is a refusal shown?",
      "when": { "flag": { "overflow": ["refuse"] } },
      "otherwise": "Nothing is shown.",
      "options": { "show": { "meaning": "Shown." }, "hide": { "meaning": "Hidden." } }
    }
  },
  "declares": {
    "values": {
      "maximum": { "description": "The top.", "range": [1, 999] },
      "penalty": { "description": "Refusal cost.", "when": { "flag": { "overflow": ["refuse"] } } }
    },
    "rows": {
      "windows": {
        "when-empty": "No windows.",
        "record": {
          "id": { "type": "string", "required": true, "pattern": "kebab-case", "unique": true },
          "unit": { "type": "string", "required": true, "options": ["turns", "seconds"] },
          "cap": { "type": "number", "when": { "row": { "unit": ["turns"] } } }
        }
      }
    }
  },
  "pack": "@PACK@",
  "answers": { "overflow": "clamp" },
  "values": { "maximum": 100 },
  "rows": { "windows": [ { "id": "poison", "unit": "turns", "cap": 3 }, { "id": "stun", "unit": "seconds" } ] }
}`

// onceTemplate is a live once template for baseAdoption.
const onceTemplate = `{
      "id": "stops-at-maximum",
      "title": "{{instance}} stops at the maximum",
      "type": "scenario",
      "expand": "once",
      "when": { "flag": { "overflow": ["clamp"] } },
      "test": {
        "type": "scenario",
        "given": "{{instance}} is 1 below {{value-cite:maximum}}",
        "when": "a gain of 5 arrives",
        "then": "{{instance}} equals {{value-cite:maximum}}"
      },
      "text": "A gain never moves {{instance}} above {{value-cite:maximum}}."
    }`

// perRowTemplate is a live per-row template for baseAdoption.
const perRowTemplate = `{
      "id": "window-closes",
      "title": "{{row.id}} closes",
      "type": "scenario",
      "expand": "per-row",
      "collection": "windows",
      "bindings": { "unit-word": { "row_field": "unit", "map": { "turns": "turn", "seconds": "second" } } },
      "test": { "type": "scenario", "given": "{{row.id}} is open", "when": "one {{bind:unit-word}} passes", "then": "{{row.id}} ages" },
      "text": "Per row."
    }`

func packOf(templates ...string) string {
	return `{
  "contract": "clamped-meter",
  "version": 1,
  "templates": [
    ` + strings.Join(templates, ",\n    ") + `
  ]
}`
}

// setup parses a pack and an adoption whose "@PACK@" is replaced by the
// pack's digest.
func setup(t *testing.T, packJSON, adoptionJSON string) (*Pack, *contracts.Adoption, *contracts.State) {
	t.Helper()
	p := ParsePack(packFile, []byte(packJSON))
	a := contracts.ParseAdoption(adoptionFile, []byte(strings.ReplaceAll(adoptionJSON, "@PACK@", p.Digest())))
	return p, a, contracts.Evaluate(a, nil)
}

// edit applies old/new replacement pairs to s, failing when an old text is
// missing so that a case cannot silently test the base input.
func edit(t *testing.T, s string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("edit: %q not found", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

// under returns the text a finding's span covers in the file it names.
func under(f source.Finding, packText, adoptionText string) string {
	text := adoptionText
	if f.File == packFile {
		text = packText
	}
	if f.Span.Start < 0 || f.Span.End > len(text) || f.Span.Start > f.Span.End {
		return "<span out of range>"
	}
	return text[f.Span.Start:f.Span.End]
}

func withCode(fs []source.Finding, code string) []source.Finding {
	var out []source.Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}
