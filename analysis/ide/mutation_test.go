package ide

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"

	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// TestMutations mutates the valid packages of testdata and the published
// example adoptions the way designers err (an answer renamed, a member
// deleted, a value of the wrong type, a line dropped or doubled, a fence
// lost, a cited anchor or key changed, a key duplicated, a file cut short,
// a byte changed) and checks each mutant: gddls must not panic or hang on
// it, and a mutant whose kind the spec's tables always make an error (a
// required member deleted, a dangling citation, a value of a wrong type, a
// JSON file of the format cut short) must get at least one error.
//
// The oracle: mustError is set only for the mutations whose result the
// spec's tables decide alone, whatever the rest of the package holds (see
// requiredMembers, typedMembers); every other mutant may be valid, and is
// held only to "no panic, no hang". The seed is fixed and the budget is a
// count of mutants, so a run is the same run everywhere.
func TestMutations(t *testing.T) {
	bases := mutationBases(t)
	if len(bases) == 0 {
		t.Fatal("no valid package to mutate")
	}
	budget := 1500
	if testing.Short() || raceEnabled {
		budget = 200
	}
	seed := uint64(25)
	// A longer or other run, to look for bugs: GDDLS_MUTATIONS=20000
	// GDDLS_MUTATION_SEED=3 go test ./analysis -run TestMutations.
	if n, err := strconv.Atoi(os.Getenv("GDDLS_MUTATIONS")); err == nil && n > 0 {
		budget = n
	}
	if n, err := strconv.ParseUint(os.Getenv("GDDLS_MUTATION_SEED"), 10, 64); err == nil {
		seed = n
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	kinds := map[string]int{}
	checked := 0
	for i := 0; i < budget; i++ {
		b := bases[rng.IntN(len(bases))]
		m, ok := b.mutate(rng)
		if !ok {
			continue
		}
		kinds[m.kind]++
		snap := loadBounded(t, b.dir, analysis.Overlay{filepath.Join(b.dir, filepath.FromSlash(m.file)): m.content}, m)
		exerciseQueries(t, snap, filepath.Join(b.dir, filepath.FromSlash(m.file)), len(m.content), rng, m)
		if !m.mustError {
			continue
		}
		checked++
		if errorCount(snap) == 0 {
			t.Errorf("%s: no error for a mutant the spec makes invalid: %s in %s\n%s", b.name, m.desc, m.file, excerpt(m.content, m.at))
		}
	}
	t.Logf("%d bases, %d mutants by kind %v, %d held to an error", len(bases), budget, kinds, checked)
}

// mutant is one mutated file of a base.
type mutant struct {
	kind, file, desc string
	content          []byte
	at               int // where the change is, for the message
	mustError        bool
}

func (m mutant) String() string { return m.kind + " " + m.file + ": " + m.desc }

// loadBounded loads dir with the overlay in a goroutine and fails the test
// when the load panics or does not end within a bound far above any
// package's load time (a hang, not a slow run).
func loadBounded(t *testing.T, dir string, overlay analysis.Overlay, m mutant) *analysis.Snapshot {
	t.Helper()
	return bounded(t, m, func() *analysis.Snapshot { return analysis.Load([]string{dir}, analysis.Options{Overlay: overlay}) })
}

// bounded runs f in a goroutine; a panic or a run past the bound fails the
// test with the mutant.
func bounded[T any](t *testing.T, m mutant, f func() T) T {
	t.Helper()
	type result struct {
		v     T
		panic any
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			r.panic = recover()
			done <- r
		}()
		r.v = f()
	}()
	timer := time.NewTimer(2 * time.Minute)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("panic on mutant %v: %v\n%s", m, r.panic, excerpt(m.content, m.at))
		}
		return r.v
	case <-timer.C:
		t.Fatalf("no end after 2 minutes on mutant %v\n%s", m, excerpt(m.content, m.at))
	}
	var zero T
	return zero
}

// exerciseQueries asks the editor queries that read a file at a random
// offset of the mutated file, under the same bound.
func exerciseQueries(t *testing.T, s *analysis.Snapshot, file string, size int, rng *rand.Rand, m mutant) {
	t.Helper()
	off := rng.IntN(size + 1)
	bounded(t, m, func() int {
		Hover(s, file, off)
		Complete(s, file, off)
		Definition(s, file, off)
		CodeActions(s, file, source.Span{Start: 0, End: size})
		SemanticTokens(s, file)
		FoldingRanges(s, file)
		return 0
	})
}

