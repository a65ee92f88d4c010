package jsonsrc

import "github.com/gddls/gddls/contracts/source"

// Step is one step of a path from the root of a JSON text: a member key of
// an object (IsKey) or an index of an array.
type Step struct {
	Key   string
	Index int
	IsKey bool
}

// Position is the grammatical place of a cursor inside a JSON text.
type Position uint8

// The positions ContextAt reports.
const (
	// PosNone is a place where nothing can be typed: outside every
	// container, or between a member name and its colon.
	PosNone Position = iota
	// PosKey is where a member name of an object stands or will stand.
	PosKey
	// PosValue is where a member value stands or will stand, after ':'.
	PosValue
	// PosElement is where an array element stands or will stand.
	PosElement
)

// String names the position.
func (p Position) String() string {
	switch p {
	case PosKey:
		return "key"
	case PosValue:
		return "value"
	case PosElement:
		return "element"
	}
	return "none"
}

// Context is what surrounds a cursor in a JSON text that may be half typed.
type Context struct {
	// Path leads from the root to the place of the cursor. For PosKey it
	// ends at the object whose member name is being typed; for PosValue it
	// ends with the member's key; for PosElement it ends with the element's
	// index.
	Path []Step
	Pos  Position
	// InString reports that the cursor is inside a string token, after its
	// opening quote.
	InString bool
	// Token is the span of the token under the cursor: a whole string with
	// its quotes (up to the end of the line when it is not closed), or a
	// bare word such as a number or a half-typed true. It is empty, at the
	// cursor, when no token touches the cursor.
	Token source.Span
	// Content is the span of the string's content without its quotes; for
	// a bare word it equals Token.
	Content source.Span
	// Closed reports that the string under the cursor has its closing quote
	// on the same line.
	Closed bool
	// Partial is the raw text of the token from its start (after the
	// opening quote) up to the cursor.
	Partial string
	// Text is the raw text of the whole token content.
	Text string
	// Present lists the member names of the innermost object around the
	// cursor, in source order, also those after the cursor, without the
	// name under the cursor.
	Present []string
}

// HasKey reports whether name is among c.Present.
func (c Context) HasKey(name string) bool {
	for _, k := range c.Present {
		if k == name {
			return true
		}
	}
	return false
}

// Keys returns the path with array steps written "[]".
func (c Context) Keys() []string {
	out := make([]string, len(c.Path))
	for i, s := range c.Path {
		if s.IsKey {
			out[i] = s.Key
		} else {
			out[i] = "[]"
		}
	}
	return out
}

// The states of a container frame of the scanner.
const (
	stExpectKey   = iota // object: after '{' or ','
	stAfterKey           // object: a name was read, ':' expected
	stExpectValue        // object: after ':'; array: after '[' or ','
	stAfterValue         // a value was read, ',' or a closer expected
)

type frame struct {
	obj   bool
	state int
	key   string // the member name of the current member (objects)
	index int    // the current element index (arrays)
	keys  []string
	// keySpans are the spans of the member names in keys.
	keySpans []source.Span
}

// ctxScanner reads JSON tokens without requiring them to be well formed.
type ctxScanner struct {
	data  []byte
	pos   int
	stack []*frame
	// deep counts containers opened beyond MaxDepth, which are not
	// tracked.
	deep int
}

