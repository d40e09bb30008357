package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/strata-retrieval/strata/infer/serve"
	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// Outputs are sharded as Beam's file sinks name them:
// PREFIX-SSSSS-of-NNNNN.EXT, shard SSSSS of NNNNN counted from 0.

// shardName is the file of shard i of n.
func shardName(prefix string, i, n int, ext string) string {
	return fmt.Sprintf("%s-%05d-of-%05d.%s", prefix, i, n, ext)
}

// shardPattern matches the base names of prefix's shards, of any count.
func shardPattern(prefix, ext string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(baseName(prefix)) + `-[0-9]{5}-of-[0-9]{5}\.` + regexp.QuoteMeta(ext) + `$`)
}

// baseName is the last element of a local path or of a remote one
// (gs://bucket/dir/name).
func baseName(p string) string {
	if hasScheme(p) {
		return p[strings.LastIndex(p, "/")+1:]
	}
	return filepath.Base(p)
}

// dirOf is p without its base name (the directory, with its separator).
func dirOf(p string) string { return strings.TrimSuffix(p, baseName(p)) }

// shardCount is the number of shards for n queries: requested, or when it
// is 0 one shard per perShard queries (at least one).
func shardCount(n, requested int) int {
	if requested > 0 {
		return requested
	}
	return max(1, (n+perShard-1)/perShard)
}

// perShard is the number of queries of a shard when --shards is 0.
const perShard = 10000

// shardOf is the shard of the query at position pos of n over shards
// shards: contiguous ranges, so that the shards concatenated in order are
// the queries in file order.
func shardOf(pos, n, shards int) int {
	return int(int64(pos) * int64(shards) / int64(n))
}

// existingShards lists prefix's shards (of any count) that exist.
func existingShards(ctx context.Context, prefix, ext string) ([]string, error) {
	re := shardPattern(prefix, ext)
	var out []string
	if !hasScheme(prefix) {
		dir := filepath.Dir(prefix)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("--output %s: %w", prefix, err)
		}
		for _, e := range entries {
			if re.MatchString(e.Name()) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
		return out, nil
	}
	fs, err := filesystem.New(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("--output %s: %w", prefix, err)
	}
	defer fs.Close()
	names, err := fs.List(ctx, prefix+"-*")
	if err != nil {
		return nil, fmt.Errorf("--output %s: %w", prefix, err)
	}
	for _, n := range names {
		if re.MatchString(baseName(n)) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// prepareOutput checks that prefix's shards may be written: none of them
// may be an input (the query file, by any name), and existing shards are
// refused unless force, which removes them first (all counts, so that
// PREFIX-* holds this run's shards only).
func prepareOutput(ctx context.Context, prefix, ext string, inputs map[string]string, force bool) ([]string, error) {
	if prefix == "" {
		return nil, fmt.Errorf("--output is required")
	}
	if !hasScheme(prefix) {
		if st, err := os.Stat(prefix); err == nil && st.IsDir() {
			return nil, fmt.Errorf("--output %s is a directory: want a file name prefix, e.g. %s", prefix, filepath.Join(prefix, "run"))
		}
	}
	re := shardPattern(prefix, ext)
	for flagName, in := range inputs {
		if in == "" {
			continue
		}
		same := false
		if !hasScheme(prefix) && !hasScheme(in) {
			// A shard that exists and is the input, or the input's name
			// made by this prefix (by a relative path, ...).
			ia, err1 := filepath.Abs(in)
			pa, err2 := filepath.Abs(prefix)
			same = err1 == nil && err2 == nil && filepath.Dir(ia) == filepath.Dir(pa) && re.MatchString(filepath.Base(ia))
		} else {
			same = dirOf(in) == dirOf(prefix) && re.MatchString(baseName(in))
		}
		if same {
			return nil, fmt.Errorf("--output %s: %w %s (%s): refusing to write over it", prefix, serve.ErrSameFile, in, flagName)
		}
	}
	existing, err := existingShards(ctx, prefix, ext)
	if err != nil {
		return nil, err
	}
	for flagName, in := range inputs {
		if in == "" || hasScheme(in) {
			continue
		}
		qi, err := os.Stat(in)
		if err != nil {
			continue
		}
		for _, e := range existing {
			if oi, err := os.Stat(e); err == nil && os.SameFile(qi, oi) {
				return nil, fmt.Errorf("--output %s: its shard %s %w %s (%s): refusing to write over it", prefix, e, serve.ErrSameFile, in, flagName)
			}
		}
	}
	if len(existing) > 0 && !force {
		return nil, fmt.Errorf("--output %s: %s exists (use --force to replace %s's shards)", prefix, existing[0], prefix)
	}
	return existing, nil
}

// removeStale removes, once a job has written its shards (written), the
// shards of the prefix from before it that it did not rewrite: with
// --force, old shards stay until new ones replace them.
func removeStale(ctx context.Context, stale, written []string) error {
	for _, e := range stale {
		if slices.Contains(written, e) {
			continue
		}
		if err := remove(ctx, e); err != nil {
			return fmt.Errorf("--force: removing the old shard %s: %w", e, err)
		}
	}
	return nil
}

func remove(ctx context.Context, path string) error {
	if !hasScheme(path) {
		return os.Remove(path)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the file system of %s cannot remove files", path)
	}
	return rm.Remove(ctx, path)
}

// writeOutput writes path through fn: a local file atomically (a
// temporary sibling renamed into place), a remote one through its Beam
// file system (whose objects appear whole when closed).
func writeOutput(ctx context.Context, path string, fn func(w io.Writer) error) error {
	if !hasScheme(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return atomicfile.WriteFile(path, fn)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(wc, 1<<20)
	if err := fn(bw); err != nil {
		wc.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		wc.Close()
		return err
	}
	return wc.Close()
}
