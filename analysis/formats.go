package analysis

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// jsonKind is a JSON file that the format defines inside a package, with the
// code that reports it when it cannot be read or does not parse.
type jsonKind struct {
	// code is the kind's syntax code, such as MANIFEST_JSON.
	code string
	// what names the file in messages, such as "the manifest".
	what string
}

// FormatJSONKind returns the kind of the package file at a package-relative
// slash path, and false for a file that is not a JSON file of the format.
// The test blocks of 05-build-plan.md are JSON inside Markdown: their
// syntax code, VERIFICATION_JSON, is reported by analysis/buildplan.
func FormatJSONKind(rel string) (jsonKind, bool) {
	switch rel {
	case "manifest.json":
		return jsonKind{"MANIFEST_JSON", "manifest.json"}, true
	case "tuning.json":
		return jsonKind{"TUNING_JSON", "tuning.json"}, true
	case "clocks.json":
		return jsonKind{"CLOCKS_JSON", "clocks.json"}, true
	case "personalization.json":
		return jsonKind{"PERSONALIZATION_JSON", "personalization.json"}, true
	case "direction.json":
		return jsonKind{"DIRECTION_JSON", "direction.json"}, true
	}
	if !strings.HasSuffix(rel, ".json") {
		return jsonKind{}, false
	}
	parts := strings.Split(rel, "/")
	switch {
	case len(parts) == 2 && parts[0] == "contracts":
		if _, _, isPack := pack.IsPackFileName(parts[1]); isPack {
			return jsonKind{pack.CodePackShape, "the pack"}, true
		}
		return jsonKind{"CONTRACT_INSTANCE_JSON", "the adoption file"}, true
	case len(parts) == 3 && parts[0] == "collections":
		if parts[2] == "_collection.json" {
			return jsonKind{"COLLECTION_LABEL_JSON", "the collection's schema file"}, true
		}
		return jsonKind{"COLLECTION_RECORD_JSON", "the record file"}, true
	}
	return jsonKind{}, false
}

// skippedFinding is the finding of a file that was not read (too large or
// unreadable): the syntax code of its kind for a JSON file of the format,
// which then cannot be read as the format requires, and FILE_NOT_ANALYSED
// for anything else.
func skippedFinding(f *File) source.Finding {
	if rel, ok := f.PackageRel(); ok {
		if k, ok := FormatJSONKind(rel); ok {
			return source.Finding{
				Code: k.code, Severity: source.Error, File: f.Path,
				Message: fmt.Sprintf("%s cannot be read, so nothing in it is checked: %s", k.what, f.Skipped),
			}
		}
	}
	return source.Finding{
		Code: "FILE_NOT_ANALYSED", Severity: source.Error, File: f.Path,
		Message: "gddls did not analyse this file: " + f.Skipped,
	}
}

// readJSON returns the parse of a JSON file of the package that the format
// reads as plain JSON (the manifest, clocks.json, personalization.json,
// direction.json, collection files). A file that is absent gives nil. A file
// that cannot be read or does not parse also gives nil, after its syntax
// error is reported with the kind's code at the error; it is remembered as
// unreadable, so that the checks that would read it hold their findings
// back instead of reporting against a partial tree.
func (b *builder) readJSON(p *Package, rel string) *jsonsrc.Value {
	f := p.files.get(rel)
	k, _ := FormatJSONKind(rel)
	if f == nil {
		if !strings.Contains(rel, "/") && !isRequiredFile(rel) && b.rootFolder(p, rel) {
			// A folder in the place of an optional file is a file that
			// cannot be read, not an absent one: what reads it holds back.
			// (A required file in that state is PACKAGE_REQUIRED_FILE.)
			p.markUnreadable(rel)
			b.report(source.Finding{
				Code: k.code, Severity: source.Error, File: p.anchorFile(), Subject: filepath.Join(p.Root, rel),
				Message: fmt.Sprintf("%s is a folder, so it cannot be read and nothing that depends on it is checked; replace it with the JSON file, or remove it when the package does without it", k.what),
			})
		}
		return nil
	}
	if f.Skipped != "" || f.entry == nil {
		p.markUnreadable(rel)
		return nil // reported by check with the kind's code
	}
	v, errs := f.entry.getJSONParse()
	if len(errs) == 0 {
		return v
	}
	p.markUnreadable(rel)
	e := errs[0]
	b.report(source.Finding{
		Code: k.code, Severity: source.Error, File: f.Path, Span: e.Span,
		Message: fmt.Sprintf("%s is not valid JSON: %s; until it parses, nothing that depends on it is checked", k.what, e.Msg),
	})
	return nil
}

func (p *Package) markUnreadable(rel string) {
	if p.unreadable == nil {
		p.unreadable = map[string]bool{}
	}
	p.unreadable[rel] = true
}

// Unreadable reports whether the package file at a package-relative slash
// path exists but cannot be read or does not parse, so that checks which
// depend on it are held back.
func (p *Package) Unreadable(rel string) bool { return p.unreadable[rel] }
