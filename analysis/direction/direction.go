// Package direction reads the art direction of a package (SPEC §9):
// direction.json, parsed JSON in, a typed model with spans and the
// findings of the file by itself out (Parse). It knows the file's shape
// (Shape, written with jsonshape), the palettes and their addresses
// (Resolve, in the whole-key-first order of §9.1), the measured promises
// of colors, contrast and timing, the WCAG 2.1 contrast ratio of two
// declared colors (Contrast), and the retired direction fence of chapter
// prose (RetiredFences).
//
// The problems of the shape are DIRECTION_SCHEMA. Those of a palette value
// (PALETTE_SHAPE), of a palette entry (PALETTE_ENTRY_FORM) and of the
// spelling of a color position (DIRECTION_COLOR_REFERENCE) are also
// reported under the code the format gives them: direction.schema.json
// covers each of them, so two rows of §9 apply. A part of the file that
// breaks its shape contributes nothing to the model, so it causes no
// finding beyond its own; an entry whose key breaks the schema is still
// read (see Entry.WellNamed).
// What needs other files (tuning keys, chapter citations, the build plan's
// tests) is checked by package analysis with the model.
//
// Pure: no file system, no globals.
package direction

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes of direction.json.
const (
	CodeSchema         = "DIRECTION_SCHEMA"
	CodePaletteShape   = "PALETTE_SHAPE"
	CodeEntryForm      = "PALETTE_ENTRY_FORM"
	CodeColorDuplicate = "PALETTE_COLOR_DUPLICATE"
	CodeKeyCollision   = "PALETTE_KEY_COLLISION"
	CodeUnreached      = "PALETTE_UNREACHED"
	CodeColorReference = "DIRECTION_COLOR_REFERENCE"
	CodeColorDangling  = "DIRECTION_COLOR_DANGLING"
	CodeMoodPalette    = "DIRECTION_MOOD_PALETTE_DANGLING"
	CodeContrastFailed = "DIRECTION_CONTRAST_FAILED"
	CodeTimingKey      = "DIRECTION_TIMING_KEY"
	CodeUnmentioned    = "DIRECTION_UNMENTIONED"
	CodeClaimUncovered = "DIRECTION_CLAIM_UNCOVERED"
	CodeFenceRetired   = "DIRECTION_FENCE_RETIRED"

	// contrastTolerance is the tolerance of the contrast comparison.
	contrastTolerance = 1e-9
)

// Sections are the root fields whose entries have a two-segment address
// (SPEC §9 rule 6), in the order the format lists them.
var Sections = [...]string{"pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing"}

// Judged are the sections whose entries no check measures and that a
// chapter is expected to cite (§9 rule 8).
var Judged = [...]string{"pillars", "mood", "anti", "must_keep"}

// IsSection reports whether s is one of the seven root fields of §9 rule 6.
func IsSection(s string) bool { return in(Sections[:], s) }

// IsJudged reports whether s is a section of Judged.
func IsJudged(s string) bool { return in(Judged[:], s) }

// IsMeasured reports whether s is a section of measured promises (§9.6),
// which a test of the build plan must cover (§9.8).
func IsMeasured(s string) bool { return s == "colors" || s == "contrast" || s == "timing" }

func in(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	kebab        = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	hexColor     = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	colorAddress = regexp.MustCompile(`^palette\.[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$`)
	paletteAddr  = regexp.MustCompile(`^palette\.[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$`)
	tuningKey    = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)+$`)
)

// IsHex reports whether s is a `#RRGGBB` color string.
func IsHex(s string) bool { return hexColor.MatchString(s) }

// ValidSegment reports whether s is a segment of a palette key or a color
// name: kebab-case, with at least one letter, and not `json` or `md`.
func ValidSegment(s string) bool {
	return kebab.MatchString(s) && strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") && s != "json" && s != "md"
}

// ValidPaletteKey reports whether s is a palette key: one or more valid
// segments joined by single dots.
func ValidPaletteKey(s string) bool {
	for _, seg := range strings.Split(s, ".") {
		if !ValidSegment(seg) {
			return false
		}
	}
	return true
}

// IsColorAddress reports whether s is spelled as a color address:
// `palette.` and two or more kebab-case segments.
func IsColorAddress(s string) bool { return colorAddress.MatchString(s) }

// IsPaletteAddress reports whether s is spelled as a palette address:
// `palette.` and one or more kebab-case segments.
func IsPaletteAddress(s string) bool { return paletteAddr.MatchString(s) }

// ValidKey reports whether s is a kebab-case key of the maps other than
// palette.
func ValidKey(s string) bool { return kebab.MatchString(s) }

func kebabKey(k string) string {
	if kebab.MatchString(k) {
		return ""
	}
	return "is not a kebab-case name: use lowercase letters and digits joined by single hyphens"
}

