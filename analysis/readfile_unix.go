//go:build unix

package analysis

import (
	"errors"
	"io/fs"
	"syscall"
)

// errNotRegular is the error of a path that names a pipe, a socket or a
// device.
var errNotRegular = errors.New("not a regular file")

// readWhole reads the file at path as os.ReadFile does, with fewer system
// calls: os.Open prepares every file for the runtime's poller (several
// fcntl calls and an epoll registration that fails for a regular file),
// which costs as much as the read itself on a tree of small files. Errors
// are *fs.PathError, as os.ReadFile's, or *tooLarge when the file holds
// more than limit bytes.
func readWhole(path string, limit int64) ([]byte, error) {
	var fd int
	for {
		var err error
		// O_NONBLOCK: opening a named pipe must not wait for a writer.
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	size := 0
	err := syscall.Fstat(fd, &st)
	if err == nil {
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFIFO, syscall.S_IFCHR, syscall.S_IFBLK, syscall.S_IFSOCK:
			// A pipe or a device has no content to analyse, and reading
			// one could wait forever.
			return nil, &fs.PathError{Op: "read", Path: path, Err: errNotRegular}
		}
	}
	if err == nil && st.Size > 0 {
		if st.Size > limit {
			return nil, &tooLarge{st.Size, limit}
		}
		size = int(st.Size)
	}
	// One byte more than the size lets the read that meets the end of the
	// file return 0 without growing the buffer.
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return data, nil
		}
		data = data[:len(data)+n]
	}
}
