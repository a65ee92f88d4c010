package gen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RealConfig sizes a package built from published example adoptions
// (RealPackage). The zero value of a size means its default.
type RealConfig struct {
	// Source is a folder of published contracts: one folder per contract
	// holding its definition (core.json), its pack (*.pack.json) and
	// example adoptions (the other *.json files, with answers).
	Source string
	// Adoptions is the number of adoptions (default 200): the examples in
	// turn, each copy under a name of its own.
	Adoptions int
	// Chapters is the number of Markdown chapters (default 100).
	Chapters int
	// RowCopies is how many times each row list is written (default 4):
	// the original rows, then copies whose unique fields get a suffix, as
	// a designer copies rows and edits them.
	RowCopies int
}

// DefaultRealConfig returns the sizes of the design budgets for source:
// 200 adoptions, 100 chapters, row lists four times as long as published.
func DefaultRealConfig(source string) RealConfig {
	return RealConfig{Source: source, Adoptions: 200, Chapters: 100, RowCopies: 4}
}

// Scaled returns c with n times the adoptions and chapters (so about n
// times the headings, tuning keys, citations and bytes).
func (c RealConfig) Scaled(n int) RealConfig {
	c = c.withDefaults()
	n = max(n, 1)
	c.Adoptions *= n
	c.Chapters *= n
	return c
}

func (c RealConfig) withDefaults() RealConfig {
	d := DefaultRealConfig(c.Source)
	orDefault(&c.Adoptions, d.Adoptions)
	orDefault(&c.Chapters, d.Chapters)
	c.Chapters = max(c.Chapters, 5)
	orDefault(&c.RowCopies, d.RowCopies)
	return c
}

// FindReference looks for the published contracts beside the repository:
// shared/reference/contracts in start's parent folder or one of its
// ancestors (CI puts shared/ beside its clone of the repository). It
// returns the folder, or "" when there is none.
func FindReference(start string) string {
	dir, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "reference", "contracts")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// example is one published example adoption.
type example struct {
	folder string // the contract's folder in Source
	name   string // file name without .json, unique in the package
	doc    obj
	values obj // its values
}

// real is the state of one RealPackage run.
type real struct {
	cfg      RealConfig
	w        *writer
	rep      *Report
	examples []example
	byName   map[string][]int // example file name -> indexes, for contracts.X.Y
	prose    []string         // sentences for the chapters
	// The citation targets, in the order they were first needed.
	headings []realHeading
	slugs    map[string]bool
	keys     []string
	keyNum   map[string]float64
	targets  map[string]string // original citation at a copy -> package citation
}

type realHeading struct {
	text, slug string
	chapter    int
}

// RealPackage writes a package made of the published example adoptions in
// cfg.Source into dir and reports what it wrote. Every adoption is an
// example under a name of its own, its definition and answers as
// published, its row lists copied RowCopies times and every citation
// rewritten to a heading of the package's chapters, a key of its
// tuning.json or a value of another adoption; the packs are copied as they
// are. It plants no finding: the package is valid.
func RealPackage(dir string, cfg RealConfig) (*Report, error) {
	cfg = cfg.withDefaults()
	g := &real{
		cfg:     cfg,
		w:       &writer{dir: dir, files: map[string][]byte{}},
		rep:     &Report{},
		byName:  map[string][]int{},
		slugs:   map[string]bool{},
		keyNum:  map[string]float64{},
		targets: map[string]string{},
	}
	if err := g.read(); err != nil {
		return nil, err
	}
	g.adoptions()
	g.chapters()
	g.tuning()
	g.manifest()
	if err := g.w.flush(); err != nil {
		return nil, err
	}
	return g.rep, nil
}

