package ide

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// The editor features of general Markdown (DESIGN §5): inline-code paths
// and the quoted test names written after them complete, hover and lead to
// the cited file. A cited file is often not part of the snapshot (only
// Markdown and JSON files are read at load), so it is read from disk here,
// only inside the snapshot's roots and only up to maxWitnessFileSize bytes.

const (
	// pathHoverLines is how many lines of a cited file a hover shows.
	pathHoverLines = 10
	// witnessContext is how many lines around a witness a hover shows.
	witnessContext = 2
	// maxPathItems bounds the entries one path completion lists.
	maxPathItems = 500
)

// LinesOf returns the line index of a file for converting spans to
// positions: the snapshot's own for a file it holds, else one built from
// the file on disk when the file is a readable text file inside the
// snapshot's roots, no larger than 8 MiB. It returns nil otherwise. The
// result for a file outside the snapshot is not cached; each call reads the
// file again.
func LinesOf(s *analysis.Snapshot, path string) *source.Lines {
	if f := s.File(path); f != nil {
		return f.Lines
	}
	content, ok := s.ReadCited(path)
	if !ok {
		return nil
	}
	return analysis.NewLines(path, content)
}

// witnessAt returns the quoted test name at offset with the path it
// belongs to. ok is false when offset is on no such quote.
func witnessAt(s *analysis.Snapshot, f *analysis.File, offset int) (q markdown.Quote, owner analysis.CitedPath, ok bool) {
	for _, w := range s.Witnesses(f, s.CitedPaths(f, s.Exists)) {
		if w.Quote.Span.Contains(offset) {
			return w.Quote, w.Owner, true
		}
	}
	return q, owner, false
}

// pathAt returns the cited path whose code span holds offset.
func pathAt(s *analysis.Snapshot, f *analysis.File, offset int) (analysis.CitedPath, bool) {
	for _, c := range s.CitedPaths(f, s.Exists) {
		if c.Span.Contains(offset) {
			return c, true
		}
	}
	return analysis.CitedPath{}, false
}

// docDefinition answers go to definition on an inline-code path (the
// cited file, at its top) and on a quoted test name after one (the
// occurrence of the name in the cited file). It returns nil elsewhere.
func docDefinition(s *analysis.Snapshot, f *analysis.File, offset int) []Location {
	if f == nil || f.Markdown == nil {
		return nil
	}
	if c, ok := pathAt(s, f, offset); ok {
		if c.File == "" {
			return nil
		}
		return []Location{{File: c.File}}
	}
	w, ok := witnessTarget(s, f, offset)
	if !ok || !w.found {
		return nil
	}
	return []Location{{File: w.file, Span: w.span}}
}

// witnessHit is a quoted test name under the cursor and where it stands in
// the file it cites.
type witnessHit struct {
	quote   markdown.Quote
	file    string
	content []byte
	span    source.Span
	found   bool
}

// witnessTarget finds the quoted test name at offset and looks it up in the
// cited file. ok is false when offset is on no witness of a readable file.
func witnessTarget(s *analysis.Snapshot, f *analysis.File, offset int) (witnessHit, bool) {
	q, owner, ok := witnessAt(s, f, offset)
	if !ok || owner.File == "" {
		return witnessHit{}, false
	}
	content, ok := s.ReadCited(owner.File)
	if !ok {
		return witnessHit{}, false
	}
	w := witnessHit{quote: q, file: owner.File, content: content}
	w.span, w.found = analysis.FindWitness(content, q.Text)
	return w, true
}

// docHover explains an inline-code path (the first lines of the file, or
// the entries of a folder) and a quoted test name after one (its line in
// the cited file with a little context). It returns nil elsewhere.
func docHover(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	if f == nil || f.Markdown == nil {
		return nil
	}
	if c, ok := pathAt(s, f, offset); ok {
		var md string
		switch {
		case c.File != "":
			md = fileHover(s, c.File)
		case c.Dir != "":
			md = folderHover(s, c.Dir)
		}
		if md == "" {
			return nil
		}
		return &HoverInfo{Markdown: md, Span: c.Span}
	}
	w, ok := witnessTarget(s, f, offset)
	if !ok {
		return nil
	}
	q, content, sp := w.quote, w.content, w.span
	rel := s.RelPath(w.file)
	if !w.found {
		return &HoverInfo{Markdown: fmt.Sprintf("test name not found in `%s`", rel), Span: q.Span}
	}
	lines := source.NewLines(content)
	line := lines.Position(sp.Start).Line
	first := max(line-witnessContext, 0)
	last := min(line+witnessContext, lines.LineCount()-1)
	md := fmt.Sprintf("`%s`, line %d\n\n%s", rel, line+1, fenced(linesText(lines, first, last+1), languageOf(w.file)))
	return &HoverInfo{Markdown: md, Span: q.Span}
}

// fileHover shows the first lines of a cited file.
func fileHover(s *analysis.Snapshot, path string) string {
	rel := s.RelPath(path)
	content, ok := s.ReadCited(path)
	if !ok {
		return fmt.Sprintf("`%s` (not shown: binary, too large or unreadable)", rel)
	}
	lines := source.NewLines(content)
	n := lines.LineCount()
	end := min(n, pathHoverLines)
	md := fmt.Sprintf("`%s`", rel)
	if text := linesText(lines, 0, end); strings.TrimSpace(text) != "" {
		md += "\n\n" + fenced(text, languageOf(path))
	}
	if n > end {
		md += fmt.Sprintf("\n\n… %d more lines", n-end)
	}
	return md
}

