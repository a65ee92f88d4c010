package migrate

import (
	"fmt"

	"github.com/gddls/gddls/analysis/manifest"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

const codeManifestSchema = "MANIFEST_SCHEMA"

// olderManifest reports a manifest whose "opengdd" names another version
// than this one.
func olderManifest(data []byte) bool {
	v, errs := jsonsrc.Parse(data)
	if len(errs) > 0 || v == nil {
		return false
	}
	o := v.Get("opengdd")
	return o != nil && o.Kind() == jsonsrc.String && o.Str() != manifest.FormatVersion
}

// manifest writes the current format version into a manifest of an
// earlier one, and moves its palette and mood descriptors to
// direction.json.
func (r *run) manifest() {
	const file = "manifest.json"
	root, ok := r.readJSON(file, "MANIFEST_JSON")
	if !ok || root.kind != jsonsrc.Object {
		return
	}
	changed := false
	if m := root.get("opengdd"); m != nil && m.val.kind == jsonsrc.String && m.val.str != manifest.FormatVersion {
		r.change(codeManifestSchema, file, m.line, fmt.Sprintf("opengdd %q became %q", m.val.str, manifest.FormatVersion))
		m.val = strNode(manifest.FormatVersion)
		root.dirty = true
		changed = true
	}
	if r.manifestDirection(root) {
		changed = true
	}
	if changed {
		r.set(file, encode(root, r.cur[file]))
	}
}
