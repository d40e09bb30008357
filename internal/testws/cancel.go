package testws

import (
	"context"
	"sync"
	"sync/atomic"
)

// CancelAfterChecks returns a context that is cancelled by being looked
// at: its first n calls of Err report nil, every later one
// context.Canceled (and Done is closed from then on). Loops that check
// their context every chunk therefore stop after exactly n chunks,
// whatever the scheduling: a deterministic Ctrl-C in the middle of a long
// step.
func CancelAfterChecks(n int) context.Context {
	c := &checksCtx{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(int64(n))
	return c
}

type checksCtx struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

func (c *checksCtx) Err() error {
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

func (c *checksCtx) Done() <-chan struct{} { return c.done }
