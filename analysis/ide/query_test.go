package ide

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/txtar"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// The query tests read testdata/query/*.txtar. Each archive is a small
// repository whose files carry markers between ⟦ and ⟧, as the check
// scenarios of testdata/check do; the driver removes every marker before
// the files are written and analysed, and all offsets are those of the
// clean files.
//
//   - ⟦@name⟧ names a place: the empty span where it stands or, written a
//     second time, the span between the two. Expectations refer to it as
//     @name.
//   - ⟦kind args⟧ asks the query kind (see queryKinds) at the place where
//     it stands and states what it must answer. The first arguments are
//     the query's inputs when the kind takes any (a new name, a title, a
//     search). The rest are the expected brief result: completion labels
//     in the editor's order, the places of a definition, action titles…
//     exactly, or at least those in that order when the last argument is
//     "...". An argument !text expects the query to fail with an error
//     containing text. An argument >name compares the full result with the
//     archive's golden section "-- >name --", or, for results that are
//     files (a rename, an applied action), with one section
//     "-- >name/path --" for each changed file. A marker with no
//     expectation at all expects the query to offer nothing.
//
// Where one spot carries many expectations, the archive's comment may
// hold them instead: ⟦@place kind args⟧ there asks kind at the start of
// the place.
//
// Arguments are separated by spaces; an argument with spaces is a Go
// quoted string. Markers begin with @ or a lower-case kind, so they cannot
// be taken for the ⟦CODE⟧ markers of check scenarios.
//
// A file name that appears a second time in an archive is a variant: the
// markers in it run against the archive's other files with that file
// replaced, so that one archive can show a file at several moments of
// typing. A section name may end in a note, "path (what this version
// shows)"; a variant whose note is "unsaved" or starts with "unsaved:" is
// an editor buffer: the first version stays on disk and the variant is the
// overlay.
//
// go test ./analysis/ide -run TestQueries -update rewrites the golden sections
// from the results.

var updateQueries = flag.Bool("update", false, "rewrite the golden sections of testdata/query/*.txtar")

func TestQueries(t *testing.T) {
	analysistest.RunArchives(t, filepath.Join("..", "..", "testdata", "query"), func(t *testing.T, path string) {
		t.Parallel()
		qa := readQueryArchive(t, path)
		for _, msg := range qa.run(t) {
			t.Error(msg)
		}
		qa.finish(t)
	})
}

// run asks every query of the archive and returns a message for each that
// differs from its expectation.
func (qa *queryArchive) run(t *testing.T) []string {
	t.Helper()
	var msgs []string
	used := map[string]bool{}
	for _, repo := range qa.repos(t) {
		for _, m := range repo.marks {
			used[m.golden] = true
			if msg := repo.run(m); msg != "" {
				msgs = append(msgs, msg)
			}
		}
	}
	for i, f := range qa.ar.Files {
		result, _, _ := strings.Cut(strings.TrimPrefix(f.Name, ">"), "/")
		if strings.HasPrefix(f.Name, ">") && !used[result] {
			msgs = append(msgs, fmt.Sprintf("%s:%d: golden section %s: no marker compares with it", qa.path, qa.header[i], f.Name))
		}
	}
	return msgs
}

// queryArchive is one archive of testdata/query.
type queryArchive struct {
	path string
	ar   *txtar.Archive
	// header is the archive line of each file's "-- name --" line.
	header []int
	// golden holds the golden sections by name without the leading ">".
	golden map[string][]byte
	// update rewrites differing golden sections instead of reporting them.
	update bool
	// updated is set when a golden section was rewritten.
	updated bool
}

// readQueryArchive reads an archive of testdata/query; -update applies to
// it.
func readQueryArchive(t *testing.T, path string) *queryArchive {
	t.Helper()
	qa := newQueryArchive(path, analysistest.ReadArchive(t, path))
	qa.update = *updateQueries
	return qa
}

// newQueryArchive indexes the sections of an archive.
func newQueryArchive(path string, ar *txtar.Archive) *queryArchive {
	qa := &queryArchive{path: path, ar: ar, golden: map[string][]byte{}}
	line := 1 + strings.Count(string(qa.ar.Comment), "\n")
	for _, f := range qa.ar.Files {
		qa.header = append(qa.header, line)
		line += 1 + strings.Count(string(f.Data), "\n")
		if name, ok := strings.CutPrefix(f.Name, ">"); ok {
			qa.golden[name] = f.Data
		}
	}
	return qa
}

