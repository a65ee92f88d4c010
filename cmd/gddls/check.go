package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

// checkedPath is one PATH argument with what was found under it.
type checkedPath struct {
	arg   string
	root  string // folder that was loaded
	only  string // when the argument is a file: that file's absolute path
	snap  *analysis.Snapshot
	diags []analysis.Diagnostic
	// notices are the safety notices (empty with --no-safety).
	notices []analysis.Diagnostic
	// hints are the review-mode hints (empty without --review).
	hints []analysis.Diagnostic
}

// parseInterspersed parses the flags of fs from args, where flags may
// stand before or after the paths, as in most tools, and "--" ends the
// flags. It returns the paths in order, or the error of the first flag
// that does not parse (flag.ErrHelp for -h and --help).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

// checkFlags holds the values of the flags of `gddls check`.
type checkFlags struct {
	format, record               *string
	render, noSafety, reviewMode *bool
}

// newCheckFlags defines the flag set of `gddls check`, writing its errors
// and usage to stderr. runCheck parses it, and the docs test reads every
// flag it defines.
func newCheckFlags(stderr io.Writer) (*flag.FlagSet, checkFlags) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f checkFlags
	f.format = fs.String("format", "text", "output format: text, json or sarif")
	f.render = fs.Bool("render-tests", false, "print the generated tests of every checked adoption")
	f.noSafety = fs.Bool("no-safety", false, "do not run the safety scan")
	f.reviewMode = fs.Bool("review", false, "add the review-mode hints")
	f.record = fs.String("build", "", "validate the build record RECORD, against the source package PATH when one is given")
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return fs, f
}

// runCheck implements `gddls check`.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs, f := newCheckFlags(stderr)
	format, render, noSafety, reviewMode, record := f.format, f.render, f.noSafety, f.reviewMode, f.record
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "json" && *format != "sarif" {
		fmt.Fprintf(stderr, "gddls check: unknown --format %q; use text, json or sarif\n", *format)
		return 2
	}
	if *record != "" || flagSet(fs, "build") {
		if *render {
			fmt.Fprintln(stderr, "gddls check: --build and --render-tests cannot be combined")
			return 2
		}
		return runBuild(*record, paths, *format, stdout, stderr)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var checked []*checkedPath
	for _, arg := range paths {
		info, err := os.Stat(arg)
		if err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot read %s: %v\n", arg, err)
			return 2
		}
		abs, err := filepath.Abs(arg)
		if err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot resolve %s: %v\n", arg, err)
			return 2
		}
		cp := &checkedPath{arg: arg, root: abs}
		if !info.IsDir() {
			cp.root, cp.only = enclosingRoot(abs), abs
		} else if _, err := os.ReadDir(abs); err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot read folder %s: %v\n", arg, err)
			return 2
		}
		cp.snap = analysis.Load([]string{cp.root}, analysis.Options{})
		for _, d := range cp.snap.AllDiagnostics() {
			if cp.only == "" || d.File == cp.only {
				cp.diags = append(cp.diags, d)
			}
		}
		if *reviewMode {
			for _, d := range cp.snap.Hints() {
				if cp.only == "" || d.File == cp.only {
					cp.hints = append(cp.hints, d)
				}
			}
		}
		if !*noSafety {
			for _, d := range cp.snap.Safety() {
				if cp.only == "" || d.File == cp.only {
					cp.notices = append(cp.notices, d)
				}
			}
		}
		checked = append(checked, cp)
	}
	if *render {
		return renderTests(checked, stdout, stderr)
	}
	rep := buildReport(checked)
	if err := writeReport(stdout, *format, rep); err != nil {
		fmt.Fprintf(stderr, "gddls check: %v\n", err)
		return 2
	}
	if rep.Summary.Errors > 0 {
		return 1
	}
	return 0
}

// enclosingRoot returns the folder to load for a file argument: the package
// root above it (analysis.IsPackageRoot), so that the file is checked with
// its package, or else the file's own folder.
func enclosingRoot(file string) string {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if analysis.IsPackageRoot(dir) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return filepath.Dir(file)
		}
	}
}

