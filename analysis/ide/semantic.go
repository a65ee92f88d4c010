package ide

import (
	"sort"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// TokenType is what a citation token names, for semantic highlighting.
type TokenType int

// The types of semantic tokens.
const (
	TokenHeading   TokenType = iota // an anchor of a heading
	TokenFile                       // a file a link names
	TokenTuningKey                  // a key of tuning.json
	TokenRule                       // a rule of tuning.json
	TokenAdoption                   // an adoption
	TokenValue                      // a value of an adoption
)

// SemanticToken is one citation of a file, marked resolved or dangling.
type SemanticToken struct {
	Span source.Span
	Type TokenType
	// Dangling reports that the token names nothing that exists.
	Dangling bool
}

// SemanticTokens returns the citations and links of a file in order, each
// typed by what it names and marked dangling when its target does not
// exist. Declarations and the local names of an adoption are left out;
// tokens never overlap.
func SemanticTokens(s *analysis.Snapshot, path string) []SemanticToken {
	var out []SemanticToken
	for _, r := range fileRefs(s, path) {
		switch r.Kind {
		case refRowCitation, refValueCitation, refProse, refLink, refRefLink, refRuleName:
		default:
			continue
		}
		var typ TokenType
		switch r.Target.kind {
		case targetHeading:
			typ = TokenHeading
		case targetFile:
			typ = TokenFile
		case targetTuningKey:
			typ = TokenTuningKey
		case targetTuningRule:
			typ = TokenRule
		case targetAdoption:
			typ = TokenAdoption
		case targetValue:
			typ = TokenValue
		default:
			continue
		}
		out = append(out, SemanticToken{Span: r.span(), Type: typ, Dangling: len(targetLocations(s, r.Target)) == 0})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	kept := out[:0]
	for _, t := range out {
		if n := len(kept); t.Span.Len() == 0 || (n > 0 && t.Span.Start < kept[n-1].Span.End) {
			continue
		}
		kept = append(kept, t)
	}
	return kept
}

// fileRefs returns the references held by one file, sorted by position,
// built with the citation index's own builder for that file alone and kept
// for the snapshot. The queries that read one file's references (inlay
// hints, semantic tokens, highlights) use it so that they cost the file,
// not the whole index, after an edit.
func fileRefs(s *analysis.Snapshot, path string) []citeRef {
	refs, _ := s.FileRefs(path, func() any { return buildFileRefs(s, path) }).([]citeRef)
	return refs
}

// fileIndex is a citation index of the references of one file, for the
// lookups by place (refAt) of the queries that stay in that file.
func fileIndex(s *analysis.Snapshot, path string) *citationIndex {
	return &citationIndex{byFile: map[string][]citeRef{path: fileRefs(s, path)}}
}

// buildFileRefs builds the references of one file.
func buildFileRefs(s *analysis.Snapshot, path string) []citeRef {
	f := s.File(path)
	if f == nil {
		return nil
	}
	b := &indexBuilder{snap: s, idx: &citationIndex{byTarget: map[targetKey][]citeRef{}, byFile: map[string][]citeRef{}}}
	if p := s.PackageFor(f); p != nil {
		if p.TuningFile == f {
			b.tuning(p)
		}
		if a := p.AdoptionFile(path); a != nil {
			b.adoption(p, a)
		}
		if c := p.Chapter(p.Rel(path)); c != nil && c.File == f {
			b.prose(p, c)
			b.modeTags(p, c)
			b.planUnchanged(p, f)
		}
		if p.ClockFile != nil && p.ClockFile.Path == path {
			b.clockFile(p)
		}
		if p.PersonalizationFile() != nil && (p.PersonalizationFile().Name == path || f.Markdown != nil) {
			b.personalization(p) // its questions, sets targets and tags
		}
		if isDirectionFile(f) || p.Rel(path) == "05-build-plan.md" {
			b.direction(p) // its palettes, colors and entries, and the plan's claims
		}
	}
	if f.Markdown != nil {
		b.links(f)
	}
	refs := b.idx.byFile[path]
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].Whole.Start < refs[j].Whole.Start })
	return refs
}
