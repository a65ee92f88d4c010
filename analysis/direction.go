package analysis

import (
	"fmt"
	"path/filepath"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// checkDirectionImages reports the `image` paths of direction.json that
// leave the package or name no file (SPEC §9.9, §1 rule 11:
// MEDIA_PATH_MISSING). Images stand in mood borrows and anti-reference
// objects; every `image` string member of the file is checked.
func (b *builder) checkDirectionImages(p *Package) {
	f := p.files["direction.json"]
	if f == nil || p.Direction == nil {
		return
	}
	directionImages(p.Direction, func(image *jsonsrc.Value) {
		if msg := b.imageProblem(p, image.Str); msg != "" {
			b.report(source.Finding{Code: "MEDIA_PATH_MISSING", Severity: source.Error, File: f.Path, Span: image.Span, Message: msg})
		}
	})
}

// directionImages calls fn with the value of every `image` string member
// of a parsed direction.json.
func directionImages(v *jsonsrc.Value, fn func(image *jsonsrc.Value)) {
	var visit func(v *jsonsrc.Value, depth int)
	visit = func(v *jsonsrc.Value, depth int) {
		if v == nil || depth > jsonsrc.MaxDepth {
			return
		}
		for _, e := range v.Elems {
			visit(e, depth+1)
		}
		for _, m := range v.Members {
			if m.Key == "image" && m.Value != nil && m.Value.Kind == jsonsrc.String {
				fn(m.Value)
				continue
			}
			visit(m.Value, depth+1)
		}
	}
	visit(v, 0)
}

// imageProblem says what is wrong with an image path, or "".
func (b *builder) imageProblem(p *Package, image string) string {
	rel, ok := packageRelative(image)
	if !ok {
		return fmt.Sprintf("the image %q leaves the package; an image path is relative to the package root and stays inside it", image)
	}
	target := filepath.Join(p.Root, filepath.FromSlash(rel))
	found, isDir := b.snap.exists(target)
	switch {
	case !found:
		return fmt.Sprintf("the image %q names no file of the package; add the file or fix the path", image)
	case isDir:
		return fmt.Sprintf("the image %q names a folder, not a file", image)
	case !b.snap.insideRoots(target) || !within(realPath(p.Root), realPath(target)):
		return fmt.Sprintf("the image %q is a link to a file outside the package; keep the image inside the package", image)
	}
	return ""
}

// realPath resolves symbolic links, or returns path as it is when it cannot.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