// loadQueryRepo returns the repository of the first versions of the files
// of testdata/query/name, for Go tests that use an archive as a fixture.
func loadQueryRepo(t *testing.T, name string) *queryRepo {
	t.Helper()
	qa := readQueryArchive(t, filepath.Join("..", "..", "testdata", "query", name))
	base, _ := qa.files(t)
	return qa.newRepo(t, base, nil)
}

// at returns the absolute path and start offset of a place.
func (r *queryRepo) at(t *testing.T, place string) (string, int) {
	t.Helper()
	p, ok := r.places[place]
	if !ok {
		t.Fatalf("no place @%s", place)
	}
	return r.path(p.File), p.Span.Start
}

// queryFile is one file section of an archive with its markers removed.
type queryFile struct {
	name    string // slash path in the repository
	section int    // index in the archive
	unsaved bool
	content []byte
	marks   []analysistest.Marker
}

// repos returns the repositories of the archive: its files with every
// first version, and one for each variant.
func (qa *queryArchive) repos(t *testing.T) []*queryRepo {
	t.Helper()
	base, variants := qa.files(t)
	repos := []*queryRepo{qa.newRepo(t, base, nil)}
	qa.commentMarks(t, repos[0])
	for _, v := range variants {
		repos = append(repos, qa.newRepo(t, base, v))
	}
	return repos
}

// files returns the first version of every file and the variants.
func (qa *queryArchive) files(t *testing.T) (base, variants []*queryFile) {
	t.Helper()
	seen := map[string]bool{}
	for i, f := range qa.ar.Files {
		if strings.HasPrefix(f.Name, ">") {
			continue
		}
		name, note := splitSectionName(f.Name)
		unsaved := note == "unsaved" || strings.HasPrefix(note, "unsaved:")
		content, ms, err := analysistest.StripMarkers(f.Data)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", qa.path, qa.header[i], f.Name, err)
		}
		qf := &queryFile{name: name, section: i, unsaved: unsaved, content: content, marks: ms}
		switch {
		case seen[name]:
			variants = append(variants, qf)
		case unsaved:
			t.Fatalf("%s:%d: %s: an unsaved buffer must follow the file on disk", qa.path, qa.header[i], f.Name)
		default:
			base = append(base, qf)
			seen[name] = true
		}
	}
	return base, variants
}

// commentMarks adds the expectations written in the archive's comment to
// the base repository: a marker ⟦@place kind args⟧ there asks kind at the
// start of the place, for spots that carry many expectations.
func (qa *queryArchive) commentMarks(t *testing.T, r *queryRepo) {
	t.Helper()
	_, ms, err := analysistest.StripMarkers(qa.ar.Comment)
	if err != nil {
		t.Fatalf("%s: comment: %v", qa.path, err)
	}
	for _, m := range ms {
		where := fmt.Sprintf("%s:%d", qa.path, 1+m.Line)
		at, rest, _ := strings.Cut(strings.TrimSpace(m.Text), " ")
		name, ok := strings.CutPrefix(at, "@")
		p, known := r.places[name]
		if !ok || !known {
			t.Fatalf("%s: ⟦%s⟧: a marker in the comment starts with a place of the files", where, m.Text)
		}
		qm, err := parseQueryMark(rest)
		if err != nil {
			t.Fatalf("%s: ⟦%s⟧: %v", where, m.Text, err)
		}
		qm.text = m.Text
		qm.file, qm.offset, qm.line = p.File, p.Span.Start, 1+m.Line
		r.marks = append(r.marks, qm)
	}
}

// splitSectionName splits "path (note)" into the path and the note.
func splitSectionName(name string) (path, note string) {
	if i := strings.Index(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
		return name[:i], name[i+2 : len(name)-1]
	}
	return name, ""
}

// queryRepo is one repository of an archive, written and analysed.
type queryRepo struct {
	qa    *queryArchive
	dir   string
	files map[string][]byte // clean content by slash path, as the snapshot sees it
	// places maps a place name to its location.
	places map[string]Location
	marks  []*queryMark
	// overlay holds an unsaved variant.
	overlay analysis.Overlay
	snap    *analysis.Snapshot
}