// folderHover lists the first entries of a cited folder.
func folderHover(s *analysis.Snapshot, dir string) string {
	if !s.InsideRoots(dir) {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		names = append(names, "`"+name+"`")
	}
	md := fmt.Sprintf("folder `%s/`, %d entries", s.RelPath(dir), len(names))
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	if len(names) > 0 {
		md += "\n\n" + strings.Join(names, ", ")
	}
	return md
}

// linesText joins lines [first, end) of a file with "\n".
func linesText(lines *source.Lines, first, end int) string {
	var b strings.Builder
	for i := first; i < end; i++ {
		if i > first {
			b.WriteByte('\n')
		}
		b.Write(lines.LineText(i))
	}
	return b.String()
}

// fenced wraps text in a fenced code block longer than any backtick run in
// the text.
func fenced(text, lang string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + text + "\n" + fence
}

// languages maps file extensions to the info strings of fenced blocks.
var languages = map[string]string{
	".ts": "ts", ".tsx": "tsx", ".js": "js", ".jsx": "jsx", ".mjs": "js", ".cjs": "js",
	".go": "go", ".py": "python", ".rs": "rust", ".java": "java", ".kt": "kotlin",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
	".rb": "ruby", ".lua": "lua", ".gd": "gdscript", ".sh": "sh", ".json": "json",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".md": "markdown", ".markdown": "markdown",
	".css": "css", ".html": "html", ".xml": "xml", ".csv": "csv", ".glsl": "glsl", ".svg": "xml",
}

// languageOf returns the fenced-block language of a file, or "".
func languageOf(path string) string {
	return languages[strings.ToLower(filepath.Ext(path))]
}

// pathItems completes an inline-code path being typed in span (the code
// span's content so far, up to the closing backtick or the end of the
// line): the entries of the folder typed so far, relative to the
// repository root (and to the document's folder for "./" and "../", and
// to the package root inside a package). Folders end in "/" and re-trigger
// completion. Nothing is offered before the first character, nor for text
// that cannot be a path.
func pathItems(s *analysis.Snapshot, f *analysis.File, span source.Span, offset int) []CompletionItem {
	if offset < span.Start || offset > len(f.Content) {
		return nil
	}
	typed := string(f.Content[span.Start:offset])
	if typed == "" || strings.ContainsAny(typed, " \t*?[]{}<>|$&;=()'\"\\:,@!%^+") || strings.HasPrefix(typed, "/") || strings.HasPrefix(typed, "~") || strings.HasPrefix(typed, "-") {
		return nil
	}
	dirPart := ""
	if i := strings.LastIndexByte(typed, '/'); i >= 0 {
		dirPart = typed[:i+1]
	}
	prefix := typed[len(dirPart):]
	root := s.RootFor(f.Path)
	if root == "" {
		return nil
	}
	var bases []string
	if strings.HasPrefix(typed, "./") || strings.HasPrefix(typed, "../") {
		bases = []string{filepath.Dir(f.Path)}
	} else {
		bases = []string{root}
		if f.InPackage() && f.PackageRoot() != root {
			bases = append(bases, f.PackageRoot())
		}
	}
	seen := map[string]bool{}
	var out []CompletionItem
	for _, base := range bases {
		dir := filepath.Join(base, filepath.FromSlash(dirPart))
		if s.RootFor(dir) == "" || !s.InsideRoots(dir) {
			continue
		}
		for _, e := range listFolder(s, dir) {
			if !strings.HasPrefix(e.Name, prefix) || (strings.HasPrefix(e.Name, ".") && !strings.HasPrefix(prefix, ".")) {
				continue
			}
			label := dirPart + e.Name
			kind := "file"
			if e.IsDir {
				label += "/"
				kind = "folder"
			}
			if seen[label] || len(out) >= maxPathItems {
				continue
			}
			seen[label] = true
			order := "1"
			if e.IsDir {
				order = "0"
			}
			out = append(out, CompletionItem{
				Label: label, Kind: CompleteFile, Detail: kind,
				SortText: "4" + order + label, Retrigger: e.IsDir,
				Edit: &TextEdit{Span: span, NewText: label},
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SortText < out[j].SortText })
	return out
}

// listFolder lists a folder's entries: from the walk the snapshot was
// built from (which includes unsaved files), or from disk for a folder the
// walk passed over.
func listFolder(s *analysis.Snapshot, dir string) []analysis.DirEntry {
	if entries, ok := s.FolderEntries(dir); ok {
		out := make([]analysis.DirEntry, 0, len(entries))
		for _, e := range entries {
			if e.Name != "node_modules" {
				out = append(out, e)
			}
		}
		return out
	}
	var out []analysis.DirEntry
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if e.Name() == "node_modules" {
			continue
		}
		isDir := e.IsDir()
		if !isDir && e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && st.IsDir() {
				isDir = true
			}
		}
		out = append(out, analysis.DirEntry{Name: e.Name(), IsDir: isDir})
	}
	return out
}
