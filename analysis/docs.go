package analysis

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// The general Markdown checks (DESIGN §5) keep links, cited paths and named
// test witnesses honest in every Markdown file, in packages and outside.

// maxWitnessFileSize bounds the size of a cited file searched for witnesses.
const maxWitnessFileSize = 8 << 20

// checkDocuments runs the link, path and witness checks over every Markdown
// file of the snapshot.
func (b *builder) checkDocuments() {
	witnessFiles := map[string][]byte{}
	for _, f := range b.snap.files {
		if f.Markdown == nil {
			continue
		}
		b.checkLinks(f)
		b.checkPaths(f, witnessFiles)
	}
}

// rootOf returns the snapshot root that holds path.
func (b *builder) rootOf(path string) string {
	best := ""
	for _, r := range b.snap.Roots {
		if within(r, path) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// exists reports whether path names a file or folder inside the snapshot's
// roots, and whether it is a folder. It uses the walk's folder listings and
// asks the file system only for folders the walk passed over.
func (b *builder) exists(path string) (found, isDir bool) {
	if b.rootOf(path) == "" {
		return false, false
	}
	if _, ok := b.tree.dirs[path]; ok {
		return true, true
	}
	if _, ok := b.snap.files[path]; ok {
		return true, false
	}
	dir, name := filepath.Split(path)
	dir = filepath.Clean(dir)
	if entries, ok := b.tree.dirs[dir]; ok {
		for _, e := range entries {
			if e.name == name {
				return true, e.isDir
			}
		}
		return false, false
	}
	st, err := os.Stat(path)
	if err != nil {
		return false, false
	}
	return true, st.IsDir()
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// checkLinks reports links to missing files and anchors (DOC_LINK_FILE,
// DOC_LINK_ANCHOR, DOC_LINK_AMBIGUOUS).
func (b *builder) checkLinks(f *File) {
	doc := f.Markdown
	for _, l := range doc.Links {
		if l.Kind != markdown.InlineLink && l.Kind != markdown.Definition {
			continue // reference links are checked at their definition
		}
		raw := l.Raw
		if raw == "" || schemeRE.MatchString(raw) || strings.HasPrefix(raw, "//") {
			continue
		}
		pathPart, fragment, hasFragment := strings.Cut(raw, "#")
		target := f.Path
		if pathPart != "" {
			decoded, err := url.PathUnescape(pathPart)
			if err != nil {
				decoded = pathPart
			}
			if strings.HasPrefix(decoded, "/") {
				target = filepath.Join(b.rootOf(f.Path), filepath.FromSlash(decoded))
			} else {
				target = filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(decoded))
			}
			if b.rootOf(target) == "" {
				continue // outside every folder being checked: nothing there is read
			}
			found, _ := b.exists(target)
			if !found {
				b.report(source.Finding{
					Code: "DOC_LINK_FILE", Severity: source.Error, File: f.Path,
					Span:    source.Span{Start: l.DestSpan.Start, End: l.DestSpan.Start + len(pathPart)},
					Message: fmt.Sprintf("the link points to %s, which does not exist; fix the path or restore the file", pathPart),
				})
				continue
			}
		}
		if !hasFragment || fragment == "" {
			continue
		}
		tf := b.snap.files[target]
		if tf == nil || tf.Markdown == nil {
			continue // anchors are checked only in Markdown files
		}
		anchor, err := url.PathUnescape(fragment)
		if err != nil {
			anchor = fragment
		}
		fragSpan := source.Span{Start: l.DestSpan.Start + len(pathPart) + 1, End: l.DestSpan.Start + len(raw)}
		github := tf.Package == nil
		matches := tf.Markdown.FindAnchor(anchor, github)
		if !github && len(matches) == 0 {
			matches = tf.Markdown.FindAnchor(strings.ToLower(anchor), false)
		}
		switch {
		case len(matches) == 0:
			msg := fmt.Sprintf("no heading of %s has the anchor #%s", filepath.Base(target), anchor)
			if near := nearest(anchor, headingAnchors(tf.Markdown, github)); near != "" {
				msg += fmt.Sprintf("; did you mean #%s?", near)
			}
			b.report(source.Finding{Code: "DOC_LINK_ANCHOR", Severity: source.Error, File: f.Path, Span: fragSpan, Message: msg})
		case len(matches) > 1:
			fd := source.Finding{
				Code: "DOC_LINK_AMBIGUOUS", Severity: source.Warning, File: f.Path, Span: fragSpan,
				Message: fmt.Sprintf("%d headings of %s give the anchor #%s, so the link cannot tell them apart; reword one of the headings", len(matches), filepath.Base(target), anchor),
			}
			for _, h := range matches {
				fd.Related = append(fd.Related, source.Related{File: target, Span: tf.Markdown.Headings[h].Span, Message: "a heading with this anchor"})
			}
			b.report(fd)
		}
	}
}

// headingAnchors lists the anchors of a document under one rule.
func headingAnchors(doc *markdown.Doc, github bool) []string {
	out := make([]string, 0, len(doc.Headings))
	for _, h := range doc.Headings {
		if github {
			out = append(out, h.GitHubAnchor)
		} else {
			out = append(out, h.Anchor)
		}
	}
	return out
}

// knownExtensions are the file extensions that make a slash-free code span
// read as a file name.
var knownExtensions = map[string]bool{
	"md": true, "markdown": true, "json": true, "ts": true, "tsx": true, "js": true, "jsx": true, "mjs": true, "cjs": true,
	"go": true, "py": true, "rs": true, "java": true, "kt": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true,
	"cs": true, "rb": true, "lua": true, "gd": true, "sh": true, "yaml": true, "yml": true, "toml": true, "txt": true,
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "css": true, "html": true, "csv": true,
	"xml": true, "wav": true, "ogg": true, "mp3": true, "glsl": true, "shader": true, "tscn": true, "tres": true,
}

var extRE = regexp.MustCompile(`\.([A-Za-z][A-Za-z0-9]{0,9})$`)

// LooksLikePath reports whether an inline code span is a repository-relative
// path worth checking (DESIGN §5, DOC_PATH_MISSING). It is conservative: a
// path has no white space, no colon, no shell or glob characters, does not
// start with '/', '~', '-' or a domain name, and either has a '/' and ends in
// a file extension or a '/', or has no '/' and ends in a known extension.
func LooksLikePath(text string) bool {
	if text == "" || len(text) > 300 || strings.ContainsAny(text, " \t\n:*?[]{}<>|$&;=()'\"`\\,@!%^+") {
		return false
	}
	if strings.HasPrefix(text, "/") || strings.HasPrefix(text, "~") || strings.HasPrefix(text, "-") || strings.Contains(text, "...") {
		return false
	}
	segs := strings.Split(strings.TrimSuffix(text, "/"), "/")
	for _, s := range segs {
		if s == "" {
			return false
		}
	}
	if !strings.Contains(text, "/") {
		m := extRE.FindStringSubmatch(text)
		return m != nil && knownExtensions[strings.ToLower(m[1])] && !strings.HasPrefix(text, ".")
	}
	first := segs[0]
	if first != "." && first != ".." && strings.Contains(first, ".") && !strings.HasPrefix(first, ".") {
		return false // example.com/page
	}
	if strings.HasSuffix(text, "/") {
		return true
	}
	return extRE.MatchString(segs[len(segs)-1])
}

// checkPaths reports inline-code paths that name nothing (DOC_PATH_MISSING)
// and quoted test names missing from the file cited before them
// (DOC_WITNESS_MISSING).
func (b *builder) checkPaths(f *File, cache map[string][]byte) {
	doc := f.Markdown
	inChapter := f.Package != nil && f.Package.Chapter(f.Package.Rel(f.Path)) != nil
	type cited struct {
		span  source.Span
		block source.Span
		path  string
	}
	var found []cited
	for _, cs := range doc.CodeSpans {
		if !LooksLikePath(cs.Text) {
			continue
		}
		if inChapter {
			if class, _ := ClassifyToken(cs.Text); class == TuningCitation || class == MechanismPath {
				continue // the prose citation check owns these
			}
		}
		target, ok := b.resolveDocPath(f, cs.Text)
		if !ok {
			b.report(source.Finding{
				Code: "DOC_PATH_MISSING", Severity: source.Warning, File: f.Path, Span: cs.Span,
				Message: fmt.Sprintf("`%s` reads as a path, but no such file or folder exists in the repository; fix the path or update the text", cs.Text),
			})
			continue
		}
		if target != "" {
			found = append(found, cited{span: cs.Span, block: cs.Block, path: target})
		}
	}
	if len(found) == 0 {
		return
	}
	for _, q := range doc.Quotes {
		// The witness belongs to the last path cited before it in the same
		// list item or paragraph.
		var owner *cited
		for i := range found {
			c := &found[i]
			if c.block == q.Block && c.span.End <= q.Span.Start {
				owner = c
			}
		}
		if owner == nil || strings.TrimSpace(q.Text) == "" {
			continue
		}
		content, ok := cache[owner.path]
		if !ok {
			content = b.readWitnessFile(owner.path)
			cache[owner.path] = content
		}
		if content == nil || bytes.Contains(content, []byte(q.Text)) {
			continue
		}
		b.report(source.Finding{
			Code: "DOC_WITNESS_MISSING", Severity: source.Warning, File: f.Path, Span: q.Span,
			Message: fmt.Sprintf("the test named %q does not occur in %s; it may have been renamed or removed, so update the name or the path", q.Text, b.relToRoot(owner.path)),
			Related: []source.Related{{File: f.Path, Span: owner.span, Message: "the cited file"}},
		})
	}
}

// resolveDocPath finds the file or folder an inline-code path names,
// trying the repository root, the document's folder and its package root.
// It returns the path of a file ("" for a folder) and whether it exists.
func (b *builder) resolveDocPath(f *File, text string) (string, bool) {
	rel := filepath.FromSlash(strings.TrimSuffix(text, "/"))
	bases := []string{b.rootOf(f.Path), filepath.Dir(f.Path)}
	if f.Package != nil {
		bases = append(bases, f.Package.Root)
	}
	for _, base := range bases {
		if base == "" {
			continue
		}
		p := filepath.Join(base, rel)
		if b.rootOf(p) == "" {
			continue
		}
		if found, isDir := b.exists(p); found {
			if isDir {
				return "", true
			}
			return p, true
		}
	}
	return "", false
}

// readWitnessFile reads a cited file to search it for test names; it
// returns nil for a file too large, binary or unreadable.
func (b *builder) readWitnessFile(path string) []byte {
	if f := b.snap.files[path]; f != nil {
		return f.Content
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() > maxWitnessFileSize {
		return nil
	}
	content, err := os.ReadFile(path)
	if err != nil || bytes.IndexByte(content, 0) >= 0 {
		return nil
	}
	return content
}

// relToRoot shows a path relative to its snapshot root.
func (b *builder) relToRoot(path string) string {
	if rel, err := filepath.Rel(b.rootOf(path), path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}