func segmentProblem(what string) func(string) string {
	return func(k string) string {
		if what == "color name" && strings.Contains(k, ".") {
			return "is not a color name: a color name is one segment, with no dot"
		}
		for _, seg := range strings.Split(k, ".") {
			switch {
			case !kebab.MatchString(seg):
				return fmt.Sprintf("is not a %s: each segment is lowercase letters and digits joined by single hyphens", what)
			case seg == "json" || seg == "md":
				return fmt.Sprintf("is not a %s: a segment cannot be %q", what, seg)
			case !strings.ContainsAny(seg, "abcdefghijklmnopqrstuvwxyz"):
				return fmt.Sprintf("is not a %s: segment %q needs at least one letter", what, seg)
			}
		}
		return ""
	}
}

var nonEmpty = jsonshape.String{NonEmpty: true}

// hexShape is one `#RRGGBB` string.
var hexShape = jsonshape.String{Pattern: hexColor, PatternDoc: "the sRGB form #RRGGBB"}

// namedColor is the object form of a palette entry.
var namedColor = jsonshape.Object{
	What:       "a named color",
	LastWins:   true,
	Rest:       hexShape,
	MinMembers: 1,
	KeyDoc:     "color name",
	Key:        segmentProblem("color name"),
	Valid: func(v *jsonsrc.Value, report func(source.Span, string)) {
		if n := distinctKeys(v); n > 1 {
			at := v.Members()[0].KeySpan()
			for _, m := range v.Members() {
				if m.Key != v.Members()[0].Key {
					at = m.KeySpan()
					break
				}
			}
			report(at, fmt.Sprintf("a named color holds exactly one color name, not %d; write each color as its own entry { \"name\": \"#RRGGBB\" }", n))
		}
	},
}

// EntryShape is the shape of one palette entry: a bare color or a named
// color.
var EntryShape = jsonshape.Tagged{Tag: CodeEntryForm, Both: true, Shape: jsonshape.OneOf{
	Shapes: []jsonshape.Shape{hexShape, namedColor},
	Doc:    `a color written "#RRGGBB" or { "name": "#RRGGBB" }`,
}}

// PaletteShape is the shape of one palette.
var PaletteShape = jsonshape.Tagged{Tag: CodePaletteShape, Both: true, Shape: jsonshape.Array{Elem: EntryShape, MinItems: 1}}

// ColorPosition is the shape of a value that must name a color.
var ColorPosition = jsonshape.Tagged{Tag: CodeColorReference, Both: true, Shape: jsonshape.String{Pattern: colorAddress, PatternDoc: "the color-address form palette.<key>.<name>"}}

var whileField = jsonshape.Field{Name: "while", Doc: "Game states, described in words, during which the promise holds; leave it out and the promise holds always.",
	Shape: jsonshape.Array{Elem: nonEmpty, MinItems: 1}, Example: `["in-game"]`}

var imageFields = []jsonshape.Field{
	{Name: "image", Doc: "Path of a picture file, relative to the package root.", Shape: jsonshape.String{NonEmpty: true}, Example: `"assets/mood/image.png"`},
	{Name: "license", Doc: "Under what terms the picture may be used; needed whenever `image` is set.", Shape: nonEmpty, Example: `"CC-BY-4.0"`},
}

// needsLicense reports an image without a license.
func needsLicense(v *jsonsrc.Value, report func(source.Span, string)) {
	if m := v.Member("image"); m != nil && v.Member("license") == nil {
		report(m.KeySpan(), "an image needs its license: add \"license\" beside \"image\"")
	}
}

// AntiObject is the shape of an anti-reference object (§9.4).
var AntiObject = jsonshape.Object{
	What:     "an anti-reference object",
	LastWins: true,
	Fields: append([]jsonshape.Field{
		{Name: "not", Required: true, Doc: "What a build must not end up looking like.", Shape: nonEmpty, Example: `"no candy gloss"`},
	}, imageFields...),
	Valid: needsLicense,
}

// AntiShape is an anti-reference: a non-empty string or an object.
var AntiShape = jsonshape.OneOf{Shapes: []jsonshape.Shape{nonEmpty, AntiObject}, Doc: "a non-empty string or an anti-reference object { \"not\": … }"}

// BorrowShape is the shape of a mood's borrow object (§9.3).
var BorrowShape = jsonshape.Object{
	What:     "a borrow object",
	LastWins: true,
	Fields: append([]jsonshape.Field{
		{Name: "from", Required: true, Doc: "Where the borrowed qualities come from.", Shape: nonEmpty, Example: `"a source"`},
		{Name: "what", Required: true, Doc: "The qualities taken over from that source.", Shape: jsonshape.Array{Elem: nonEmpty, MinItems: 1}, Example: `["a quality"]`},
	}, imageFields...),
	Valid: needsLicense,
}

// MoodShape is the shape of one mood (§9.3).
var MoodShape = jsonshape.Object{
	What:     "a mood",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "intent", Required: true, Doc: "The feeling this mood aims for.", Shape: nonEmpty, Example: `"the intended feeling"`},
		{Name: "anti", Required: true, Doc: "What this mood rules out, as sentences or { \"not\": … } objects.", Shape: jsonshape.Array{Elem: AntiShape, MinItems: 1}, Example: `["not …"]`},
		{Name: "borrows", Doc: "Sources this mood draws on, and what it takes from each.", Shape: jsonshape.Array{Elem: BorrowShape, MinItems: 1}},
		{Name: "palette", Doc: "The palette this mood uses, written palette.<key>.", Shape: jsonshape.String{Pattern: paletteAddr, PatternDoc: "the palette-address form palette.<key>"}},
	},
}