// read loads the examples and packs of every contract folder of Source.
func (g *real) read() error {
	folders, err := filepath.Glob(filepath.Join(g.cfg.Source, "*", "core.json"))
	if err != nil || len(folders) == 0 {
		return fmt.Errorf("gen: no contract folders (*/core.json) in %s", g.cfg.Source)
	}
	sort.Strings(folders)
	seenProse := map[string]bool{}
	for _, core := range folders {
		folder := filepath.Dir(core)
		files, err := filepath.Glob(filepath.Join(folder, "*.json"))
		if err != nil {
			return err
		}
		sort.Strings(files)
		for _, f := range files {
			base := filepath.Base(f)
			data, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("gen: %w", err)
			}
			if strings.HasSuffix(base, ".pack.json") {
				g.w.add("contracts/"+base, data)
				continue
			}
			v, err := decodeOrdered(data)
			if err != nil {
				return fmt.Errorf("gen: %s: %w", f, err)
			}
			doc, _ := v.(obj)
			if doc.get("answers") == nil {
				continue // the definition alone
			}
			name := strings.TrimSuffix(base, ".json")
			if len(g.byName[name]) > 0 { // the same example of another version
				name += "-" + filepath.Base(folder)
			}
			g.byName[strings.TrimSuffix(base, ".json")] = append(g.byName[strings.TrimSuffix(base, ".json")], len(g.examples))
			g.examples = append(g.examples, example{folder: folder, name: name, doc: doc, values: doc.getObj("values")})
			for _, s := range sentencesOf(doc) {
				if !seenProse[s] {
					seenProse[s] = true
					g.prose = append(g.prose, s)
				}
			}
		}
	}
	if len(g.examples) == 0 {
		return fmt.Errorf("gen: no example adoptions in %s", g.cfg.Source)
	}
	return nil
}

