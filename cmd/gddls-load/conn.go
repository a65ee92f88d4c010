package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// message is one JSON-RPC message in either direction.
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// publication is one textDocument/publishDiagnostics the server sent, with
// the time it arrived.
type publication struct {
	URI         string `json:"uri"`
	Version     *int   `json:"version"`
	Diagnostics []struct {
		Code any `json:"code"`
	} `json:"diagnostics"`
	at time.Time
}

// conn speaks LSP's Content-Length framing over a child's pipes. One
// goroutine reads; callers wait on channels.
type conn struct {
	w       io.Writer
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[string]chan *message
	pubs    chan publication
	done    chan struct{} // closed when the reader stops
	readErr error
}

func newConn(r io.Reader, w io.Writer) *conn {
	c := &conn{w: w, pending: map[string]chan *message{}, pubs: make(chan publication, 1<<16), done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(r, 1<<20))
	return c
}

func (c *conn) write(m any) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.send(body)
}

// send writes the body of one message, framed.
func (c *conn) send(body []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := c.w.Write(body)
	return err
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	body, err := encodeNotification(method, params)
	if err != nil {
		return err
	}
	return c.send(body)
}

// encodeNotification returns the body of a notification.
func encodeNotification(method string, params any) ([]byte, error) {
	return json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and returns a channel that receives its response.
func (c *conn) call(method string, params any) (<-chan *message, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan *message, 1)
	c.pending[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	return ch, c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

// wait waits for a response until the deadline.
func (c *conn) wait(ch <-chan *message, deadline time.Time) (*message, error) {
	select {
	case m := <-ch:
		if m.Error != nil {
			return m, fmt.Errorf("server error %d: %s", m.Error.Code, m.Error.Message)
		}
		return m, nil
	case <-c.done:
		return nil, fmt.Errorf("the server closed its output: %v", c.readErr)
	case <-time.After(time.Until(deadline)):
		return nil, fmt.Errorf("no response before the deadline")
	}
}

func (c *conn) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				c.readErr = err
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if length < 0 {
			c.readErr = fmt.Errorf("a message without Content-Length")
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			c.readErr = err
			return
		}
		at := time.Now()
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.answer(&m)
		case m.Method == "textDocument/publishDiagnostics":
			var p publication
			if json.Unmarshal(m.Params, &p) == nil {
				p.at = at
				select {
				case c.pubs <- p:
				default: // nobody is reading that many; drop
				}
			}
		case m.ID != nil:
			c.mu.Lock()
			ch := c.pending[string(*m.ID)]
			delete(c.pending, string(*m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		}
	}
}

// answer replies to a request the server sends: configuration gets one
// null per item, everything else a null result.
func (c *conn) answer(m *message) {
	var result any
	if m.Method == "workspace/configuration" {
		var p struct {
			Items []any `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		result = make([]any, len(p.Items))
	}
	_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}
