package contracts

import "github.com/gddls/gddls/contracts/source"

// Resolver answers what an adoption's citations need from the rest of the
// package. The analysis layer implements it over the whole package.
type Resolver interface {
	// TuningKey looks key up among the keys of `values` and `open` in
	// tuning.json; false when the key is absent.
	TuningKey(key string) (TuningTarget, bool)
	// TuningReadable is false when tuning.json is missing or unreadable, or
	// lacks its values object; tuning citations are then left unresolved
	// and not reported.
	TuningReadable() bool
	// Anchor resolves the chapter anchor "<file>#<anchor>", file being
	// relative to the package root as written in the citation (for
	// example "02-mechanics.md").
	Anchor(file, anchor string) AnchorTarget
	// Adoption returns another adoption of the package by id, or nil.
	Adoption(id string) *Adoption
}

// TuningTarget is what a tuning key names.
type TuningTarget struct {
	// Open is true for a key of `open`.
	Open bool
	// HasNumber is true when the key holds a finite number, then Number.
	HasNumber bool
	Number    float64
	// Related points at the key in tuning.json.
	Related source.Related
}

// AnchorTarget is what a chapter anchor names.
type AnchorTarget struct {
	// Outside is true when the file part leaves the package.
	Outside bool
	// FileExists is false when no such chapter file exists.
	FileExists bool
	// CaseName, when FileExists is false, is the file part rewritten with
	// the names a Markdown file of the package has when letter case is
	// ignored: the file that Windows and macOS would open.
	CaseName string
	// Unreadable is true when the chapter exists but could not be read:
	// its own finding covers it, and nothing is resolved against it.
	Unreadable bool
	// Matches are the headings whose anchor equals the cited one.
	Matches []source.Related
	// Fixed is true when the cited section is Fixed (SPEC §10.10 rule 6);
	// otherwise NotFixedBecause points at the authority tag.
	Fixed           bool
	NotFixedBecause *source.Related
}
