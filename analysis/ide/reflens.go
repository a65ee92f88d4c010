package ide

import (
	"fmt"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// ShowReferencesCommand is the command of a reference-count lens. The
// protocol layer passes it the URI of the file, the position of the lens
// and the locations of the references (the arguments of VS Code's
// editor.action.showReferences); clients map it to their references view.
const ShowReferencesCommand = "gddls.showReferences"

// referenceLenses returns a lens above each heading of a Markdown file,
// each key of tuning.json, each clock of clocks.json and each palette and
// entry of direction.json with the number of citations and links that
// reach it, from the citation index.
func referenceLenses(s *analysis.Snapshot, path string) []CodeLens {
	f := s.File(path)
	if f == nil {
		return nil
	}
	var out []CodeLens
	if f.Markdown != nil {
		for _, h := range f.Markdown.Headings {
			t := targetKey{kind: targetHeading, scope: f.Path, name: headingAnchor(f, h)}
			out = append(out, referenceLens(s, path, h.Span(), t))
		}
		return out
	}
	p := s.PackageFor(f)
	if p != nil && p.ClockFile != nil && p.ClockFile.Path == path {
		return clockLenses(s, path, p)
	}
	if p != nil && p.PersonalizationFile() != nil && p.PersonalizationFile().Name == path {
		return questionLenses(s, p) // personalize_query.go
	}
	if isDirectionFile(f) && p.DirectionFile != nil {
		return directionLenses(s, path, p) // directionquery.go
	}
	if p == nil || p.TuningFile != f || p.Tuning == nil {
		return nil
	}
	for _, e := range p.Tuning.Entries {
		out = append(out, referenceLens(s, path, e.KeySpan, targetKey{kind: targetTuningKey, scope: p.Root, name: e.Key}))
	}
	return out
}

// referenceLens counts the references of t, leaving out its declaration
// and, for a tuning key, its range.
func referenceLens(s *analysis.Snapshot, path string, span source.Span, t targetKey) CodeLens {
	var locs []Location
	seen := map[Location]bool{}
	for _, r := range citeIndex(s).byTarget[t] {
		if r.Kind == refDecl || r.Kind == refRangeKey {
			continue
		}
		l := Location{File: r.File, Span: r.span()}
		if !seen[l] {
			seen[l] = true
			locs = append(locs, l)
		}
	}
	title := fmt.Sprintf("%d references", len(locs))
	if len(locs) == 1 {
		title = "1 reference"
	}
	l := CodeLens{Span: span, Title: title}
	if len(locs) > 0 {
		l.Command, l.Arguments, l.Locations = ShowReferencesCommand, []any{fileURI(path)}, locs
	}
	return l
}
