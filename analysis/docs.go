package analysis

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// The general Markdown checks (DESIGN §5) keep links, cited paths and named
// test witnesses honest in every Markdown file, in packages and outside.
// The same reading of a document (which code spans are paths, which quotes
// are test names of which path) serves the checks here and the editor
// features in docfeatures.go.

// MaxWitnessFileSize bounds the size of a cited file searched for witnesses.
const MaxWitnessFileSize = 8 << 20

// checkDocuments runs the link, path and witness checks over every Markdown
// file of the snapshot. The findings of a file are reused from the cache
// while neither it nor anything its checks looked at has changed.
func (b *builder) checkDocuments() {
	files := b.snap.docFiles
	// A build carried from the last snapshot has its Markdown files in the
	// same order: a file's last result holds when the file is the same and
	// the result read none of the edited files, which no result read when
	// none is among the paths the last snapshot's results read.
	var last []*docResult
	var lastFiles []*File
	var reads docReads
	if c := b.carried; c != nil && len(c.prev.docResults) == len(files) {
		last, lastFiles, reads = c.prev.docResults, c.prev.docFiles, c.prev.docReads
		if reads == nil {
			reads = docReads{readSet(last)}
		}
	}
	unread := last != nil && !reads.readsAny(b.carried.files)
	// results is the last build's list until a result is made again.
	results := last
	if last == nil {
		results = make([]*docResult, len(files))
	}
	var todo []int
	// With the same files and no result reading an edited one, every last
	// result holds, and none needs looking at.
	if !unread || !sameElems(lastFiles, files) {
		for i, f := range files {
			if last != nil && lastFiles[i] == f && (unread || !last[i].readsAny(b.carried.files)) {
				continue
			}
			if len(todo) == 0 && last != nil {
				results = slices.Clone(last)
			}
			todo = append(todo, i)
		}
	}
	// The checks of two files share nothing but the snapshot they read, so
	// they run on every processor; each keeps its result in its own entry.
	parallel(len(todo), 0, func(j int) {
		i := todo[j]
		f := files[i]
		if r := f.entry.docChecked; r != nil && r.valid(b) {
			results[i] = r
			return
		}
		c := &docCheck{snap: b.snap, f: f}
		c.checkLinks()
		c.checkPaths()
		results[i] = &docResult{generation: b.generation, deps: sortDocDeps(c.deps), cased: c.cased, findings: c.found}
		f.entry.docChecked = results[i]
	})
	for _, r := range results {
		b.findings = append(b.findings, r.findings...)
	}
	b.snap.docResults = results
	if last == nil || len(reads) >= maxDocReads {
		return // made from docResults by the next carried build
	}
	b.snap.docReads = reads
	if len(todo) > 0 {
		fresh := make([]*docResult, len(todo))
		for j, i := range todo {
			fresh[j] = results[i]
		}
		b.snap.docReads = append(reads[:len(reads):len(reads)], readSet(fresh))
	}
}

// docReads holds every path the Markdown checks of a snapshot read, and
// perhaps more: the set of the results of the first build of a run of
// carried builds, with one set for the results each carried build
// computed again. No set is written once made, so a carried build shares
// them with the last snapshot. A build that is not carried, and one that
// ends a run of maxDocReads, leaves it nil, and the next carried build
// makes it from the results.
type docReads []map[string]bool

const maxDocReads = 32

// readSet returns the paths the results read.
func readSet(results []*docResult) map[string]bool {
	set := map[string]bool{}
	for _, r := range results {
		for _, d := range r.deps {
			set[d.path] = true
		}
	}
	return set
}

// readsAny reports whether one of the paths of files may have been read.
func (d docReads) readsAny(files map[string]*File) bool {
	for path := range files {
		for _, set := range d {
			if set[path] {
				return true
			}
		}
	}
	return false
}

// readsAny reports whether the checks of the result read a file at one of
// the paths of files.
func (r *docResult) readsAny(files map[string]*File) bool {
	for path := range files {
		if _, ok := slices.BinarySearchFunc(r.deps, path, func(d docDep, p string) int { return strings.Compare(d.path, p) }); ok {
			return true
		}
	}
	return false
}

// docCheck checks one Markdown file and records the snapshot files it read.
type docCheck struct {
	snap *Snapshot
	f    *File
	// deps lists every snapshot file the check read, once or more.
	deps []docDep
	// cased maps each missing path the check asked about letter case to
	// what it names when case is ignored ("" for nothing).
	cased map[string]string
	found []source.Finding
}