// sentencesOf returns the sentences of an example's mechanism text and of
// its options' meanings, for prose that reads like a design document.
func sentencesOf(doc obj) []string {
	var texts []string
	if m, ok := doc.get("mechanism").(arr); ok {
		for _, s := range m {
			if s, ok := s.(string); ok {
				texts = append(texts, s)
			}
		}
	}
	for _, q := range doc.getObj("questions") {
		qo, _ := q.val.(obj)
		for _, o := range qo.getObj("options") {
			if oo, ok := o.val.(obj); ok {
				if s, ok := oo.get("meaning").(string); ok {
					texts = append(texts, s)
				}
			}
		}
	}
	var out []string
	for _, t := range texts {
		for _, s := range strings.SplitAfter(t, ". ") {
			s = strings.TrimSpace(s)
			// Keep plain sentences: nothing Markdown could read as markup
			// or a citation.
			if len(s) < 40 || strings.ContainsAny(s, "`#*_[]<>|\\{}") {
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

// copyName is the adoption name of copy r of example e.
func (g *real) copyName(e, r int) string {
	if r == 0 {
		return g.examples[e].name
	}
	return g.examples[e].name + "-" + word(r)
}

// adoptions writes every adoption: example i%len, copy i/len.
func (g *real) adoptions() {
	n := len(g.examples)
	for i := 0; i < g.cfg.Adoptions; i++ {
		e, r := i%n, i/n
		ex := g.examples[e]
		name := g.copyName(e, r)
		rel := "contracts/" + name + ".json"
		declares := ex.doc.getObj("declares")
		doc := ex.doc
		if vals := ex.values; vals != nil {
			decl := declares.getObj("values")
			out := obj{}
			for _, m := range vals {
				val := m.val
				if s, ok := val.(string); ok && decl.getObj(m.key) != nil {
					val = g.cite(e, r, s, true, valueRange(decl.getObj(m.key)))
					g.rep.RowCitations++
				}
				out = out.set(m.key, val)
			}
			doc = doc.with("values", out)
		}
		if sets := ex.doc.getObj("rows"); sets != nil {
			counted := map[string]bool{}
			countedSets(ex.doc, counted)
			out := obj{}
			for _, set := range sets {
				rows, _ := set.val.(arr)
				record := declares.getObj("rows").getObj(set.key).getObj("record")
				copies := g.cfg.RowCopies
				if counted[set.key] {
					copies = 1
				}
				out = out.set(set.key, g.rows(e, r, rows, record, copies))
			}
			doc = doc.with("rows", out)
		}
		content := encode(doc)
		g.w.add(rel, content)
		g.rep.Adoptions = append(g.rep.Adoptions, rel)
		if g.rep.CleanAdoption == "" {
			if at := strings.Index(string(content), `.md#`); at >= 0 {
				g.rep.CleanAdoption = rel
				g.rep.CitationSite = Site{File: rel, Offset: at + len(".md#")}
			}
		}
	}
	g.rep.Citations = g.rep.RowCitations
}

// valueRange returns the range of a value declaration, or nil.
func valueRange(decl obj) []float64 {
	rng, ok := decl.get("range").(arr)
	if !ok || len(rng) != 2 {
		return nil
	}
	var out []float64
	for _, v := range rng {
		n, ok := v.(json.Number)
		if !ok {
			return nil
		}
		f, err := n.Float64()
		if err != nil {
			return nil
		}
		out = append(out, f)
	}
	return out
}

// countedSets adds to sets the row sets whose number of rows a condition
// of the definition reads beyond empty or not: copying their rows would
// change which questions are asked.
func countedSets(v any, sets map[string]bool) {
	switch v := v.(type) {
	case obj:
		for _, m := range v {
			if m.key == "row-count" {
				if cond, ok := m.val.(obj); ok {
					for _, c := range cond {
						if c.val != "empty" && c.val != "non-empty" {
							sets[c.key] = true
						}
					}
				}
			}
			countedSets(m.val, sets)
		}
	case arr:
		for _, e := range v {
			countedSets(e, sets)
		}
	}
}

// rows returns the row list of copy r of example e: its rows copies
// times, each citation rewritten, the unique fields of the copies
// suffixed.
func (g *real) rows(e, r int, rows arr, record obj, copies int) arr {
	var out arr
	for c := 0; c < copies; c++ {
		for _, row := range rows {
			ro, ok := row.(obj)
			if !ok {
				out = append(out, row)
				continue
			}
			nr := make(obj, 0, len(ro))
			for _, m := range ro {
				field := record.getObj(m.key)
				val := m.val
				switch s := val.(type) {
				case string:
					if field.get("type") == "citation" {
						val = g.cite(e, r, s, false, nil)
						g.rep.RowCitations++
					} else if c > 0 && field.get("unique") == true {
						val = s + "-" + word(c+len(syllables))
					}
				case json.Number:
					if c > 0 && field.get("unique") == true {
						if n, err := s.Int64(); err == nil {
							val = json.Number(fmt.Sprint(n + int64(1000*c)))
						}
					}
				}
				nr = nr.set(m.key, val)
			}
			out = append(out, nr)
		}
	}
	return out
}

// cite returns the package's citation for the citation s of copy r of
// example e: an adoption or its value for the contract addresses whose
// adoption is in the package, a heading for chapter anchors and for half
// of the tuning keys of rows, a tuning key for the others and for values
// (whose number rng bounds).
func (g *real) cite(e, r int, s string, value bool, rng []float64) string {
	if rest, ok := strings.CutPrefix(s, "contracts."); ok {
		name, v, _ := strings.Cut(rest, ".")
		if t := g.contractValue(e, r, name, v); t != "" {
			return t
		}
		if !strings.Contains(rest, ".") {
			rest += ".value"
		}
		s = rest
	}
	memo := fmt.Sprintf("%d\x00%s\x00%v\x00%v", r, s, value, rng)
	if t, ok := g.targets[memo]; ok {
		return t
	}
	var t string
	if file, anchor, ok := strings.Cut(s, ".md#"); ok && file != "" {
		t = g.heading(anchor, r)
	} else if !value && fnvOdd(s) {
		t = g.heading(s, r)
	} else {
		t = g.key(s, r, rng)
	}
	g.targets[memo] = t
	return t
}

func fnvOdd(s string) bool {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()%2 == 1
}

// contractValue returns the address of the adoption an example cites by
// name, or of its value when value is not "", at the same copy when that
// exists, or "" when the package has no such adoption or value.
func (g *real) contractValue(e, r int, name, value string) string {
	for _, t := range g.byName[name] {
		if value != "" && g.examples[t].values.get(value) == nil {
			continue
		}
		if g.examples[t].folder != g.examples[e].folder && len(g.byName[name]) > 1 {
			continue // the example of the other version
		}
		n := len(g.examples)
		if t+r*n >= g.cfg.Adoptions {
			r = 0
		}
		if value == "" {
			return "contracts." + g.copyName(t, r)
		}
		return "contracts." + g.copyName(t, r) + "." + value
	}
	return ""
}

// heading returns the citation of a new heading named after a key or an
// anchor (for copy r), in the next chapter in turn.
func (g *real) heading(from string, r int) string {
	words := strings.FieldsFunc(strings.ToLower(from), func(c rune) bool {
		return !(c >= 'a' && c <= 'z')
	})
	if len(words) == 0 {
		words = []string{"section"}
	}
	if r > 0 {
		words = append(words, word(r))
	}
	slug := strings.Join(words, "-")
	for n := 0; g.slugs[slug]; n++ {
		slug = strings.Join(words, "-") + "-" + word(n+len(syllables)*3)
	}
	g.slugs[slug] = true
	text := title(strings.ReplaceAll(slug, "-", " "))
	h := realHeading{text: text, slug: slug, chapter: len(g.headings) % g.cfg.Chapters}
	g.headings = append(g.headings, h)
	return realChapterName(h.chapter) + "#" + slug
}

// key returns a new tuning key named after s for copy r, holding a number
// inside rng when given.
func (g *real) key(s string, r int, rng []float64) string {
	k := strings.ToLower(s)
	if r > 0 {
		k += "-" + word(r)
	}
	base := k
	for n := 0; ; n++ {
		if _, taken := g.keyNum[k]; !taken {
			break
		}
		k = base + "-" + word(n+len(syllables)*3)
	}
	v := float64(1 + len(g.keys)%97)
	if rng != nil {
		v = math.Ceil(rng[0])
		if v > rng[1] {
			v = rng[0]
		}
	}
	g.keyNum[k] = v
	g.keys = append(g.keys, k)
	return k
}

// realChapterName is the file name of chapter c.
func realChapterName(c int) string {
	names := chapterNames(5)
	if c < len(names) {
		return names[c]
	}
	return fmt.Sprintf("%02d-%s.md", min(c+1, 99), word(c))
}

// chapters writes the chapters: each cited heading, in the chapter it was
// given, over paragraphs of the examples' own sentences, some citing a
// tuning key inline, and a fenced example now and then.
func (g *real) chapters() {
	byChapter := make([][]realHeading, g.cfg.Chapters)
	for _, h := range g.headings {
		byChapter[h.chapter] = append(byChapter[h.chapter], h)
	}
	sentence := 0
	next := func() string {
		s := g.prose[sentence%len(g.prose)]
		sentence++
		return s
	}
	for c := 0; c < g.cfg.Chapters; c++ {
		name := realChapterName(c)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", title(strings.TrimSuffix(name[3:], ".md")))
		if c == 0 {
			b.WriteString("```fantasy\nYou keep a small world of machines, bags and timers running, one rule at a time.\nFeel: careful, readable, fair\nNOT: hidden, random\n```\n\n")
		}
		fmt.Fprintf(&b, "%s %s\n\n", next(), next())
		g.rep.Headings++
		hs := byChapter[c]
		for len(hs) < 6 { // every chapter has a few sections
			slug := "notes-" + word(c*8+len(hs))
			g.slugs[slug] = true
			hs = append(hs, realHeading{text: title(strings.ReplaceAll(slug, "-", " ")), slug: slug, chapter: c})
		}
		for i, h := range hs {
			level := "###"
			if i%3 == 0 {
				level = "##"
			}
			fmt.Fprintf(&b, "%s %s\n\n%s %s %s", level, h.text, next(), next(), next())
			if len(g.keys) > 0 && i%2 == 0 {
				fmt.Fprintf(&b, " The number lives in `%s`.", g.keys[(c*7+i)%len(g.keys)])
				g.rep.ProseCitations++
			}
			b.WriteString("\n\n")
			if i%5 == 4 {
				fmt.Fprintf(&b, "%s\n\n- %s\n- %s\n\n", next(), next(), next())
			}
			if i%7 == 6 {
				b.WriteString("```text\nround start -> take share -> hand on -> round end\n```\n\n")
			}
			g.rep.Headings++
		}
		g.w.add(name, []byte(b.String()))
		g.rep.Chapters = append(g.rep.Chapters, name)
	}
	g.rep.Citations += g.rep.ProseCitations
}

// tuning writes tuning.json with every key cited.
func (g *real) tuning() {
	values := obj{}
	for _, k := range g.keys {
		values = values.set(k, g.keyNum[k])
	}
	content := encode(obj{}.set("values", values))
	g.w.add("tuning.json", content)
	g.rep.TuningKeys = len(g.keys)
	if len(g.keys) > 0 {
		needle := quote(g.keys[len(g.keys)/2]) + ": "
		g.rep.TuningValue = Site{File: "tuning.json", Offset: strings.Index(string(content), needle) + len(needle)}
	}
}

func (g *real) manifest() {
	g.w.add("manifest.json", manifestJSON("published-examples-benchmark", "Published Examples Benchmark Package"))
}
