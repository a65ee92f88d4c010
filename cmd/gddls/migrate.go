package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/contracts/source"
)

const migrateUsage = `gddls migrate: rewrite the retired forms of an older OpenGDD package into v0.9

Usage:
  gddls migrate [--dry-run] [--format text|json] [PATH ...]
  gddls migrate --build RECORD [--dry-run] [--format text|json]

What it does:
  For every package under each PATH (default .), rewrites each retired form
  that SPEC Appendix A names into its v0.9 form (tuning.json's old tables,
  clocks.json's root modes, the manifest's palette and moods, direction.json's
  old shapes, chapter tokens and tags, build-plan test blocks, collection
  schemas, personalization.json, adoption files), and prints every change
  with the finding code of the form it rewrote. --build rewrites the retired
  members of one build record (opengdd-build.json).

  Then it lists what needs a person, each with file, line, code, what is
  needed and why: content the format now requires that no old file held (a
  mood's intent), text whose meaning changed, decisions the format leaves to
  the designer (a document-check test), and every rewrite it could not prove.
  After a real run, "gddls check" reports exactly those places.

What it never does:
  - write anything with --dry-run (it prints exactly what a real run would do);
  - invent content, guess a meaning, or make a rewrite it cannot check (a rule
    must evaluate as the old invariant did, a moved number keeps its value, a
    rewritten citation must resolve);
  - touch a file outside the package, follow a symbolic link, or change a file
    that does not parse (that file is listed instead);
  - leave a half-written file: each file is written to a temporary file in its
    own folder and renamed over the old one, keeping its permissions.

Flags:
  --dry-run            print the changes and items, write nothing
  --format text|json   output format (default text)
  --build RECORD       migrate the build record RECORD instead of packages

Exit status: 0 nothing is left for a person, 1 something is, 2 usage error,
unreadable PATH or a file that could not be written.
`

// migratedPackage is one package (or build record) and what the migration
// does to it.
type migratedPackage struct {
	// Root is the package folder (or the record) as the user would name it.
	Root    string           `json:"root"`
	Written []string         `json:"written"`
	Changes []migrate.Change `json:"changes"`
	Items   []migrate.Item   `json:"items"`
	abs     string
	res     *migrate.Result
	// modes are the permissions of the files read, by relative path.
	modes map[string]fs.FileMode
}

// migrateReport is the JSON output of `gddls migrate`.
type migrateReport struct {
	Version  int                `json:"version"`
	DryRun   bool               `json:"dry_run"`
	Packages []*migratedPackage `json:"packages"`
	Summary  struct {
		Changes int `json:"changes"`
		Files   int `json:"files"`
		Items   int `json:"items"`
	} `json:"summary"`
}

// migrateFlags holds the values of the flags of `gddls migrate`.
type migrateFlags struct {
	dry            *bool
	format, record *string
}

// newMigrateFlags defines the flag set of `gddls migrate`, writing its
// errors and usage to stderr. runMigrate parses it, and the docs test
// reads every flag it defines.
func newMigrateFlags(stderr io.Writer) (*flag.FlagSet, migrateFlags) {
	fset := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var f migrateFlags
	f.dry = fset.Bool("dry-run", false, "print what would change, write nothing")
	f.format = fset.String("format", "text", "output format: text or json")
	f.record = fset.String("build", "", "migrate the build record RECORD")
	fset.Usage = func() { fmt.Fprint(stderr, migrateUsage) }
	return fset, f
}

// runMigrate implements `gddls migrate`.
func runMigrate(args []string, stdout, stderr io.Writer) int {
	fset, f := newMigrateFlags(stderr)
	dry, format, record := f.dry, f.format, f.record
	paths, err := parseInterspersed(fset, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, migrateUsage)
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "gddls migrate: unknown --format %q; use text or json\n", *format)
		return 2
	}
	var pkgs []*migratedPackage
	if *record != "" || flagSet(fset, "build") {
		if *record == "" || len(paths) > 0 {
			fmt.Fprintln(stderr, "gddls migrate: --build takes the path of one build record and no PATH")
			return 2
		}
		p, err := migrateRecord(*record)
		if err != nil {
			fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
			return 2
		}
		pkgs = append(pkgs, p)
	} else {
		if len(paths) == 0 {
			paths = []string{"."}
		}
		seen := map[string]bool{}
		for _, arg := range paths {
			roots, err := packageRoots(arg)
			if err != nil {
				fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
				return 2
			}
			for _, root := range roots {
				if seen[root.abs] {
					continue
				}
				seen[root.abs] = true
				if err := root.migrate(); err != nil {
					fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
					return 2
				}
				pkgs = append(pkgs, root)
			}
		}
	}
	status := 0
	for _, p := range pkgs {
		if !*dry {
			if err := p.write(); err != nil {
				fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
				return 2
			}
		}
		if len(p.Items) > 0 {
			status = 1
		}
	}
	var rep migrateReport
	rep.Version, rep.DryRun, rep.Packages = 1, *dry, pkgs
	for _, p := range pkgs {
		rep.Summary.Changes += len(p.Changes)
		rep.Summary.Files += len(p.Written)
		rep.Summary.Items += len(p.Items)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
			return 2
		}
		return status
	}
	for _, p := range pkgs {
		if err := migrate.WriteText(stdout, p.Root, p.res); err != nil {
			fmt.Fprintf(stderr, "gddls migrate: %v\n", err)
			return 2
		}
	}
	verb := "rewrote"
	if *dry {
		verb = "would rewrite"
	}
	fmt.Fprintf(stdout, "%s %d file(s) in %d package(s) with %d change(s); %d item(s) need a person\n",
		verb, rep.Summary.Files, len(pkgs), rep.Summary.Changes, rep.Summary.Items)
	return status
}

