// Package manifest reads a package's manifest.json (SPEC §3): the package's
// identity, its target and its optional commerce metadata. Parse takes the
// parsed JSON (the syntax code MANIFEST_JSON is the caller's) and returns a
// typed model with every finding about the file by itself:
//
//   - MANIFEST_SCHEMA for every break of the published shape of the
//     manifest, written here with jsonshape: a missing required member (at
//     the opening brace of the object that lacks it), a member the closed
//     objects do not name (at its key), a value of the wrong type, an
//     "opengdd" other than "0.9", an id or derived_from.id that is not
//     kebab-case, a version that is not MAJOR.MINOR.PATCH, an empty title,
//     designer name or genre, a platform or license outside its value set,
//     and numbers outside their bounds (at the value).
//   - COMMERCE_SPLIT when commerce.split holds two finite numbers whose sum
//     is not 100 (at the builder's share, with the designer's share as the
//     related place). It is reported also when a share is out of its
//     bounds, alongside that share's MANIFEST_SCHEMA: the two rules are
//     independent.
//
// SCHEMA_JSON, which the format reports when a validator's own copy of
// manifest.schema.json does not parse, cannot arise: the shape is compiled
// in, not read.
//
// A member written twice counts once, with its last value, as JSON readers
// read it; the earlier one is ignored. A number too large to be finite is
// never a valid number. Pure: no file system, no globals beyond the
// compiled shape.
package manifest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The codes of SPEC §3 this package reports.
const (
	CodeSchema = "MANIFEST_SCHEMA"
	CodeSplit  = "COMMERCE_SPLIT"
)

// FormatVersion is the only value of "opengdd" in this version of the
// format.
const FormatVersion = "0.9"

// SchemaURL returns the canonical URL of a published core schema for this
// format version (SPEC §3a): the layer, then "v" and the manifest's
// "opengdd" value, then the file, such as
// https://opengdd.org/schema/core/v0.9/manifest.schema.json.
func SchemaURL(file string) string {
	return "https://opengdd.org/schema/core/v" + FormatVersion + "/" + file
}

// platforms are the values of target.platform.
var platforms = []string{"web-2d", "web-3d"}

// versionString is MAJOR.MINOR.PATCH: ASCII digits without leading zeros
// and no suffix.
var versionString = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// splitTolerance is how far the two shares may sum from 100.
const splitTolerance = 1e-9

// kebab is a kebab-case name (SPEC §1), such as the example.
func kebab(example string) jsonshape.String {
	doc := "kebab-case: lowercase letters and digits, words joined by single hyphens, such as " + example
	return jsonshape.String{PatternDoc: doc, Valid: func(s string) string {
		if source.IsKebab(s) {
			return ""
		}
		return fmt.Sprintf("is %q, which is not in %s", s, doc)
	}}
}

// version is a version string, MAJOR.MINOR.PATCH.

func version() jsonshape.String {
	return jsonshape.String{Pattern: versionString, PatternDoc: "the form MAJOR.MINOR.PATCH: three whole numbers without leading zeros and no suffix, such as 1.0.0"}
}

func percent(name, doc string) jsonshape.Field {
	return jsonshape.Field{Name: name, Shape: jsonshape.Number{HasMin: true, Min: 0, HasMax: true, Max: 100}, Required: true, Doc: doc, Example: "50"}
}

// shape is the manifest's shape: SPEC §3's tables, in agreement with
// manifest.schema.json on every member, bound and pattern.
var shape = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "opengdd", Required: true, Shape: jsonshape.String{Enum: []string{FormatVersion}},
			Doc: "The version of the OpenGDD format the package is written in. It is \"0.9\" for this version; only a release of the format changes it. It names the schemas that validate the package, such as " + SchemaURL("manifest.schema.json") + "."},
		{Name: "id", Required: true, Shape: kebab("getaway-driver"), Example: `"my-game"`,
			Doc: "The package id. It need not be unique across all packages; a catalog may ask for uniqueness within its own domain."},
		{Name: "version", Required: true, Shape: version(), Example: `"0.1.0"`,
			Doc: "The version of this package."},
		{Name: "title", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Untitled game"`,
			Doc: "The name of the game."},
		{Name: "designer", Required: true, Shape: designer,
			Doc: "Who designed the game: a name, and optionally a registry handle and contact details."},
		{Name: "target", Required: true, Shape: target,
			Doc: "What the game targets: the platform (the delivery target and the state space the designer answers for), the genre, and optionally the session length and the audience."},
		{Name: "commerce", Shape: commerce,
			Doc: "Optional commerce metadata: the license terms and the designer's and builder's shares. It changes neither how the gameplay is expressed nor whether the package conforms."},
	},
}

