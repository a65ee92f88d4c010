package analysis

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/review"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/source"
)

// maxLiteralKeys bounds the tuning keys a PROSE_TUNING_LITERAL hint names
// and offers to cite.
const maxLiteralKeys = 3

// hint is one review-mode hint with what its quick fix needs.
type hint struct {
	d    Diagnostic
	span source.Span
	// keys are the tuning keys whose value a literal equals; text is the
	// literal as written.
	keys []string
	text string
}

// Hints returns the review-mode hints of every package of the snapshot
// (SPEC §2d), sorted like findings, with severity Hint: PROSE_TUNING_LITERAL
// for a number in a chapter's prose that equals a number of tuning.json's
// values (§4; guesses in open are never compared), and TIE_BREAK_CHOICE and
// TIE_BREAK_SHARED_CEILING for Fixed paragraphs of 02-mechanics.md (§2a),
// read by analysis/review. They are kept apart from the findings and
// decide nothing; `gddls check --review` and the server setting
// gddls.review show them. They are computed on the first call.
func (s *Snapshot) Hints() []Diagnostic {
	s.hintsOnce.Do(s.computeHints)
	return s.hintList
}

// HintsOf returns the review-mode hints of one file.
func (s *Snapshot) HintsOf(path string) []Diagnostic {
	s.hintsOnce.Do(s.computeHints)
	hs := s.hintsByFile[path]
	out := make([]Diagnostic, len(hs))
	for i, h := range hs {
		out[i] = h.d
	}
	return out
}

func (s *Snapshot) computeHints() {
	s.hintsByFile = map[string][]hint{}
	for _, p := range s.Packages {
		values := literalIndex(p)
		for _, c := range p.Chapters {
			f := c.File
			if f.Markdown == nil {
				continue
			}
			var hs []hint
			if values != nil {
				for _, l := range f.literals() {
					if es := values[l.Value]; len(es) > 0 {
						hs = append(hs, literalHint(p, f, l, es))
					}
				}
			}
			if c.Name == "02-mechanics.md" {
				for _, h := range f.tieBreaks() {
					hs = append(hs, hint{span: h.Span, d: Diagnostic{
						File: f.Path, Range: f.Lines.Range(h.Span), Code: h.Code, Severity: source.Hint, Message: h.Message,
					}})
				}
			}
			if len(hs) == 0 {
				continue
			}
			sort.SliceStable(hs, func(i, j int) bool { return diagnosticLess(hs[i].d, hs[j].d) })
			s.hintsByFile[f.Path] = hs
			for _, h := range hs {
				s.hintList = append(s.hintList, h.d)
			}
		}
	}
	sortDiagnostics(s.hintList)
}

// literals returns the numbers of a Markdown file's prose, read once per
// content.
func (f *File) literals() []review.Literal {
	if f.entry == nil {
		return review.Literals(f.Markdown)
	}
	f.entry.literalsOnce.Do(func() { f.entry.literals = review.Literals(f.Markdown) })
	return f.entry.literals
}

// tieBreaks returns the tie-break hints of a Markdown file, read once per
// content.
func (f *File) tieBreaks() []review.Hint {
	if f.entry == nil {
		return review.TieBreaks(f.Markdown)
	}
	f.entry.tiesOnce.Do(func() { f.entry.ties = review.TieBreaks(f.Markdown) })
	return f.entry.ties
}

// literalIndex maps each number of the package's tuning values to its
// entries, in source order; nil when tuning.json is missing or cannot be
// read. Open numbers are left out: their guesses are not decided.
func literalIndex(p *Package) map[float64][]*tuning.Entry {
	if p.Tuning == nil || !p.Tuning.Readable || p.TuningFile == nil {
		return nil
	}
	idx := map[float64][]*tuning.Entry{}
	for _, e := range p.Tuning.Entries {
		if e.Open || !e.HasNumber {
			continue
		}
		idx[e.Number] = append(idx[e.Number], e)
	}
	return idx
}

// literalHint is the PROSE_TUNING_LITERAL hint of one literal equal to the
// numbers of es.
func literalHint(p *Package, f *File, l review.Literal, es []*tuning.Entry) hint {
	h := hint{span: l.Span, text: l.Text}
	var names []string
	for i, e := range es {
		if i < maxLiteralKeys {
			h.keys = append(h.keys, e.Key)
			names = append(names, "`"+e.Key+"`")
		}
	}
	which := names[0]
	switch n := len(es); {
	case n == 2:
		which = names[0] + " and " + names[1]
	case n > 2 && n <= maxLiteralKeys:
		which = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	case n > maxLiteralKeys:
		which = strings.Join(names, ", ") + fmt.Sprintf(" and %d more keys", n-maxLiteralKeys)
	}
	cite := "the key"
	if len(es) > 1 {
		cite = "the key it means"
	}
	d := Diagnostic{
		File: f.Path, Range: f.Lines.Range(l.Span), Code: review.CodeTuningLiteral, Severity: source.Hint,
		Message: fmt.Sprintf("%s is the number of %s in tuning.json; if this sentence states that number, cite %s instead of repeating its value, so that the prose follows the tuning", l.Text, which, cite),
	}
	tf := p.TuningFile
	for _, e := range es[:len(h.keys)] {
		d.Related = append(d.Related, RelatedLocation{
			File: tf.Path, Range: tf.Lines.Range(e.KeySpan),
			Message: fmt.Sprintf("%s is %s here", e.Key, strconv.FormatFloat(e.Number, 'g', -1, 64)),
		})
	}
	h.d = d
	return h
}

// HintFix is what the quick fix of one review-mode hint needs: a number
// in prose that equals tuning values, and the keys whose citation may
// replace it.
type HintFix struct {
	// Code is the hint's code.
	Code string
	// Span is the number's span in its file; Text is the number as written.
	Span source.Span
	Text string
	// Keys are the tuning keys whose value the number equals.
	Keys []string
}

// HintFixes returns the quick-fix material of the review-mode hints of
// path, in the order of the hints.
func (s *Snapshot) HintFixes(path string) []HintFix {
	s.hintsOnce.Do(s.computeHints)
	var out []HintFix
	for _, h := range s.hintsByFile[path] {
		out = append(out, HintFix{Code: h.d.Code, Span: h.span, Text: h.text, Keys: h.keys})
	}
	return out
}
