package ide

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// FileRename is one file or folder the editor is about to rename, by
// absolute paths.
type FileRename struct {
	Old, New string
}

// RenameFiles returns the edits that keep every reference to renamed files
// and folders valid, keyed by the absolute path each file has before the
// renames: Markdown links into a renamed file or folder (and the relative
// links of a moved Markdown file), contract citations such as
// "02-mechanics.md#anchor", inline-code paths, for an adoption file
// whose name changes, every contracts.<adoption> address, and for a record
// file renamed in its collection folder, every citation and link of the
// record. It never writes files.
func RenameFiles(s *analysis.Snapshot, renames []FileRename) (map[string][]TextEdit, error) {
	fr := fileRenamer{snap: s}
	for _, r := range renames {
		if !filepath.IsAbs(r.Old) || !filepath.IsAbs(r.New) {
			return nil, fmt.Errorf("a renamed path must be absolute: %q to %q", r.Old, r.New)
		}
		r.Old, r.New = filepath.Clean(r.Old), filepath.Clean(r.New)
		if r.Old != r.New {
			fr.renames = append(fr.renames, r)
		}
	}
	if len(fr.renames) == 0 {
		return map[string][]TextEdit{}, nil
	}
	for _, f := range s.Files() {
		if f.Markdown == nil {
			continue
		}
		fr.links(f)
		fr.paths(f)
	}
	idx := citeIndex(s)
	for t, refs := range idx.byTarget {
		if t.kind == targetHeading && fr.moved(t.scope) != t.scope {
			fr.citations(t.scope, refs)
		}
	}
	for _, p := range s.Packages {
		for _, a := range p.Adoptions.All() {
			if err := fr.adoption(p, a.ID, a.File); err != nil {
				return nil, err
			}
		}
		for _, c := range p.Collections {
			if err := fr.collection(p, c); err != nil {
				return nil, err
			}
			for id := range c.Records {
				if err := fr.record(p, c, id); err != nil {
					return nil, err
				}
			}
		}
	}
	return fr.w.result(), nil
}

// fileRenamer collects the edits of a set of file renames.
type fileRenamer struct {
	snap    *analysis.Snapshot
	renames []FileRename
	w       editWriter
}

// moved returns where path is after the renames: itself when no rename
// reaches it.
func (fr *fileRenamer) moved(path string) string {
	for _, r := range fr.renames {
		if path == r.Old {
			return r.New
		}
		if analysis.Within(r.Old, path) {
			rel, err := filepath.Rel(r.Old, path)
			if err == nil {
				return filepath.Join(r.New, rel)
			}
		}
	}
	return path
}

// links rewrites the destinations of f's inline links and link definitions
// that lead into a renamed file or folder, or that are relative and f
// itself moves. Same-file links and links with a scheme are left alone.
func (fr *fileRenamer) links(f *analysis.File) {
	from, newFrom := f.Path, fr.moved(f.Path)
	for _, l := range f.Markdown.Links {
		if l.Kind != markdown.InlineLink && l.Kind != markdown.Definition {
			continue
		}
		d, ok := fr.snap.ResolveLink(from, l.Raw(f.Markdown))
		if !ok || d.PathPart == "" {
			continue
		}
		newTarget := fr.moved(d.Target)
		if newTarget == d.Target && (newFrom == from || strings.HasPrefix(d.PathPart, "/")) {
			continue
		}
		sp := l.DestSpan()
		if sp.End > len(f.Content) || string(f.Content[sp.Start:sp.End]) != l.Raw(f.Markdown) {
			continue // the destination is not written verbatim; leave it
		}
		pathEnd := len(d.RawPath)
		if q := strings.IndexByte(d.RawPath, '?'); q >= 0 {
			pathEnd = q
		}
		var rel string
		if strings.HasPrefix(d.PathPart, "/") {
			root := fr.snap.RootFor(from)
			r, err := filepath.Rel(root, newTarget)
			if err != nil {
				continue
			}
			rel = "/" + filepath.ToSlash(r)
		} else {
			r, err := filepath.Rel(filepath.Dir(newFrom), newTarget)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(r)
			if strings.HasPrefix(d.PathPart, "./") && !strings.HasPrefix(rel, "../") {
				rel = "./" + rel
			}
		}
		if strings.HasSuffix(d.PathPart, "/") && !strings.HasSuffix(rel, "/") {
			rel += "/"
		}
		bracketed := sp.Start > 0 && f.Content[sp.Start-1] == '<'
		if !bracketed {
			rel = strings.ReplaceAll(rel, " ", "%20")
		}
		if rel == d.RawPath[:pathEnd] {
			continue
		}
		fr.w.add(f.Path, TextEdit{Span: source.Span{Start: sp.Start, End: sp.Start + pathEnd}, NewText: rel})
	}
}

