package serve

import (
	"archive/tar"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/flock"
)

// BundleFormat tags a model bundle's bundle.json.
const BundleFormat = "strata-bundle/1"

// BundleMeta is bundle.json: what the bundle was trained on.
type BundleMeta struct {
	Format          string `json:"format"`
	DataFingerprint string `json:"data_fingerprint"`
	// Dense is the SHA-256 of the dense vectors the models were trained
	// with ("" when no model needs the dense channel).
	Dense string `json:"dense,omitempty"`
	// Models maps the paths by which packed models name their sub-models
	// (MoR its planner; GRASP its mFAR, planner and stage 3) to their
	// copies inside the bundle.
	Models map[string]string `json:"models,omitempty"`
	// Entries lists every other entry of the bundle with its size in
	// bytes: an entry it does not list, or of another size, is refused
	// before anything is unpacked. Bundles written before the list (no
	// entries) are unpacked as they are, within the free space check.
	Entries map[string]int64 `json:"entries,omitempty"`
}

// ErrFingerprint reports a bundle made for other data.
var ErrFingerprint = errors.New("the bundle was made for other data")

func denseHash(ws *workspace.Workspace) (string, error) {
	h, err := infer.FileSHA256(filepath.Join(ws.Dir, infer.DenseDir, infer.DenseDocFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return h, err
}

// WriteBundle packs a pipeline, the checkpoints of its models, of its
// stages' planners and of the sub-models they name (weights and manifest,
// not the optimizer state), the other files and directories those models
// read (an ONNX encoder, a plans file, an exported LLM reranker), the
// stages' plans files and the data fingerprint into a tar file,
// atomically. The models are loaded once through the registry
// to find what they read, so a bundle holds everything it needs. Entries
// are sorted and timestamps fixed, so the same inputs give the same bytes.
func WriteBundle(env *infer.Env, out string, p *pipeline.Pipeline) error {
	ws := env.WS
	files := map[string][]byte{}
	bp := *p
	bp.Scorers = append([]pipeline.Stage(nil), p.Scorers...)
	meta := BundleMeta{Format: BundleFormat, DataFingerprint: ws.Fingerprint}
	packed := map[string]string{} // a resolved absolute path -> its name in the bundle
	// pack puts path in the bundle under name once (a path packed before
	// keeps its first name): fill adds its entries from the resolved path.
	pack := func(path, name string, fill func(real string) error) (string, error) {
		real, err := filepath.EvalSymlinks(path)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return "", err
		}
		if n, ok := packed[real]; ok {
			return n, nil
		}
		if err := fill(real); err != nil {
			return "", err
		}
		packed[real] = name
		return name, nil
	}
	// checkpoint packs a checkpoint directory's weights and manifest.
	checkpoint := func(dir, name string) (string, error) {
		return pack(dir, name, func(real string) error {
			m, err := checkpoints.ReadManifest(real)
			if err != nil {
				return fmt.Errorf("%s: a bundle packs trained checkpoints only: %w", dir, err)
			}
			if m.DataFingerprint != ws.Fingerprint {
				return fmt.Errorf("%s was trained on data %s, the workspace is %s", dir, m.DataFingerprint, ws.Fingerprint)
			}
			if m.Kind == infer.KindCoR {
				if meta.Dense, err = denseHash(ws); err != nil {
					return err
				}
			}
			for _, f := range []string{checkpoints.ModelFile, checkpoints.ManifestFile} {
				b, err := os.ReadFile(filepath.Join(real, f))
				if err != nil {
					return err
				}
				files[name+"/"+f] = b
			}
			return nil
		})
	}
	// tree packs a file, or every regular file below a directory.
	tree := func(path, name string) (string, error) {
		return pack(path, name, func(real string) error {
			return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
				if err != nil || !d.Type().IsRegular() {
					return err
				}
				rel, err := filepath.Rel(real, p)
				if err != nil {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				entry := name
				if rel != "." {
					entry = name + "/" + filepath.ToSlash(rel)
				}
				files[entry] = b
				return nil
			})
		})
	}
	var subErr error
	rec := env.Sub()
	top := ""
	place := func(given, name string, err error) {
		if err != nil {
			subErr = cmp.Or(subErr, fmt.Errorf("%s reads %s: %w", top, given, err))
			return
		}
		if meta.Models == nil {
			meta.Models = map[string]string{}
		}
		meta.Models[given] = name
	}
	rec.OnLoad = func(given, dir string) {
		if given == top || subErr != nil {
			return
		}
		name := fmt.Sprintf("submodels/%d", len(meta.Models))
		if _, err := checkpoints.ReadManifest(dir); err != nil {
			// A directory a DirLoader reads (an exported LLM reranker,
			// a corag.json model): all of it.
			name, err = tree(dir, name)
			place(given, name, err)
			return
		}
		name, err := checkpoint(dir, name)
		place(given, name, err)
	}
	rec.OnFile = func(given, path string) {
		if subErr != nil {
			return
		}
		name, err := tree(path, fmt.Sprintf("files/%d", len(meta.Models)))
		place(given, name, err)
	}
	// model packs a stage's model (or planner) as name and the sub-models
	// and files it reads, and returns the name.
	model := func(path, name string) (string, error) {
		top = p.ModelPath(path)
		ck, err := registry.Read(rec, top)
		if err != nil {
			return "", err
		}
		if name, err = checkpoint(ck.Dir, name); err != nil {
			return "", err
		}
		if _, err := registry.Load(rec, top); err != nil {
			return "", fmt.Errorf("%s: %w", top, err)
		}
		return name, subErr
	}
	add := func(i int, s *pipeline.Stage) (err error) {
		if s.Model != "" {
			s.Model, err = model(s.Model, fmt.Sprintf("models/%d", i))
		}
		if err == nil && s.Planner != "" {
			s.Planner, err = model(s.Planner, fmt.Sprintf("models/%d-planner", i))
		}
		if err == nil && s.Plans != "" {
			// Under its own base name: a stage is labelled by its plans file's.
			path := p.ModelPath(s.Plans)
			s.Plans, err = tree(path, fmt.Sprintf("files/plans-%d/%s", i, filepath.Base(path)))
		}
		return err
	}
	for i := range bp.Scorers {
		if err := add(i, &bp.Scorers[i]); err != nil {
			return err
		}
	}
	if p.Candidates != nil {
		c := *p.Candidates
		bp.Candidates = &c
		if err := add(len(bp.Scorers), bp.Candidates); err != nil {
			return err
		}
	}
	pj, _ := json.MarshalIndent(&bp, "", "  ")
	files[pipeline.PipelineFile] = append(pj, '\n')
	meta.Entries = make(map[string]int64, len(files))
	for n, b := range files {
		meta.Entries[n] = int64(len(b))
	}
	mj, _ := json.MarshalIndent(meta, "", "  ")
	files["bundle.json"] = append(mj, '\n')
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return atomicfile.WriteFile(out, func(w io.Writer) error {
		tw := tar.NewWriter(w)
		for _, n := range names {
			hdr := &tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
			if _, err := tw.Write(files[n]); err != nil {
				return err
			}
		}
		return tw.Close()
	})
}

