package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Config sizes the generated OpenGDD package. The zero value of a field
// means its default; DefaultConfig returns the sizes of the design budgets.
type Config struct {
	// Adoptions is the number of contract adoptions (default 200).
	Adoptions int
	// Definitions is the number of distinct contract definitions the
	// adoptions share (default 4). The first one has a pack.
	Definitions int
	// Chapters is the number of Markdown chapters (default 100).
	Chapters int
	// Sections is the number of headings below the title of each chapter
	// (default 20).
	Sections int
	// TuningKeys is the number of keys in tuning.json's values (default
	// 2,000).
	TuningKeys int
	// Rows is the number of rows in each adoption's main row set
	// (default 14).
	Rows int
	// Records is the number of records of the generated collection parts
	// (SPEC §1b), with a workshops collection of one record per hundred
	// parts; 0 writes no collection.
	Records int
	// Seed varies the choices; the same seed writes the same bytes.
	Seed uint64
	// Clean, when set, plants no error.
	Clean bool
}

// DefaultConfig returns the configuration of the design budgets: 200
// adoptions, 100 chapters, about 10,000 citations.
func DefaultConfig() Config {
	return Config{Adoptions: 200, Definitions: 4, Chapters: 100, Sections: 20, TuningKeys: 2000, Rows: 14, Seed: 1}
}

// withDefaults returns c with every zero size replaced by its default,
// raised to the least the generator can plant its findings in.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	orDefault(&c.Adoptions, d.Adoptions)
	orDefault(&c.Definitions, d.Definitions)
	orDefault(&c.Chapters, d.Chapters)
	c.Chapters = max(c.Chapters, 5)
	orDefault(&c.Sections, d.Sections)
	orDefault(&c.TuningKeys, d.TuningKeys)
	c.TuningKeys = max(c.TuningKeys, 100)
	orDefault(&c.Rows, d.Rows)
	c.Rows = max(c.Rows, 4)
	return c
}

// orDefault replaces a size of zero or less by its default.
func orDefault(size *int, def int) {
	if *size <= 0 {
		*size = def
	}
}

// Expected is one planted finding: the code the checker must report, the
// package-relative file it is reported in, and how many times.
type Expected struct {
	Code  string
	File  string
	Count int
}

// Site is a place in a generated file: a package-relative path and a byte
// offset into it.
type Site struct {
	File   string
	Offset int
}

// Report describes what Package wrote.
type Report struct {
	// Adoptions are the package-relative paths of the adoption files.
	Adoptions []string
	// Chapters are the chapter file names.
	Chapters []string
	// Citations counts the citations written: row and value citations in
	// adoptions plus inline-code citations in chapters.
	Citations int
	// RowCitations and ProseCitations split Citations.
	RowCitations, ProseCitations int
	// Headings counts the chapter headings.
	Headings int
	// TuningKeys counts the keys of tuning.json (values and open).
	TuningKeys int
	// Records counts the records of the collections.
	Records int
	// Expected lists the planted findings, sorted by file and code. Every
	// other finding the checker reports is a defect of the generator or of
	// the checker.
	Expected []Expected
	// CleanAdoption is an adoption with no planted error, for edits.
	CleanAdoption string
	// HotHeading is the start of the heading line that the most citations
	// reach (every adoption's first row cites it), and HotHeadingText its
	// line as written.
	HotHeading     Site
	HotHeadingText string
	// CitationSite is an offset inside a chapter-anchor citation string of
	// CleanAdoption, just after the '#', where completion proposes anchors.
	CitationSite Site
	// HoverSite is an offset on a tuning-key citation of CleanAdoption.
	HoverSite Site
	// TuningValue is the offset of a number in tuning.json's values.
	TuningValue Site
}

// writer collects the files of a tree and writes them at once.
type writer struct {
	dir   string
	files map[string][]byte
}

func (w *writer) add(rel string, content []byte) { w.files[rel] = content }

func (w *writer) flush() error {
	names := make([]string, 0, len(w.files))
	for n := range w.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(w.dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		if err := os.WriteFile(p, w.files[n], 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	return nil
}

// syllables make pronounceable, digit-free words from numbers, so prose and
// headings carry no numbers that could read as repeated tuning values.
var syllables = [...]string{"ka", "lo", "mi", "ren", "tu", "vo", "sha", "pel", "dor", "fin", "gal", "hex", "jun", "mar", "nis", "quo"}

// word returns a distinct word for each n >= 0.
func word(n int) string {
	s := ""
	for {
		s = syllables[n%len(syllables)] + s
		n /= len(syllables)
		if n == 0 {
			return s
		}
		n--
	}
}
