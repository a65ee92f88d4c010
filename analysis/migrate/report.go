package migrate

import (
	"fmt"
	"io"
	"path"
)

// WriteText writes the changes and the items of a result, one per line,
// each path joined to dir (a package folder as the user named it, or "").
// It returns the first write error.
func WriteText(w io.Writer, dir string, res *Result) error {
	join := func(p string) string {
		if dir == "" || dir == "." {
			return p
		}
		return path.Join(dir, p)
	}
	for _, c := range res.Changes {
		if _, err := fmt.Fprintf(w, "%s:%d: %s: %s\n", join(c.File), c.Line, c.Code, c.What); err != nil {
			return err
		}
	}
	for _, it := range res.Items {
		kind := "needs a person"
		if it.Review {
			kind = "review"
		}
		if _, err := fmt.Fprintf(w, "%s:%d: %s: %s: %s (%s)\n", join(it.File), it.Line, it.Code, kind, it.Need, it.Why); err != nil {
			return err
		}
	}
	return nil
}
