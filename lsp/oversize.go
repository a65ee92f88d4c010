package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// refusedMessage is what the server keeps of a message too large to read:
// its size and its first and last bytes, where the method and the document
// URI of a didOpen or didChange are.
type refusedMessage struct {
	size       int64
	head, tail []byte
}

// refusedKeep is how many bytes of each end of a refused message are kept.
const refusedKeep = 64 << 10

// skipMessage reads past a message body of length bytes, keeping its ends.
func skipMessage(in *bufio.Reader, length int64) (refusedMessage, int64, error) {
	m := refusedMessage{size: length}
	keep := min(length/2, refusedKeep)
	m.head = make([]byte, keep)
	n, err := io.ReadFull(in, m.head)
	total := int64(n)
	if err != nil {
		return m, total, err
	}
	skipped, err := io.CopyN(io.Discard, in, length-2*keep)
	total += skipped
	if err != nil {
		return m, total, err
	}
	m.tail = make([]byte, keep)
	n, err = io.ReadFull(in, m.tail)
	return m, total + int64(n), err
}

// Patterns of the members the server looks for in the ends of a refused
// message. A quote preceded by a backslash belongs to a string's content,
// so a match must not start after one.
var (
	refusedMethod = regexp.MustCompile(`(?:^|[^\\])"method"\s*:\s*"([^"\\]*)"`)
	refusedURI    = regexp.MustCompile(`(?:^|[^\\])"uri"\s*:\s*"([^"\\]*)"`)
	// The id of a request is trusted only where it is surely a member of
	// the message itself: among its first members, or as its last.
	refusedIDFirst = regexp.MustCompile(`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,\s*){0,2}"id"\s*:\s*(-?[0-9]+|"[^"\\]*")`)
	refusedIDLast  = regexp.MustCompile(`[,{]\s*"id"\s*:\s*(-?[0-9]+|"[^"\\]*")\s*\}\s*$`)
)

// requestID returns the id of a refused request, if its ends show one; a
// message without a method is a response, which gets no answer.
func (m refusedMessage) requestID() (jsonrpc2.ID, bool) {
	var id jsonrpc2.ID
	if m.find(refusedMethod) == "" {
		return id, false
	}
	raw := ""
	if sm := refusedIDFirst.FindSubmatch(m.head); sm != nil {
		raw = string(sm[1])
	} else if sm := refusedIDLast.FindSubmatch(m.tail); sm != nil {
		raw = string(sm[1])
	}
	if raw == "" || json.Unmarshal([]byte(raw), &id) != nil {
		return id, false
	}
	return id, true
}

// refuseRequest answers a refused request with an error, so that the
// client does not wait for an answer that will never come.
func (s *stream) refuseRequest(ctx context.Context, m refusedMessage) {
	id, ok := m.requestID()
	if !ok {
		return
	}
	err := jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "the request is %d bytes, more than the %d the server reads", m.size, maxMessage)
	resp, rerr := jsonrpc2.NewResponse(id, nil, err)
	if rerr == nil {
		_, rerr = s.Write(ctx, resp)
	}
	if rerr != nil {
		s.logger.Printf("cannot answer a refused request: %v", rerr)
	}
}

// find returns the first submatch of re in the message's ends, or "".
func (m refusedMessage) find(re *regexp.Regexp) string {
	for _, part := range [][]byte{m.head, m.tail} {
		if sm := re.FindSubmatch(part); sm != nil {
			return string(sm[1])
		}
	}
	return ""
}

// refusedMessage handles a message skipped for its size, on the reading
// goroutine, before any later message. The document it was about is marked
// out of sync, so that no later edit is applied to text that missed this
// one, until the document is opened again; when the message's document
// cannot be told, every open document is. The user is told.
func (s *Server) refusedMessage(m refusedMessage) {
	method := m.find(refusedMethod)
	path, hasPath := pathOf(m.find(refusedURI))
	edit := method == "textDocument/didOpen" || method == "textDocument/didChange"
	var marked []string
	s.mu.Lock()
	switch {
	case edit && hasPath:
		doc := s.docs[path]
		if doc == nil { // a refused didOpen: later changes have no base
			doc = &document{}
			s.docs[path] = doc
		}
		doc.outOfSync = true
		marked = append(marked, path)
	case method == "" || edit:
		for p, doc := range s.docs {
			doc.outOfSync = true
			marked = append(marked, p)
		}
	}
	s.mu.Unlock()
	what := "a message"
	if method != "" {
		what = "a " + method + " message"
	}
	msg := fmt.Sprintf("gddls refused %s of %d MiB, more than the %d MiB it reads.", what, m.size>>20, maxMessage>>20)
	if len(marked) > 0 {
		names := make([]string, len(marked))
		for i, p := range marked {
			names[i] = filepath.Base(p)
		}
		msg += fmt.Sprintf(" It ignores the edits of %s until you close and reopen it, so that no edit is applied to outdated text.", strings.Join(names, ", "))
	}
	s.logf("%s", msg)
	s.notify("window/showMessage", &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
}
