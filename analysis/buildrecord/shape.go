package buildrecord

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/analysis/manifest"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

var (
	hexHash    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	packDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	urlScheme  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// manifestField returns the shape of a member of manifest.json, which the
// record shares (an id, a version, the commerce object).
func manifestField(path ...string) jsonshape.Shape {
	return jsonshape.At(manifest.Shape(), path)
}

func party(who string) jsonshape.Object {
	return jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
		{Name: "name", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Name"`,
			Doc: "The " + who + "'s name."},
		{Name: "handle", Shape: jsonshape.String{}, Doc: "The " + who + "'s handle."},
		{Name: "contact", Shape: jsonshape.String{}, Doc: "How to reach the " + who + "."},
		{Name: "role", Shape: jsonshape.String{}, Doc: "The " + who + "'s role in this build; it is local to the build and never compared with the package."},
	}}
}

func nonEmptyKey(key string) string {
	if key == "" {
		return "is an empty name; name a test of the package"
	}
	return ""
}

var shape = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "opengdd", Required: true, Shape: jsonshape.String{Enum: []string{manifest.FormatVersion}},
			Doc: "The format version the build was tested against: \"0.9\"."},
		{Name: "spec", Required: true, Doc: "The identity of the source package the build was built from: its manifest's id and version.",
			Shape: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "id", Required: true, Shape: manifestField("id"), Example: `"my-game"`, Doc: "The id of the source package (its manifest's id)."},
				{Name: "version", Required: true, Shape: manifestField("version"), Example: `"0.1.0"`, Doc: "The version of the source package (its manifest's version)."},
			}}},
		{Name: "designer", Required: true, Shape: party("designer"), Doc: "The package's designer, as its manifest names them."},
		{Name: "builder", Required: true, Shape: party("builder"), Doc: "The builder of this build."},
		{Name: "personalization", Required: true, Doc: "The answers the build used.",
			Shape: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "answers", Required: true, Example: "{}",
					Doc:   "Every question of personalization.json with the answer used, defaults included: a string for a choice or text question, a number for a number question. Empty when the package asks nothing.",
					Shape: jsonshape.Object{LastWins: true, Rest: jsonshape.OneOf{Shapes: []jsonshape.Shape{jsonshape.String{}, jsonshape.Number{}}, Doc: "a string or a number"}, KeyDoc: "question ids"}},
			}}},
		{Name: "resolved_tuning", Required: true, Doc: "The resolved tuning snapshot of the build (§5).",
			Shape: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "values", Required: true, Example: "{}",
					Doc:   "One flat map of every number the build uses: every values and open key of tuning.json, every present open record field, and every value of an active contract declaration.",
					Shape: jsonshape.Object{LastWins: true, Rest: jsonshape.Number{}, KeyDoc: "tuning keys"}},
			}}},
		{Name: "evidence", Required: true, Shape: evidence, Doc: "The test-run record; it may also hold build-local evidence of its own."},
		{Name: "commerce", Shape: manifestField("commerce"), Doc: "An exact copy of the source manifest's commerce object, when the builder copies it."},
	},
}