// ColorShape is the shape of a `colors` entry (§9.6).
var ColorShape = jsonshape.Object{
	What:     "a color promise",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "is", Required: true, Doc: "The color the build must show, written palette.<key>.<name>.", Shape: ColorPosition, Example: `"palette.key.name"`},
		{Name: "within", Required: true, Doc: "How far (CIEDE2000) the shown color may drift from the declared one; 0 means not at all.", Shape: jsonshape.Number{HasMin: true}, Example: "0"},
		{Name: "where", Required: true, Doc: "The things on screen this promise is about.", Shape: nonEmpty, Example: `"where it shows"`},
		whileField,
	},
}

// ContrastShape is the shape of a `contrast` entry (§9.6).
var ContrastShape = jsonshape.Object{
	What:     "a contrast promise",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "colors", Required: true, Doc: "Color addresses, each compared with `against`.", Shape: jsonshape.Array{Elem: ColorPosition, MinItems: 1}, Example: `["palette.key.name"]`},
		{Name: "against", Required: true, Doc: "The color address every entry of `colors` is compared with.", Shape: ColorPosition, Example: `"palette.key.name"`},
		{Name: "at_least", Required: true, Doc: "The lowest WCAG 2.1 contrast ratio each pair may have; greater than 0.", Shape: jsonshape.Number{HasMin: true, ExclusiveMin: true}, Example: "4.5"},
		{Name: "where", Required: true, Doc: "The things on screen this promise is about.", Shape: nonEmpty, Example: `"where it shows"`},
		whileField,
	},
}

// TimingShape is the shape of a `timing` entry (§9.6).
var TimingShape = jsonshape.Object{
	What:     "a timing promise",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "key", Required: true, Doc: "A decided key of `values` in tuning.json; the event lasts as long as its number says.", Shape: jsonshape.String{Pattern: tuningKey, PatternDoc: "a dotted tuning key"}, Example: `"feel.some_seconds"`},
		{Name: "where", Required: true, Doc: "The on-screen event whose length the key sets.", Shape: nonEmpty, Example: `"the event"`},
		whileField,
	},
}

// ViewingShape is the shape of the `viewing` object (§9.7).
var ViewingShape = jsonshape.Object{
	What:     "the viewing object",
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "speed_and_size", Required: true, Doc: "How fast and how large the game is shown when its look is judged.", Shape: nonEmpty, Example: `"real play speed, whole screen"`},
		{Name: "calibration", Required: true, Doc: "The display or output setup used for judging the look.", Shape: nonEmpty, Example: `"sRGB display"`},
		{Name: "sequence", Doc: "Which stretch of play the judging must include.", Shape: nonEmpty},
	},
}

func kebabMap(doc string, rest jsonshape.Shape) jsonshape.Object {
	return jsonshape.Object{LastWins: true, Rest: rest, MinMembers: 1, KeyDoc: doc, Key: kebabKey}
}

// Shape is the shape of direction.json.
var Shape = jsonshape.Object{
	What:       "direction.json",
	LastWins:   true,
	MinMembers: 1,
	Fields: []jsonshape.Field{
		{Name: "palette", Doc: "Palette keys, each with its list of colors.", Shape: jsonshape.Object{
			LastWins: true, Rest: PaletteShape, MinMembers: 1, KeyDoc: "palette key", Key: segmentProblem("palette key")}},
		{Name: "pillars", Doc: "Visual priorities, most important first.", Shape: kebabMap("pillar", nonEmpty)},
		{Name: "mood", Doc: "Moods by name: what each aims for and rules out.", Shape: kebabMap("mood", MoodShape)},
		{Name: "anti", Doc: "Looks a build must stay clear of.", Shape: kebabMap("anti-reference", AntiShape)},
		{Name: "must_keep", Doc: "Qualities of the look that no build may lose.", Shape: kebabMap("quality", nonEmpty)},
		{Name: "colors", Doc: "Colors the build must show, each within a distance.", Shape: kebabMap("color promise", ColorShape)},
		{Name: "contrast", Doc: "Color pairs with a lowest contrast ratio.", Shape: kebabMap("contrast promise", ContrastShape)},
		{Name: "timing", Doc: "Event lengths tied to tuning keys.", Shape: kebabMap("timing promise", TimingShape)},
		{Name: "viewing", Doc: "The conditions under which the look is judged.", Shape: ViewingShape},
	},
}

// distinctKeys counts the different keys of an object.
func distinctKeys(v *jsonsrc.Value) int {
	seen := map[string]bool{}
	for _, m := range v.Members() {
		seen[m.Key] = true
	}
	return len(seen)
}
