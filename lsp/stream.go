package lsp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage is the largest message the server reads; a larger one is
// skipped instead of being held in memory, and reported to refused.
const maxMessage = 256 << 20

// stream frames messages with Content-Length headers like
// jsonrpc2.NewStream, whose writing half it uses, but reads tolerantly: a
// message that is not valid JSON-RPC, or too large, is logged and skipped
// instead of ending the session. Only a broken header ends it.
type stream struct {
	jsonrpc2.Stream // writes and closes
	in              *bufio.Reader
	logger          *log.Logger
	// refused, when set, is called on the reading goroutine with the start
	// and end of every message skipped for its size, before the next
	// message is returned.
	refused func(m refusedMessage)
	// writeMu serializes the connection's writes with the error responses
	// the reading half sends to refused requests.
	writeMu sync.Mutex
	// body is the buffer of the last message read, used again for the
	// next one up to maxReused bytes: jsonrpc2.DecodeMessage copies what
	// it keeps, and a keystroke's message holds the whole document.
	body []byte
}

// maxReused is the largest message body whose buffer the stream keeps for
// the next message.
const maxReused = 1 << 20

// Write writes one message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.Stream.Write(ctx, msg)
}

func newStream(rwc io.ReadWriteCloser, logger *log.Logger) *stream {
	return &stream{Stream: jsonrpc2.NewStream(rwc), in: bufio.NewReader(rwc), logger: logger}
}

// Read returns the next well-formed message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		length, n, err := s.header()
		total += n
		if err != nil {
			return nil, total, err
		}
		if length > maxMessage {
			s.logger.Printf("skipping a message of %d bytes, more than the %d the server reads", length, maxMessage)
			m, n, err := skipMessage(s.in, length)
			total += n
			if err != nil {
				return nil, total, fmt.Errorf("skipping a large message: %w", err)
			}
			s.refuseRequest(ctx, m)
			if s.refused != nil {
				s.refused(m)
			}
			continue
		}
		data := s.buffer(int(length))
		m, err := io.ReadFull(s.in, data)
		total += int64(m)
		if err != nil {
			return nil, total, fmt.Errorf("reading a message body: %w", err)
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err != nil {
			s.logger.Printf("skipping a malformed message (%v): %.200s", err, data)
			continue
		}
		return msg, total, nil
	}
}

// buffer returns a buffer of n bytes for a message body: the last one's
// when it is large enough and n is at most maxReused.
func (s *stream) buffer(n int) []byte {
	if n > maxReused {
		return make([]byte, n)
	}
	if cap(s.body) < n {
		s.body = make([]byte, n, min(max(n, 2*cap(s.body)), maxReused))
	}
	return s.body[:n]
}

// header reads the header lines of one message and returns its length.
func (s *stream) header() (int64, int64, error) {
	var total int64
	length := int64(-1)
	seen := false // a header line was read
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && total == 0 {
				return 0, total, io.EOF
			}
			return 0, total, fmt.Errorf("reading a header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				if !seen {
					continue // a stray blank line between messages
				}
				return 0, total, fmt.Errorf("a message has no valid %s header", jsonrpc2.HdrContentLength)
			}
			return length, total, nil
		}
		seen = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, total, fmt.Errorf("invalid header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength) {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return 0, total, fmt.Errorf("invalid %s %q", jsonrpc2.HdrContentLength, value)
			}
			length = n
		}
	}
}