var evidence = jsonshape.Object{
	LastWins: true,
	Rest:     jsonshape.Any{},
	Fields: []jsonshape.Field{
		{Name: "acceptance", Required: true, Shape: acceptance, Doc: "The counts of the package's acceptance tests and the tests that did not pass."},
		{Name: "result_hash", Shape: jsonshape.String{Pattern: hexHash, PatternDoc: "64 lowercase hexadecimal digits"}, Example: `"` + strings.Repeat("0", 64) + `"`,
			Doc: "The hash of the payload, 64 lowercase hexadecimal digits; required when a test ran."},
		{Name: "payload", Doc: "What the result hash covers; required when a test ran.",
			Shape: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "covers", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Results of every test"`, Doc: "Which artifacts the hash covers, in plain words."},
				{Name: "file", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"evidence/payload.json"`, Doc: "The canonical payload bytes: a path relative to the record's folder, with forward slashes, that stays inside it."},
			}}},
		{Name: "runner", Doc: "The runner profile that produced the results; required when a test ran.",
			Shape: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "id", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"runner"`, Doc: "The id of the runner profile."},
				{Name: "version", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"1"`, Doc: "The version of the runner profile."},
			}}},
		{Name: "contracts", Doc: "One entry per checked contract adoption of the package, with the pack digest the build was verified against; absent when every adoption is promised.",
			Shape: jsonshape.Array{Elem: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "adoption", Required: true, Shape: manifestField("id"), Example: `"adoption"`, Doc: "The id of a checked adoption."},
				{Name: "pack", Required: true, Shape: jsonshape.String{Pattern: packDigest, PatternDoc: "sha256: followed by 64 lowercase hexadecimal digits"}, Example: `"sha256:` + strings.Repeat("0", 64) + `"`,
					Doc: "The digest of the pack the build was verified against."},
			}}}},
	},
}

var acceptance = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "passed", Required: true, Shape: jsonshape.Number{Integer: true, HasMin: true}, Example: "0", Doc: "How many of the package's tests passed."},
		{Name: "total", Required: true, Shape: jsonshape.Number{Integer: true, HasMin: true}, Example: "0", Doc: "How many tests the package has: its AT-n tests and the tests its checked packs generate."},
		{Name: "sampled", Shape: jsonshape.Array{Unique: true, Elem: jsonshape.String{NonEmpty: true}}, Example: "[]",
			Doc: "The general tests whose scope was sampled rather than checked whole."},
		{Name: "not_passed", Example: "{}", Doc: "Every test that did not pass, by name (AT-n, or <adoption>/<template>[/<row>]), with its result and the reason.",
			Shape: jsonshape.Object{LastWins: true, Key: nonEmptyKey, KeyDoc: "test names", Rest: jsonshape.Object{LastWins: true, Fields: []jsonshape.Field{
				{Name: "result", Required: true, Shape: jsonshape.String{Enum: []string{"failed", "partial", "not-run"}}, Example: `"not-run"`,
					Doc: "How the test ended: failed (it ran completely and did not pass), partial (it could be run only in part) or not-run."},
				{Name: "reason", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Why it did not pass"`, Doc: "Why the test did not pass."},
			}}}},
	},
}

// Shape returns the shape of a build record, for completion, hover and the
// quick fixes of the editor.
func Shape() jsonshape.Object { return shape }

// retired are the members of older versions of the record, by their
// path, each with what replaced it.
var retired = map[string]string{
	"renderer":                        "a build record no longer names its renderer",
	"resources":                       "a build record no longer lists resources",
	"capture_profile":                 "the audit records the capture profile in its own record",
	"direction_result":                "a build record carries no direction result",
	"evidence.direction_observations": "a build record carries no direction observations",
	"evidence.algorithm":              "the certification protocol names the hash",
	"resolved_tuning.tunables":        "the snapshot is one flat map, resolved_tuning.values",
	"resolved_tuning.constants":       "the snapshot is one flat map, resolved_tuning.values",
}

// shapeFindings checks the record against its shape: BUILD_SCHEMA, with a
// type error of passed or total as BUILD_ACCEPTANCE_SHAPE as well (the
// schema wants a whole number there, so two rows of §7 apply), a retired
// member as one focused finding, and the conditional members of a record
// in which a test ran.
func (r *Record) shapeFindings() []source.Finding {
	var out []source.Finding
	add := func(code string, span source.Span, msg string) {
		out = append(out, source.Finding{Code: code, Severity: source.Error, File: r.File, Span: span, Message: msg})
	}
	oldTuning := false
	for _, key := range []string{"tunables", "constants"} {
		if get(value(r.Root, "resolved_tuning"), key) != nil {
			oldTuning = true
		}
	}
	for _, p := range jsonshape.Check(shape, r.Root, "the build record") {
		switch {
		case p.Path == "evidence.acceptance.passed" || p.Path == "evidence.acceptance.total":
			if v := valueAt(r.Root, p.Path); v != nil && v.Kind() != jsonsrc.Number {
				msg := fmt.Sprintf("%q is %s, not a number; write how many tests %s as a whole number", p.Path, v.Describe(), map[bool]string{true: "passed", false: "the package has"}[strings.HasSuffix(p.Path, "passed")])
				add(CodeAcceptanceShape, p.Span, msg)
				add(CodeSchema, p.Span, msg)
				continue
			}
		case p.Kind == jsonshape.IsUnknown && retired[p.Path] != "":
			add(CodeSchema, p.Span, fmt.Sprintf("%q belongs to an earlier version of the build record (%s); remove it, or rewrite the record with `gddls migrate --build`", p.Path, retired[p.Path]))
			continue
		case p.Kind == jsonshape.IsMissing && p.Path == "resolved_tuning" && p.Member == "values" && oldTuning:
			continue // the retired member's finding says what to do
		}
		add(CodeSchema, p.Span, p.Msg)
	}
	// evidence is open, so its retired members are not unknown to the shape.
	for _, key := range []string{"direction_observations", "algorithm"} {
		if m := get(r.Evidence, key); m != nil && object(r.Evidence) != nil {
			add(CodeSchema, m.KeySpan(), fmt.Sprintf("%q belongs to an earlier version of the build record (%s); remove it, or rewrite the record with `gddls migrate --build`", "evidence."+key, retired["evidence."+key]))
		}
	}
	if why := r.ranBySchema(); object(r.Evidence) != nil && why != "" {
		for _, key := range []string{"result_hash", "payload"} {
			if get(r.Evidence, key) == nil {
				add(CodeSchema, r.Evidence.Opening(), fmt.Sprintf("a test ran (%s), so evidence needs %q; add it, or record every test as not-run if none ran", why, key))
			}
		}
	}
	return out
}

