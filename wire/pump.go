package wire

import (
	"io"
	"sync"
)

// pumpLimit bounds how much unread client input a connection buffers.
const pumpLimit = 1 << 20

// pump reads the client socket in its own goroutine so the connection learns
// at once when the client goes away, even while a statement is running and
// nothing is being read: onClose is called with the read error, and cancels
// the connection's context. Reads from the pump return buffered bytes.
type pump struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  []byte
	err  error
	intr error // see interrupt
}

func startPump(r io.Reader, onClose func(error)) *pump {
	p := &pump{}
	p.cond = sync.NewCond(&p.mu)
	go p.run(r, onClose)
	return p
}

func (p *pump) run(r io.Reader, onClose func(error)) {
	chunk := make([]byte, 32<<10)
	for {
		p.mu.Lock()
		for len(p.buf) >= pumpLimit && p.err == nil {
			p.cond.Wait()
		}
		stopped := p.err != nil
		p.mu.Unlock()
		if stopped {
			return
		}
		n, err := r.Read(chunk)
		p.mu.Lock()
		p.buf = append(p.buf, chunk[:n]...)
		if err != nil && p.err == nil {
			p.err = err
		}
		p.cond.Broadcast()
		p.mu.Unlock()
		if err != nil {
			onClose(err)
			return
		}
	}
}

// Read implements io.Reader.
func (p *pump) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && p.err == nil && p.intr == nil {
		p.cond.Wait()
	}
	if len(p.buf) == 0 {
		if p.err != nil {
			return 0, p.err
		}
		return 0, p.intr
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = p.buf[:0:0]
	}
	p.cond.Broadcast()
	return n, nil
}

// interrupt makes a Read that waits on an empty buffer (now or later)
// return err, until clearInterrupt; the reading goroutine goes on.
func (p *pump) interrupt(err error) {
	p.mu.Lock()
	p.intr = err
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *pump) clearInterrupt() {
	p.mu.Lock()
	p.intr = nil
	p.mu.Unlock()
}

// stop makes pending and later Reads fail with err.
func (p *pump) stop(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.cond.Broadcast()
	p.mu.Unlock()
}