// docResult is the memoized outcome of the checks of one Markdown file.
type docResult struct {
	generation int
	// deps lists every snapshot file the checks read once, by path.
	deps []docDep
	// cased is docCheck.cased: an unsaved file the editor adds changes
	// the listings without a new disk generation.
	cased    map[string]string
	findings []source.Finding
}

// valid reports whether the result still holds in the snapshot b builds:
// the disk is as it was and every file the checks read is unchanged.
func (r *docResult) valid(b *builder) bool {
	if r.generation != b.generation {
		return false
	}
	for _, d := range r.deps {
		var now *cacheEntry
		if f := b.snap.files.get(d.path); f != nil {
			now = f.entry
		}
		if now != d.entry {
			return false
		}
	}
	for path, real := range r.cased {
		if b.snap.CaseOf(path) != real {
			return false
		}
	}
	return true
}

func (c *docCheck) report(f source.Finding) { c.found = append(c.found, f) }

// file returns the snapshot file at path and records the dependency.
func (c *docCheck) file(path string) *File {
	f := c.snap.files.get(path)
	if n := len(c.deps); n > 0 && c.deps[n-1].path == path {
		return f // a link's target is read more than once in a row
	}
	d := docDep{path: path}
	if f != nil {
		d.entry = f.entry
	}
	c.deps = append(c.deps, d)
	return f
}

// docDep is a snapshot file a Markdown check read: its path and the cache
// entry it saw, nil when the file was absent. A result keeps them as a
// slice sorted by path, smaller than a map, one per Markdown file.
type docDep struct {
	path  string
	entry *cacheEntry
}

// sortDocDeps sorts deps by path and keeps one of each path (a check sees
// one snapshot, so every read of a path saw the same entry), in a slice
// with no room to spare.
func sortDocDeps(deps []docDep) []docDep {
	if len(deps) == 0 {
		return nil
	}
	slices.SortFunc(deps, func(a, b docDep) int { return strings.Compare(a.path, b.path) })
	deps = slices.CompactFunc(deps, func(a, b docDep) bool { return a.path == b.path })
	return slices.Clip(slices.Clone(deps))
}

// caseFix is tree.CaseFix for a path written in the file that names no
// file or folder as written; target is where it leads. It records what
// target names when letter case is ignored.
func (c *docCheck) caseFix(root, base, written, target string, decode, encode func(string) string) (fixed string, ok bool) {
	fixed, real, ok := c.snap.tree.caseFix(root, base, written, decode, encode)
	if c.cased == nil {
		c.cased = map[string]string{}
	}
	c.cased[target] = real
	if ok {
		c.file(real)
	}
	return fixed, ok
}

// exists is Snapshot.Exists, recording the dependency.
func (c *docCheck) exists(path string) (found, isDir bool) {
	return c.existsIn(c.snap.RootFor(path), path)
}

// existsIn is exists of a path whose root, RootFor(path), the caller
// knows.
func (c *docCheck) existsIn(root, path string) (found, isDir bool) {
	c.file(path)
	return c.snap.existsIn(root, path)
}