// report is the machine-readable result of a check (DESIGN §4).
type report struct {
	Version  int             `json:"version"`
	Findings []reportFinding `json:"findings"`
	// Hints are the review-mode hints (--review); empty otherwise.
	Hints []reportFinding `json:"hints"`
	// Safety are the safety notices: severity "warning" as the format's
	// report gives them, never counted as warnings.
	Safety  []reportFinding `json:"safety"`
	Summary reportSummary   `json:"summary"`
	// Outcome is the derived outcome of build mode (SPEC §7), absent in
	// a package check.
	Outcome string `json:"outcome,omitempty"`
	// verdict is build mode's verdict line in the text report.
	verdict string
}

type reportFinding struct {
	Code      string          `json:"code"`
	Severity  string          `json:"severity"`
	File      string          `json:"file"`
	Range     source.Range    `json:"range"`
	Message   string          `json:"message"`
	Dependent bool            `json:"dependent,omitempty"`
	Related   []reportRelated `json:"related,omitempty"`
}

type reportRelated struct {
	File    string       `json:"file"`
	Range   source.Range `json:"range"`
	Message string       `json:"message"`
}

type reportSummary struct {
	Errors int `json:"errors"`
	// Dependent counts the errors that exist only because the same
	// adoption still lacks something (they are counted in Errors too).
	Dependent int `json:"dependent"`
	Warnings  int `json:"warnings"`
	Hints     int `json:"hints"`
	Safety    int `json:"safety"`
	Files     int `json:"files"`
}

// relPath makes an absolute path relative to the folder that was checked,
// with forward slashes.
func relPath(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

func buildReport(checked []*checkedPath) report {
	rep := report{Version: 1, Findings: []reportFinding{}, Hints: []reportFinding{}, Safety: []reportFinding{}}
	for _, cp := range checked {
		base := cp.root
		if cp.only != "" {
			rep.Summary.Files++
		} else {
			for _, f := range cp.snap.Files() {
				// The count is of the files checked; a text file that
				// only the safety scan reads is not one.
				if !f.ScanOnly() {
					rep.Summary.Files++
				}
			}
		}
		for _, d := range cp.diags {
			rep.addFinding(base, d)
		}
		for _, d := range cp.hints {
			rep.Hints = append(rep.Hints, reportItem(base, d))
		}
		for _, d := range cp.notices {
			rep.Safety = append(rep.Safety, reportItem(base, d))
		}
	}
	rep.Summary.Hints, rep.Summary.Safety = len(rep.Hints), len(rep.Safety)
	return rep
}

// reportItem is a diagnostic as the report gives it, with its related
// places, its file relative to base.
// addFinding adds a finding to the report, with paths relative to base,
// and counts it in the summary.
func (rep *report) addFinding(base string, d analysis.Diagnostic) {
	f := reportItem(base, d)
	if d.Subject != "" {
		// A finding about a folder or a missing file names it; it has no
		// place inside a file.
		f.File, f.Range = relPath(base, d.Subject), source.Range{}
	}
	if d.Dependent {
		rep.Summary.Dependent++
	}
	rep.Findings = append(rep.Findings, f)
	switch d.Severity {
	case source.Error:
		rep.Summary.Errors++
	case source.Warning:
		rep.Summary.Warnings++
	}
}

func reportItem(base string, d analysis.Diagnostic) reportFinding {
	f := reportFinding{
		Code: d.Code, Severity: d.Severity.String(), File: relPath(base, d.File),
		Range: d.Range, Message: d.Message, Dependent: d.Dependent,
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, reportRelated{File: relPath(base, r.File), Range: r.Range, Message: r.Message})
	}
	return f
}