// ContextAt scans data up to offset, and a little beyond to find the end of
// the token under the cursor and the other member names of the innermost
// object, without requiring valid JSON. It tolerates unclosed strings
// (closed by the end of their line), missing commas, a missing value after
// a colon, mismatched brackets, CRLF line ends and a byte order mark. It
// never panics; an offset outside data is clamped.
func ContextAt(data []byte, offset int) Context {
	if offset < 0 {
		offset = 0
	}
	if offset > len(data) {
		offset = len(data)
	}
	s := &ctxScanner{data: data}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		s.pos = 3
		if offset < 3 {
			offset = 3
		}
	}
	ctx := Context{Token: source.Span{Start: offset, End: offset}, Content: source.Span{Start: offset, End: offset}}
	found := false
	for !found && s.pos < len(data) {
		c := data[s.pos]
		start := s.pos
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if s.pos >= offset {
				found = true
				break
			}
			s.pos++
		case c == '"':
			end, closed := s.stringEnd(start)
			contentEnd := end
			if closed {
				contentEnd = end - 1
			}
			if offset > start && (offset <= contentEnd) {
				// The cursor is inside this string.
				ctx.InString, ctx.Closed = true, closed
				ctx.Token = source.Span{Start: start, End: end}
				ctx.Content = source.Span{Start: start + 1, End: contentEnd}
				ctx.Partial = string(data[start+1 : offset])
				ctx.Text = string(data[start+1 : contentEnd])
				s.placeToken(&ctx, true)
				s.pos = end
				s.consumeString(start, end, closed)
				found = true
				break
			}
			if start >= offset {
				found = true
				break
			}
			s.pos = end
			s.consumeString(start, end, closed)
		case c == '{' || c == '[':
			if start >= offset {
				found = true
				break
			}
			s.open(c == '{')
			s.pos++
		case c == '}' || c == ']':
			if start >= offset {
				found = true
				break
			}
			s.close(c == '}')
			s.pos++
		case c == ':':
			if start >= offset {
				found = true
				break
			}
			if f := s.top(); f != nil && f.obj {
				f.state = stExpectValue
			}
			s.pos++
		case c == ',':
			if start >= offset {
				found = true
				break
			}
			s.comma()
			s.pos++
		default:
			end := s.wordEnd(start)
			if offset >= start && offset <= end {
				ctx.Token = source.Span{Start: start, End: end}
				ctx.Content = ctx.Token
				ctx.Partial = string(data[start:offset])
				ctx.Text = string(data[start:end])
				s.placeToken(&ctx, false)
				s.pos = end
				s.value()
				found = true
				break
			}
			if start >= offset {
				found = true
				break
			}
			s.pos = end
			s.value()
		}
	}
	if ctx.Token.Start == ctx.Token.End && !ctx.InString {
		s.placeCursor(&ctx)
	}
	ctx.Present = s.presentKeys(ctx)
	return ctx
}

// top returns the innermost open container, or nil.
func (s *ctxScanner) top() *frame {
	if len(s.stack) == 0 {
		return nil
	}
	return s.stack[len(s.stack)-1]
}

// path returns the steps to the innermost container.
func (s *ctxScanner) path() []Step {
	var out []Step
	for i := 1; i < len(s.stack); i++ {
		parent := s.stack[i-1]
		if parent.obj {
			out = append(out, Step{Key: parent.key, IsKey: true})
		} else {
			out = append(out, Step{Index: parent.index})
		}
	}
	return out
}

// placeToken sets Path and Pos for a token that starts at the scanner's
// position.
func (s *ctxScanner) placeToken(ctx *Context, str bool) {
	f := s.top()
	ctx.Path = s.path()
	if f == nil {
		ctx.Pos = PosNone
		return
	}
	if f.obj {
		state := f.state
		if str && ctx.Closed && s.colonFollows(ctx.Token.End) {
			state = stExpectKey
		}
		switch state {
		case stExpectKey, stAfterValue:
			// A bare word here is a name typed without its quotes.
			ctx.Pos = PosKey
		case stAfterKey:
			// A second string after a name: the colon is missing. Read it
			// as the value being typed.
			ctx.Pos = PosValue
			ctx.Path = append(ctx.Path, Step{Key: f.key, IsKey: true})
		case stExpectValue:
			ctx.Pos = PosValue
			ctx.Path = append(ctx.Path, Step{Key: f.key, IsKey: true})
		}
		return
	}
	idx := f.index
	if f.state == stAfterValue {
		idx++ // a missing comma
	}
	ctx.Pos = PosElement
	ctx.Path = append(ctx.Path, Step{Index: idx})
}

// placeCursor sets Path and Pos for a cursor that touches no token.
func (s *ctxScanner) placeCursor(ctx *Context) {
	f := s.top()
	ctx.Path = s.path()
	if f == nil {
		ctx.Pos = PosNone
		return
	}
	if f.obj {
		switch f.state {
		case stExpectKey, stAfterValue:
			ctx.Pos = PosKey
		case stAfterKey:
			ctx.Pos = PosNone
		case stExpectValue:
			ctx.Pos = PosValue
			ctx.Path = append(ctx.Path, Step{Key: f.key, IsKey: true})
		}
		return
	}
	idx := f.index
	if f.state == stAfterValue {
		idx++
	}
	ctx.Pos = PosElement
	ctx.Path = append(ctx.Path, Step{Index: idx})
}