// OpenBundle extracts a bundle into dir (which must exist), checks it was
// made for ws's data (unless ignoreFingerprint) and returns its pipeline
// and where its sub-models are (for infer.Env.Models). Entries must be
// relative regular files, and the pipeline's models and sub-models must
// lie inside dir (no absolute path, no "..": a bundle reads only itself).
func OpenBundle(tarPath, dir string, ws *workspace.Workspace, ignoreFingerprint bool) (*pipeline.Pipeline, map[string]string, error) {
	p, meta, err := openBundle(tarPath, dir, ws, ignoreFingerprint)
	if err != nil {
		return nil, nil, err
	}
	models := map[string]string{}
	for given, rel := range meta.Models {
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return nil, nil, fmt.Errorf("%s: %w: bundle.json places the sub-model %q at %q, outside the bundle", tarPath, ErrBundlePath, given, rel)
		}
		models[given] = filepath.Join(dir, filepath.FromSlash(rel))
	}
	return p, models, nil
}

// eachEntry calls fn for every entry of the tar file f, from its start,
// with the entry's cleaned name, and stops at fn's first error; a read
// error names the bundle and, where the file ends inside an entry, says
// it was likely truncated.
func eachEntry(f *os.File, tarPath string, fn func(tr *tar.Reader, hdr *tar.Header, name string) error) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tarPath, truncated(err))
		}
		if err := fn(tr, hdr, path.Clean(hdr.Name)); err != nil {
			return err
		}
	}
}