// queryMark is one expectation marker.
type queryMark struct {
	file   string // slash path
	offset int
	line   int // archive line
	text   string
	kind   string
	mods   []string
	args   []string
	golden string
}

// newRepo writes base, with variant in place of its file when not nil,
// and loads it. The markers of variant, or of base when variant is nil,
// become the repository's queries.
func (qa *queryArchive) newRepo(t *testing.T, base []*queryFile, variant *queryFile) *queryRepo {
	t.Helper()
	r := &queryRepo{qa: qa, files: map[string][]byte{}, places: map[string]Location{}}
	disk := map[string][]byte{}
	var active []*queryFile
	for _, f := range base {
		disk[f.name] = f.content
		if variant == nil || variant.name != f.name {
			active = append(active, f)
		}
	}
	if variant != nil {
		active = append(active, variant)
		if !variant.unsaved {
			disk[variant.name] = variant.content
		}
	}
	r.dir = analysistest.WriteFiles(t, "", disk)
	if variant != nil && variant.unsaved {
		r.overlay = analysis.Overlay{r.path(variant.name): variant.content}
	}
	ends := map[string]bool{}
	for _, f := range active {
		r.files[f.name] = f.content
		for _, m := range f.marks {
			where := fmt.Sprintf("%s:%d", qa.path, qa.header[f.section]+1+m.Line)
			if name, ok := strings.CutPrefix(m.Text, "@"); ok {
				if !validPlaceName(name) {
					t.Fatalf("%s: bad place name %q", where, name)
				}
				p, dup := r.places[name]
				switch {
				case !dup:
					r.places[name] = Location{File: f.name, Span: source.Span{Start: m.Offset, End: m.Offset}}
				case ends[name] || p.File != f.name:
					t.Fatalf("%s: place @%s is marked more than twice or in two files", where, name)
				default:
					p.Span.End = m.Offset
					r.places[name] = p
					ends[name] = true
				}
				continue
			}
			if variant != nil && f != variant {
				continue // the base repository runs it
			}
			qm, err := parseQueryMark(m.Text)
			if err != nil {
				t.Fatalf("%s: ⟦%s⟧: %v", where, m.Text, err)
			}
			qm.file, qm.offset, qm.line = f.name, m.Offset, qa.header[f.section]+1+m.Line
			r.marks = append(r.marks, qm)
		}
	}
	// Build records are read against their package, as the server does.
	r.snap = analysis.Load([]string{r.dir}, analysis.Options{Overlay: r.overlay, BuildRecords: true})
	return r
}

func validPlaceName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// parseQueryMark reads the text of an expectation marker.
func parseQueryMark(text string) (*queryMark, error) {
	words, err := splitQueryArgs(text)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 || words[0] == "" || !unicode.IsLower([]rune(words[0])[0]) {
		return nil, fmt.Errorf("not a query marker: it must start with @name or a query kind (upper-case ⟦CODE⟧ markers belong in testdata/check)")
	}
	kindMods := strings.Split(words[0], ":")
	m := &queryMark{text: text, kind: kindMods[0], mods: kindMods[1:]}
	kind, ok := queryKinds[m.kind]
	if !ok {
		return nil, fmt.Errorf("unknown query kind %q (known: %s)", m.kind, strings.Join(queryKindNames(), ", "))
	}
	for _, mod := range m.mods {
		if !slices.Contains(kind.mods, mod) {
			return nil, fmt.Errorf("%s has no modifier %q", m.kind, mod)
		}
	}
	for _, w := range words[1:] {
		if g, ok := strings.CutPrefix(w, ">"); ok && g != "" {
			if m.golden != "" {
				return nil, fmt.Errorf("two golden sections")
			}
			m.golden = g
			continue
		}
		m.args = append(m.args, w)
	}
	if len(m.args) < kind.inputs {
		return nil, fmt.Errorf("%s takes %d input arguments", m.kind, kind.inputs)
	}
	return m, nil
}

// splitQueryArgs splits a marker's text at spaces; a word that starts with
// a double quote, also after ! or >, is a Go quoted string.
func splitQueryArgs(s string) ([]string, error) {
	var words []string
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return words, nil
		}
		prefix := ""
		if s[0] == '!' {
			prefix, s = "!", s[1:]
		}
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoted argument %s", s)
			}
			w, _ := strconv.Unquote(q)
			words = append(words, prefix+w)
			s = s[len(q):]
			continue
		}
		end := strings.IndexAny(s, " \t\n")
		if end < 0 {
			end = len(s)
		}
		words = append(words, prefix+s[:end])
		s = s[end:]
	}
}

