package buildplan

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The codes of §6 this package reports.
const (
	CodeATOrder         = "VERIFICATION_AT_ORDER"
	CodeBlock           = "VERIFICATION_BLOCK"
	CodeJSON            = "VERIFICATION_JSON"
	CodeClass           = "VERIFICATION_CLASS"
	CodeTypeRetired     = "VERIFICATION_TYPE_RETIRED"
	CodeShape           = "VERIFICATION_SHAPE"
	CodeField           = "VERIFICATION_FIELD"
	CodeFieldType       = "VERIFICATION_FIELD_TYPE"
	CodeGeneralScope    = "VERIFICATION_GENERAL_SCOPE"
	CodeGeneralHolds    = "VERIFICATION_GENERAL_HOLDS"
	CodeGeneralSeeds    = "VERIFICATION_GENERAL_SEEDS"
	CodeFieldUnknown    = "VERIFICATION_FIELD_UNKNOWN"
	CodeExtensions      = "VERIFICATION_EXTENSIONS"
	CodeReplay          = "VERIFICATION_REPLAY"
	CodeToleranceTarget = "VERIFICATION_TOLERANCE_TARGET"
	CodeClaimsShape     = "DIRECTION_CLAIMS_SHAPE"
	CodeClaimsDangling  = "DIRECTION_CLAIMS_DANGLING"
)

// memberCodes is the code of a problem with the value of each member.
var memberCodes = map[string]string{
	"given": CodeFieldType, "when": CodeFieldType, "then": CodeFieldType,
	"diagnostics": CodeFieldType, "tolerance": CodeFieldType,
	"scope": CodeGeneralScope, "holds": CodeGeneralHolds, "seeds": CodeGeneralSeeds,
	"extensions": CodeExtensions, "replay": CodeReplay, "direction_claims": CodeClaimsShape,
}

// Problem is one way a test block breaks its shape.
type Problem struct {
	Code string
	Span source.Span
	// Member is the top-level member at fault, "" for the block itself.
	Member string
	Msg    string
}

