package migrate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
)

const codeTuningShape = "TUNING_SHAPE"

// droppedMeta are the members of an old meta entry that the format no
// longer has and that the migration drops (Appendix A).
var droppedMeta = map[string]string{
	"must_match": "the format no longer compares numbers with an outside source",
	"ruleset":    "a number belongs to every ruleset; prose under a ruleset tag says where it differs",
	"certify":    "certification is no longer part of the package",
}

// tuning rewrites the retired top-level fields of tuning.json.
func (r *run) tuning() {
	const file = "tuning.json"
	data, ok := r.cur[file]
	if !ok {
		return
	}
	root, ok := r.readJSON(file, "TUNING_JSON")
	if !ok || root.kind != jsonsrc.Object {
		return
	}
	old := []string{"tunables", "constants", "meta", "invariants", "clocks"}
	any := false
	for _, k := range old {
		if root.get(k) != nil {
			any = true
		}
	}
	if !any {
		return
	}
	oldNumbers := map[string]float64{}
	// values: the existing table first, then tunables and constants in
	// their order; the table takes the place of the first of them.
	values := root.val("values")
	if values == nil || values.kind != jsonsrc.Object {
		if values != nil {
			return // a values of the wrong kind: the check reports it
		}
		values = objNode()
	}
	for _, m := range values.members {
		if m.val.kind == jsonsrc.Number {
			oldNumbers[m.key] = m.val.num
		}
	}
	open := root.val("open")
	if open == nil {
		open = objNode()
	}
	ranges := root.val("ranges")
	if ranges == nil {
		ranges = objNode()
	}
	rules := root.val("rules")
	if rules == nil {
		rules = objNode()
	}
	if open.kind != jsonsrc.Object || ranges.kind != jsonsrc.Object || rules.kind != jsonsrc.Object {
		return
	}
	at := map[string]int{}
	for _, k := range []string{"values", "open", "ranges", "rules"} {
		at[k] = root.index(k)
	}
	origMembers := append([]*member(nil), root.members...)
	for _, k := range []string{"tunables", "constants"} {
		m := root.get(k)
		if m == nil {
			continue
		}
		if m.val.kind != jsonsrc.Object {
			r.item(Item{Code: codeTuningShape, File: file, Need: fmt.Sprintf("move the numbers of %q into values by hand", k),
				Why: fmt.Sprintf("%q is not an object, so its entries cannot be read as tuning keys", k)}, locateKey(k))
			continue
		}
		var kept []*member
		for _, e := range m.val.members {
			if prev := values.get(e.key); prev != nil {
				if prev.val.kind == jsonsrc.Number && e.val.kind == jsonsrc.Number && prev.val.num == e.val.num {
					r.change(codeTuningShape, file, e.line, fmt.Sprintf("%s.%s repeated values.%s with the same number; kept once", k, e.key, e.key))
					continue
				}
				kept = append(kept, e)
				r.item(Item{Code: codeTuningShape, File: file, Need: fmt.Sprintf("decide which number %q holds and write it once in values", e.key),
					Why: fmt.Sprintf("%q is written twice with different numbers, and the migration does not choose", e.key)}, locateKey(k, e.key))
				continue
			}
			switch {
			case e.val.kind == jsonsrc.Number:
				values.add(e)
				oldNumbers[e.key] = e.val.num
				r.change(codeTuningShape, file, e.line, fmt.Sprintf("%s.%s moved to values.%s", k, e.key, e.key))
			case e.val.kind == jsonsrc.Null:
				open.add(e)
				r.change(codeTuningShape, file, e.line, fmt.Sprintf("%s.%s had no number; moved to open.%s (undecided, no guess)", k, e.key, e.key))
			case e.val.kind == jsonsrc.Object && e.val.val("value") != nil && e.val.val("value").kind == jsonsrc.Number && onlyMembers(e.val, "value", "range", "min", "max"):
				num := e.val.val("value")
				values.add(&member{key: e.key, keyRaw: e.keyRaw, line: e.line, val: num})
				oldNumbers[e.key] = num.num
				r.change(codeTuningShape, file, e.line, fmt.Sprintf("%s.%s.value moved to values.%s", k, e.key, e.key))
				if rg := rangeOf(e.val); rg != nil {
					ranges.add(newMember(e.key, rg))
					r.change(codeTuningShape, file, e.line, fmt.Sprintf("the range of %s.%s moved to ranges.%s", k, e.key, e.key))
				}
			default:
				kept = append(kept, e)
				r.item(Item{Code: codeTuningShape, File: file, Need: fmt.Sprintf("write %q as a number in values (or null in open)", e.key),
					Why: fmt.Sprintf("its entry is %s, which the migration cannot read as one number", e.val.kind.Phrase())}, locateKey(k, e.key))
			}
		}
		m.val.members = kept
		m.val.dirty = true
		if len(kept) == 0 {
			root.remove(k)
		}
	}
	// meta: each range to ranges; the dropped members reported.
	if m := root.get("meta"); m != nil {
		if m.val.kind != jsonsrc.Object {
			r.item(Item{Code: codeTuningShape, File: file, Need: "move the ranges of meta into ranges by hand",
				Why: "meta is not an object"}, locateKey("meta"))
		} else {
			var kept []*member
			for _, e := range m.val.members {
				if why, ok := droppedMeta[e.key]; ok {
					r.change(codeTuningShape, file, e.line, fmt.Sprintf("meta.%s dropped: %s", e.key, why))
					continue
				}
				if rg := pairOf(e.val); rg != nil {
					ranges.add(newMember(e.key, rg))
					r.change(codeTuningShape, file, e.line, fmt.Sprintf("meta.%s moved to ranges.%s", e.key, e.key))
					continue
				}
				if e.val.kind != jsonsrc.Object {
					kept = append(kept, e)
					r.item(Item{Code: codeTuningShape, File: file, Need: fmt.Sprintf("move what meta.%s says to where it belongs, then remove it", e.key),
						Why: "the migration knows no v0.9 place for it"}, locateKey("meta", e.key))
					continue
				}
				var rest []*member
				for _, f := range e.val.members {
					if why, ok := droppedMeta[f.key]; ok {
						r.change(codeTuningShape, file, f.line, fmt.Sprintf("meta.%s.%s dropped: %s", e.key, f.key, why))
						continue
					}
					if f.key == "range" || f.key == "min" || f.key == "max" {
						continue
					}
					rest = append(rest, f)
				}
				if rg := rangeOf(e.val); rg != nil {
					if ranges.get(e.key) == nil {
						ranges.add(newMember(e.key, rg))
						r.change(codeTuningShape, file, e.line, fmt.Sprintf("the range of meta.%s moved to ranges.%s", e.key, e.key))
					} else {
						r.change(codeTuningShape, file, e.line, fmt.Sprintf("the range of meta.%s repeated ranges.%s; kept once", e.key, e.key))
					}
				} else if e.val.get("range") != nil || e.val.get("min") != nil || e.val.get("max") != nil {
					rest = append(rest, e.val.members...)
					rest = dedupe(rest)
				}
				if len(rest) > 0 {
					e.val.members = rest
					e.val.dirty = true
					kept = append(kept, e)
					names := make([]string, len(rest))
					for i, f := range rest {
						names[i] = f.key
					}
					r.item(Item{Code: codeTuningShape, File: file,
						Need: fmt.Sprintf("move %s of meta.%s to where it belongs (a note in prose, a range as [min, max] in ranges), then remove meta", strings.Join(names, ", "), e.key),
						Why:  "the migration knows no v0.9 place for it, and does not drop what it cannot place"}, locateKey("meta", e.key))
				}
			}
			m.val.members = kept
			m.val.dirty = true
			if len(kept) == 0 {
				root.remove("meta")
			}
		}
	}
	// invariants: each expression to rules, proved on the numbers.
	var proofs []proof
	if m := root.get("invariants"); m != nil {
		var kept []*member
		var keptElems []*node
		type inv struct {
			name, expr string
			line       int
			keep       func()
		}
		var invs []inv
		switch m.val.kind {
		case jsonsrc.Array:
			for i, e := range m.val.elems {
				e := e
				if e.kind != jsonsrc.String {
					keptElems = append(keptElems, e)
					continue
				}
				invs = append(invs, inv{name: fmt.Sprintf("invariant-%d", i+1), expr: e.str, line: e.line, keep: func() { keptElems = append(keptElems, e) }})
			}
		case jsonsrc.Object:
			for _, e := range m.val.members {
				e := e
				if e.val.kind != jsonsrc.String {
					kept = append(kept, e)
					continue
				}
				invs = append(invs, inv{name: kebab(e.key), expr: e.val.str, line: e.line, keep: func() { kept = append(kept, e) }})
			}
		}
		known := func(name string) bool { return values.get(name) != nil || open.get(name) != nil }
		for _, in := range invs {
			lines, why := splitInvariant(in.expr, known)
			if why != "" {
				in.keep()
				r.item(Item{Code: codeTuningShape, File: file,
					Need: fmt.Sprintf("write the invariant %q as one or more rules (one comparison each), then remove it from invariants", in.expr),
					Why:  why}, locateKey("invariants"))
				continue
			}
			name := in.name
			var names []string
			for i, l := range lines {
				n := name
				if len(lines) > 1 {
					n = fmt.Sprintf("%s-%d", name, i+1)
				}
				for rules.get(n) != nil {
					n += "-x"
				}
				rules.add(newMember(n, strNode(l)))
				names = append(names, n)
			}
			proofs = append(proofs, proof{expr: in.expr, names: names, line: in.line})
			r.rules = append(r.rules, names...)
			if len(names) == 1 {
				r.change(codeTuningShape, file, in.line, fmt.Sprintf("invariant %q written as rules.%s", in.expr, names[0]))
			} else {
				r.change(codeTuningShape, file, in.line, fmt.Sprintf("invariant %q written as %d rules (%s), which hold together exactly when it holds", in.expr, len(names), strings.Join(names, ", ")))
			}
		}
		m.val.members, m.val.elems, m.val.dirty = kept, keptElems, true
		if len(kept) == 0 && len(keptElems) == 0 {
			root.remove("invariants")
		}
	}
	// clocks: moved unchanged to clocks.json.
	if m := root.get("clocks"); m != nil {
		if _, exists := r.cur["clocks.json"]; exists {
			r.item(Item{Code: codeTuningShape, File: file, Need: "merge the clocks of tuning.json into clocks.json by hand, then remove them from tuning.json",
				Why: "clocks.json already exists, and the migration does not merge two sets of clocks"}, locateKey("clocks"))
		} else {
			p := &printer{indent: detectIndent(data)}
			p.print(m.val, 0)
			p.b.WriteByte('\n')
			r.set("clocks.json", p.b.Bytes())
			root.remove("clocks")
			r.change(codeTuningShape, file, m.line, "clocks moved unchanged to clocks.json")
			r.change(codeTuningShape, "clocks.json", 1, "created from the clocks of tuning.json")
		}
	}
	// Order the members: each new table where its old form was.
	tables := map[string]*node{"values": values, "open": open, "ranges": ranges, "rules": rules}
	slot := map[string]string{"values": "values", "tunables": "values", "constants": "values", "open": "open",
		"meta": "ranges", "ranges": "ranges", "invariants": "rules", "rules": "rules"}
	emitted := map[string]bool{}
	var order []*member
	var emit func(table string)
	emit = func(table string) {
		if emitted[table] {
			return
		}
		emitted[table] = true
		if t := tables[table]; table == "values" || len(t.members) > 0 {
			order = append(order, newMember(table, t))
		}
		if table == "values" && at["open"] < 0 {
			emit("open")
		}
	}
	seen := map[string]bool{}
	for _, m := range origMembers {
		if t, ok := slot[m.key]; ok {
			emit(t)
		}
		if seen[m.key] {
			continue
		}
		seen[m.key] = true
		if _, isTable := tables[m.key]; isTable {
			continue
		}
		if kept := root.get(m.key); kept != nil {
			order = append(order, kept)
		}
	}
	for _, t := range []string{"values", "open", "ranges", "rules"} {
		emit(t)
	}
	root.members = order
	root.dirty = true
	out := encode(root, data)
	// Verify: the numbers kept and the rules give the invariants' results.
	if why := verifyTuning(out, oldNumbers, proofs); why != "" {
		r.item(Item{Code: codeTuningShape, File: file, Need: "migrate tuning.json by hand",
			Why: "the rewritten file did not keep the package's meaning: " + why}, locateKey("tunables"))
		return
	}
	r.set(file, out)
}