// path returns the absolute path of a file of the repository.
func (r *queryRepo) path(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// rel returns the slash path of an absolute path inside the repository.
func (r *queryRepo) rel(abs string) string {
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return abs
	}
	return filepath.ToSlash(rel)
}

// content returns the content of a file as the snapshot sees it, or as it
// is on disk for files the snapshot does not hold (cited source files).
func (r *queryRepo) content(abs string) []byte {
	if f := r.snap.File(abs); f != nil {
		return f.Content
	}
	return r.files[r.rel(abs)]
}

// showLoc renders a location as @name when a place has exactly its span,
// and as path:line:col "text" otherwise.
func (r *queryRepo) showLoc(l Location) string {
	rel := r.rel(l.File)
	var names []string
	for name, p := range r.places {
		if p.File == rel && p.Span == l.Span {
			names = append(names, "@"+name)
		}
	}
	if len(names) > 0 {
		sort.Strings(names)
		return names[0]
	}
	content := r.content(l.File)
	if l.Span.Start < 0 || l.Span.End > len(content) || l.Span.Start > l.Span.End {
		return fmt.Sprintf("%s:<bad span %d-%d>", rel, l.Span.Start, l.Span.End)
	}
	pos := source.NewLines(content).Position(l.Span.Start)
	return fmt.Sprintf("%s:%d:%d %q", rel, pos.Line+1, pos.Character+1, content[l.Span.Start:l.Span.End])
}

// run performs the query of m and returns a message saying how its result
// differs from the expectation, or "".
func (r *queryRepo) run(m *queryMark) string {
	kind := queryKinds[m.kind]
	q := &queryRun{repo: r, mark: m, path: r.path(m.file), inputs: m.args[:kind.inputs]}
	res, err := kind.run(q)
	want := m.args[kind.inputs:]
	var diffs []string
	diffs = append(diffs, q.problems...)
	switch {
	case err != nil:
		if len(want) != 1 || !strings.HasPrefix(want[0], "!") || !strings.Contains(err.Error(), want[0][1:]) {
			diffs = append(diffs, fmt.Sprintf("error: %v", err))
		}
	case len(want) == 1 && strings.HasPrefix(want[0], "!"):
		diffs = append(diffs, fmt.Sprintf("no error, want one containing %q", want[0][1:]))
	default:
		if d := compareBrief(res.brief, want, m.golden == ""); d != "" {
			diffs = append(diffs, d)
		}
		if m.golden != "" {
			if emptyResult(res.full) {
				diffs = append(diffs, fmt.Sprintf("the query offers nothing, but the marker compares it with -- >%s --", m.golden))
			}
			diffs = append(diffs, r.qa.compareGolden(m.golden, res.full)...)
		} else if len(want) == 0 {
			for k, v := range res.full {
				if v != "" {
					diffs = append(diffs, fmt.Sprintf("want nothing, got %s:\n%s", strings.TrimPrefix(goldenKey("", k), ">"), indent(v)))
				}
			}
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: %s:%s: ⟦%s⟧\n%s\n%s", r.qa.path, m.line, m.file, r.position(m),
		m.text, r.excerpt(m), strings.Join(diffs, "\n"))
}

// position renders a mark's place as one-based line:column.
func (r *queryRepo) position(m *queryMark) string {
	p := source.NewLines(r.files[m.file]).Position(m.offset)
	return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1)
}

// excerpt shows the clean line of the mark with a caret under its place.
func (r *queryRepo) excerpt(m *queryMark) string {
	content := string(r.files[m.file])
	start := strings.LastIndexByte(content[:m.offset], '\n') + 1
	end := strings.IndexByte(content[m.offset:], '\n')
	if end < 0 {
		end = len(content)
	} else {
		end += m.offset
	}
	pad := strings.Map(func(c rune) rune {
		if c == '\t' {
			return c
		}
		return ' '
	}, content[start:m.offset])
	return "\t" + content[start:end] + "\n\t" + pad + "^"
}

