package ide

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FileCreate is a file a code action creates, with its first content.
type FileCreate struct {
	// Path is the absolute path of the new file.
	Path    string
	Content string
}

// headingFor returns the text of a heading whose anchor is anchor under the
// rule of a file (GitHub's outside packages, OpenGDD's inside): the anchor
// with spaces for hyphens and a capital first letter. ok is false when no
// such plain text gives the anchor back.
func headingFor(anchor string, github bool) (string, bool) {
	text := strings.ReplaceAll(anchor, "-", " ")
	if r, n := utf8.DecodeRuneInString(text); n > 0 {
		text = string(unicode.ToUpper(r)) + text[n:]
	}
	slug := markdown.OpenGDDAnchor(text)
	if github {
		slug = markdown.GitHubAnchor(text)
	}
	return text, strings.TrimSpace(text) != "" && slug == anchor
}

// lineEnding returns the line ending a file uses.
func lineEnding(content []byte) string {
	if strings.Contains(string(content), "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// appendHeading returns the edit that appends a level-2 heading to the end
// of a Markdown file, after a blank line.
func appendHeading(f *analysis.File, text string) TextEdit {
	nl := lineEnding(f.Content)
	c := string(f.Content)
	lead := nl + nl
	switch {
	case c == "":
		lead = ""
	case strings.HasSuffix(c, nl+nl):
		lead = ""
	case strings.HasSuffix(c, nl):
		lead = nl
	}
	return TextEdit{Span: source.Span{Start: len(c), End: len(c)}, NewText: lead + "## " + text + nl}
}

// createHeading offers to add the heading a dangling anchor names to the
// end of the cited file: for a contract citation "file.md#anchor" of the
// adoption (CONTRACT_CITATION_DANGLING) or for a link fragment
// (DOC_LINK_ANCHOR).
func (x *fixer) createHeading(code string, ds source.Span) {
	var tf *analysis.File
	var anchor string
	switch code {
	case "CONTRACT_CITATION_DANGLING":
		v := x.citationUnder(ds)
		if v == nil {
			return
		}
		file, frag, ok := strings.Cut(v.Str(), "#")
		rel, inside := analysis.PackageRelative(file)
		if !ok || !inside || frag == "" {
			return
		}
		tf, anchor = x.pkg.FileAt(rel), frag
	case "DOC_LINK_ANCHOR":
		if d, f, ok := x.linkUnder(ds); ok {
			tf, anchor = f, d.Fragment
		}
	}
	if tf == nil || tf.Markdown == nil || anchor == "" {
		return
	}
	github := analysis.UsesGitHubAnchors(tf)
	if len(tf.Markdown.FindAnchor(anchor, github)) > 0 {
		return
	}
	text, ok := headingFor(anchor, github)
	if !ok {
		return
	}
	title := fmt.Sprintf("Create the heading %q in %s", text, displayPath(x.s, tf))
	if x.seen[title] {
		return
	}
	x.seen[title] = true
	x.out = append(x.out, CodeAction{
		Title: title, Kind: "quickfix", Codes: []string{code},
		Edits: map[string][]TextEdit{tf.Path: {appendHeading(tf, text)}},
	})
}

// citationUnder returns the citation string of the file's adoption at the
// span of a finding, or nil.
func (x *fixer) citationUnder(ds source.Span) *jsonsrc.Value {
	a, _ := x.adoption()
	if a == nil {
		return nil
	}
	return citationAt(a, ds)
}

// linkUnder resolves the link of the Markdown file whose destination holds
// the span of a finding; tf is the linked file of the snapshot, or nil.
func (x *fixer) linkUnder(ds source.Span) (d analysis.LinkDest, tf *analysis.File, ok bool) {
	if x.f.Markdown == nil {
		return d, nil, false
	}
	for _, l := range x.f.Markdown.Links {
		if l.Raw(x.f.Markdown) == "" || ds.Start < l.DestSpan().Start || ds.End > l.DestSpan().End {
			continue
		}
		if d, ok = x.s.ResolveLink(x.f.Path, l.Raw(x.f.Markdown)); !ok {
			return d, nil, false
		}
		return d, x.s.File(d.Target), true
	}
	return d, nil, false
}

// createFile offers to create the Markdown file a broken link names
// (DOC_LINK_FILE), with a title from its name and the heading the link's
// fragment asks for.
func (x *fixer) createFile(ds source.Span) {
	if x.f.Markdown == nil {
		return
	}
	for _, l := range x.f.Markdown.Links {
		if l.Raw(x.f.Markdown) == "" || l.DestSpan().Start != ds.Start {
			continue
		}
		d, ok := x.s.ResolveLink(x.f.Path, l.Raw(x.f.Markdown))
		if !ok || d.PathPart == "" || !analysis.IsMarkdown(d.Target) || x.s.RootFor(d.Target) == "" {
			return
		}
		if found, _ := x.s.Exists(d.Target); found || x.s.CaseOf(d.Target) != "" {
			// A file whose name differs only in case: Windows and macOS
			// would write over it (fixCase offers its real name).
			return
		}
		nl := lineEnding(x.f.Content)
		name := strings.TrimSuffix(filepath.Base(d.Target), filepath.Ext(d.Target))
		title, _ := headingFor(strings.ToLower(strings.ReplaceAll(name, "_", "-")), true)
		content := "# " + title + nl
		// A new file outside every package matches fragments by GitHub's
		// anchors; one inside a package by OpenGDD's.
		github := true
		for _, p := range x.s.Packages {
			if analysis.Within(p.Root, d.Target) {
				github = false
			}
		}
		if d.Fragment != "" {
			if h, ok := headingFor(d.Fragment, github); ok {
				content += nl + "## " + h + nl
			}
		}
		rel := x.s.RelPath(d.Target)
		x.out = append(x.out, CodeAction{
			Title: "Create " + rel, Kind: "quickfix", Codes: []string{"DOC_LINK_FILE"},
			Creates: []FileCreate{{Path: d.Target, Content: content}},
		})
		return
	}
}

// FixAll returns the action that applies every unambiguous quick fix of a
// file at once (the preferred fix of each finding), or nil when there is
// none. A fix whose edits overlap or share an insertion point with one
// already taken is left for the next run.
func FixAll(s *analysis.Snapshot, path string) *CodeAction {
	f := s.File(path)
	if f == nil {
		return nil
	}
	var taken []TextEdit
	var codes []string
	n := 0
	for _, a := range CodeActions(s, path, source.Span{Start: 0, End: len(f.Content)}) {
		es := a.Edits[path]
		if !a.Preferred || len(a.Edits) != 1 || len(es) == 0 || len(a.Creates) > 0 || overlapsAny(taken, es) {
			continue
		}
		taken = append(taken, es...)
		codes = append(codes, a.Codes...)
		n++
	}
	if n == 0 {
		return nil
	}
	sort.SliceStable(taken, func(i, j int) bool { return taken[i].Span.Start < taken[j].Span.Start })
	sort.Strings(codes)
	title := "Fix all: apply the one unambiguous fix"
	if n > 1 {
		title = fmt.Sprintf("Fix all: apply %d unambiguous fixes", n)
	}
	return &CodeAction{Title: title, Kind: "source.fixAll", Codes: compactStrings(codes), Edits: map[string][]TextEdit{path: taken}}
}

// overlapsAny reports whether an edit of es overlaps an edit of taken or
// starts where one does.
func overlapsAny(taken, es []TextEdit) bool {
	for _, a := range taken {
		for _, b := range es {
			if a.Span.Start == b.Span.Start || (a.Span.Start < b.Span.End && b.Span.Start < a.Span.End) {
				return true
			}
		}
	}
	return false
}

// compactStrings removes adjacent repeats of a sorted list.
func compactStrings(ss []string) []string {
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// tocStart and tocEnd delimit a table of contents the server maintains.
const (
	tocStart = "<!-- toc -->"
	tocEnd   = "<!-- tocstop -->"
)

// SourceActions returns the source actions of a file: fix all
// (source.fixAll), for a Markdown file with headings below its title,
// inserting or updating a table of contents (source.toc), and for a file
// with retired forms, their migration (source.migrate).
func SourceActions(s *analysis.Snapshot, path string) []CodeAction {
	var out []CodeAction
	if a := FixAll(s, path); a != nil {
		out = append(out, *a)
	}
	if a := tableOfContents(s, path); a != nil {
		out = append(out, *a)
	}
	if a := MigrateAction(s, path); a != nil {
		out = append(out, *a)
	}
	return out
}

// tableOfContents returns the action that writes a list of links to the
// headings of a Markdown file below its title, between tocStart and tocEnd:
// replacing the list already there, or inserted after the title.
func tableOfContents(s *analysis.Snapshot, path string) *CodeAction {
	f := s.File(path)
	if f == nil || f.Markdown == nil {
		return nil
	}
	doc := f.Markdown
	nl := lineEnding(f.Content)
	github := analysis.UsesGitHubAnchors(f)
	var b strings.Builder
	entries := 0
	for i, h := range doc.Headings {
		if i == 0 && h.Level() == 1 {
			continue // the title
		}
		anchor := headingAnchor(f, h)
		if anchor == "" || len(doc.FindAnchor(anchor, github)) != 1 {
			continue // a link to it could not tell the headings apart
		}
		text := strings.NewReplacer("[", `\[`, "]", `\]`).Replace(strings.TrimSpace(h.Text(doc)))
		fmt.Fprintf(&b, "%s- [%s](#%s)%s", strings.Repeat("  ", max(h.Level()-2, 0)), text, anchor, nl)
		entries++
	}
	if entries < 2 {
		return nil
	}
	list := b.String()
	content := string(f.Content)
	if i := strings.Index(content, tocStart); i >= 0 {
		from := i + len(tocStart)
		if j := strings.Index(content[from:], tocEnd); j >= 0 {
			inner := source.Span{Start: from, End: from + j}
			newText := nl + list
			if content[inner.Start:inner.End] == newText {
				return nil // up to date
			}
			return &CodeAction{Title: "Update the table of contents", Kind: "source.toc",
				Edits: map[string][]TextEdit{path: {{Span: inner, NewText: newText}}}}
		}
	}
	at, text := 0, tocStart+nl+list+tocEnd+nl+nl
	if len(doc.Headings) > 0 && doc.Headings[0].Level() == 1 {
		at = doc.Headings[0].Span().End
		if k := strings.Index(content[at:], "\n"); k >= 0 {
			at += k + 1
		} else {
			at = len(content)
			text = nl + text
		}
		text = nl + tocStart + nl + list + tocEnd + nl
	}
	return &CodeAction{Title: "Insert a table of contents", Kind: "source.toc",
		Edits: map[string][]TextEdit{path: {{Span: source.Span{Start: at, End: at}, NewText: text}}}}
}

// allMissingAnswers offers to answer every missing question at once, each
// with its first option.
func (x *fixer) allMissingAnswers(a *contracts.Adoption, missing []*contracts.Question) {
	var kvs []jsonKV
	for _, q := range missing {
		if len(q.Options) > 0 {
			kvs = append(kvs, jsonKV{q.Name.Text, quoteJSON(q.Options[0].Name.Text)})
		}
	}
	if len(kvs) < 2 {
		return
	}
	if edit, ok := x.editor().addToMember(a.AnswersKey, "answers", kvs); ok {
		x.add(fmt.Sprintf("Add all %d missing answers, each with its first option", len(kvs)), "CONTRACT_ANSWER_MISSING", false, edit)
	}
}