// maxBundleMeta bounds bundle.json, read before anything is unpacked.
const maxBundleMeta = 16 << 20

// bundleFreeBytes is the free space of dir's file system (ok false where
// it cannot be told); tests replace it.
var bundleFreeBytes = freeBytes

// scanBundle reads a bundle's headers (and bundle.json) without unpacking
// anything: entries must be relative regular files, each once; where
// bundle.json lists the entries, every entry must be listed with its size
// and every listed one present; and the total must fit in dir's free
// space. It returns bundle.json and each entry's size.
func scanBundle(f *os.File, tarPath, dir string) (*BundleMeta, map[string]int64, error) {
	seen := map[string]int64{}
	var mb []byte
	var total int64
	err := eachEntry(f, tarPath, func(tr *tar.Reader, hdr *tar.Header, name string) error {
		if hdr.Typeflag != tar.TypeReg || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return fmt.Errorf("%s: refusing entry %q (only relative regular files)", tarPath, hdr.Name)
		}
		if _, ok := seen[name]; ok {
			return fmt.Errorf("%s: entry %q appears twice (which one counts would be a guess)", tarPath, hdr.Name)
		}
		seen[name] = hdr.Size
		total += hdr.Size
		if name != "bundle.json" {
			return nil
		}
		if hdr.Size > maxBundleMeta {
			return fmt.Errorf("%s: bundle.json holds %d bytes, more than a bundle's list of its models needs (%d at most)", tarPath, hdr.Size, maxBundleMeta)
		}
		var err error
		if mb, err = io.ReadAll(io.LimitReader(tr, hdr.Size)); err == nil && int64(len(mb)) < hdr.Size {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("%s: entry %q: %w", tarPath, hdr.Name, truncated(err))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if mb == nil {
		return nil, nil, fmt.Errorf("%s: not a strata bundle (no bundle.json)", tarPath)
	}
	var meta BundleMeta
	if err := json.Unmarshal(mb, &meta); err != nil || meta.Format != BundleFormat {
		return nil, nil, fmt.Errorf("%s: bundle.json is not %s", tarPath, BundleFormat)
	}
	if _, ok := seen[pipeline.PipelineFile]; !ok {
		return nil, nil, fmt.Errorf("%s: the bundle has no %s (truncated?)", tarPath, pipeline.PipelineFile)
	}
	if meta.Entries != nil {
		for _, name := range slices.Sorted(maps.Keys(seen)) {
			want, listed := meta.Entries[name]
			switch {
			case name == "bundle.json":
			case !listed:
				return nil, nil, fmt.Errorf("%s: entry %q (%d bytes) is not one bundle.json lists; refusing to unpack it", tarPath, name, seen[name])
			case want != seen[name]:
				return nil, nil, fmt.Errorf("%s: entry %q holds %d bytes, bundle.json lists %d", tarPath, name, seen[name], want)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(meta.Entries)) {
			if _, ok := seen[name]; !ok {
				return nil, nil, fmt.Errorf("%s: the bundle has no %s, which bundle.json lists (truncated?)", tarPath, name)
			}
		}
	}
	if free, ok := bundleFreeBytes(dir); ok && uint64(total) > free {
		return nil, nil, fmt.Errorf("%s: unpacking it needs %d bytes and %s has %d free; set TMPDIR to a larger file system", tarPath, total, dir, free)
	}
	return &meta, seen, nil
}

func openBundle(tarPath, dir string, ws *workspace.Workspace, ignoreFingerprint bool) (*pipeline.Pipeline, *BundleMeta, error) {
	f, err := os.Open(tarPath)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	meta, sizes, err := scanBundle(f, tarPath, dir)
	if err != nil {
		return nil, nil, err
	}
	if !ignoreFingerprint {
		if meta.DataFingerprint != ws.Fingerprint {
			return nil, nil, fmt.Errorf("%s: %w: bundle %s, workspace %s (use --ignore-fingerprint to override)", tarPath, ErrFingerprint, meta.DataFingerprint, ws.Fingerprint)
		}
		if meta.Dense != "" {
			h, err := denseHash(ws)
			if err != nil {
				return nil, nil, err
			}
			if h != meta.Dense {
				return nil, nil, fmt.Errorf("%s: %w: its models were trained with another dense channel (%s, the workspace has %q); use --ignore-fingerprint to override", tarPath, ErrFingerprint, meta.Dense, h)
			}
		}
	}
	err = eachEntry(f, tarPath, func(tr *tar.Reader, hdr *tar.Header, name string) error {
		if size, ok := sizes[name]; !ok || size != hdr.Size || hdr.Typeflag != tar.TypeReg {
			return fmt.Errorf("%s: entry %q changed while the bundle was read", tarPath, hdr.Name)
		}
		delete(sizes, name) // each entry once
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, io.LimitReader(tr, hdr.Size)); err != nil {
			out.Close()
			return fmt.Errorf("%s: entry %q: %w", tarPath, hdr.Name, truncated(err))
		}
		return out.Close()
	})
	if err != nil {
		return nil, nil, err
	}
	if len(sizes) > 0 {
		return nil, nil, fmt.Errorf("%s: entries changed while the bundle was read", tarPath)
	}
	p, err := pipeline.ReadPipeline(filepath.Join(dir, pipeline.PipelineFile))
	if err != nil {
		return nil, nil, err
	}
	stages := p.Scorers
	if p.Candidates != nil {
		stages = append(slices.Clip(stages), *p.Candidates)
	}
	for _, s := range stages {
		for _, path := range s.Paths() {
			if path == "" {
				continue
			}
			if rel, err := filepath.Rel(dir, p.ModelPath(path)); err != nil || !filepath.IsLocal(rel) {
				return nil, nil, fmt.Errorf("%s: %w: its pipeline names %q, outside the bundle", tarPath, ErrBundlePath, path)
			}
		}
	}
	return p, meta, nil
}

// truncated names the usual cause of an unexpected end of a tar.
func truncated(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("the file ends inside an entry (truncated?): %w", err)
	}
	return err
}

// ErrBundlePath is a bundle whose pipeline reaches outside the bundle.
var ErrBundlePath = errors.New("unsafe bundle")

// Open compiles the pipeline at path over env: a pipeline file, a run
// directory (its pipeline.json) or a bundle (.tar, extracted into a
// temporary directory that cleanup removes and that is the Root of a Sub
// environment, so every model it loads, sub-models and the files they read
// included, comes from the bundle, and env itself is left as it was; its
// models may come from other data when env.IgnoreFingerprint). cleanup is
// never nil.
func Open(env *infer.Env, path string) (r *pipeline.Runner, cleanup func(), err error) {
	cleanup = func() {}
	var p *pipeline.Pipeline
	if strings.HasSuffix(path, ".tar") {
		sweepBundles(os.TempDir(), time.Minute)
		dir, err := os.MkdirTemp("", bundleDirPrefix+"*")
		if err != nil {
			return nil, cleanup, err
		}
		// The lock beside the directory is held while it is in use; a
		// process killed with it leaves it free, and the next Open's
		// sweep removes the directory.
		unlock, err := flock.Lock(dir+".lock", dir)
		if err != nil {
			os.RemoveAll(dir)
			return nil, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir); unlock() }
		var models map[string]string
		if p, models, err = OpenBundle(path, dir, env.WS, env.IgnoreFingerprint); err != nil {
			return nil, cleanup, err
		}
		env = env.Sub() // the caller's environment stays as it was
		env.Root = dir  // its models' own references stay inside too
		env.Models = models
	} else if p, err = pipeline.ReadPipeline(path); err != nil {
		return nil, cleanup, err
	}
	r, err = p.Compile(env)
	return r, cleanup, err
}

// bundleDirPrefix names the directories Open unpacks bundles into.
const bundleDirPrefix = "strata-bundle-"

// sweepBundles removes from tmp the unpacked bundles of processes that
// ended without cleaning up (killed): those whose lock file, older than
// minAge, no process holds. Bundles of a version without lock files, and
// anything it cannot lock or remove, are left alone.
func sweepBundles(tmp string, minAge time.Duration) {
	locks, _ := filepath.Glob(filepath.Join(tmp, bundleDirPrefix+"*.lock"))
	for _, lock := range locks {
		fi, err := os.Stat(lock)
		if err != nil || time.Since(fi.ModTime()) < minAge {
			continue
		}
		unlock, err := flock.Lock(lock, lock)
		if err != nil {
			continue // in use
		}
		os.RemoveAll(strings.TrimSuffix(lock, ".lock"))
		unlock() // removes the lock file
	}
}
