package analysis

import (
	"path/filepath"
)

// SingleFileRoot returns the folder to analyse for a file opened in an
// editor outside every one of roots (single-file mode): the package holding
// it, which is the nearest folder above it that IsPackageRoot accepts, or
// else the file's own folder. It returns "" when the file lies inside a
// root already.
func SingleFileRoot(roots []string, path string) string {
	path = filepath.Clean(path)
	for _, r := range roots {
		if Within(filepath.Clean(r), path) {
			return ""
		}
	}
	dir := filepath.Dir(path)
	for d := dir; ; {
		if IsPackageRoot(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
