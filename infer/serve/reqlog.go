package serve

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// logWriter records what a request answered, for its log line: the
// status, the bytes written, and what the score handler adds (the query's
// id, the error message, whether a stage fell back).
type logWriter struct {
	http.ResponseWriter
	status   int
	bytes    int
	id       int
	scored   bool
	fallback bool
	errMsg   string
}

func (l *logWriter) WriteHeader(code int) {
	if l.status == 0 {
		l.status = code
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *logWriter) Write(b []byte) (int, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	n, err := l.ResponseWriter.Write(b)
	l.bytes += n
	return n, err
}

// withRequestLog writes one structured line per request to log: method,
// path, status, latency in milliseconds, response bytes, and for a score
// request its id, whether a stage fell back, and the error it answered.
// 5xx answers are logged at level WARN, the rest at INFO.
func withRequestLog(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		lw := &logWriter{ResponseWriter: w}
		h.ServeHTTP(lw, req)
		if lw.status == 0 {
			lw.status = http.StatusOK
		}
		attrs := []slog.Attr{
			slog.String("method", req.Method),
			slog.String("path", req.URL.Path),
			slog.Int("status", lw.status),
			slog.Float64("latency_ms", float64(time.Since(start).Microseconds())/1000),
			slog.Int("bytes", lw.bytes),
		}
		if lw.scored {
			attrs = append(attrs, slog.Int("id", lw.id), slog.Bool("fallback", lw.fallback))
		}
		if lw.errMsg != "" {
			attrs = append(attrs, slog.String("error", lw.errMsg))
		}
		level := slog.LevelInfo
		if lw.status >= 500 {
			level = slog.LevelWarn
		}
		log.LogAttrs(context.Background(), level, "request", attrs...)
	})
}

// noteError, noteScored: what the score handler tells the request log.
func noteError(w http.ResponseWriter, msg string) {
	if lw, ok := w.(*logWriter); ok {
		lw.errMsg = msg
	}
}

func noteScored(w http.ResponseWriter, id int, fallback bool) {
	if lw, ok := w.(*logWriter); ok {
		lw.scored, lw.id, lw.fallback = true, id, fallback
	}
}

// AsyncWriter writes lines to w from its own goroutine, so a request never
// waits for the log's file or terminal; when n lines are waiting, further
// lines are dropped and counted (Dropped).
type AsyncWriter struct {
	ch      chan []byte
	done    chan struct{}
	once    sync.Once
	dropped atomic.Int64
}

// NewAsyncWriter starts the writer goroutine; Close stops it.
func NewAsyncWriter(w io.Writer, n int) *AsyncWriter {
	a := &AsyncWriter{ch: make(chan []byte, n), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		for b := range a.ch {
			w.Write(b)
		}
	}()
	return a
}

// Write queues a copy of p (a log line) and never blocks.
func (a *AsyncWriter) Write(p []byte) (int, error) {
	select {
	case a.ch <- append([]byte(nil), p...):
	default:
		a.dropped.Add(1)
	}
	return len(p), nil
}

// Dropped is how many lines were dropped because the queue was full.
func (a *AsyncWriter) Dropped() int64 { return a.dropped.Load() }

// Close writes the queued lines and stops.
func (a *AsyncWriter) Close() {
	a.once.Do(func() { close(a.ch) })
	<-a.done
}