var designer = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "name", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Designer name"`,
			Doc: "The designer's name."},
		{Name: "handle", Shape: jsonshape.String{}, Doc: "The designer's handle in a registry."},
		{Name: "contact", Shape: jsonshape.String{}, Doc: "How to reach the designer."},
	},
}

var target = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "platform", Required: true, Shape: jsonshape.String{Enum: platforms},
			Doc: "The delivery target and the state space the designer is responsible for. A game whose world is a plane is \"web-2d\", however a build draws it; \"web-3d\" is for a game whose state itself needs three dimensions. The rendering technique is never part of the platform."},
		{Name: "genre", Required: true, Shape: jsonshape.String{NonEmpty: true}, Example: `"Genre"`,
			Doc: "The genre family of the game."},
		{Name: "session_minutes", Shape: jsonshape.Number{HasMin: true, Min: 0},
			Doc: "How long one session lasts, in minutes."},
		{Name: "audience", Shape: jsonshape.String{}, Doc: "Who the game is for."},
	},
}

var commerce = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "license", Required: true, Shape: jsonshape.String{Enum: []string{"opengdd-share-v0"}},
			Doc: "The license terms. \"opengdd-share-v0\" records proposed terms for building and deploying the game under the declared split."},
		{Name: "split", Required: true, Shape: split,
			Doc: "The designer's and the builder's shares, in percent; they must sum to 100."},
		{Name: "derived_from", Shape: derivedFrom,
			Doc: "Reserved: the package this one was derived from. It has no effect in this version."},
	},
}

var split = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		percent("designer", "The designer's share, in percent; with the builder's share it sums to 100."),
		percent("builder", "The builder's share, in percent; with the designer's share it sums to 100."),
	},
}

var derivedFrom = jsonshape.Object{
	LastWins: true,
	Fields: []jsonshape.Field{
		{Name: "id", Required: true, Shape: kebab("getaway-driver"), Example: `"original-game"`,
			Doc: "The id of the package this one was derived from."},
		{Name: "version", Required: true, Shape: version(), Example: `"1.0.0"`,
			Doc: "The version of that package."},
	},
}

// Shape returns the shape of manifest.json, for completion, hover and the
// quick fixes of the editor.
func Shape() jsonshape.Object { return shape }

// Manifest is a parsed manifest.json.
type Manifest struct {
	// Root is the parsed file.
	Root *jsonsrc.Value
	// ID, Version and Title are the package's id, version and title when
	// they are strings, else "".
	ID, Version, Title string
	// Platform is target.platform when it is a string, else "".
	Platform string
	// Findings are the file's MANIFEST_SCHEMA and COMMERCE_SPLIT findings,
	// in document order.
	Findings []source.Finding
}

// Parse reads the parsed manifest.json at path and checks it. A nil root
// (an absent file, or one that does not parse) gives a manifest with no
// finding.
func Parse(path string, root *jsonsrc.Value) *Manifest {
	m := &Manifest{Root: root}
	if root == nil {
		return m
	}
	m.ID = str(root.Get("id"))
	m.Version = str(root.Get("version"))
	m.Title = str(root.Get("title"))
	m.Platform = str(root.Get("target").Get("platform"))
	m.Findings = jsonshape.Findings(jsonshape.Check(shape, root, "the manifest"), CodeSchema, source.Error, path)
	if f, ok := checkSplit(path, root.Get("commerce").Get("split")); ok {
		m.Findings = append(m.Findings, f)
	}
	return m
}

func str(v *jsonsrc.Value) string {
	if v != nil && v.Kind() == jsonsrc.String {
		return v.Str()
	}
	return ""
}

// checkSplit reports the shares of split when both are finite numbers that
// do not sum to 100.
func checkSplit(path string, split *jsonsrc.Value) (source.Finding, bool) {
	d, b := split.Get("designer"), split.Get("builder")
	if !d.Finite() || !b.Finite() {
		return source.Finding{}, false
	}
	sum := d.Num() + b.Num()
	if math.Abs(sum-100) <= splitTolerance {
		return source.Finding{}, false
	}
	fix := fmt.Sprintf("make the builder's share %s", num(100-d.Num()))
	if 100-d.Num() < 0 || 100-d.Num() > 100 {
		fix = "change the shares"
	}
	return source.Finding{
		Code: CodeSplit, Severity: source.Error, File: path, Span: b.Span(),
		Message: fmt.Sprintf("the shares of commerce.split sum to %s, not 100: the designer has %s and the builder %s; %s so that they sum to 100", num(sum), d.Raw(), b.Raw(), fix),
		Related: []source.Related{{File: path, Span: d.Span(), Message: "the designer's share"}},
	}, true
}

// num writes a sum or a difference of shares with 15 significant digits, so
// that the rounding of binary fractions does not show.
func num(f float64) string {
	return strconv.FormatFloat(f, 'g', 15, 64)
}