// onlyMembers reports whether every member of n is one of names.
func onlyMembers(n *node, names ...string) bool {
	for _, m := range n.members {
		found := false
		for _, k := range names {
			found = found || m.key == k
		}
		if !found {
			return false
		}
	}
	return true
}

// dedupe keeps the first member of each key.
func dedupe(ms []*member) []*member {
	seen := map[string]bool{}
	var out []*member
	for _, m := range ms {
		if !seen[m.key] {
			seen[m.key] = true
			out = append(out, m)
		}
	}
	return out
}

// pairOf returns n when it is a pair of two numbers, else nil.
func pairOf(n *node) *node {
	if n.kind == jsonsrc.Array && len(n.elems) == 2 && n.elems[0].kind == jsonsrc.Number && n.elems[1].kind == jsonsrc.Number {
		return n
	}
	return nil
}

// rangeOf returns the range an old entry states, as a [min, max] pair: its
// "range" pair, or its "min" and "max" numbers.
func rangeOf(n *node) *node {
	if rg := n.val("range"); rg != nil {
		return pairOf(rg)
	}
	lo, hi := n.val("min"), n.val("max")
	if lo != nil && hi != nil && lo.kind == jsonsrc.Number && hi.kind == jsonsrc.Number {
		return &node{kind: jsonsrc.Array, elems: []*node{lo, hi}, dirty: true}
	}
	return nil
}