// CheckBlock checks one test block against the closed field set and the
// shape of its type (§6). what names the block in messages, such as
// "test AT-4". Problems come in document order.
func CheckBlock(v *jsonsrc.Value, what string) []Problem {
	if v == nil {
		return nil
	}
	if v.Kind() != jsonsrc.Object {
		return []Problem{{Code: CodeShape, Span: v.Span(),
			Msg: fmt.Sprintf("%s must be one JSON object, not %s; write the test as {\"type\": …, …}", what, v.Describe())}}
	}
	var out []Problem
	tm := v.Member("type")
	typ := ""
	switch {
	case tm == nil:
		out = append(out, Problem{Code: CodeClass, Span: v.Opening(),
			Msg: what + ` has no "type"; add "type": "scenario" (one situation and its outcome) or "type": "general" (one claim across many cases)`})
	case tm.Value.Kind() != jsonsrc.String:
		out = append(out, Problem{Code: CodeClass, Span: tm.Value.Span(), Member: "type",
			Msg: fmt.Sprintf(`%s's "type" must be "scenario" or "general", not %s`, what, tm.Value.Describe())})
	case retiredTypes[tm.Value.Str()] != "":
		return []Problem{{Code: CodeTypeRetired, Span: tm.Value.Span(), Member: "type",
			Msg: fmt.Sprintf("%s has the retired type %q; %s", what, tm.Value.Str(), retiredTypes[tm.Value.Str()])}}
	case tm.Value.Str() != Scenario && tm.Value.Str() != General:
		msg := fmt.Sprintf(`%s's type is %q; a test is "scenario" or "general"`, what, tm.Value.Str())
		for _, ty := range Types {
			if source.EditDistance(strings.ToLower(tm.Value.Str()), ty) <= 2 {
				msg += fmt.Sprintf(" (did you mean %q?)", ty)
			}
		}
		out = append(out, Problem{Code: CodeClass, Span: tm.Value.Span(), Member: "type", Msg: msg})
	default:
		typ = tm.Value.Str()
	}
	for _, p := range jsonshape.Check(Shape(typ), v, what) {
		if pr, ok := classify(v, typ, p); ok {
			out = append(out, pr)
		}
	}
	if m := v.Member("tolerance"); m != nil && v.Member("target") == nil {
		out = append(out, Problem{Code: CodeToleranceTarget, Span: m.KeySpan(), Member: "tolerance",
			Msg: what + ` has a "tolerance" but no "target"; add the expected observation as "target", or remove "tolerance"`})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// classify gives a shape problem its §6 code, or drops it when another
// finding covers it (the type, checked first).
func classify(v *jsonsrc.Value, typ string, p jsonshape.Problem) (Problem, bool) {
	member := p.Member
	if p.Kind == jsonshape.IsInvalid || p.Kind == jsonshape.IsBadKey {
		member, _, _ = strings.Cut(p.Path, ".")
		member, _, _ = strings.Cut(member, "[")
	}
	out := Problem{Span: p.Span, Member: member, Msg: p.Msg}
	switch {
	case member == "type":
		return out, false
	case p.Kind == jsonshape.IsUnknown:
		out.Code = CodeFieldUnknown
		out.Msg = unknownHint(typ, member)
	case p.Kind == jsonshape.IsMissing:
		out.Code = map[string]string{"scope": CodeGeneralScope, "holds": CodeGeneralHolds}[member]
		if out.Code == "" {
			out.Code = CodeField
		}
	default:
		out.Code = memberCodes[member]
		if out.Code == CodeFieldType && emptyStep(v, member, p.Span) {
			out.Code = CodeField
		}
		if x := v.Get(member); x != nil && x.Span() == p.Span && x.Kind() == jsonsrc.String && (member == "seeds" || member == "diagnostics" || member == "direction_claims") {
			out.Msg += "; put the string in a list: [" + strconv.Quote(x.Str()) + "]"
		}
	}
	return out, out.Code != ""
}

// emptyStep reports whether the problem at span is a given, when or then
// that is an empty string or an empty array: the member is there but says
// nothing.
func emptyStep(v *jsonsrc.Value, member string, span source.Span) bool {
	if member != "given" && member != "when" && member != "then" {
		return false
	}
	x := v.Get(member)
	return x != nil && x.Span() == span && (x.Kind() == jsonsrc.String && x.Str() == "" || x.Kind() == jsonsrc.Array && len(x.Elems()) == 0)
}

// Check reports the findings of the build plan that need only this file:
// test numbers (VERIFICATION_AT_ORDER), headings without a test block or
// with a test fence that is never closed (VERIFICATION_BLOCK), blocks that are not JSON (VERIFICATION_JSON) and
// the shape of each block. file is the plan's path.
func Check(p *Plan, file string) []source.Finding {
	if p == nil {
		return nil
	}
	var out []source.Finding
	var prev *Test
	for _, t := range p.Tests {
		switch {
		case t.Number == "":
			out = append(out, source.Finding{Code: CodeATOrder, Severity: source.Error, File: file, Span: t.IDSpan,
				Message: t.ID + " is not a positive test number; number the tests from AT-1 up"})
		case prev != nil && prev.Number != "" && !greater(t.Number, prev.Number):
			what := "repeats"
			if t.Number != prev.Number {
				what = "comes after"
			}
			out = append(out, source.Finding{Code: CodeATOrder, Severity: source.Error, File: file, Span: t.IDSpan,
				Message: fmt.Sprintf("%s %s %s; test numbers are unique and ascending in the file, so give this test a number above %s (a deleted test's number is never reused)", t.ID, what, prev.ID, prev.Number),
				Related: []source.Related{{File: file, Span: prev.IDSpan, Message: "the test before it"}}})
		}
		prev = t
		out = append(out, checkTest(t, file)...)
	}
	return out
}

// RetiredMarker matches a marker line of the generated-contracts block
// that older format versions kept in the build plan (Appendix A,
// CONTRACT_BLOCK_RETIRED); its first group is begin, start or end.
var RetiredMarker = regexp.MustCompile(`(?i)<!--\s*(begin|end|start)?[\s:-]*(opengdd[\s:-]*)?generated[\s:-]*contract`)

// greater compares two positive decimal numbers without leading zeros.
func greater(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

func checkTest(t *Test, file string) []source.Finding {
	finding := func(code string, span source.Span, msg string) source.Finding {
		return source.Finding{Code: code, Severity: source.Error, File: file, Span: span, Message: msg}
	}
	switch {
	case !t.HasFence:
		msg := t.ID + " must be followed directly by its test block, a fence tagged `test` holding one JSON object"
		var related []source.Related
		switch {
		case t.NextInfo != "":
			msg += "; the fence after it is tagged " + strconv.Quote(t.NextInfo) + ", so tag it `test`"
			related = []source.Related{{File: file, Span: t.Next, Message: "the fence that follows"}}
		case t.Next.Len() > 0:
			msg += "; move the block up so that nothing stands between the heading and the fence"
			related = []source.Related{{File: file, Span: t.Next, Message: "what follows the heading"}}
		}
		f := finding(CodeBlock, t.IDSpan, msg)
		f.Related = related
		return []source.Finding{f}
	case t.Unclosed:
		return []source.Finding{finding(CodeBlock, t.Next,
			fmt.Sprintf("the test fence of %s is never closed, so the rest of the file would be read as its block; end the block with a line of three backticks after its JSON object", t.ID))}
	case t.SyntaxError != nil:
		return []source.Finding{finding(CodeJSON, t.SyntaxError.Span,
			fmt.Sprintf("the test block of %s is not valid JSON: %s; until it parses, nothing in it is checked", t.ID, t.SyntaxError.Msg))}
	}
	var out []source.Finding
	for _, p := range CheckBlock(t.Block, "test "+t.ID) {
		out = append(out, finding(p.Code, p.Span, p.Msg))
	}
	return out
}

// Measured are the sections of direction.json whose entries a test may
// claim.
var Measured = []string{"colors", "contrast", "timing"}

// SplitClaim splits a claimed path into its section and entry key; ok is
// false when the path is not of the form <section>.<key> with a measured
// section.
func SplitClaim(path string) (section, key string, ok bool) {
	section, key, found := strings.Cut(path, ".")
	if !found || key == "" {
		return section, key, false
	}
	for _, m := range Measured {
		if section == m {
			return section, key, true
		}
	}
	return section, key, false
}