// compareBrief compares a brief result with the expected arguments: equal,
// or holding them in order when the last is "...". With no arguments and
// no golden section the result must be empty.
func compareBrief(got, want []string, noGolden bool) string {
	if len(want) == 0 {
		if noGolden && len(got) > 0 {
			return fmt.Sprintf("want nothing, got %s", quoteAll(got))
		}
		return ""
	}
	if want[len(want)-1] == "..." {
		rest := got
		for _, w := range want[:len(want)-1] {
			i := slices.Index(rest, w)
			if i < 0 {
				return fmt.Sprintf("got %s\nwant at least, in order, %s", quoteAll(got), quoteAll(want[:len(want)-1]))
			}
			rest = rest[i+1:]
		}
		return ""
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("got  %s\nwant %s", quoteAll(got), quoteAll(want))
	}
	return ""
}

// emptyResult reports whether a full result holds nothing.
func emptyResult(full map[string]string) bool {
	for _, v := range full {
		if v != "" {
			return false
		}
	}
	return true
}

// quoteAll renders words as a marker would hold them.
func quoteAll(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if w == "" || strings.ContainsAny(w, " \t\n\"\\⟦⟧") {
			w = strconv.Quote(w)
		}
		out[i] = w
	}
	return "[" + strings.Join(out, " ") + "]"
}

// goldenKey names the golden section of one part of a full result.
func goldenKey(name, key string) string {
	if key == "" {
		return ">" + name
	}
	return ">" + name + "/" + key
}

// compareGolden compares a full result with the golden sections of name,
// or rewrites them under -update.
func (qa *queryArchive) compareGolden(name string, full map[string]string) []string {
	var diffs []string
	for _, key := range slices.Sorted(maps.Keys(full)) {
		got := full[key]
		if got != "" && !strings.HasSuffix(got, "\n") {
			got += "\n" // txtar ends every section with a newline
		}
		g := strings.TrimPrefix(goldenKey(name, key), ">")
		want, ok := qa.golden[g]
		switch {
		case string(want) == got && ok:
		case qa.update:
			qa.setGolden(g, got)
		case !ok:
			diffs = append(diffs, fmt.Sprintf("no golden section -- >%s -- for:\n%s", g, indent(got)))
		default:
			diffs = append(diffs, fmt.Sprintf("-- >%s -- differs (- want, + got):\n%s", g, lineDiff(string(want), got)))
		}
	}
	for _, g := range slices.Sorted(maps.Keys(qa.golden)) {
		key, ok := strings.CutPrefix(g, name+"/")
		if _, have := full[key]; ok && !have {
			if qa.update {
				qa.setGolden(g, "")
				continue
			}
			diffs = append(diffs, fmt.Sprintf("-- >%s -- is not in the result (nothing changed there)", g))
		}
	}
	return diffs
}

// setGolden replaces, adds or (for "") removes a golden section.
func (qa *queryArchive) setGolden(name, content string) {
	qa.updated = true
	for i, f := range qa.ar.Files {
		if f.Name == ">"+name {
			if content == "" && strings.Contains(name, "/") {
				qa.ar.Files = slices.Delete(qa.ar.Files, i, i+1)
			} else {
				qa.ar.Files[i].Data = []byte(content)
			}
			qa.golden[name] = []byte(content)
			return
		}
	}
	// A new section goes after the other sections of its result, if any.
	result, _, _ := strings.Cut(name, "/")
	at := len(qa.ar.Files)
	for i, f := range qa.ar.Files {
		if f.Name == ">"+result || strings.HasPrefix(f.Name, ">"+result+"/") {
			at = i + 1
		}
	}
	qa.ar.Files = slices.Insert(qa.ar.Files, at, txtar.File{Name: ">" + name, Data: []byte(content)})
	qa.golden[name] = []byte(content)
}

// finish writes the archive back when -update changed it.
func (qa *queryArchive) finish(t *testing.T) {
	if !qa.updated {
		return
	}
	if err := os.WriteFile(qa.path, txtar.Format(qa.ar), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", qa.path)
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n\t")
}

// lineDiff shows the lines of want and got that differ, marked - and +,
// with the common lines between them.
func lineDiff(want, got string) string {
	a := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&out, "\t  %s\n", a[i])
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&out, "\t- %s\n", a[i])
			i++
		default:
			fmt.Fprintf(&out, "\t+ %s\n", b[j])
			j++
		}
	}
	return strings.TrimSuffix(out.String(), "\n")
}
