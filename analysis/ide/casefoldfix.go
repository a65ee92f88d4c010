package ide

import (
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The quick fixes of the letter-case findings (casefold.go): each writes
// the real names of the files and folders over a citation that names them
// only when letter case is ignored.

// fixCase offers, for a finding on a citation that names its file or
// folder only when letter case is ignored, the edit that writes the real
// names over the path as written; it reports whether the finding was one.
// The citation is found again as the check found it: an adoption's
// chapter citation, a Markdown link, an inline-code path, an image of
// direction.json.
func (x *fixer) fixCase(code string, ds source.Span) bool {
	var written, fixed string
	var edit source.Span
	switch code {
	case "CONTRACT_CITATION_DANGLING":
		v := x.citationUnder(ds)
		if v == nil || x.pkg == nil {
			return false
		}
		file, anchor, ok := strings.Cut(v.Str(), "#")
		if !ok {
			return false
		}
		written, fixed = file, x.pkg.AnchorTarget(file, anchor).CaseName
		edit = x.stringStart(v, file)
	case "MEDIA_PATH_MISSING":
		if x.pkg == nil || x.pkg.Direction == nil || x.pkg.FileAt("direction.json") != x.f {
			return false
		}
		direction.Images(x.pkg.Direction, func(v *jsonsrc.Value) {
			if v.Span() == ds {
				written, fixed, edit = v.Str(), analysis.ImageCase(x.pkg, v.Str()), x.stringStart(v, v.Str())
			}
		})
	case "DOC_LINK_FILE":
		written, fixed, edit = x.linkCase(ds)
	case "DOC_PATH_MISSING":
		written, fixed, edit = x.pathCase(ds)
	}
	if fixed == "" || edit.Len() != len(written) {
		return false
	}
	x.add("Write the real letter case: "+fixed, code, true, TextEdit{Span: edit, NewText: fixed})
	return true
}

// stringStart returns the span of prefix at the start of the JSON string
// value v, or an empty span when the value is written with escapes.
func (x *fixer) stringStart(v *jsonsrc.Value, prefix string) source.Span {
	start, end := v.Span().Start+1, v.Span().End-1
	if start > end || end > len(x.f.Content) || string(x.f.Content[start:end]) != v.Str() {
		return source.Span{}
	}
	return source.Span{Start: start, End: start + len(prefix)}
}

// linkCase finds the link whose path holds the span of a finding, and
// returns its path as written, the path with the real names when it names
// something only with letter case ignored, and the span of the path.
func (x *fixer) linkCase(ds source.Span) (written, fixed string, span source.Span) {
	if x.f.Markdown == nil {
		return "", "", span
	}
	for _, l := range x.f.Markdown.Links {
		if l.Raw(x.f.Markdown) == "" || l.DestSpan().Start != ds.Start {
			continue
		}
		d, ok := x.s.ResolveLink(x.f.Path, l.Raw(x.f.Markdown))
		if !ok || d.PathPart == "" {
			return "", "", span
		}
		if found, _ := x.s.Exists(d.Target); found {
			return "", "", span
		}
		written, _, _ = strings.Cut(d.RawPath, "?")
		span = source.Span{Start: l.DestSpan().Start, End: l.DestSpan().Start + len(written)}
		if span.End > len(x.f.Content) || string(x.f.Content[span.Start:span.End]) != written {
			return "", "", source.Span{}
		}
		fixed, _, _ = x.s.CaseFix(x.s.RootFor(x.f.Path), filepath.Dir(x.f.Path), written, analysis.DecodeLinkName, analysis.EncodeLinkName)
		return written, fixed, span
	}
	return "", "", span
}

// pathCase finds the inline-code path at the span of a finding and returns
// it, the path with the real names when it names something only with
// letter case ignored, and the span of its text.
func (x *fixer) pathCase(ds source.Span) (written, fixed string, span source.Span) {
	if x.f.Markdown == nil {
		return "", "", span
	}
	for _, cs := range x.f.Markdown.CodeSpans {
		if cs.Span() != ds {
			continue
		}
		span = cs.TextSpan()
		if span.End > len(x.f.Content) || string(x.f.Content[span.Start:span.End]) != cs.Text(x.f.Markdown) {
			return "", "", source.Span{}
		}
		fixed, _ = x.s.PathCase(x.f, cs.Text(x.f.Markdown), x.s.TreeCaseFix)
		return cs.Text(x.f.Markdown), fixed, span
	}
	return "", "", span
}
