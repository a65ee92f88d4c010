package safety

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
)

// The scan's patterns are slow to run on every line (RE2 has no literal to
// look for in a case-insensitive pattern that opens with \b), and most lines
// cannot match them: each pattern needs some of a few words. The prefilter
// finds those words first. A word of a pattern starts where a run of ASCII
// letters starts (after \b, \s or a hyphen), so the scan records, for every
// line, which of the words begin a letter run of the line's normalized
// text (in any ASCII case), and runs a pattern on a window only when the
// window's lines hold what it needs. The words are chosen so that the
// pattern cannot match without them: the prefilter changes no result, it
// only skips work (TestPrefilterChangesNothing, FuzzPrefilter). The same
// pass over the words finds the shortcut's candidates (starts.go).
//
// Case-insensitive matching folds the ASCII k and s with the Kelvin sign and
// the long s; content holding either is scanned without the prefilter.

// need is what a pattern needs: one of its clauses, each a list of sets of
// words (masks) of which the text holds at least one word apiece.
type need [][]uint64

// passes reports whether a window whose lines hold the words of mask may
// match the pattern.
func (n need) passes(mask uint64) bool {
	for _, clause := range n {
		ok := true
		for _, set := range clause {
			if mask&set == 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// needs holds what each pattern of the line signals needs, index by index
// with promptControl, externalAction and secondPerson.
type needs struct {
	vocab                  *vocabulary
	prompt, action, second []need
}

// any reports whether a window whose lines hold the words of mask may match
// one of the line patterns.
func (n needs) any(mask uint64) bool {
	for _, list := range [][]need{n.prompt, n.action, n.second} {
		for _, nd := range list {
			if nd.passes(mask) {
				return true
			}
		}
	}
	return false
}

// The words below are those each pattern cannot match without, following
// its alternatives: a word stands for every word it begins, as "http" for
// "https" and "you" for "your"; a word written with a hyphen in front
// ("-c") counts only after a hyphen.
func patternNeeds(p *patternSet) needs {
	v := &vocabulary{}
	n := needs{
		vocab: v,
		prompt: []need{
			v.need("ignore disregard forget override bypass & previous prior earlier above system developer user & instruction prompt message rule"),
			v.need("system developer assistant & message prompt instruction"),
			v.need("you act pretend & are as to"),
			v.need("follow obey & the my this"),
			v.need("not never & mention reveal disclose report"),
		},
		action: []need{
			v.need("run execute invoke launch & command script shell terminal powershell cmd bash executable program"),
			v.need("fetch download upload send post open visit browse navigate request & url uri link endpoint http www"),
			v.need("curl wget npm npx pip powershell cmd", "invoke & -webrequest", "start & -bitstransfer", "bash sh & -c"),
		},
		second: []need{
			v.need("you & must should need are will"),
			v.need("make ensure & you"),
			v.need("your & task job goal instruction"),
		},
	}
	if len(n.prompt) != len(p.promptControl) || len(n.action) != len(p.externalAction) || len(n.second) != len(p.secondPerson) {
		panic("safety: the prefilter does not follow the patterns")
	}
	return n
}

// vocabulary is the trie of every word the patterns need, each with its
// bit. Node 0 is the root of the words, node 1 that of the words that
// follow a hyphen.
type vocabulary struct {
	nodes []vocabNode
	bits  map[string]uint64
}

type vocabNode struct {
	bit uint64 // the bit of the word ending here, or 0
	// starts are the bits of the patterns this word starts (starts.go).
	starts uint64
	// next is the node of each letter after this one, or 0. Nodes of 16
	// bits keep a node in 72 bytes: the nodes the walk reads most stay in
	// the processor's first cache.
	next [26]uint16
}

// need returns what a pattern needs: each argument is a clause, of which
// one must hold; a clause is sets of words separated by "&", each set
// words separated by spaces of which the text must hold at least one. New
// words get the next bit of v.
func (v *vocabulary) need(clauses ...string) need {
	var n need
	for _, c := range clauses {
		var clause []uint64
		for _, set := range strings.Split(c, "&") {
			var mask uint64
			for _, w := range strings.Fields(set) {
				mask |= v.add(w)
			}
			clause = append(clause, mask)
		}
		n = append(n, clause)
	}
	return n
}

func (v *vocabulary) add(w string) uint64 {
	if bit, ok := v.bits[w]; ok {
		return bit
	}
	if v.bits == nil {
		v.bits = map[string]uint64{}
	}
	// Past 64 words, words share bits: a shared bit stands for "one of
	// them", which only lets more windows through.
	bit := uint64(1) << (len(v.bits) % 64)
	v.bits[w] = bit
	v.nodes[v.insert(w)].bit |= bit
	return bit
}

// insert adds the word w to the trie (from node 1 when it begins with a
// hyphen) and returns its node.
func (v *vocabulary) insert(w string) uint16 {
	if len(v.nodes) == 0 {
		v.nodes = []vocabNode{{}, {}}
	}
	n, letters := uint16(0), w
	if strings.HasPrefix(w, "-") {
		n, letters = 1, w[1:]
	}
	for i := 0; i < len(letters); i++ {
		c, ok := lowerLetter(letters[i])
		if !ok {
			panic("safety: a prefilter word holds other than letters: " + w)
		}
		if v.nodes[n].next[c] == 0 {
			if len(v.nodes) > math.MaxUint16 {
				panic("safety: the prefilter's words take more nodes than a node index holds")
			}
			v.nodes = append(v.nodes, vocabNode{})
			v.nodes[n].next[c] = uint16(len(v.nodes) - 1)
		}
		n = v.nodes[n].next[c]
	}
	return n
}

// lowerLetter returns the index in the alphabet of an ASCII letter.
func lowerLetter(b byte) (byte, bool) {
	switch {
	case b >= 'a' && b <= 'z':
		return b - 'a', true
	case b >= 'A' && b <= 'Z':
		return b - 'A', true
	}
	return 0, false
}

// words reads the words of text (the normalized text of a line, or a line
// as it is), which starts at base in the text of the content: it returns
// the bits of the words that begin a letter run, and appends to cands the
// starts of words, at a word boundary, that begin a start word of a
// pattern, with the bits of those patterns. The start of text is a word
// boundary: in the text of the content, white space stands before it.
func (v *vocabulary) words(text []byte, base int, cands []candidate) (uint64, []candidate) {
	var m uint64
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			i++
			continue
		}
		i, cands = v.letterRun(text, i, base, &m, cands)
	}
	return m, cands
}

// letterRun reads the letter run that starts at text[i]: it adds to m the
// bits of the words the run begins (and those of the words after a hyphen
// when a hyphen stands before it), appends to cands the run's start, as
// shift+i, when the run stands at a word boundary and begins a start word,
// with the bits of those patterns, and returns the end of the run.
func (v *vocabulary) letterRun(text []byte, i, shift int, m *uint64, cands []candidate) (int, []candidate) {
	nodes := v.nodes
	// The walk of the trie (walk), written out here: most words leave it
	// at their first or second letter.
	start := i
	var starts uint64
	c := text[i] | 0x20
	for n := nodes[0].next[c-'a']; n != 0; {
		*m |= nodes[n].bit
		starts |= nodes[n].starts
		if i++; i == len(text) {
			break
		}
		if c = text[i] | 0x20; c-'a' >= 26 {
			break
		}
		n = nodes[n].next[c-'a']
	}
	i = letterRunEnd(text, i)
	if start > 0 && text[start-1] == '-' && nodes[1].next[text[start]|0x20-'a'] != 0 {
		var none uint64
		v.walk(1, text, start, m, &none)
	}
	if starts != 0 && (start == 0 || !isWordChar(text[start-1])) {
		cands = append(cands, candidate{shift + start, starts})
	}
	return i, cands
}

// walk follows the letter run of text at i from the trie node root, adding
// the bit of every word it passes to m and the bits of the patterns they
// start to starts, and returns the end of the run.
func (v *vocabulary) walk(root uint16, text []byte, i int, m, starts *uint64) int {
	nodes := v.nodes
	for n := root; i < len(text); i++ {
		c := text[i] | 0x20 // lower case, for a letter
		if c-'a' >= 26 {
			break
		}
		if n = nodes[n].next[c-'a']; n == 0 {
			i++
			break // no word goes on: the rest of the run is skipped below
		}
		*m |= nodes[n].bit
		*starts |= nodes[n].starts
	}
	return letterRunEnd(text, i)
}

// isLetter reports whether b is an ASCII letter.
func isLetter(b byte) bool { return (b|0x20)-'a' < 26 }

// letterRunEnd returns the index of the first byte of text at or after i
// that is not an ASCII letter, or len(text). It reads eight bytes at a
// time: the end of a word is then found without a branch per letter, whose
// exit the processor mispredicts at the end of almost every word.
func letterRunEnd(text []byte, i int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for i+8 <= len(text) {
		x := binary.LittleEndian.Uint64(text[i:]) | 0x20*ones // lower case, for letters
		low := x &^ high                                      // each byte under 0x80: the sums below carry into no other byte
		// A byte is a letter when its lower-case form is 'a' or more, not
		// more than 'z', and it is ASCII.
		letters := (low + (0x80-'a')*ones) &^ (low + (0x80-'z'-1)*ones) &^ x & high
		if other := ^letters & high; other != 0 {
			return i + bits.TrailingZeros64(other)/8
		}
		i += 8
	}
	for i < len(text) && isLetter(text[i]) {
		i++
	}
	return i
}

// foldsOutsideASCII reports whether content holds a character that
// case-insensitive matching folds with an ASCII letter: the Kelvin sign
// (with k) or the long s (with s).
func foldsOutsideASCII(content []byte) bool {
	return bytes.Contains(content, []byte("\u212A")) || bytes.Contains(content, []byte("\u017F"))
}

// mayLink reports whether a line could match a suspicious-link pattern:
// all of them but the action link need a scheme and a colon, so "script:",
// "data:" or "://"; the action link needs "://" or "www.".
func mayLink(raw []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(raw[i:], ':')
		if k < 0 {
			break
		}
		i += k
		if bytes.HasPrefix(raw[i:], []byte("://")) || endsFold(raw[:i], "script") || endsFold(raw[:i], "data") {
			return true
		}
	}
	for i := 0; ; i++ {
		k := bytes.IndexByte(raw[i:], '.')
		if k < 0 {
			return false
		}
		i += k
		if endsFold(raw[:i], "www") {
			return true
		}
	}
}

// endsFold reports whether b ends with the lower-case ASCII word w, in any
// ASCII case.
func endsFold(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	b = b[len(b)-len(w):]
	for i := 0; i < len(w); i++ {
		if b[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}
