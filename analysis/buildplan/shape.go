package buildplan

import (
	"regexp"
	"strconv"

	"github.com/gddls/gddls/analysis/jsonshape"
)

// The test types (§6).
const (
	Scenario = "scenario"
	General  = "general"
)

// Types are the test types a block may have, in the order the editor
// proposes them.
var Types = []string{Scenario, General}

// retiredTypes are the test types of earlier versions, with what replaces
// each.
var retiredTypes = map[string]string{
	"property":          "run `gddls migrate`, which rewrites it as a general test",
	"exhaustive-search": "run `gddls migrate`, which rewrites it as a general test",
	"document-check":    "delete or rewrite the test; a check of package files belongs in the data rules or in prose (`gddls migrate` lists it for review)",
}

// retiredFields are the test fields of earlier versions, with what to
// write instead.
var retiredFields = map[string]string{
	"freeze_invariant": "write `unchanged` instead",
	"domain":           "write `scope` in a general test instead",
	"predicate":        "write `holds` in a general test instead",
	"applies_to":       "remove it and let the `holds` sentence say whether the claim is about each case or about a measure across them",
	"initial_states":   "move what it says into the `scope` of a general test",
	"bound":            "move what it says into the `scope` of a general test",
	"transitions":      "remove it; the build record's acceptance.sampled says how thoroughly a general test was checked",
	"finite_state":     "remove it; the build record's acceptance.sampled says how thoroughly a general test was checked",
	"complete":         "remove it; the build record's acceptance.sampled says how thoroughly a general test was checked",
	"rule_set":         "remove it; a check of package files belongs in the data rules or in prose",
	"artifacts":        "remove it; a check of package files belongs in the data rules or in prose",
}

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var (
	text  = jsonshape.String{NonEmpty: true}
	texts = jsonshape.Array{Elem: text, MinItems: 1}
	steps = jsonshape.OneOf{Shapes: []jsonshape.Shape{text, texts},
		Doc: "a non-empty string or a non-empty array of non-empty strings"}
	// Every object of a test block reads a member written twice as JSON
	// readers do: the last one counts.
	object = jsonshape.Object{Rest: jsonshape.Any{}, What: "an object", LastWins: true}
)

// The members of a test block, each with what it holds.
var (
	fieldType = jsonshape.Field{Name: "type", Required: true, Shape: jsonshape.String{Enum: Types},
		Doc: "The test type: `scenario` states one situation and its outcome, `general` one claim across many cases."}
	fieldGiven = jsonshape.Field{Name: "given", Required: true, Shape: steps,
		Doc: "The situation the scenario starts from, as instructions for the runner."}
	fieldWhen = jsonshape.Field{Name: "when", Required: true, Shape: steps,
		Doc: "What happens in the scenario, as instructions for the runner."}
	fieldThen = jsonshape.Field{Name: "then", Required: true, Shape: steps,
		Doc: "The outcome a finished build must show."}
	fieldScope = jsonshape.Field{Name: "scope", Required: true, Shape: text,
		Doc: "The cases the claim is about, in words; the runner samples them or checks every one."}
	fieldHolds = jsonshape.Field{Name: "holds", Required: true, Shape: text,
		Doc: "The claim that holds across the cases of `scope`."}
	fieldSeeds = jsonshape.Field{Name: "seeds", Shape: texts,
		Doc: "Names of repeatable random sequences that generate the cases, so that a failure can be reproduced."}
	common = []jsonshape.Field{
		{Name: "diagnostics", Shape: texts,
			Doc: "Names of the observations, logs or other data the test uses; the runner profile gives them meaning."},
		{Name: "direction_claims", Shape: jsonshape.Array{Elem: jsonshape.String{}, MinItems: 1},
			Doc: "The measured promises of direction.json the test covers: `colors.<key>`, `contrast.<key>` or `timing.<key>`."},
		{Name: "unchanged", Shape: jsonshape.Any{},
			Doc: "Values that stay the same during named modes (§4b.3)."},
		{Name: "replay", Shape: object,
			Doc: "Replay input for the runner; its contents are the runner's."},
		{Name: "target", Shape: jsonshape.Any{},
			Doc: "The value the test expects the runner to observe, of the observation's JSON type."},
		{Name: "tolerance", Shape: jsonshape.Number{},
			Doc: "How far the observation may be from `target`; only together with `target`."},
		{Name: "extensions", Shape: jsonshape.Object{Rest: object, KeyDoc: "extension ids", What: "an object of extensions", LastWins: true,
			Key: func(k string) string {
				if !kebab.MatchString(k) {
					return "is not a kebab-case extension id"
				}
				return ""
			}},
			Doc: "Data a package or a runner owns, under kebab-case extension ids, each an object."},
	}
)

func shape(fields ...jsonshape.Field) jsonshape.Object {
	return jsonshape.Object{What: "a test block", Fields: append(fields, common...), LastWins: true}
}

var (
	scenarioShape = shape(fieldType, fieldGiven, fieldWhen, fieldThen)
	generalShape  = shape(fieldType, fieldScope, fieldHolds, fieldSeeds)
	// anyShape is the shape of a block whose type is unknown: every field
	// allowed, none required.
	anyShape = func() jsonshape.Object {
		s := shape(fieldType, fieldGiven, fieldWhen, fieldThen, fieldScope, fieldHolds, fieldSeeds)
		for i := range s.Fields {
			s.Fields[i].Required = false
		}
		return s
	}()
)

// Shape returns the shape of a test block of type typ; for a type that is
// neither scenario nor general, a shape that allows every field of both.
func Shape(typ string) jsonshape.Object {
	switch typ {
	case Scenario:
		return scenarioShape
	case General:
		return generalShape
	}
	return anyShape
}

// otherType names the type a member belongs to when it is not a field of
// typ, or "".
func otherType(typ, member string) string {
	if typ == Scenario && generalShape.Field(member) != nil && scenarioShape.Field(member) == nil {
		return General
	}
	if typ == General && scenarioShape.Field(member) != nil && generalShape.Field(member) == nil {
		return Scenario
	}
	return ""
}

// unknownHint says what to do with a member outside the closed field set.
func unknownHint(typ, member string) string {
	if r, ok := retiredFields[member]; ok {
		return strconv.Quote(member) + " is a field of an earlier version of the format; " + r + " (`gddls migrate` rewrites retired fields)"
	}
	if other := otherType(typ, member); other != "" {
		return strconv.Quote(member) + " belongs to " + other + " tests, and this test is " + typ + "; remove it or change the type"
	}
	if member == "procedure" {
		return "a test has no \"procedure\": a scenario states its steps in given, when and then, a general test in scope and holds"
	}
	return strconv.Quote(member) + " is not a field of a test block; data that a package or a runner owns goes inside \"extensions\", under a kebab-case extension id"
}