var notKebab = regexp.MustCompile(`[^a-z0-9]+`)

// kebab turns an old invariant name into a kebab-case rule name.
func kebab(s string) string {
	s = strings.Trim(notKebab.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if s == "" {
		return "invariant"
	}
	return s
}

// proof is an invariant and the rules written for it.
type proof struct {
	expr  string
	names []string
	line  int
}

// comparison operators, longest first.
var compOps = []string{"<=", ">=", "==", "!=", "<", ">"}

// splitInvariant turns an old invariant expression into rule lines of one
// comparison each whose conjunction is the expression: a conjunction
// (`&&` or `and`) of comparisons, each of which may be a chain such as
// `a <= b <= c`. Anything else (a disjunction, a negation, a name that is
// no tuning key) is refused with the reason.
func splitInvariant(expr string, known func(string) bool) ([]string, string) {
	if strings.ContainsAny(expr, "\n\r") {
		return nil, "it spans several lines"
	}
	if strings.Contains(expr, "||") || containsWord(expr, "or") || containsWord(expr, "not") || strings.Contains(expr, "?") || strings.Contains(expr, "!") && !strings.Contains(expr, "!=") {
		return nil, "it holds a disjunction, a negation or a choice, which rules (a conjunction of comparisons) cannot state"
	}
	var lines []string
	for _, part := range splitTop(expr) {
		sides, ops := splitComparisons(part)
		if len(ops) == 0 {
			return nil, fmt.Sprintf("%q is not a comparison", strings.TrimSpace(part))
		}
		for i, op := range ops {
			line := strings.TrimSpace(sides[i]) + " " + op + " " + strings.TrimSpace(sides[i+1])
			rule, err := ruleline.Parse(line)
			if err != nil {
				return nil, fmt.Sprintf("%q cannot be read as a rule line: %s", line, err.Msg)
			}
			for _, n := range rule.Names() {
				if !known(n.Text) {
					return nil, fmt.Sprintf("it names %q, which is no key of values or open", n.Text)
				}
			}
			lines = append(lines, rule.Source)
		}
	}
	return lines, ""
}

// containsWord reports w as a whole word of s.
func containsWord(s, w string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' }) {
		if f == w {
			return true
		}
	}
	return false
}