// paths rewrites the inline-code paths of f that name a renamed file or
// folder, or that are relative to f's folder when f moves. A path keeps the
// base it was resolved against: the repository root, the file's folder or
// its package root.
func (fr *fileRenamer) paths(f *analysis.File) {
	var bases []string
	for _, c := range fr.snap.CitedPaths(f, fr.snap.Exists) {
		target := c.File
		if target == "" {
			target = c.Dir
		}
		if target == "" {
			continue
		}
		if bases == nil {
			bases = []string{fr.snap.RootFor(f.Path), filepath.Dir(f.Path)}
			if f.InPackage() {
				bases = append(bases, f.PackageRoot())
			}
		}
		rel := filepath.FromSlash(strings.TrimSuffix(c.Text, "/"))
		base := ""
		for _, b := range bases {
			if b != "" && filepath.Join(b, rel) == target {
				base = b
				break
			}
		}
		if base == "" {
			continue
		}
		var newBase string
		switch base {
		case fr.snap.RootFor(f.Path):
			newBase = base // the repository root does not move
		case filepath.Dir(f.Path):
			newBase = filepath.Dir(fr.moved(f.Path)) // the file's folder, where the file goes
		default:
			newBase = fr.moved(base) // the package root
		}
		r, err := filepath.Rel(newBase, fr.moved(target))
		if err != nil {
			continue
		}
		text := filepath.ToSlash(r)
		if strings.HasSuffix(c.Text, "/") {
			text += "/"
		}
		if text == c.Text {
			continue
		}
		i := strings.Index(string(f.Content[c.Span.Start:c.Span.End]), c.Text)
		if i < 0 {
			continue
		}
		start := c.Span.Start + i
		fr.w.add(f.Path, TextEdit{Span: source.Span{Start: start, End: start + len(c.Text)}, NewText: text})
	}
}

// citations rewrites the file part of each contract citation of a heading
// of the chapter at path, which moves: "02-mechanics.md#anchor" becomes the
// chapter's new path relative to the citing package's (new) root.
func (fr *fileRenamer) citations(path string, refs []citeRef) {
	for _, r := range refs {
		if r.Kind != refRowCitation && r.Kind != refValueCitation {
			continue
		}
		p := fr.snap.PackageOf(r.File)
		name, _, ok := strings.Cut(r.Text, "#")
		if p == nil || !ok {
			continue
		}
		rel, err := filepath.Rel(fr.moved(p.Root), fr.moved(path))
		if err != nil {
			continue
		}
		if newName := filepath.ToSlash(rel); newName != name {
			fr.w.rewrite(fr.narrow(r, 0, len(name)), newName)
		}
	}
}

// adoption rewrites the contracts.<id> addresses of an adoption whose file
// name changes, so that they name its new id.
func (fr *fileRenamer) adoption(p *analysis.Package, id, file string) error {
	newFile := fr.moved(file)
	if newFile == file {
		return nil
	}
	newID, ok := strings.CutSuffix(filepath.Base(newFile), ".json")
	if !ok || filepath.Dir(newFile) != filepath.Join(fr.moved(p.Root), "contracts") {
		return nil // no longer an adoption of this package: its citations break
	}
	if newID == id {
		return nil
	}
	if strings.Contains(newID, ".") || newID == "" {
		return fmt.Errorf("%q cannot be an adoption id: an adoption file is named <id>.json and the id holds no dot", newID)
	}
	if other := p.Adoption(newID); other != nil && fr.moved(other.File) == other.File {
		return fmt.Errorf("the package already has the adoption %s", newID)
	}
	idx := citeIndex(fr.snap)
	for _, r := range idx.byTarget[targetKey{kind: targetAdoption, scope: p.Root, name: id}] {
		if !fr.w.rewrite(r, newID) {
			return fr.stuck(r)
		}
	}
	address := "contracts." + id + "."
	for t, refs := range idx.byTarget {
		if t.kind != targetValue || t.scope != p.Root || t.name != id {
			continue
		}
		for _, r := range refs {
			if !strings.HasSuffix(r.Prefix, address) {
				continue // a value named inside the adoption itself
			}
			end := len(r.Prefix) - 1
			if !fr.w.rewrite(fr.narrow(r, end-len(id), end), newID) {
				return fr.stuck(r)
			}
		}
	}
	return nil
}

// stuck is the error of a reference that cannot be rewritten in place.
func (fr *fileRenamer) stuck(r citeRef) error {
	return fmt.Errorf("the citation at %s:%d cannot be rewritten in place", r.File, lineOf(fr.snap, r.File, r.Whole.Start)+1)
}

// narrow returns r changed to name the part [from, to) of its text instead
// of its name, so that the rename machinery rewrites that part. The part
// is exact only when the source holds it verbatim where r's name says.
func (fr *fileRenamer) narrow(r citeRef, from, to int) citeRef {
	out := r
	out.Prefix, out.Suffix = r.Text[:from], r.Text[to:]
	out.Exact = false
	if r.Exact {
		start := r.Name.Start - len(r.Prefix) + from
		sp := source.Span{Start: start, End: start + to - from}
		if f := fr.snap.File(r.File); f != nil && sp.Start >= 0 && sp.End <= len(f.Content) && string(f.Content[sp.Start:sp.End]) == r.Text[from:to] {
			out.Name, out.Exact = sp, true
		}
	}
	return out
}