func errorCount(s *analysis.Snapshot) int {
	n := 0
	for _, d := range s.AllDiagnostics() {
		if d.Severity == source.Error {
			n++
		}
	}
	return n
}

// excerpt shows the lines around offset at.
func excerpt(content []byte, at int) string {
	at = min(max(at, 0), len(content))
	start := max(0, at-160)
	end := min(len(content), at+160)
	return "…" + string(content[start:end]) + "…"
}

// mutBase is a valid package (or repository) written once to dir.
type mutBase struct {
	name  string
	dir   string
	files map[string][]byte
	paths []string // the mutable files (.json and .md), sorted
}

// mutationBases gathers the valid packages of testdata: the packages of
// the check archives that carry no marker (the scenario test requires
// them to have no finding), the first version of each query archive and
// the package of each build archive, each kept when it loads without an
// error; and the example adoptions of ../shared/reference/contracts, each
// folder in a package made for it (skipped when the folder is absent;
// GDDLS_SHARED names the folder holding reference/ when it does not stand
// beside the repository).
func mutationBases(t *testing.T) []*mutBase {
	var groups []namedFiles
	for _, archive := range archivesIn(t, "check") {
		groups = append(groups, unmarkedPackages(t, archive)...)
	}
	for _, archive := range archivesIn(t, "query") {
		groups = append(groups, firstVersion(t, archive))
	}
	for _, archive := range archivesIn(t, "build") {
		g := firstVersion(t, archive)
		delete(g.files, "opengdd-build.json")
		groups = append(groups, g)
	}
	groups = append(groups, referenceAdoptions(t)...)
	var bases []*mutBase
	seen := map[[32]byte]bool{}
	for _, g := range groups {
		key := g.digest()
		if seen[key] || len(g.files) == 0 {
			continue
		}
		seen[key] = true
		dir := analysistest.WriteFiles(t, "", g.files)
		if g.repair != nil {
			g.repair(t, dir)
		}
		if n := errorCount(analysis.Load([]string{dir}, analysis.Options{})); n > 0 {
			if g.mustBeValid {
				t.Errorf("%s: a package the tests hold valid has %d errors", g.name, n)
			}
			if g.repair != nil {
				t.Logf("%s: %d errors remain in the package made for it; not mutated", g.name, n)
			}
			continue
		}
		b := &mutBase{name: g.name, dir: dir, files: map[string][]byte{}}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.files[rel] = data
			if strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".md") {
				b.paths = append(b.paths, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(b.paths)
		if len(b.paths) > 0 {
			bases = append(bases, b)
		}
	}
	return bases
}

// namedFiles is a candidate base before it is written.
type namedFiles struct {
	name        string
	files       map[string][]byte
	mustBeValid bool                           // a test elsewhere already requires no finding
	repair      func(t *testing.T, dir string) // completes a made package, or nil
}

func (g namedFiles) digest() [32]byte {
	keys := make([]string, 0, len(g.files))
	for k := range g.files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%d\x00", k, len(g.files[k]))
		h.Write(g.files[k])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func archivesIn(t *testing.T, dir string) []string {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// unmarkedPackages splits a check archive into its packages (a first
// folder holding manifest.json or tuning.json is a package of its own,
// the rest is the root's) and returns those no marker expects a finding
// in.
func unmarkedPackages(t *testing.T, archive string) []namedFiles {
	ar := analysistest.ReadArchive(t, archive)
	clean := map[string][]byte{}
	marked := map[string]bool{}
	for _, f := range ar.Files {
		content, ms, err := analysistest.StripMarkers(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		clean[f.Name] = content
		if len(ms) > 0 {
			marked[f.Name] = true
		}
	}
	group := func(name string) string {
		first, _, ok := strings.Cut(name, "/")
		if !ok {
			return ""
		}
		if clean[first+"/manifest.json"] != nil || clean[first+"/tuning.json"] != nil {
			return first
		}
		return ""
	}
	groups := map[string]*namedFiles{}
	markedGroup := map[string]bool{}
	var order []string
	for _, f := range ar.Files {
		g := group(f.Name)
		if groups[g] == nil {
			groups[g] = &namedFiles{name: filepath.Base(archive) + ":" + g, files: map[string][]byte{}, mustBeValid: true}
			order = append(order, g)
		}
		rel := f.Name
		if g != "" {
			rel = strings.TrimPrefix(rel, g+"/")
		}
		groups[g].files[rel] = clean[f.Name]
		if marked[f.Name] {
			markedGroup[g] = true
		}
	}
	var out []namedFiles
	for _, g := range order {
		if !markedGroup[g] {
			out = append(out, *groups[g])
		}
	}
	return out
}

// firstVersion returns the files of an archive as they first appear
// (later sections of the same name, golden sections and variants are
// left out), markers removed.
func firstVersion(t *testing.T, archive string) namedFiles {
	ar := analysistest.ReadArchive(t, archive)
	g := namedFiles{name: filepath.Base(archive), files: map[string][]byte{}}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, ">") || strings.Contains(f.Name, " (") || g.files[f.Name] != nil {
			continue
		}
		content, _, err := analysistest.StripMarkers(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		g.files[f.Name] = content
	}
	return g
}

// referenceAdoptions makes one package for each folder of published
// example adoptions: its adoption files and pack (core.json, the bare
// definition, left out), with the tuning keys and Fixed headings their
// citations name added by repairCitations.
func referenceAdoptions(t *testing.T) []namedFiles {
	shared := os.Getenv("GDDLS_SHARED")
	if shared == "" {
		root, err := analysistest.ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		shared = filepath.Join(root, "..", "shared")
	}
	dirs, _ := filepath.Glob(filepath.Join(shared, "reference", "contracts", "*"))
	if len(dirs) == 0 {
		t.Logf("%s is absent (set GDDLS_SHARED to the folder holding reference/): the published adoptions are not mutated", filepath.Join(shared, "reference", "contracts"))
		return nil
	}
	var out []namedFiles
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		g := namedFiles{name: "reference:" + filepath.Base(d), files: map[string][]byte{
			"manifest.json":    []byte(`{"opengdd": "0.9", "id": "fixture", "version": "0.1.0", "title": "Fixture", "designer": {"name": "Test Desk"}, "target": {"platform": "web-2d", "genre": "puzzle"}}` + "\n"),
			"tuning.json":      []byte("{\"values\": {}}\n"),
			"01-overview.md":   []byte("# Overview\n\n```fantasy\nYou keep a lantern lit on a long night walk.\nFeel: quiet, careful, warm\nNOT: frantic\n```\n"),
			"02-mechanics.md":  []byte("# Mechanics\n\nIt works.\n"),
			"05-build-plan.md": []byte("# Build plan\n\nBuild it.\n"),
		}, repair: repairCitations}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || e.Name() == "core.json" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			g.files["contracts/"+e.Name()] = data
		}
		out = append(out, g)
	}
	return out
}

// repairCitations adds to a made package what its adoptions cite: each
// dangling tuning key becomes a value of tuning.json, each dangling
// chapter anchor a heading of its chapter. A package still in error
// afterwards is not used as a base.
func repairCitations(t *testing.T, dir string) {
	for round := 0; round < 3; round++ {
		var keys []string
		headings := map[string][]string{}
		for _, d := range analysis.Load([]string{dir}, analysis.Options{}).AllDiagnostics() {
			if d.Code != "CONTRACT_CITATION_DANGLING" {
				continue
			}
			data, err := os.ReadFile(d.File)
			if err != nil {
				t.Fatal(err)
			}
			lines := source.NewJSONLines(data)
			v, errs := jsonsrc.Parse(data[lines.Offset(d.Range.Start):lines.Offset(d.Range.End)])
			if len(errs) > 0 || v.Kind() != jsonsrc.String {
				continue
			}
			switch file, anchor, ok := strings.Cut(v.Str(), "#"); {
			case strings.HasPrefix(v.Str(), "contracts."):
				// Another adoption: nothing to add.
			case ok && !slices.Contains(headings[file], anchor):
				headings[file] = append(headings[file], anchor)
			case !ok && !slices.Contains(keys, v.Str()):
				keys = append(keys, v.Str())
			}
		}
		if len(keys) == 0 && len(headings) == 0 {
			return
		}
		tf := filepath.Join(dir, "tuning.json")
		data, err := os.ReadFile(tf)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%q: 1, ", k)
		}
		data = []byte(strings.Replace(string(data), `"values": {`, `"values": {`+strings.TrimSuffix(b.String(), ", ")+sepIfAny(data), 1))
		if err := os.WriteFile(tf, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for file, anchors := range headings {
			p := filepath.Join(dir, filepath.FromSlash(file))
			old, _ := os.ReadFile(p)
			if len(old) == 0 {
				old = []byte("# " + strings.TrimSuffix(path.Base(file), ".md") + "\n")
			}
			for _, a := range anchors {
				old = append(old, "\n## "+a+"\n\nIt is so.\n"...)
			}
			if err := os.WriteFile(p, old, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// sepIfAny is the comma that keeps the values map valid after keys are
// put before its existing members.
func sepIfAny(tuningJSON []byte) string {
	if strings.Contains(string(tuningJSON), `"values": {}`) {
		return ""
	}
	return ", "
}

// mutate makes one mutant of a random file of b; ok is false when the
// kind drawn does not apply to the file drawn.
func (b *mutBase) mutate(rng *rand.Rand) (mutant, bool) {
	file := b.paths[rng.IntN(len(b.paths))]
	data := b.files[file]
	rel := b.packageRel(file)
	m := mutant{file: file}
	var kinds []func(*rand.Rand, *mutant, []byte, string) bool
	if strings.HasSuffix(file, ".json") {
		kinds = []func(*rand.Rand, *mutant, []byte, string) bool{
			mutTruncate, mutDeleteRequired, mutDeleteMember, mutWrongType, mutRenameAnswer,
			mutDuplicateKey, mutCitedAnchor, mutDropLine, mutDoubleLine, mutFlipByte, mutOutOfRange, mutBOM,
			func(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
				return b.mutRecord(rng, m, data, rel, file)
			},
		}
	} else {
		kinds = []func(*rand.Rand, *mutant, []byte, string) bool{
			mutTruncate, mutDropLine, mutDoubleLine, mutLoseFence, mutFlipByte, mutBOM,
			func(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
				return b.mutProseKey(rng, m, data, rel, file)
			},
			mutLinkAnchor,
		}
	}
	for _, i := range rng.Perm(len(kinds)) {
		if kinds[i](rng, &m, data, rel) {
			return m, true
		}
	}
	return m, false
}

// packageRel returns file relative to the root of the package holding it
// (the nearest folder with manifest.json or tuning.json), or file.
func (b *mutBase) packageRel(file string) string {
	dir := path.Dir(file)
	for {
		prefix := ""
		if dir != "." {
			prefix = dir + "/"
		}
		if b.files[prefix+"manifest.json"] != nil || b.files[prefix+"tuning.json"] != nil {
			return strings.TrimPrefix(file, prefix)
		}
		if dir == "." {
			return file
		}
		dir = path.Dir(dir)
	}
}

// formatKind names the JSON files of a package whose members the oracle
// knows: "manifest", "tuning", "adoption", "pack", or "".
func formatKind(rel string) string {
	switch {
	case rel == "manifest.json":
		return "manifest"
	case rel == "tuning.json":
		return "tuning"
	case strings.HasPrefix(rel, "contracts/") && strings.Count(rel, "/") == 1:
		if strings.HasSuffix(rel, ".pack.json") {
			return "pack"
		}
		return "adoption"
	}
	return ""
}

// requiredMembers are the members the spec's tables require, by file:
// deleting one is always an error.
var requiredMembers = map[string][]string{
	"manifest": {"opengdd", "id", "version", "title", "designer", "target", "designer.name", "target.platform"},
	"tuning":   {"values"},
	"adoption": {"contract", "version", "summary", "mechanism", "questions", "declares", "answers", "values",
		"questions.*.asks", "questions.*.options", "questions.*.options.*.meaning",
		"declares.values.*.description", "declares.rows.*.record", "declares.rows.*.record.*.type"},
	"pack": {"contract", "version", "templates", "templates.[].id", "templates.[].title", "templates.[].type",
		"templates.[].expand", "templates.[].test", "templates.[].text"},
}

// typedMembers are the members whose JSON type the spec's tables fix
// alone: a value of another type is always an error.
var typedMembers = map[string][]string{
	"manifest": {"opengdd", "id", "version", "title", "designer", "target"},
	"tuning":   {"values", "values.*"},
	"adoption": {"contract", "version", "summary", "mechanism", "questions", "declares", "answers", "values",
		"questions.*.asks", "questions.*.options", "questions.*.options.*.meaning", "answers.*"},
	"pack": {"contract", "version", "templates"},
}

// jnode is one member or element of a parsed JSON file.
type jnode struct {
	path   []string // keys, "[]" for an array element
	v      *jsonsrc.Value
	parent *jsonsrc.Value
	index  int // in parent's Members or Elems
}

// jsonNodes lists every member and element of data, annotations (keys
// starting with _) and what they hold left out; nil when data does not
// parse.
func jsonNodes(data []byte) []jnode {
	root, errs := jsonsrc.Parse(data)
	if len(errs) > 0 || root == nil {
		return nil
	}
	var out []jnode
	var walk func(v *jsonsrc.Value, p []string)
	walk = func(v *jsonsrc.Value, p []string) {
		switch v.Kind() {
		case jsonsrc.Object:
			for i, m := range v.Members() {
				if strings.HasPrefix(m.Key, "_") || m.Value == nil {
					continue
				}
				q := append(slices.Clip(p), m.Key)
				out = append(out, jnode{path: q, v: m.Value, parent: v, index: i})
				walk(m.Value, q)
			}
		case jsonsrc.Array:
			for i, e := range v.Elems() {
				q := append(slices.Clip(p), "[]")
				out = append(out, jnode{path: q, v: e, parent: v, index: i})
				walk(e, q)
			}
		}
	}
	walk(root, nil)
	return out
}

func matches(p []string, patterns []string) bool {
	for _, pat := range patterns {
		segs := strings.Split(pat, ".")
		if len(segs) != len(p) {
			continue
		}
		ok := true
		for i, s := range segs {
			if s != "*" && s != p[i] || s == "*" && p[i] == "[]" {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func replaceSpan(data []byte, sp source.Span, text string) []byte {
	out := make([]byte, 0, len(data)+len(text))
	out = append(out, data[:sp.Start]...)
	out = append(out, text...)
	return append(out, data[sp.End:]...)
}

// mutTruncate cuts the file short. A JSON file of the format that loses
// anything but trailing space no longer parses: an error.
func mutTruncate(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if len(data) == 0 {
		return false
	}
	cut := rng.IntN(len(data))
	m.kind, m.content, m.at = "truncate", slices.Clone(data[:cut]), cut
	m.desc = fmt.Sprintf("cut at byte %d of %d", cut, len(data))
	_, format := analysis.FormatJSONKind(rel)
	m.mustError = format && strings.TrimSpace(string(data[cut:])) != ""
	return true
}

// deleteMember removes member n of an object, keeping the JSON valid.
func deleteMember(data []byte, n jnode) []byte {
	ms := n.parent.Members()
	m := ms[n.index]
	switch {
	case n.index+1 < len(ms):
		return replaceSpan(data, source.Span{Start: m.KeySpan().Start, End: ms[n.index+1].KeySpan().Start}, "")
	case n.index > 0:
		return replaceSpan(data, source.Span{Start: ms[n.index-1].Value.Span().End, End: m.Value.Span().End}, "")
	}
	return replaceSpan(data, source.Span{Start: m.KeySpan().Start, End: m.Value.Span().End}, "")
}

func members(nodes []jnode) []jnode {
	var out []jnode
	for _, n := range nodes {
		if n.parent.Kind() == jsonsrc.Object {
			out = append(out, n)
		}
	}
	return out
}

// mutDeleteRequired deletes a member the spec requires: an error.
func mutDeleteRequired(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	req := requiredMembers[formatKind(rel)]
	var cands []jnode
	for _, n := range members(jsonNodes(data)) {
		if matches(n.path, req) && !duplicated(n) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at, m.mustError = "delete-required", deleteMember(data, n), n.v.Span().Start, true
	m.desc = "deleted " + strings.Join(n.path, ".")
	return true
}

// duplicated reports whether the member's key is written twice in its
// object, so that deleting one copy keeps the other.
func duplicated(n jnode) bool {
	k := n.parent.Members()[n.index].Key
	c := 0
	for _, m := range n.parent.Members() {
		if m.Key == k {
			c++
		}
	}
	return c > 1
}

// mutDeleteMember deletes any member; an error when it was required.
func mutDeleteMember(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	cands := members(jsonNodes(data))
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at = "delete-member", deleteMember(data, n), n.v.Span().Start
	m.mustError = (matches(n.path, requiredMembers[formatKind(rel)]) || formatKind(rel) == "adoption" && unconditional(data, n.path)) && !duplicated(n)
	m.desc = "deleted " + strings.Join(n.path, ".")
	return true
}

// otherType is a value of another JSON type than v's.
func otherType(rng *rand.Rand, v *jsonsrc.Value) string {
	choices := map[jsonsrc.Kind][]string{
		jsonsrc.String: {"42", "true", "{}", "[]", "null"},
		jsonsrc.Number: {`"forty"`, "true", "[]", "{}"},
		jsonsrc.Bool:   {`"yes"`, "1", "[]"},
		jsonsrc.Null:   {"1", `"none"`},
		jsonsrc.Object: {"[]", `"object"`, "7"},
		jsonsrc.Array:  {"{}", `"list"`, "7"},
	}[v.Kind()]
	return choices[rng.IntN(len(choices))]
}

// mutWrongType gives a value another JSON type (a number becomes a string,
// and so on); an error where the spec fixes the member's type.
func mutWrongType(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	nodes := jsonNodes(data)
	if len(nodes) == 0 {
		return false
	}
	n := nodes[rng.IntN(len(nodes))]
	repl := otherType(rng, n.v)
	m.kind, m.content, m.at = "wrong-type", replaceSpan(data, n.v.Span(), repl), n.v.Span().Start
	m.mustError = matches(n.path, typedMembers[formatKind(rel)]) && !duplicated(n)
	m.desc = fmt.Sprintf("%s became %s", strings.Join(n.path, "."), repl)
	return true
}

// mutRenameAnswer renames the option an adoption answers a question with:
// an answer that is no option is an error, asked or not.
func mutRenameAnswer(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if formatKind(rel) != "adoption" {
		return false
	}
	var cands []jnode
	for _, n := range jsonNodes(data) {
		if len(n.path) == 2 && n.path[0] == "answers" && n.v.Kind() == jsonsrc.String && !duplicated(n) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at, m.mustError = "rename-answer", replaceSpan(data, n.v.Span(), `"`+n.v.Str()+`-renamed"`), n.v.Span().Start, true
	m.desc = "answer " + n.path[1] + " renamed to " + n.v.Str() + "-renamed"
	return true
}

// mutDuplicateKey writes a member twice, the copy with another value of
// the same type or a value of another type. The spec says nothing of a key
// written twice: no error is required.
func mutDuplicateKey(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	cands := members(jsonNodes(data))
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	mem := n.parent.Members()[n.index]
	value := string(data[mem.Value.Span().Start:mem.Value.Span().End])
	if rng.IntN(2) == 0 {
		value = otherType(rng, mem.Value)
	}
	dup := fmt.Sprintf(", %q: %s", mem.Key, value)
	m.kind, m.content, m.at = "duplicate-key", replaceSpan(data, source.Span{Start: mem.Value.Span().End, End: mem.Value.Span().End}, dup), mem.Value.Span().End
	m.desc = "duplicated " + strings.Join(n.path, ".") + " as " + value
	return true
}

var anchorCitation = regexp.MustCompile(`^[0-9a-z._-]+\.md#[^#\s]+$`)

// mutCitedAnchor changes the anchor of a chapter citation held by a row
// field of type citation in an adoption: a citation that names no heading
// dangles, an error.
func mutCitedAnchor(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if formatKind(rel) != "adoption" {
		return false
	}
	a := contracts.ParseAdoption(rel, data)
	var cands []jnode
	for _, n := range jsonNodes(data) {
		if len(n.path) != 4 || n.path[0] != "rows" || n.path[2] != "[]" || n.v.Kind() != jsonsrc.String || !anchorCitation.MatchString(n.v.Str()) {
			continue
		}
		if f := a.RowSet(n.path[1]).Field(n.path[3]); f != nil && f.Type == contracts.TypeCitation && !duplicated(n) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at, m.mustError = "cited-anchor", replaceSpan(data, n.v.Span(), `"`+n.v.Str()+`-moved"`), n.v.Span().Start, true
	m.desc = "citation " + n.v.Str() + " changed to " + n.v.Str() + "-moved"
	return true
}

// mutProseKey changes a tuning key cited in the prose of a chapter to a
// key tuning.json does not hold: a dangling citation, an error.
func (b *mutBase) mutProseKey(rng *rand.Rand, m *mutant, data []byte, rel, file string) bool {
	if path.Dir(rel) != "." || !regexp.MustCompile(`^\d\d-.*\.md$`).MatchString(rel) {
		return false
	}
	tf := b.files[strings.TrimSuffix(file, rel)+"tuning.json"]
	if tf == nil {
		return false
	}
	keys := tuning.Parse("tuning.json", tf)
	if !keys.KeysKnown() {
		return false
	}
	doc := markdown.Parse(data)
	var cands []int
	for i, c := range doc.CodeSpans {
		if e, ok := keys.Lookup(c.Text(doc)); ok && !e.Open && string(data[c.TextSpan().Start:c.TextSpan().End]) == c.Text(doc) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return false
	}
	c := doc.CodeSpans[cands[rng.IntN(len(cands))]]
	m.kind, m.content, m.at, m.mustError = "prose-key", replaceSpan(data, c.TextSpan(), c.Text(doc)+"zz"), c.TextSpan().Start, true
	m.desc = "cited key " + c.Text(doc) + " changed to " + c.Text(doc) + "zz"
	return true
}

// lineSpans returns the span of each line of data with its line break.
func lineSpans(data []byte) []source.Span {
	var out []source.Span
	start := 0
	for i, c := range data {
		if c == '\n' {
			out = append(out, source.Span{Start: start, End: i + 1})
			start = i + 1
		}
	}
	if start < len(data) {
		out = append(out, source.Span{Start: start, End: len(data)})
	}
	return out
}

// mutDropLine drops one line; the result may be valid.
func mutDropLine(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	ls := lineSpans(data)
	if len(ls) == 0 {
		return false
	}
	l := ls[rng.IntN(len(ls))]
	m.kind, m.content, m.at = "drop-line", replaceSpan(data, l, ""), l.Start
	m.desc = fmt.Sprintf("dropped %q", data[l.Start:l.End])
	return true
}

// mutDoubleLine writes one line twice; the result may be valid.
func mutDoubleLine(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	ls := lineSpans(data)
	if len(ls) == 0 {
		return false
	}
	l := ls[rng.IntN(len(ls))]
	line := string(data[l.Start:l.End])
	if !strings.HasSuffix(line, "\n") {
		line = "\n" + line
	}
	m.kind, m.content, m.at = "double-line", replaceSpan(data, source.Span{Start: l.End, End: l.End}, line), l.Start
	m.desc = fmt.Sprintf("doubled %q", data[l.Start:l.End])
	return true
}

// mutLoseFence drops a fence line of a Markdown file; the result may be
// valid.
func mutLoseFence(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	var cands []source.Span
	for _, l := range lineSpans(data) {
		if strings.HasPrefix(strings.TrimSpace(string(data[l.Start:l.End])), "```") {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 {
		return false
	}
	l := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at = "lose-fence", replaceSpan(data, l, ""), l.Start
	m.desc = fmt.Sprintf("dropped the fence %q", data[l.Start:l.End])
	return true
}

// mutFlipByte replaces one byte with another, printable or not; the
// result may be valid.
func mutFlipByte(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if len(data) == 0 {
		return false
	}
	i := rng.IntN(len(data))
	bytesOf := []byte("\x00\t\n\r \"#,.:[]{}`>|\\0aZ\xff\xef")
	c := bytesOf[rng.IntN(len(bytesOf))]
	m.kind, m.content, m.at = "flip-byte", slices.Clone(data), i
	m.content[i] = c
	m.desc = fmt.Sprintf("byte %d became %q", i, c)
	return true
}

// unconditional reports whether p is the answer to a question, or the
// value of a declaration, of an adoption that has no when (so it is always
// asked or active, and its answer or value is required), or the rows of a
// declared row set (required, SPEC §10.5 rule 1).
func unconditional(data []byte, p []string) bool {
	if len(p) != 2 {
		return false
	}
	a := contracts.ParseAdoption("contracts/x.json", data)
	switch p[0] {
	case "answers":
		q := a.Question(p[1])
		return q != nil && q.When == nil
	case "values":
		d := a.Declaration(p[1])
		return d != nil && d.When == nil && d.Value != nil && d.Value.Kind() == jsonsrc.Object
	case "rows":
		set := a.RowSet(p[1])
		return set != nil && !set.Broken()
	}
	return false
}

// mutOutOfRange supplies a number far outside the declared range of an
// adoption's value: CONTRACT_VALUE_RANGE, an error.
func mutOutOfRange(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if formatKind(rel) != "adoption" {
		return false
	}
	a := contracts.ParseAdoption(rel, data)
	var cands []jnode
	for _, n := range jsonNodes(data) {
		if len(n.path) != 2 || n.path[0] != "values" || n.v.Kind() != jsonsrc.Number || duplicated(n) {
			continue
		}
		if d := a.Declaration(n.path[1]); d != nil && d.HasRange && d.When == nil {
			cands = append(cands, n)
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	d := a.Declaration(n.path[1])
	out := d.Max + 1e6
	if rng.IntN(2) == 0 {
		out = d.Min - 1e6
	}
	repl := strconv.FormatFloat(out, 'g', -1, 64)
	m.kind, m.content, m.at, m.mustError = "out-of-range", replaceSpan(data, n.v.Span(), repl), n.v.Span().Start, true
	m.desc = fmt.Sprintf("value %s became %s, outside [%g, %g]", n.path[1], repl, d.Min, d.Max)
	return true
}

// mutRecord deletes a required field of a collection record, or gives a
// field of a scalar type a value of another type: COLLECTION_RECORD_SCHEMA,
// an error (the schema of a valid base is well formed).
func (b *mutBase) mutRecord(rng *rand.Rand, m *mutant, data []byte, rel, file string) bool {
	parts := strings.Split(rel, "/")
	if len(parts) != 3 || parts[0] != "collections" || parts[2] == "_collection.json" {
		return false
	}
	schema := jsonNodes(b.files[path.Join(path.Dir(file), "_collection.json")])
	fieldType := map[string]string{}
	required := map[string]bool{}
	for _, n := range schema {
		if len(n.path) == 3 && n.path[0] == "record" {
			switch {
			case n.path[2] == "type" && n.v.Kind() == jsonsrc.String:
				fieldType[n.path[1]] = n.v.Str()
			case n.path[2] == "required" && n.v.Kind() == jsonsrc.Bool && n.v.Bool():
				required[n.path[1]] = true
			}
		}
	}
	var cands []jnode
	for _, n := range members(jsonNodes(data)) {
		if len(n.path) != 1 || duplicated(n) {
			continue
		}
		switch fieldType[n.path[0]] {
		case "number", "integer", "string", "boolean":
			cands = append(cands, n)
		default:
			if required[n.path[0]] {
				cands = append(cands, n)
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	n := cands[rng.IntN(len(cands))]
	if required[n.path[0]] && rng.IntN(2) == 0 {
		m.kind, m.content, m.at, m.mustError = "record-required", deleteMember(data, n), n.v.Span().Start, true
		m.desc = "deleted the required field " + n.path[0]
		return true
	}
	switch fieldType[n.path[0]] {
	case "number", "integer", "string", "boolean":
	default:
		return false
	}
	repl := otherType(rng, n.v)
	if n.v.Kind() == jsonsrc.Number && fieldType[n.path[0]] != "string" {
		repl = `"forty"`
	}
	m.kind, m.content, m.at, m.mustError = "record-type", replaceSpan(data, n.v.Span(), repl), n.v.Span().Start, true
	m.desc = fmt.Sprintf("field %s (%s) became %s", n.path[0], fieldType[n.path[0]], repl)
	return true
}

var mdFragment = regexp.MustCompile(`^([0-9A-Za-z._/-]*\.md)?#[0-9a-z_-]+$`)

// mutLinkAnchor changes the fragment of a link to a heading of a Markdown
// file of the repository: a link to no heading, DOC_LINK_ANCHOR, an error.
func mutLinkAnchor(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	doc := markdown.Parse(data)
	var cands []markdown.Link
	for _, l := range doc.Links {
		if l.Image || l.DestSpan().Len() == 0 || !mdFragment.MatchString(l.Raw(doc)) || string(data[l.DestSpan().Start:l.DestSpan().End]) != l.Raw(doc) {
			continue
		}
		cands = append(cands, l)
	}
	if len(cands) == 0 {
		return false
	}
	l := cands[rng.IntN(len(cands))]
	m.kind, m.content, m.at, m.mustError = "link-anchor", replaceSpan(data, l.DestSpan(), l.Raw(doc)+"-moved"), l.DestSpan().Start, true
	m.desc = "link " + l.Raw(doc) + " changed to " + l.Raw(doc) + "-moved"
	return true
}

// mutBOM saves the file with a byte-order mark, as Notepad does: a JSON
// file of the format then does not parse (an error); a Markdown file reads
// as before.
func mutBOM(rng *rand.Rand, m *mutant, data []byte, rel string) bool {
	if jsonsrc.HasBOM(data) {
		return false
	}
	m.kind, m.content, m.at = "bom", append([]byte(jsonsrc.BOM), data...), 0
	m.desc = "saved with a byte-order mark"
	_, m.mustError = analysis.FormatJSONKind(rel)
	return true
}