// writeReport writes rep to w in format: json, sarif, or text otherwise.
func writeReport(w io.Writer, format string, rep report) error {
	out := bufio.NewWriter(w)
	var err error
	switch format {
	case "json":
		err = writeJSON(out, rep)
	case "sarif":
		err = writeSARIF(out, rep)
	default:
		err = writeText(out, rep)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return err
}

func writeJSON(w io.Writer, rep report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}

// writeText prints one line per finding, in the form compilers use, with
// 1-based lines and columns so that terminals and editors can jump to them;
// then the hints, then the safety notices (marked "safety", since they are
// not warnings), then the summary.
func writeText(w io.Writer, rep report) error {
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "%s:%d:%d: %s %s %s\n", f.File, f.Range.Start.Line+1, f.Range.Start.Character+1, f.Severity, f.Code, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s:%d:%d: %s\n", r.File, r.Range.Start.Line+1, r.Range.Start.Character+1, r.Message)
		}
	}
	for _, f := range rep.Hints {
		fmt.Fprintf(w, "%s:%d:%d: hint %s %s\n", f.File, f.Range.Start.Line+1, f.Range.Start.Character+1, f.Code, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s:%d:%d: %s\n", r.File, r.Range.Start.Line+1, r.Range.Start.Character+1, r.Message)
		}
	}
	for _, f := range rep.Safety {
		fmt.Fprintf(w, "%s:%d:%d: safety %s %s\n", f.File, f.Range.Start.Line+1, f.Range.Start.Character+1, f.Code, f.Message)
	}
	if rep.verdict != "" {
		fmt.Fprintln(w, rep.verdict)
	}
	summary := fmt.Sprintf("%s, %s", plural(rep.Summary.Errors, "error"), plural(rep.Summary.Warnings, "warning"))
	if rep.Summary.Hints > 0 {
		summary += ", " + plural(rep.Summary.Hints, "hint")
	}
	if rep.Summary.Safety > 0 {
		summary += ", " + plural(rep.Summary.Safety, "safety notice")
	}
	_, err := fmt.Fprintf(w, "%s in %s\n", summary, plural(rep.Summary.Files, "file"))
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ruleIDs lists the distinct codes of a report, sorted.
func ruleIDs(rep report) []string {
	seen := map[string]bool{}
	for _, list := range [][]reportFinding{rep.Findings, rep.Hints, rep.Safety} {
		for _, f := range list {
			seen[f.Code] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(sev string) string {
	switch sev {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "note"
}

func sarifRegion(r source.Range) map[string]int {
	return map[string]int{
		"startLine": r.Start.Line + 1, "startColumn": r.Start.Character + 1,
		"endLine": r.End.Line + 1, "endColumn": r.End.Character + 1,
	}
}

func sarifLocation(file string, r source.Range) map[string]any {
	return map[string]any{"physicalLocation": map[string]any{
		"artifactLocation": map[string]any{"uri": file, "uriBaseId": "%SRCROOT%"},
		"region":           sarifRegion(r),
	}}
}

// sarifResult is one result of the SARIF log, with its related places.
func sarifResult(f reportFinding, level string, index map[string]int) map[string]any {
	res := map[string]any{
		"ruleId":    f.Code,
		"ruleIndex": index[f.Code],
		"level":     level,
		"message":   map[string]string{"text": f.Message},
		"locations": []any{sarifLocation(f.File, f.Range)},
	}
	if len(f.Related) > 0 {
		var rel []any
		for i, r := range f.Related {
			loc := sarifLocation(r.File, r.Range)
			loc["id"] = i
			loc["message"] = map[string]string{"text": r.Message}
			rel = append(rel, loc)
		}
		res["relatedLocations"] = rel
	}
	if f.Dependent {
		res["properties"] = map[string]any{"dependent": true}
	}
	return res
}

// writeSARIF prints a SARIF 2.1.0 log, the format GitHub code scanning
// reads.
func writeSARIF(w io.Writer, rep report) error {
	ids := ruleIDs(rep)
	index := map[string]int{}
	rules := make([]map[string]any, 0, len(ids))
	for i, id := range ids {
		index[id] = i
		rules = append(rules, map[string]any{
			"id":               id,
			"name":             id,
			"shortDescription": map[string]string{"text": strings.ToLower(strings.ReplaceAll(id, "_", " "))},
			"helpUri":          "https://github.com/gddls/gddls#findings",
		})
	}
	results := make([]map[string]any, 0, len(rep.Findings)+len(rep.Hints)+len(rep.Safety))
	for _, f := range rep.Findings {
		results = append(results, sarifResult(f, sarifLevel(f.Severity), index))
	}
	// Hints and safety notices are notes: they decide nothing.
	for _, f := range rep.Hints {
		results = append(results, sarifResult(f, "note", index))
	}
	for _, f := range rep.Safety {
		results = append(results, sarifResult(f, "note", index))
	}
	run := map[string]any{
		"tool": map[string]any{"driver": map[string]any{
			"name":           "gddls",
			"version":        currentVersion().Version,
			"informationUri": "https://github.com/gddls/gddls",
			"rules":          rules,
		}},
		"columnKind": "utf16CodeUnits",
		"results":    results,
	}
	if rep.Outcome != "" {
		// Build mode: the outcome is a property of the run, and the
		// invocation succeeds only for a conforming record.
		run["properties"] = map[string]any{"outcome": rep.Outcome}
		run["invocations"] = []any{map[string]any{"executionSuccessful": rep.Outcome == "conforming"}}
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs":    []any{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