// splitTop splits an expression at the `&&` and ` and ` outside
// parentheses.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '&':
			if depth == 0 && strings.HasPrefix(s[i:], "&&") {
				parts = append(parts, s[start:i])
				start = i + 2
				i++
			}
		case ' ':
			if depth == 0 && strings.HasPrefix(s[i:], " and ") {
				parts = append(parts, s[start:i])
				start = i + 5
				i += 4
			}
		}
	}
	return append(parts, s[start:])
}

// splitComparisons splits a chain of comparisons outside parentheses into
// its sides and operators.
func splitComparisons(s string) (sides, ops []string) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
			continue
		case ')':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		for _, op := range compOps {
			if strings.HasPrefix(s[i:], op) {
				sides = append(sides, s[start:i])
				ops = append(ops, op)
				start = i + len(op)
				i += len(op) - 1
				break
			}
		}
	}
	return append(sides, s[start:]), ops
}

// verifyTuning parses the rewritten tuning.json and checks that every old
// number is in values with the same number, and that each invariant's
// rules, evaluated on the new file's numbers, give together the result the
// invariant gives on the old numbers.
func verifyTuning(out []byte, old map[string]float64, proofs []proof) string {
	v, errs := jsonsrc.Parse(out)
	if len(errs) > 0 {
		return "it does not parse: " + errs[0].Msg
	}
	values := v.Get("values")
	got := map[string]float64{}
	for _, m := range values.LastMembers() {
		if m.Value != nil && m.Value.Kind() == jsonsrc.Number {
			got[m.Key] = m.Value.Num()
		}
	}
	for k, n := range old {
		if g, ok := got[k]; !ok || g != n {
			return fmt.Sprintf("%q does not keep its number %s", k, strconv.FormatFloat(n, 'g', -1, 64))
		}
	}
	rules := v.Get("rules")
	for _, p := range proofs {
		want, wantOK := evalInvariant(p.expr, old)
		all, allOK := true, true
		for _, name := range p.names {
			line := rules.Get(name)
			if line == nil || line.Kind() != jsonsrc.String {
				return fmt.Sprintf("rules.%s is missing", name)
			}
			rule, err := ruleline.Parse(line.Str())
			if err != nil {
				return fmt.Sprintf("rules.%s does not parse", name)
			}
			res := rule.Eval(func(k string) (float64, bool) { n, ok := got[k]; return n, ok })
			if !res.Computed() {
				allOK = false
				continue
			}
			all = all && res.Holds
		}
		if wantOK != allOK || wantOK && want != all {
			return fmt.Sprintf("the rules written for %q do not give its result", p.expr)
		}
	}
	return ""
}

// evalInvariant evaluates an old invariant on the old numbers by its own
// reading (a conjunction of comparison chains, each side computed by the
// rule-line arithmetic); ok is false when it cannot be computed.
func evalInvariant(expr string, numbers map[string]float64) (holds, ok bool) {
	lookup := func(k string) (float64, bool) { n, ok := numbers[k]; return n, ok }
	holds = true
	for _, part := range splitTop(expr) {
		sides, ops := splitComparisons(part)
		vals := make([]float64, len(sides))
		for i, s := range sides {
			rule, err := ruleline.Parse(strings.TrimSpace(s) + " == 0")
			if err != nil {
				return false, false
			}
			v, eerr := ruleline.EvalExpr(rule.Left, lookup)
			if eerr != nil {
				return false, false
			}
			vals[i] = v
		}
		for i, op := range ops {
			var o ruleline.Op
			for _, cand := range []ruleline.Op{ruleline.Eq, ruleline.Ne, ruleline.Lt, ruleline.Le, ruleline.Gt, ruleline.Ge} {
				if cand.String() == op {
					o = cand
				}
			}
			holds = holds && o.Compare(vals[i], vals[i+1])
		}
	}
	return holds, true
}
