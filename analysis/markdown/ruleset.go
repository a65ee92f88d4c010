package markdown

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/contracts/source"
)

// initialMark is the mark of the initial ruleset (SPEC §2c rule 5).
const initialMark = "(initial)"

// Rest returns the text of a tag line after its id, trimmed, and its span.
func (t Tag) Rest() (string, source.Span) {
	if t.ID == "" {
		return "", source.Span{Start: t.TextSpan.End, End: t.TextSpan.End}
	}
	rest := t.Text[len(t.ID):]
	trimmed := strings.TrimLeft(rest, " \t")
	start := t.IDSpan.End + len(rest) - len(trimmed)
	return trimmed, source.Span{Start: start, End: t.TextSpan.End}
}

// MarksInitial reports a RULESET tag whose text after the id is the
// initial mark in any letter case: the tag means to mark the initial
// ruleset, even when RULESET_TAG_SHAPE rejects its spelling.
func (t Tag) MarksInitial() bool {
	rest, _ := t.Rest()
	return t.Kind == Ruleset && strings.EqualFold(rest, initialMark)
}

// rulesetShape reports a ruleset tag line that is not `> RULESET: <id>` or
// `> RULESET: <id> (initial)` with a kebab-case id other than all.
func rulesetShape(t Tag) (source.Finding, bool) {
	f := source.Finding{Code: "RULESET_TAG_SHAPE", Severity: source.Error}
	rest, restSpan := t.Rest()
	switch {
	case t.ID == "":
		f.Span = t.WordSpan
		f.Message = "this RULESET tag names no ruleset; write a kebab-case id after the colon, as in > RULESET: act-two"
	case t.ID == "all":
		f.Span = t.IDSpan
		f.Message = "\"all\" is not a ruleset id: text outside every ruleset already applies in all rulesets, so leave this passage untagged"
	case !source.IsKebab(t.ID):
		f.Span = t.IDSpan
		f.Message = fmt.Sprintf("ruleset id %q is not kebab-case; use lowercase letters and digits joined by single hyphens, as in act-two", t.ID)
	case rest != "" && rest != initialMark:
		f.Span = restSpan
		f.Message = fmt.Sprintf("a RULESET tag line holds only the id and optionally (initial); move %q to the next line of the blockquote", rest)
		if strings.EqualFold(rest, initialMark) || strings.EqualFold(rest, "initial") {
			f.Message = "write the initial mark exactly as (initial), in lowercase and in parentheses"
		}
	default:
		return f, false
	}
	return f, true
}