// stringEnd returns the end of the string starting at start (after its
// closing quote) and whether the quote was found before the end of the
// line.
func (s *ctxScanner) stringEnd(start int) (int, bool) {
	i := start + 1
	for i < len(s.data) {
		switch s.data[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 < len(s.data) && s.data[i+1] != '\n' && s.data[i+1] != '\r' {
				i += 2
				continue
			}
			i++
		case '\n', '\r':
			return i, false
		default:
			i++
		}
	}
	return len(s.data), false
}

// wordEnd returns the end of a bare word starting at start.
func (s *ctxScanner) wordEnd(start int) int {
	i := start
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r', '"', '{', '}', '[', ']', ':', ',':
			if i == start {
				return i + 1
			}
			return i
		}
		i++
	}
	return i
}

// consumeString updates the innermost container after a string token.
func (s *ctxScanner) consumeString(start, end int, closed bool) {
	f := s.top()
	if f == nil || !f.obj {
		s.value()
		return
	}
	state := f.state
	if state != stExpectKey && state != stAfterValue && s.colonFollows(end) {
		// A string followed by ':' is a name, also where a value belongs:
		// the member before it lacks its value.
		state = stExpectKey
	}
	switch state {
	case stExpectKey, stAfterValue:
		// A name; after a value it follows a missing comma.
		text := s.data[start+1 : end]
		if closed {
			text = s.data[start+1 : end-1]
		}
		f.key = string(text)
		f.keys = append(f.keys, f.key)
		f.keySpans = append(f.keySpans, source.Span{Start: start, End: end})
		f.state = stAfterKey
	default:
		// stAfterKey reads a value whose colon is missing.
		f.state = stAfterValue
	}
}

// colonFollows reports whether the next byte after i that is not white
// space is ':'.
func (s *ctxScanner) colonFollows(i int) bool {
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

// value updates the innermost container after a scalar value.
func (s *ctxScanner) value() {
	f := s.top()
	if f == nil {
		return
	}
	if !f.obj && f.state == stAfterValue {
		f.index++ // a missing comma between elements
	}
	f.state = stAfterValue
}

func (s *ctxScanner) open(obj bool) {
	if f := s.top(); f != nil {
		if !f.obj && f.state == stAfterValue {
			f.index++
		}
		if f.obj && (f.state == stExpectKey || f.state == stAfterValue) {
			// A container where a name belongs: keep the last name.
			f.state = stExpectValue
		}
	}
	if len(s.stack) >= MaxDepth {
		s.deep++
		return
	}
	st := stExpectKey
	if !obj {
		st = stExpectValue
	}
	s.stack = append(s.stack, &frame{obj: obj, state: st})
}

func (s *ctxScanner) close(obj bool) {
	if s.deep > 0 {
		s.deep--
		return
	}
	// Pop to the innermost container of the same kind; a closer that
	// matches nothing is ignored.
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].obj == obj {
			s.stack = s.stack[:i]
			if f := s.top(); f != nil {
				f.state = stAfterValue
			}
			return
		}
	}
}

func (s *ctxScanner) comma() {
	f := s.top()
	if f == nil {
		return
	}
	if f.obj {
		f.state = stExpectKey
		return
	}
	if f.state == stAfterValue {
		f.index++
	}
	f.state = stExpectValue
}

// presentKeys finishes scanning the innermost object around the cursor and
// returns its member names, without the one under the cursor. It returns
// nil when the cursor is not directly inside an object.
func (s *ctxScanner) presentKeys(ctx Context) []string {
	depth := len(s.stack)
	if depth == 0 || !s.stack[depth-1].obj {
		return nil
	}
	target := s.stack[depth-1]
	for s.pos < len(s.data) && len(s.stack) >= depth {
		c := s.data[s.pos]
		start := s.pos
		switch c {
		case ' ', '\t', '\n', '\r':
			s.pos++
		case '"':
			end, closed := s.stringEnd(start)
			s.pos = end
			s.consumeString(start, end, closed)
		case '{', '[':
			s.open(c == '{')
			s.pos++
		case '}', ']':
			s.close(c == '}')
			s.pos++
		case ':':
			if f := s.top(); f != nil && f.obj {
				f.state = stExpectValue
			}
			s.pos++
		case ',':
			s.comma()
			s.pos++
		default:
			s.pos = s.wordEnd(start)
			s.value()
		}
	}
	var out []string
	for i, k := range target.keys {
		if ctx.InString && ctx.Pos == PosKey && target.keySpans[i].Start == ctx.Token.Start {
			continue
		}
		out = append(out, k)
	}
	return out
}
