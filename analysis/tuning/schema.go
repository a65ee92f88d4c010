package tuning

import (
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// CodeSchema is reported where tuning.json breaks the published
// tuning.schema.json, alongside the more specific code of the same fault
// (SPEC §4; Appendix A pairs TUNING_KEY with it).
const CodeSchema = "TUNING_SCHEMA"

// schemaSegment is one segment of a key as tuning.schema.json spells it.
var schemaSegment = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$`)

// schemaKey checks a key of values, open or ranges against the schema's
// tuningKey: two or more segments, not all of them digits only.
func schemaKey(key string) string {
	segs := strings.Split(key, ".")
	if len(segs) < 2 {
		return "is not a dotted key of two or more segments"
	}
	digits := true
	for _, s := range segs {
		if !schemaSegment.MatchString(s) {
			return "has a segment that is not letters, digits, _ or - (not at either end)"
		}
		if strings.Trim(s, "0123456789") != "" {
			digits = false
		}
	}
	if digits {
		return "has only digits in every segment"
	}
	return ""
}

var ruleName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// schemaShape is tuning.schema.json written with jsonshape.
var schemaShape = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "values", Required: true, Doc: "the decided numbers",
			Shape: jsonshape.Object{Rest: jsonshape.Number{}, Key: schemaKey, KeyDoc: "tuning keys"}},
		{Name: "open", Doc: "numbers left open, each with a guess or null",
			Shape: jsonshape.Object{Rest: jsonshape.OneOf{Shapes: []jsonshape.Shape{jsonshape.Number{}, jsonshape.Null{}}}, Key: schemaKey, KeyDoc: "tuning keys"}},
		{Name: "ranges", Doc: "inclusive [minimum, maximum] bounds",
			Shape: jsonshape.Object{Rest: jsonshape.Array{Elem: jsonshape.Number{}, MinItems: 2, MaxItems: 2}, Key: schemaKey, KeyDoc: "tuning keys"}},
		{Name: "rules", Doc: "named one-line rules",
			Shape: jsonshape.Object{Rest: jsonshape.String{NonEmpty: true}, KeyDoc: "rule names", Key: func(k string) string {
				if !ruleName.MatchString(k) {
					return "is not a kebab-case rule name"
				}
				return ""
			}}},
	},
}

// schemaFindings checks a parsed tuning.json against tuning.schema.json.
func schemaFindings(file string, root *jsonsrc.Value) []source.Finding {
	return jsonshape.Findings(jsonshape.Check(schemaShape, root, "tuning.json"), CodeSchema, source.Error, file)
}
