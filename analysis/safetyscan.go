package analysis

import (
	"strings"

	"github.com/gddls/gddls/analysis/safety"
	"github.com/gddls/gddls/contracts/source"
)

// Safety returns the safety notices of every package file of the snapshot
// (analysis/safety; SPEC §2d), sorted like findings. They are kept apart
// from the findings: each has Safety set and severity Warning, as the
// format's report gives them, but a notice is not a warning and decides
// nothing. The scan runs on the first call, over the cached scan of each
// file's content.
func (s *Snapshot) Safety() []Diagnostic {
	s.safetyOnce.Do(s.scanSafety)
	return s.safety
}

// SafetyOf returns the safety notices of one file.
func (s *Snapshot) SafetyOf(path string) []Diagnostic {
	s.safetyOnce.Do(s.scanSafety)
	return s.safetyByFile[path]
}

func (s *Snapshot) scanSafety() {
	s.safetyByFile = map[string][]Diagnostic{}
	var files []*File
	for _, f := range s.Files() {
		if !f.InPackage() || !safety.IsText(f.Path) {
			continue
		}
		if w := s.tree.files[f.Path]; w != nil && w.link {
			continue // the scan does not read through filesystem links
		}
		files = append(files, f)
	}
	// The scans are independent and most of the cost of a cold check, so
	// they run on every processor; the results are gathered in file order.
	notices := make([][]safety.Notice, len(files))
	parallel(len(files), 0, func(i int) { notices[i] = scanFile(files[i]) })
	for i, f := range files {
		for _, n := range notices[i] {
			span := n.Span
			if n.Code == safety.ScanSkipped {
				span = firstLine(f)
			}
			d := Diagnostic{File: f.Path, Range: f.Lines.Range(span), Code: n.Code, Severity: source.Warning, Message: n.Message, Safety: true}
			s.safety = append(s.safety, d)
			s.safetyByFile[f.Path] = append(s.safetyByFile[f.Path], d)
		}
	}
	sortDiagnostics(s.safety)
	for _, ds := range s.safetyByFile {
		sortDiagnostics(ds)
	}
}

// scanFile returns the safety notices of one file of a package.
func scanFile(f *File) []safety.Notice {
	switch {
	case f.Content == nil && strings.HasPrefix(f.Skipped, "the file cannot be read"):
		return []safety.Notice{safety.Unreadable()}
	case f.Content == nil && f.Skipped != "", len(f.Content) > safety.MaxBytes:
		return []safety.Notice{safety.TooLarge(int64(len(f.Content)))}
	case f.entry != nil:
		return f.entry.getSafety(f.Path)
	default:
		return safety.Scan(f.Path, f.Content)
	}
}

// safetyScan is the cached scan of one content. The scan reads the name only
// to know whether it is Markdown and whether it is the build plan, so a
// result is kept per such kind of name.
type safetyScan struct {
	plan, md bool
	notices  []safety.Notice
}

// getSafety returns the safety scan of the content under the given name.
func (e *cacheEntry) getSafety(name string) []safety.Notice {
	plan := strings.EqualFold(baseName(name), "05-build-plan.md")
	md := isMarkdown(name)
	e.safetyMu.Lock()
	defer e.safetyMu.Unlock()
	for _, sc := range e.safetyScans {
		if sc.plan == plan && sc.md == md {
			return sc.notices
		}
	}
	ns := safety.Scan(name, e.content)
	e.safetyScans = append(e.safetyScans, safetyScan{plan: plan, md: md, notices: ns})
	return ns
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// ScanOnly reports whether only the safety scan reads the file: a text file
// that is neither Markdown nor JSON (a YAML, CSV or plain-text file).
func (f *File) ScanOnly() bool { return !analysed(f.Path) }
