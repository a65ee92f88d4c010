package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// flagSet reports whether the named flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runBuild implements `gddls check --build RECORD [PACKAGE]` (SPEC §7,
// DESIGN §4): the record's findings, then the outcome; the exit status is
// the outcome's.
func runBuild(record string, paths []string, format string, stdout, stderr io.Writer) int {
	if record == "" {
		fmt.Fprintln(stderr, "gddls check: --build needs the path of a build record (opengdd-build.json)")
		return 2
	}
	if len(paths) > 1 {
		fmt.Fprintf(stderr, "gddls check: --build takes at most one PACKAGE folder, not %d paths\n", len(paths))
		return 2
	}
	recAbs, err := filepath.Abs(record)
	if err != nil {
		fmt.Fprintf(stderr, "gddls check: cannot resolve %s: %v\n", record, err)
		return 2
	}
	// A record that does not exist, or is not a file, is the format's
	// finding BUILD_FILE_MISSING, not a usage error.
	var data []byte
	found := false
	if info, err := os.Stat(recAbs); err == nil && info.Mode().IsRegular() {
		if data, err = os.ReadFile(recAbs); err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot read %s: %v\n", record, err)
			return 2
		}
		found = true
	}
	base := filepath.Dir(recAbs)
	var snap *analysis.Snapshot
	root := ""
	if len(paths) == 1 {
		info, err := os.Stat(paths[0])
		if err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot read %s: %v\n", paths[0], err)
			return 2
		}
		if !info.IsDir() {
			fmt.Fprintf(stderr, "gddls check: the source package %s is not a folder\n", paths[0])
			return 2
		}
		if root, err = filepath.Abs(paths[0]); err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot resolve %s: %v\n", paths[0], err)
			return 2
		}
		root = filepath.Clean(root)
		if _, err := os.ReadDir(root); err != nil {
			fmt.Fprintf(stderr, "gddls check: cannot read folder %s: %v\n", paths[0], err)
			return 2
		}
		snap = analysis.Load([]string{root}, analysis.Options{})
		base = root
	}
	res := analysis.CheckBuild(recAbs, data, found, snap, root)
	rep := buildModeReport(res, base)
	if err := writeReport(stdout, format, rep); err != nil {
		fmt.Fprintf(stderr, "gddls check: %v\n", err)
		return 2
	}
	return res.Outcome.ExitCode()
}

// buildModeReport is the report of a build-record check: files relative to
// base (the source package, else the record's folder), the outcome, and
// empty hint and safety lists, as the format's validator gives them.
func buildModeReport(res *analysis.BuildResult, base string) report {
	rep := report{Version: 1, Findings: []reportFinding{}, Hints: []reportFinding{}, Safety: []reportFinding{}, Outcome: string(res.Outcome)}
	rep.Summary.Files = 1
	for _, d := range res.Diagnostics {
		rep.addFinding(base, d)
	}
	rep.verdict = verdict(res, rep.Summary.Warnings)
	return rep
}

// verdict is the text report's line for the outcome.
func verdict(res *analysis.BuildResult, warnings int) string {
	o := res.Outcome
	switch o {
	case buildrecord.Conforming:
		v := o.Verdict()
		if warnings > 0 {
			v += " WITH WARNINGS"
		}
		// The record's total is the package's count when gddls could count
		// the tests, and its claim when a file they come from does not parse.
		return fmt.Sprintf("%s: the build record conforms: all %s tests of the package passed", v, jsonsrc.FormatNumber(res.Record.Total.Num()))
	case buildrecord.Invalid:
		return o.Verdict() + ": the build record is invalid"
	case buildrecord.NotChecked:
		return o.Verdict() + ": no source package was given, so only the record itself was checked; this is not a conformance result"
	case buildrecord.NotVerified:
		return o.Verdict() + ": the build record is valid, but the source package declares no tests"
	}
	var names []string
	for _, np := range res.Record.NotPassed {
		names = append(names, fmt.Sprintf("%s (%s)", np.Name, np.Result))
	}
	return fmt.Sprintf("%s: the build record is valid, but not every test passed: %s", o.Verdict(), strings.Join(names, ", "))
}
