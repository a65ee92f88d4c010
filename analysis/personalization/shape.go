package personalization

import (
	"fmt"
	"regexp"

	"github.com/gddls/gddls/analysis/jsonshape"
)

// keyPattern is the flat dotted tuning key a sets target must be: two or
// more segments of letters, digits, "_" and "-", no segment beginning or
// ending with "-" (SPEC §5 "Options", the tuning-key grammar of §4).
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)+$`)

// keyDoc names the grammar of keyPattern in messages.
const keyDoc = "the tuning-key grammar (two or more dot-separated segments of letters, digits, _ and -)"

// ValidKey reports whether key has the shape of a sets target. A key
// without it is a PERSONALIZATION_SCHEMA finding, and is not looked up in
// tuning.json.
func ValidKey(key string) bool { return keyPattern.MatchString(key) }

// IsWhitespace reports whether r is whitespace as the schema's pattern for
// question ids reads it: the \s class of ECMAScript regular expressions,
// which JSON Schema patterns use.
func IsWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// noWhitespace is the Valid check of a question id.
func noWhitespace(s string) string {
	for _, r := range s {
		if IsWhitespace(r) {
			return fmt.Sprintf("is %q, which holds whitespace (%U); a question id is one word, so remove it or join the words with _ (and change every > PERSONALIZATION: tag naming it)", s, r)
		}
	}
	return ""
}

// The three question types.
const (
	Choice = "choice"
	Text   = "text"
	Number = "number"
)

// Shape is the shape of personalization.json that
// personalization.schema.json describes (SPEC §5): a closed top level with
// questions, closed questions whose type decides whether options are
// required or forbidden and what the default holds, and closed options. A
// member written twice counts with its last value, as JSON readers take it.
// Completion and hover read it through jsonshape's At, Values and Missing.
var Shape jsonshape.Shape = fileShape()

func fileShape() jsonshape.Object {
	tuningKey := jsonshape.String{Pattern: keyPattern, PatternDoc: keyDoc}
	options := jsonshape.Array{MinItems: 1, Elem: jsonshape.Object{
		What:     "an option",
		LastWins: true,
		Fields: []jsonshape.Field{
			{Name: "id", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"option-1"`, Doc: "The option id, unique in the question; a choice question's `default` names one."},
			{Name: "label", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Option 1"`, Doc: "The option's name, as the builder sees it."},
			{Name: "notes", Shape: jsonshape.String{}, Doc: "Notes for the builder; never the only authority for a numeric change."},
			{Name: "sets", Doc: "The numbers the option sets when a build selects it: tuning keys (ranged `values` keys or `open` keys) to numbers.",
				Shape: jsonshape.Object{
					LastWins:   true,
					Rest:       jsonshape.Number{},
					MinMembers: 1,
					KeyDoc:     "tuning key",
					Key: func(k string) string {
						if ValidKey(k) {
							return ""
						}
						return "is not in " + keyDoc
					},
				}},
		},
	}}
	optionsDoc := "The answers a choice question allows (required for `choice`, not allowed on other types)."
	defaultDoc := "The answer when a build gives none: an option id for `choice`, a string for `text`, a number for `number`."
	question := jsonshape.Object{
		What:     "a question",
		LastWins: true,
		Fields: []jsonshape.Field{
			{Name: "id", Required: true, Shape: jsonshape.String{NonEmpty: true, Valid: noWhitespace}, Example: `"question_id"`, Doc: "The question id, unique in the file and without whitespace; a `> PERSONALIZATION: <id>` tag names it."},
			{Name: "prompt", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"What should the build ask?"`, Doc: "The wording of the question the builder is asked."},
			{Name: "type", Required: true, Shape: jsonshape.String{Enum: []string{Choice, Text, Number}}, Doc: "The kind of answer: `choice`, `text` or `number`."},
			{Name: "options", Shape: options, Doc: optionsDoc},
			{Name: "default", Required: true, Shape: jsonshape.OneOf{Shapes: []jsonshape.Shape{jsonshape.String{}, jsonshape.Number{}}}, Doc: defaultDoc},
			{Name: "sets", Shape: tuningKey, Doc: "On a `number` question only: the tuning key (a ranged `values` key or an `open` key) that receives the answer."},
			{Name: "notes", Shape: jsonshape.String{}, Doc: "Notes for the builder; never the only authority for a numeric change."},
		},
		Tag: "type",
		Variants: []jsonshape.Variant{
			{Value: Choice, Fields: []jsonshape.Field{
				{Name: "options", Required: true, Shape: options, Doc: optionsDoc},
				{Name: "default", Required: true, Shape: jsonshape.String{}, Doc: "The id of the option that applies when a build gives no answer."},
			}},
			{Value: Text, Forbid: []string{"options"}, Fields: []jsonshape.Field{
				{Name: "default", Required: true, Shape: jsonshape.String{}, Doc: "The text that applies when a build gives no answer."},
			}},
			{Value: Number, Forbid: []string{"options"}, Fields: []jsonshape.Field{
				{Name: "default", Required: true, Shape: jsonshape.Number{}, Doc: "The number that applies when a build gives no answer; inside the range of the `sets` key when it has one."},
			}},
		},
	}
	return jsonshape.Object{
		What:     "the personalization file",
		LastWins: true,
		Fields: []jsonshape.Field{
			{Name: "questions", Required: true, Shape: jsonshape.Array{Elem: question}, Doc: "The questions, in the order in which their answers are applied; the array may be empty."},
		},
	}
}
