package analysis

import (
	"strings"
	"sync"

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
	defer s.safetyDone.Store(true)
	if c := s.safetyFrom; c != nil {
		s.safetyFrom = nil // the last snapshot is not kept any longer
		s.carrySafety(c.prev, c.files)
		return
	}
	s.safetyByFile = map[string][]Diagnostic{}
	var files []*File
	for _, f := range s.Files() {
		if s.scanned(f) {
			files = append(files, f)
		}
	}
	// The scans are independent and most of the cost of a cold check, so
	// they run on every processor; the results are gathered in file order.
	// Each worker scans with a Scanner of its own at a time, whose memory
	// serves one file after the other.
	notices := make([][]Diagnostic, len(files))
	scanners := sync.Pool{New: func() any { return new(safety.Scanner) }}
	parallel(len(files), 0, func(i int) {
		sc := scanners.Get().(*safety.Scanner)
		notices[i] = fileNotices(files[i], nil, sc)
		scanners.Put(sc)
	})
	for i, f := range files {
		if len(notices[i]) > 0 {
			s.safety = append(s.safety, notices[i]...)
			s.safetyByFile[f.Path] = notices[i]
		}
	}
	sortDiagnostics(s.safety)
}

// carrySafety gives a snapshot carried from prev (carry.go) the notices of
// prev, with those of the changed files scanned again: a keystroke does not
// look at every file of the repository for its notices, and in a changed
// file only at the lines it changed (safety.Scanned.Rescan).
func (s *Snapshot) carrySafety(prev *Snapshot, changed map[string]*File) {
	s.safetyByFile = make(map[string][]Diagnostic, len(prev.safetyByFile))
	touched := false
	for path, ds := range prev.safetyByFile {
		if changed[path] == nil {
			s.safetyByFile[path] = ds
		} else {
			touched = true
		}
	}
	for path, f := range changed {
		if !s.scanned(f) {
			continue
		}
		if ds := fileNotices(f, prev.File(path), nil); len(ds) > 0 {
			s.safetyByFile[path] = ds
			touched = true
		}
	}
	if !touched {
		s.safety = prev.safety
		return
	}
	for _, d := range prev.safety {
		if changed[d.File] == nil {
			s.safety = append(s.safety, d)
		}
	}
	for path := range changed {
		s.safety = append(s.safety, s.safetyByFile[path]...)
	}
	sortDiagnostics(s.safety)
}

// scanned reports whether the safety scan reads f: a text file of a
// package that is not a filesystem link.
func (s *Snapshot) scanned(f *File) bool {
	if !f.InPackage() || !safety.IsText(f.Path) {
		return false
	}
	w := s.tree.files[f.Path]
	return w == nil || !w.link // the scan does not read through filesystem links
}

// fileNotices returns the safety notices of one scanned file as sorted
// diagnostics. was, when not nil, is the file as an earlier snapshot held
// it: where its content was scanned, only what differs is scanned again.
// sc, when not nil, is the Scanner whose memory a whole scan uses.
func fileNotices(f, was *File, sc *safety.Scanner) []Diagnostic {
	var out []Diagnostic
	for _, n := range scanFile(f, was, sc) {
		span := n.Span
		if n.Code == safety.ScanSkipped {
			span = firstLine(f)
		}
		out = append(out, Diagnostic{File: f.Path, Range: f.Lines.Range(span), Code: n.Code, Severity: source.Warning, Message: n.Message, Safety: true})
	}
	sortDiagnostics(out)
	return out
}

// scanFile returns the safety notices of one file of a package; was and sc
// are as for fileNotices.
func scanFile(f, was *File, sc *safety.Scanner) []safety.Notice {
	if sc == nil {
		sc = new(safety.Scanner)
	}
	switch {
	case f.Content == nil && strings.HasPrefix(f.Skipped, "the file cannot be read"):
		return []safety.Notice{safety.Unreadable()}
	case f.Content == nil && f.Skipped != "", len(f.Content) > safety.MaxBytes:
		return []safety.Notice{safety.TooLarge(int64(len(f.Content)))}
	case f.entry != nil:
		var from *cacheEntry
		if was != nil {
			from = was.entry
		}
		return f.entry.getSafety(f.Path, from, sc)
	default:
		return sc.ScanText(f.Path, f.Content).Notices
	}
}

// safetyScan is the cached scan of one content. The scan reads the name only
// to know whether it is Markdown and whether it is the build plan, so a
// result is kept per such kind of name.
type safetyScan struct {
	plan, md bool
	scanned  safety.Scanned
}

// getSafety returns the safety scan of the content under the given name.
// from, when not nil, is the entry of an earlier content of the file: if
// it holds a scan under such a name, the scan of this content is that one,
// scanned again where the contents differ (safety.Scanned.Rescan). A whole
// scan uses the memory of scanner.
func (e *cacheEntry) getSafety(name string, from *cacheEntry, scanner *safety.Scanner) []safety.Notice {
	plan := strings.EqualFold(baseName(name), "05-build-plan.md")
	md := IsMarkdown(name)
	// The earlier scan is read first: the two entries are never locked
	// together.
	prev, rescan := safety.Scanned{}, false
	if from != nil && from != e {
		prev, rescan = from.safetyOf(plan, md)
	}
	e.safetyMu.Lock()
	defer e.safetyMu.Unlock()
	if sc, ok := e.safetyOfLocked(plan, md); ok {
		return sc.Notices
	}
	var sc safety.Scanned
	if rescan {
		sc = prev.Rescan(name, from.content, e.content)
	} else {
		sc = scanner.ScanText(name, e.content)
	}
	e.safetyScans = append(e.safetyScans, safetyScan{plan: plan, md: md, scanned: sc})
	return sc.Notices
}

// safetyOf returns the entry's scan under a name of the given kind, if it
// made one.
func (e *cacheEntry) safetyOf(plan, md bool) (safety.Scanned, bool) {
	e.safetyMu.Lock()
	defer e.safetyMu.Unlock()
	return e.safetyOfLocked(plan, md)
}

// safetyOfLocked is safetyOf with e.safetyMu held.
func (e *cacheEntry) safetyOfLocked(plan, md bool) (safety.Scanned, bool) {
	for _, sc := range e.safetyScans {
		if sc.plan == plan && sc.md == md {
			return sc.scanned, true
		}
	}
	return safety.Scanned{}, false
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