// RootFor returns the snapshot root holding path, the innermost when roots
// nest, or "".
func (s *Snapshot) RootFor(path string) string {
	best := ""
	for _, r := range s.Roots {
		if Within(r, path) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// Exists reports whether path names a file or folder inside the snapshot's
// roots, and whether it is a folder. It answers from the walk's folder
// listings, comparing names exactly whatever the file system does, and
// lists the folders the walk passed over (hidden ones) when first asked
// about them (tree.find).
func (s *Snapshot) Exists(path string) (found, isDir bool) {
	return s.existsIn(s.RootFor(path), path)
}

// existsIn is Exists of a path whose root, RootFor(path), the caller
// knows.
func (s *Snapshot) existsIn(root, path string) (found, isDir bool) {
	if root == "" {
		return false, false
	}
	if _, ok := s.tree.dirs[path]; ok {
		return true, true
	}
	if s.files.get(path) != nil {
		return true, false
	}
	dir, name := filepath.Split(path)
	if entries, ok := s.tree.dirs[filepath.Clean(dir)]; ok {
		for _, e := range entries {
			if e.Name == name {
				return true, e.IsDir
			}
		}
		return false, false
	}
	real, isDir, found := s.tree.find(root, path)
	return found && real == path, isDir
}

// CaseOf returns the path of the file or folder that path names only when
// letter case is ignored, or "" when path names something as written or
// nothing either way.
func (s *Snapshot) CaseOf(path string) string {
	root := s.RootFor(path)
	if root == "" {
		return ""
	}
	real, _, found := s.tree.find(root, path)
	if !found || real == path {
		return ""
	}
	return real
}

var (
	// escapeRE matches a CommonMark backslash escape of ASCII punctuation.
	escapeRE = regexp.MustCompile("\\\\([!-/:-@\\[-`{-~])")
	// lineFragmentRE matches GitHub's line fragments of a file view: #L7,
	// #L1-L5, #L19C5-L21C11.
	lineFragmentRE = regexp.MustCompile(`^L([0-9]+)(?:C[0-9]+)?(?:-L([0-9]+)(?:C[0-9]+)?)?$`)
)

// hasScheme reports whether s starts with a URI scheme and its colon
// (`^[A-Za-z][A-Za-z0-9+.-]*:`), as "https:" or "mailto:" do.
func hasScheme(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			return true
		case isASCIILetter(c), '0' <= c && c <= '9', c == '+', c == '.', c == '-':
		default:
			return false
		}
	}
	return false
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// linkTarget splits a link destination as written into its path, query
// and fragment, resolving backslash escapes, entities and
// percent-encoding.
func linkTarget(raw string) (pathPart, query, fragment string, hasFragment bool) {
	if strings.IndexByte(raw, '\\') >= 0 {
		raw = escapeRE.ReplaceAllString(raw, "$1")
	}
	raw = html.UnescapeString(raw)
	pathPart, fragment, hasFragment = strings.Cut(raw, "#")
	pathPart, query, _ = strings.Cut(pathPart, "?")
	if p, err := url.PathUnescape(pathPart); err == nil {
		pathPart = p
	}
	if f, err := url.PathUnescape(fragment); err == nil {
		fragment = f
	}
	return pathPart, query, fragment, hasFragment
}

// LinkDest is where a link destination written in a Markdown file leads.
type LinkDest struct {
	// Target is the absolute path of the linked file or folder: the
	// linking file itself for a same-file link ("#anchor").
	Target string
	// PathPart is the decoded path, "" for a same-file link; rawPath is the
	// path as written (with its query), from which spans are taken.
	PathPart, RawPath string
	// query is the query string without its '?'.
	query string
	// Fragment is the decoded fragment; hasFragment reports a '#'.
	Fragment    string
	HasFragment bool
}

// ResolveLink resolves a link destination as written in the file at from:
// relative to that file's folder, or to its root for a path starting with
// '/'. ok is false for a destination with a scheme or a network path
// (https:, mailto:, //host), which is never followed.
func (s *Snapshot) ResolveLink(from, raw string) (d LinkDest, ok bool) {
	if raw == "" || hasScheme(raw) || strings.HasPrefix(raw, "//") {
		return d, false
	}
	d.Target = from
	d.PathPart, d.query, d.Fragment, d.HasFragment = linkTarget(raw)
	d.RawPath, _, _ = strings.Cut(raw, "#")
	if d.PathPart != "" {
		base := filepath.Dir(from)
		if strings.HasPrefix(d.PathPart, "/") {
			base = s.RootFor(from)
		}
		d.Target = joinPath(base, d.PathPart)
	}
	return d, true
}

// repositoryTop reports whether root is the top folder of its repository,
// so that a link climbing above it certainly leads nowhere: root holds .git
// (a folder, or the file of a worktree or submodule), or no folder above it
// does, so the checked tree is all there is (a tarball, an export). A root
// below a folder holding .git is a subfolder of a larger repository, which
// may have the linked files; they are not read. The answer is computed once
// per root when the snapshot is built.
func (s *Snapshot) repositoryTop(root string) bool { return s.repoTops[root] }

// isRepositoryTop computes repositoryTop for one root of the walk. Above the
// root it only asks whether a .git entry exists; nothing is read.
func isRepositoryTop(t *tree, root string) bool {
	for _, e := range t.dirs[root] {
		if e.Name == ".git" {
			return true
		}
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return false
		}
		if filepath.Dir(dir) == dir {
			return true
		}
	}
}