// ranBySchema says why the schema's condition for result_hash and payload
// holds, or "" when it does not: passed is a whole number of 1 or more, or
// a not_passed entry is not an object whose result is "not-run" (a
// failed or partial test, and also a malformed entry, as the schema reads
// it).
func (r *Record) ranBySchema() string {
	if n, ok := Count(r.Passed); ok && n >= 1 {
		return "passed is " + r.Passed.Raw()
	}
	for _, n := range r.NotPassed {
		switch {
		case n.Result == "failed" || n.Result == "partial":
			return fmt.Sprintf("%s is %s", n.Name, n.Result)
		case n.Result != "not-run":
			return fmt.Sprintf("%s is not recorded as not-run", n.Name)
		}
	}
	return ""
}

// valueAt returns the value at a dotted path of objects.
func valueAt(v *jsonsrc.Value, dotted string) *jsonsrc.Value {
	for _, key := range strings.Split(dotted, ".") {
		v = value(v, key)
	}
	return v
}

// checkPayloadPath reports BUILD_PAYLOAD_PATH (§7 rule 3). A path that is
// absolute, starts with a scheme or holds a backslash also breaks the
// package-path pattern of opengdd-build.schema.json, so it is BUILD_SCHEMA
// as well; one that only climbs out of the folder is not.
func (r *Record) checkPayloadPath() {
	f := value(value(r.Evidence, "payload"), "file")
	if f == nil || f.Kind() != jsonsrc.String || f.Str() == "" {
		return
	}
	if msg := PayloadPathProblem(f.Str()); msg != "" {
		msg = fmt.Sprintf("the payload file %q %s", f.Str(), msg)
		r.report(CodePayloadPath, f.Span(), msg)
		if strings.ContainsRune(f.Str(), '\\') || strings.HasPrefix(f.Str(), "/") || urlScheme.MatchString(f.Str()) {
			r.report(CodeSchema, f.Span(), msg)
		}
	}
}

// PayloadPathProblem says why a payload path breaks §7 rule 3, or "" when
// it is a forward-slash path relative to the record's folder that stays
// inside it.
func PayloadPathProblem(p string) string {
	switch {
	case strings.Contains(p, `\`):
		return "holds a backslash; separate folders with forward slashes"
	case strings.HasPrefix(p, "/"):
		return "is absolute; write it relative to the build record's folder"
	case urlScheme.MatchString(p):
		return "starts with a URL scheme or drive; write a path relative to the build record's folder"
	}
	if c := path.Clean(p); c == ".." || strings.HasPrefix(c, "../") {
		return "leads outside the build record's folder; keep the payload inside it"
	}
	return ""
}

func accountingMessage(passed string, notPassed int, total string, sum float64) string {
	return fmt.Sprintf("passed (%s) plus the %d not_passed %s make %s, not the total %s; every test that did not pass must be listed in not_passed, and total must count every test",
		passed, notPassed, map[bool]string{true: "entry", false: "entries"}[notPassed == 1], jsonsrc.FormatNumber(sum), total)
}

// Equal reports whether two JSON values are the same data: objects with
// the same members in any order (a repeated member counting with its last
// value), arrays with equal elements in order, and equal scalars.
func Equal(a, b *jsonsrc.Value) bool {
	if a == nil || b == nil || a.Kind() != b.Kind() {
		return a == nil && b == nil
	}
	switch a.Kind() {
	case jsonsrc.Object:
		ea, eb := entries(a), entries(b)
		if len(ea) != len(eb) {
			return false
		}
		for _, x := range ea {
			y := value(b, x.Key)
			if y == nil || !Equal(x.Value, y) {
				return false
			}
		}
		return true
	case jsonsrc.Array:
		if len(a.Elems()) != len(b.Elems()) {
			return false
		}
		for i := range a.Elems() {
			if !Equal(a.Elems()[i], b.Elems()[i]) {
				return false
			}
		}
		return true
	}
	return jsonsrc.SameScalar(a, b)
}