// packageRoots returns the packages under arg: arg itself or the package
// above it when it is a file, else every package root in the tree.
func packageRoots(arg string) ([]*migratedPackage, error) {
	info, err := os.Stat(arg)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", arg, err)
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", arg, err)
	}
	display := func(dir string) string {
		rel, err := filepath.Rel(abs, dir)
		if err != nil || rel == "." {
			return filepath.ToSlash(arg)
		}
		if !info.IsDir() {
			return filepath.ToSlash(dir)
		}
		return filepath.ToSlash(filepath.Join(arg, rel))
	}
	if !info.IsDir() {
		root := enclosingRoot(abs)
		if !analysis.IsPackageRoot(root) {
			return nil, nil
		}
		return []*migratedPackage{{Root: display(root), abs: root}}, nil
	}
	var out []*migratedPackage
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != abs && analysis.SkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if analysis.IsPackageRoot(p) {
			out = append(out, &migratedPackage{Root: display(p), abs: p})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", arg, err)
	}
	return out, nil
}

// maxFile is the largest file the migration reads, as the checker.
const maxFile = 64 << 20

// migrate reads the package's own files (its JSON and Markdown files, not
// those of a package nested in it, no symbolic link) and migrates them.
func (p *migratedPackage) migrate() error {
	files := map[string][]byte{}
	p.modes = map[string]fs.FileMode{}
	err := filepath.WalkDir(p.abs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != p.abs && (analysis.SkipDir(d.Name()) || analysis.IsPackageRoot(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // a symbolic link or a special file: never read, never written
		}
		ext := filepath.Ext(path)
		if ext != ".json" && ext != ".md" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxFile {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p.abs, path)
		rel = filepath.ToSlash(rel)
		files[rel] = data
		p.modes[rel] = info.Mode().Perm()
		return nil
	})
	if err != nil {
		return fmt.Errorf("cannot read package %s: %w", p.Root, err)
	}
	p.res = migrate.Package(files)
	p.leftovers()
	p.fill()
	return nil
}

// leftovers checks the package as the migration leaves it and lists, as
// items, the findings of retired forms the migration did not rewrite and
// did not list (a form it does not know, such as a seed with a colon),
// so that the exit status and the list say everything a person still has
// to do.
func (p *migratedPackage) leftovers() {
	overlay := analysis.Overlay{}
	for rel, data := range p.res.Files {
		overlay[filepath.Join(p.abs, filepath.FromSlash(rel))] = data
	}
	snap := analysis.Load([]string{p.abs}, analysis.Options{Overlay: overlay})
	listed := map[string]bool{}
	for _, it := range p.res.Items {
		listed[fmt.Sprintf("%s:%d", it.File, it.Line)] = true
	}
	for _, d := range snap.AllDiagnostics() {
		if d.Severity != source.Error || !ide.IsRetiredForm(d) {
			continue
		}
		rel, err := filepath.Rel(p.abs, d.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if snap.PackageOf(d.File) == nil || snap.PackageOf(d.File).Root != p.abs {
			continue
		}
		line := d.Range.Start.Line + 1
		if listed[fmt.Sprintf("%s:%d", rel, line)] {
			continue
		}
		listed[fmt.Sprintf("%s:%d", rel, line)] = true
		p.res.Items = append(p.res.Items, migrate.Item{Code: d.Code, File: rel, Line: line, Need: d.Message,
			Why: "gddls check still reports this retired form, and the migration has no certain rewrite for it"})
	}
	sort.SliceStable(p.res.Items, func(i, j int) bool {
		a, b := p.res.Items[i], p.res.Items[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// fill copies the result into the report fields.
func (p *migratedPackage) fill() {
	p.Written = p.res.Paths()
	p.Changes = p.res.Changes
	p.Items = p.res.Items
	if p.Changes == nil {
		p.Changes = []migrate.Change{}
	}
	if p.Items == nil {
		p.Items = []migrate.Item{}
	}
	if p.Written == nil {
		p.Written = []string{}
	}
}

// migrateRecord reads and migrates one build record.
func migrateRecord(record string) (*migratedPackage, error) {
	abs, err := filepath.Abs(record)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", record, err)
	}
	info, err := os.Lstat(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", record, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", record)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", record, err)
	}
	name := filepath.Base(abs)
	p := &migratedPackage{Root: filepath.ToSlash(filepath.Dir(record)), abs: filepath.Dir(abs),
		modes: map[string]fs.FileMode{name: info.Mode().Perm()}}
	p.res = migrate.BuildRecord(name, data)
	p.fill()
	return p, nil
}

// write writes every file of the result atomically: a temporary file in
// the same folder, synced, given the old file's permissions, then renamed
// over it. A file the migration creates must not exist yet.
func (p *migratedPackage) write() error {
	paths := p.res.Paths()
	sort.Strings(paths)
	for _, rel := range paths {
		target := filepath.Join(p.abs, filepath.FromSlash(rel))
		mode, existed := p.modes[rel]
		if !existed {
			if _, err := os.Lstat(target); err == nil {
				return fmt.Errorf("%s already exists and was not read as part of the package; not overwritten", target)
			}
			mode = 0o644
		}
		if err := writeAtomic(target, p.res.Files[rel], mode); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic replaces target with data through a temporary file in the
// same folder.
func writeAtomic(target string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".migrate-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", target, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("cannot write %s: %w", target, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("cannot write %s: %w", target, err)
	}
	if err := os.Rename(name, target); err != nil {
		os.Remove(name)
		return fmt.Errorf("cannot write %s: %w", target, err)
	}
	return nil
}