// leavesRepository reports whether a relative link written in the file at
// from, whose root (RootFor) is root, climbs above the top of its
// repository at some step, as `../../x.md` one level below the top does.
// GitHub resolves such a link to no file of the repository. Nothing
// outside is read to tell.
func (s *Snapshot) leavesRepository(root, from string, d LinkDest) bool {
	if !strings.Contains(d.PathPart, "..") || strings.HasPrefix(d.PathPart, "/") {
		return false
	}
	if root == "" || !s.repositoryTop(root) {
		return false
	}
	depth := folderDepth(root, filepath.Dir(from))
	if depth < 0 {
		return false
	}
	for rest := d.PathPart; rest != ""; {
		var seg string
		seg, rest, _ = strings.Cut(rest, "/")
		switch seg {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// folderDepth returns how many folders dir lies below root, or -1 when dir
// is not root or below it.
func folderDepth(root, dir string) int {
	if filepath.Separator == '/' && cleanAbs(root) && cleanAbs(dir) {
		// The paths of the walk: counted without filepath.Rel's cleaning.
		switch rel, below := belowClean(root, dir); {
		case dir == root:
			return 0
		case root == "/":
			return strings.Count(dir, "/")
		case below:
			return strings.Count(rel, "/") + 1
		}
		return -1
	}
	rel, err := filepath.Rel(root, dir)
	switch {
	case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		return -1
	case rel == ".":
		return 0
	}
	return strings.Count(rel, string(filepath.Separator)) + 1
}

// folderReadme returns the README GitHub shows below the listing of the
// folder dir: README.md, README.markdown or another file named README,
// in that order; for the top of a repository one in .github/ comes first
// and one in docs/ last. known is false when the folder was not walked
// (a hidden folder) or the README is in .github/, whose files are not
// read.
func (c *docCheck) folderReadme(dir string) (readme string, known bool) {
	pick := func(dir string) (string, bool) {
		entries, ok := c.snap.tree.dirs[dir]
		if !ok {
			return "", false
		}
		c.file(filepath.Join(dir, "README.md"))
		best, rank := "", 3
		for _, e := range entries {
			if e.IsDir || !isReadme(e.Name) {
				continue
			}
			r := 2
			switch strings.ToLower(e.Name) {
			case "readme.md":
				r = 0
			case "readme.markdown":
				r = 1
			}
			if r < rank {
				best, rank = filepath.Join(dir, e.Name), r
			}
		}
		return best, true
	}
	top := dir == c.snap.RootFor(dir) && c.snap.repositoryTop(dir)
	if top {
		if entries, err := os.ReadDir(filepath.Join(dir, ".github")); err == nil {
			for _, e := range entries {
				if !e.IsDir() && isReadme(e.Name()) {
					return "", false
				}
			}
		}
	}
	readme, known = pick(dir)
	if readme == "" && known && top {
		if r, ok := pick(filepath.Join(dir, "docs")); ok && r != "" {
			return r, true
		}
	}
	return readme, known
}

// isReadme reports whether the file at path (or of that name) is a README:
// README, or README with any extension, in any case.
func isReadme(path string) bool {
	lower := strings.ToLower(filepath.Base(path))
	return lower == "readme" || strings.HasPrefix(lower, "readme.")
}

// checkLinks reports links to missing files and anchors (DOC_LINK_FILE,
// DOC_LINK_ANCHOR, DOC_LINK_AMBIGUOUS).
func (c *docCheck) checkLinks() {
	f := c.f
	fileRoot := c.snap.RootFor(f.Path)
	for _, l := range f.Markdown.Links {
		switch l.Kind {
		case markdown.InlineLink, markdown.Definition, markdown.HTMLLink:
		default:
			continue // reference links are checked at their definition
		}
		raw := l.Raw(f.Markdown)
		d, ok := c.snap.ResolveLink(f.Path, raw)
		if !ok {
			continue
		}
		pathSpan := source.Span{Start: l.DestSpan().Start, End: l.DestSpan().Start + len(d.RawPath)}
		fragSpan := source.Span{Start: l.DestSpan().Start + len(d.RawPath) + 1, End: l.DestSpan().Start + len(raw)}
		target, folder := d.Target, false
		if d.PathPart != "" {
			if c.snap.leavesRepository(fileRoot, f.Path, d) {
				c.report(source.Finding{
					Code: "DOC_LINK_FILE", Severity: source.Error, File: f.Path, Span: pathSpan,
					Message: fmt.Sprintf("the link %s climbs above the top of the repository, so it leads to no file there; remove the extra ../", d.PathPart),
				})
				continue
			}
			root := c.snap.RootFor(target)
			if root == "" {
				continue // outside every folder being checked: nothing there is read
			}
			found, isDir := c.existsIn(root, target)
			if !found {
				if written, fixed, ok := c.linkCase(d); ok {
					c.report(source.Finding{
						Code: "DOC_LINK_FILE", Severity: source.Error, File: f.Path, Span: source.Span{Start: pathSpan.Start, End: pathSpan.Start + len(written)},
						Message: "the link names " + source.CaseMismatch(written, fixed),
					})
					continue
				}
				c.report(source.Finding{
					Code: "DOC_LINK_FILE", Severity: source.Error, File: f.Path, Span: pathSpan,
					Message: fmt.Sprintf("the link points to %s, which does not exist; fix the path or restore the file", d.PathPart),
				})
				continue
			}
			if isDir {
				if !d.HasFragment || d.Fragment == "" || strings.EqualFold(d.Fragment, "top") {
					continue
				}
				readme, known := c.folderReadme(target)
				if !known {
					continue
				}
				if readme == "" {
					c.report(source.Finding{
						Code: "DOC_LINK_ANCHOR", Severity: source.Error, File: f.Path, Span: fragSpan,
						Message: fmt.Sprintf("%s is a folder without a README, so its page has no #%s; link a file of the folder instead", d.PathPart, d.Fragment),
					})
					continue
				}
				target, folder = readme, true
			}
		}
		if d.HasFragment && d.Fragment != "" {
			c.checkFragment(d, target, folder, fragSpan)
		}
	}
}

// linkCase returns the path of a link that names no file or folder as
// written (before its query) and the path with the real names of what it
// names when letter case is ignored; ok is false when it names nothing
// that way either.
func (c *docCheck) linkCase(d LinkDest) (written, fixed string, ok bool) {
	written, _, _ = strings.Cut(d.RawPath, "?")
	fixed, ok = c.caseFix(c.snap.RootFor(c.f.Path), filepath.Dir(c.f.Path), written, d.Target, DecodeLinkName, EncodeLinkName)
	return written, fixed, ok
}

// DecodeLinkName reads one name of a link destination as written:
// backslash escapes, entities and percent-encoding resolved.
func DecodeLinkName(s string) string {
	p, _, _, _ := linkTarget(s)
	return p
}

// EncodeLinkName writes a file name in a link destination,
// percent-encoding it when it holds a character a destination cannot
// hold as it is.
func EncodeLinkName(name string) string {
	if strings.ContainsAny(name, " %<>()[]\\&#?") {
		return url.PathEscape(name)
	}
	return name
}

// checkFragment checks the fragment of a link into target, the file the
// link shows: the linked file, or the README of a linked folder (folder
// set).
//
// Browsers scroll to the top for #top. In a non-Markdown file, and in a
// Markdown file shown as source (?plain=1), GitHub's line fragments (#L7,
// #L1-L5) must name lines the file has; other fragments there are not
// checked. In a Markdown file the fragment must name a heading (by the rule
// of the file: GitHub's outside packages, OpenGDD's inside) or an HTML
// anchor; #readme also names the README box of a folder's page and of a
// README file.
func (c *docCheck) checkFragment(d LinkDest, target string, folder bool, fragSpan source.Span) {
	f, fragment := c.f, d.Fragment
	if strings.EqualFold(fragment, "top") {
		return
	}
	tf := c.file(target)
	plain := false
	if d.query != "" {
		if q, err := url.ParseQuery(d.query); err == nil {
			plain = q.Get("plain") == "1"
		}
	}
	if tf == nil || tf.Markdown == nil || plain && lineFragmentRE.MatchString(fragment) {
		c.checkLineFragment(target, fragment, fragSpan)
		return
	}
	if fragment == "readme" && (folder || isReadme(target)) {
		return
	}
	doc := tf.Markdown
	github := UsesGitHubAnchors(tf)
	matches := doc.FindFragment(fragment, github)
	switch {
	case len(matches) == 0 && doc.HasHTMLAnchor(fragment, github):
	case len(matches) == 0:
		msg := fmt.Sprintf("no heading of %s has the anchor #%s", filepath.Base(target), fragment)
		if near := Nearest(fragment, headingAnchors(doc, github)); near != "" {
			msg += fmt.Sprintf("; did you mean #%s?", near)
		}
		c.report(source.Finding{Code: "DOC_LINK_ANCHOR", Severity: source.Error, File: f.Path, Span: fragSpan, Message: msg})
	case len(matches) > 1:
		fd := source.Finding{
			Code: "DOC_LINK_AMBIGUOUS", Severity: source.Warning, File: f.Path, Span: fragSpan,
			Message: fmt.Sprintf("%d headings of %s give the anchor #%s, so the link cannot tell them apart; reword one of the headings", len(matches), filepath.Base(target), fragment),
		}
		for _, h := range matches {
			fd.Related = append(fd.Related, source.Related{File: target, Span: doc.Headings[h].Span(), Message: "a heading with this anchor"})
		}
		c.report(fd)
	}
}

// checkLineFragment reports a line fragment (#L7, #L1-L5) that names a
// line past the end of the file at target, or line 0. Other fragments,
// and files that cannot be read, are not checked.
func (c *docCheck) checkLineFragment(target, fragment string, fragSpan source.Span) {
	m := lineFragmentRE.FindStringSubmatch(fragment)
	if m == nil {
		return
	}
	content, ok := c.snap.ReadCited(target)
	if !ok {
		return
	}
	n := bytes.Count(content, []byte("\n"))
	if len(content) > 0 && content[len(content)-1] != '\n' {
		n++
	}
	for _, s := range m[1:] {
		if s == "" {
			continue
		}
		line, err := strconv.Atoi(s)
		if err == nil && line >= 1 && line <= n {
			continue
		}
		c.report(source.Finding{
			Code: "DOC_LINK_ANCHOR", Severity: source.Error, File: c.f.Path, Span: fragSpan,
			Message: fmt.Sprintf("#%s names line %s, but %s has %d lines; fix the line number", fragment, s, filepath.Base(target), n),
		})
		return
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

var extRE = regexp.MustCompile(`\.([A-Za-z][A-Za-z0-9]{0,9})$`)

// LooksLikePath reports whether an inline code span is a repository-relative
// path worth checking (DESIGN §5, DOC_PATH_MISSING). It is conservative: a
// path contains a '/' between non-empty segments; has no white space,
// colon, quote, shell or glob character; does not start with '/', '~' or
// '-' or with a domain name (example.com/page); and ends in a file
// extension or in '/'. A bare file name such as `meta.json` is not a path:
// prose names files that live elsewhere too often.
func LooksLikePath(text string) bool {
	if text == "" || len(text) > 300 || !strings.Contains(text, "/") || strings.ContainsAny(text, " \t\n:*?[]{}<>|$&;=()'\"`\\,@!%^+#") {
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
	first := segs[0]
	if first != "." && first != ".." && strings.Contains(first, ".") && !strings.HasPrefix(first, ".") {
		return false // example.com/page
	}
	if strings.HasSuffix(text, "/") {
		return true
	}
	return extRE.MatchString(segs[len(segs)-1])
}

// CitedPath is an inline-code path of a Markdown file.
type CitedPath struct {
	Span  source.Span
	block source.Span
	// Text is the path as written.
	Text string
	// File is the absolute path of the cited file, or "" when the path
	// names a folder or nothing; dir is the absolute path of a cited folder.
	File, Dir string
	// outside is set when every reading of the path leaves the roots.
	outside bool
}

// missing reports a path that names nothing inside the roots.
func (c CitedPath) missing() bool { return c.File == "" && c.Dir == "" && !c.outside }

// witness is a quoted test name and the path cited before it.
type witness struct {
	Quote markdown.Quote
	// Owner is the path the name belongs to.
	Owner CitedPath
}

// CitedPaths returns the inline-code paths of f, resolved with exists. In
// chapters, tokens that are OpenGDD citations are not paths: the prose
// citation check owns them.
func (s *Snapshot) CitedPaths(f *File, exists func(string) (bool, bool)) []CitedPath {
	inChapter := IsChapter(s.PackageFor(f), f)
	var out []CitedPath
	for _, cs := range f.Markdown.CodeSpans {
		if !LooksLikePath(cs.Text(f.Markdown)) {
			continue
		}
		if inChapter {
			if class, _ := ClassifyToken(cs.Text(f.Markdown)); class == TuningCitation || class == MechanismPath {
				continue
			}
		}
		c := CitedPath{Span: cs.Span(), block: cs.Block(), Text: cs.Text(f.Markdown)}
		s.resolvePath(f, &c, exists)
		out = append(out, c)
	}
	return out
}

// resolvePath finds what a cited path names, trying the repository root,
// the document's folder and its package root, in that order.
func (s *Snapshot) resolvePath(f *File, c *CitedPath, exists func(string) (bool, bool)) {
	rel := filepath.FromSlash(strings.TrimSuffix(c.Text, "/"))
	inside := false
	for _, base := range s.pathBases(f) {
		if base == "" {
			continue
		}
		p := filepath.Join(base, rel)
		if s.RootFor(p) == "" {
			continue
		}
		inside = true
		if found, isDir := exists(p); found {
			if isDir {
				c.Dir = p
			} else {
				c.File = p
			}
			return
		}
	}
	c.outside = !inside
}

// pathBases returns the folders an inline-code path of f is read from, in
// order: the repository root, the document's folder, its package root.
func (s *Snapshot) pathBases(f *File) []string {
	bases := []string{s.RootFor(f.Path), filepath.Dir(f.Path)}
	if f.InPackage() {
		bases = append(bases, f.pkgRoot)
	}
	return bases
}

// PathCase returns, for an inline-code path of f that names nothing, the
// path with the real names of what it names when letter case is ignored,
// from the first base of pathBases where it names something that way.
// fix is tree.caseFixOf, or docCheck's, which records what it asked.
func (s *Snapshot) PathCase(f *File, text string, fix func(root, base, written, target string) (string, bool)) (fixed string, ok bool) {
	root := s.RootFor(f.Path)
	for _, base := range s.pathBases(f) {
		if base == "" {
			continue
		}
		target := filepath.Join(base, filepath.FromSlash(strings.TrimSuffix(text, "/")))
		if s.RootFor(target) == "" {
			continue
		}
		if fixed, ok := fix(root, base, text, target); ok {
			return fixed, true
		}
	}
	return "", false
}

// TreeCaseFix is pathCase's fix without recording: tree.caseFixOf.
func (s *Snapshot) TreeCaseFix(root, base, written, _ string) (string, bool) {
	fixed, _, ok := s.tree.caseFixOf(root, base, written)
	return fixed, ok
}

// sentenceEnd matches the end of a sentence in prose.
var sentenceEnd = regexp.MustCompile(`[.!?][)"”’]*\s`)

// Witnesses pairs each quoted string of f with the path it names a test
// of: the last path cited before it in the same list item or paragraph,
// within the same sentence. Quotes that follow no path are left out.
func (s *Snapshot) Witnesses(f *File, paths []CitedPath) []witness {
	var out []witness
	for _, q := range f.Markdown.Quotes {
		if strings.TrimSpace(q.Text) == "" {
			continue
		}
		owner := -1
		for i, p := range paths {
			if p.block == q.Block && p.Span.End <= q.Span.Start {
				owner = i
			}
		}
		if owner < 0 || sentenceEnd.Match(f.Content[paths[owner].Span.End:q.Span.Start]) {
			continue
		}
		out = append(out, witness{Quote: q, Owner: paths[owner]})
	}
	return out
}

// checkPaths reports inline-code paths that name nothing (DOC_PATH_MISSING)
// and quoted test names missing from the file cited before them
// (DOC_WITNESS_MISSING).
func (c *docCheck) checkPaths() {
	f := c.f
	paths := c.snap.CitedPaths(f, c.exists)
	same := func(s string) string { return s }
	recorded := func(root, base, written, target string) (string, bool) {
		return c.caseFix(root, base, written, target, same, same)
	}
	for _, p := range paths {
		if !p.missing() {
			continue
		}
		if fixed, ok := c.snap.PathCase(f, p.Text, recorded); ok {
			c.report(source.Finding{
				Code: "DOC_PATH_MISSING", Severity: source.Warning, File: f.Path, Span: p.Span,
				Message: "the inline code names " + source.CaseMismatch(p.Text, fixed),
			})
			continue
		}
		c.report(source.Finding{
			Code: "DOC_PATH_MISSING", Severity: source.Warning, File: f.Path, Span: p.Span,
			Message: fmt.Sprintf("`%s` reads as a path, but no such file or folder exists in the repository; fix the path or update the text", p.Text),
		})
	}
	contents := map[string][]byte{}
	for _, w := range c.snap.Witnesses(f, paths) {
		if w.Owner.File == "" {
			continue
		}
		content, ok := contents[w.Owner.File]
		if !ok {
			c.file(w.Owner.File)
			content, _ = c.snap.ReadCited(w.Owner.File)
			contents[w.Owner.File] = content
		}
		if content == nil {
			continue
		}
		if _, found := FindWitness(content, w.Quote.Text); found {
			continue
		}
		c.report(source.Finding{
			Code: "DOC_WITNESS_MISSING", Severity: source.Warning, File: f.Path, Span: w.Quote.Span,
			Message: fmt.Sprintf("the test named %q does not occur in %s; it may have been renamed or removed, so update the name or the path", w.Quote.Text, c.snap.RelPath(w.Owner.File)),
			Related: []source.Related{{File: f.Path, Span: w.Owner.Span, Message: "the cited file"}},
		})
	}
}

// IsChapter reports whether f is a numbered chapter of p, where mode tags
// are read.
func IsChapter(p *Package, f *File) bool {
	if p == nil {
		return false
	}
	for _, c := range p.Chapters {
		if c.File == f {
			return true
		}
	}
	return false
}

// UsesGitHubAnchors reports whether links and citations into file f match
// headings by GitHub's anchors (a file outside every package) rather than by
// the OpenGDD rule (a file of a package).
func UsesGitHubAnchors(f *File) bool { return !f.InPackage() }

// ReadCited returns the content of a cited file: the snapshot's copy, or
// the file on disk when it is a regular text file inside a root (after
// resolving symbolic links) and no larger than maxWitnessFileSize.
func (s *Snapshot) ReadCited(path string) ([]byte, bool) {
	if f := s.File(path); f != nil {
		return f.Content, f.Skipped == ""
	}
	if !s.InsideRoots(path) {
		return nil, false
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > MaxWitnessFileSize {
		return nil, false
	}
	content, err := os.ReadFile(path)
	if err != nil || len(content) > MaxWitnessFileSize || bytes.IndexByte(content, 0) >= 0 {
		return nil, false
	}
	return content, true
}

// InsideRoots reports whether path lies inside a root of the snapshot, both
// as written and after resolving symbolic links.
func (s *Snapshot) InsideRoots(path string) bool {
	for _, r := range s.Roots {
		if !Within(r, path) {
			continue
		}
		resolved, err := filepath.EvalSymlinks(path)
		if err != nil {
			return false
		}
		realRoot, err := filepath.EvalSymlinks(r)
		if err != nil {
			realRoot = r
		}
		return Within(realRoot, resolved)
	}
	return false
}

// FindWitness finds a quoted test name in a file's content and returns the
// span of the occurrence. An occurrence directly after a quotation mark or
// backtick (a string literal) wins over one elsewhere. A name shortened with
// an ellipsis ("…" or "...") matches its parts in order on one line.
func FindWitness(content []byte, name string) (source.Span, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return source.Span{}, false
	}
	// A test file may escape the quotes inside a string literal.
	for _, form := range []string{name, strings.ReplaceAll(name, "'", `\'`), strings.ReplaceAll(name, `"`, `\"`)} {
		if sp, ok := findLiteral(content, []byte(form)); ok {
			return sp, true
		}
		if sp, ok := findParts(content, splitEllipsis(form)); ok {
			return sp, true
		}
	}
	return source.Span{}, false
}

// RelPath shows a path relative to its snapshot root, with slashes.
func (s *Snapshot) RelPath(path string) string {
	if root := s.RootFor(path); root != "" {
		if rel, err := filepath.Rel(root, path); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// findLiteral returns the first occurrence of needle that follows a quote
// character or backtick, or else its first occurrence.
func findLiteral(content, needle []byte) (source.Span, bool) {
	first := -1
	for from := 0; from <= len(content); {
		i := bytes.Index(content[from:], needle)
		if i < 0 {
			break
		}
		at := from + i
		if first < 0 {
			first = at
		}
		if at > 0 && strings.IndexByte("\"'`", content[at-1]) >= 0 {
			return source.Span{Start: at, End: at + len(needle)}, true
		}
		from = at + 1
	}
	if first < 0 {
		return source.Span{}, false
	}
	return source.Span{Start: first, End: first + len(needle)}, true
}

// findParts finds the parts of a name shortened with an ellipsis, in order
// on one line.
func findParts(content []byte, parts []string) (source.Span, bool) {
	if len(parts) < 2 {
		return source.Span{}, false
	}
	first := []byte(parts[0])
	for from := 0; from < len(content); {
		i := bytes.Index(content[from:], first)
		if i < 0 {
			break
		}
		start := from + i
		lineEnd := len(content)
		if j := bytes.IndexAny(content[start:], "\r\n"); j >= 0 {
			lineEnd = start + j
		}
		end, matched := start+len(first), true
		for _, p := range parts[1:] {
			k := bytes.Index(content[end:lineEnd], []byte(p))
			if k < 0 {
				matched = false
				break
			}
			end += k + len(p)
		}
		if matched {
			return source.Span{Start: start, End: end}, true
		}
		from = start + 1
	}
	return source.Span{}, false
}

// splitEllipsis splits a shortened name at "…" and "...", dropping empty
// parts and the spaces around each.
func splitEllipsis(name string) []string {
	name = strings.ReplaceAll(name, "...", "…")
	var out []string
	for _, p := range strings.Split(name, "…") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
