package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

type trainFlags struct {
	out    string
	resume bool
	cfg    train.Config
}

func (f *trainFlags) bind(cmd *cobra.Command, epochs, batch int, lr float64) {
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "run directory for checkpoints (default WORKSPACE/runs/<model>)")
	fl.BoolVar(&f.resume, "resume", false, "continue the run in --out from its latest checkpoint")
	fl.IntVar(&f.cfg.Epochs, "epochs", epochs, "training epochs")
	fl.IntVar(&f.cfg.BatchSize, "batch", batch, "mini-batch size")
	fl.Float64Var(&f.cfg.LR, "lr", lr, "peak learning rate (linear warmup, cosine decay)")
	fl.Float64Var(&f.cfg.WeightDecay, "weight-decay", 0.01, "AdamW weight decay (negative disables)")
	fl.Float64Var(&f.cfg.ClipNorm, "clip", 1, "global gradient-norm bound (negative disables)")
	fl.IntVar(&f.cfg.CheckpointEvery, "checkpoint-every", 0, "steps between checkpoints (default one epoch)")
	fl.IntVar(&f.cfg.Patience, "patience", 0, "stop after this many checkpoints without validation improvement (0: never)")
	fl.Uint64Var(&f.cfg.Seed, "seed", 1, "random seed")
}

func (f *trainFlags) options(u *ui, ws *workspace.Workspace, model string) train.Options {
	dir := f.out
	if dir == "" {
		dir = filepath.Join(ws.Dir, "runs", model)
	}
	var log io.Writer
	if u.tty {
		log = u.err
	}
	return train.Options{RunDir: dir, Fingerprint: ws.Fingerprint, Resume: f.resume, Log: log}
}

func newTrainCmd(u *ui) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train models: encoder, CoR, planner, MoR, KGQA, mFAR, GRASP, LLM reranker",
		Long: `Train a model on a workspace's train split, evaluating every checkpoint on
the val split. Checkpoints (weights, optimizer state, manifest with metrics)
go to the run directory, RUNDIR/best points at the one with the best val MRR,
and the same seed and data give bit-identical checkpoints; --resume continues
an interrupted run exactly.`,
	}
	cmd.AddCommand(newTrainEncoderCmd(u), newTrainCoRCmd(u), newTrainPlannerCmd(u), newTrainMoRCmd(u), newTrainKGQACmd(u), newTrainMFARCmd(u), newTrainGraspCmd(u), newTrainLLMRerankerCmd(u))
	return cmd
}

func newTrainEncoderCmd(u *ui) *cobra.Command {
	var f trainFlags
	var ec models.EncoderConfig
	var temp float64
	cmd := &cobra.Command{
		Use:   "encoder WORKSPACE",
		Short: "Train the hashed n-gram text encoder: the dense channel that needs no download",
		Long: `Train the hashed n-gram encoder (word unigrams and bigrams and character
n-grams hashed into a table, IDF-weighted mean pooling, a projection, L2
normalisation) with in-batch contrastive loss on the train split's (query,
gold document) pairs, then encode every node with the best checkpoint and make
it the workspace's dense channel (WORKSPACE/dense).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			_, err = trainEncoder(cmd.Context(), u, ws, f, ec, temp)
			return err
		},
	}
	f.bind(cmd, 4, 128, 1e-3)
	cmd.Flags().IntVar(&ec.Buckets, "buckets", 1<<17, "hash table rows")
	cmd.Flags().IntVar(&ec.EmbDim, "dim", 128, "embedding and output dimension")
	cmd.Flags().Float64Var(&temp, "temperature", 0.05, "InfoNCE temperature")
	return cmd
}

func trainEncoder(ctx context.Context, u *ui, ws *workspace.Workspace, f trainFlags, ec models.EncoderConfig, temp float64) (*infer.DenseChannel, error) {
	if ec.OutDim == 0 {
		ec.OutDim = ec.EmbDim
	}
	opt := f.options(u, ws, "encoder")
	u.stage("training the encoder into %s", opt.RunDir)
	enc, res, err := train.TrainEncoder(ctx, ws, train.EncoderOptions{Encoder: ec, Train: f.cfg, Run: opt, Temperature: temp})
	if err != nil {
		return nil, err
	}
	if err := writeRunPipeline(opt.RunDir, "encoder"); err != nil {
		return nil, err
	}
	u.stage("encoding every node")
	d, err := infer.SaveDenseFromEncoder(ctx, ws, enc, filepath.Join(opt.RunDir, res.Best))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(u.out, "trained encoder: %d steps (%s), best %s val/mrr %.4f; dense channel saved in %s\n",
		res.Steps, res.Stopped, res.Best, res.BestValue, filepath.Join(ws.Dir, infer.DenseDir))
	return d, nil
}

func newTrainCoRCmd(u *ui) *cobra.Command {
	var f trainFlags
	var noT, noR, noH bool
	var hidden, poolK int
	cmd := &cobra.Command{
		Use:   "cor WORKSPACE",
		Short: "Train CoRAG's cooperative retrievers (textual, relational and hybrid gates)",
		Long: `Train CoR: a textual retriever per candidate node type and a relational
retriever per relation (neighbours of the query's topic entities, found by
Aho-Corasick over node names), all scored by the cosine of query and document
vectors, combined by a textual, a relational and a hybrid gate (two-layer MLPs
on the query vector with softmax outputs), trained with MSE against 1 for gold
answers over each query's candidate pool (the union of every retriever's top
--pool-k plus the gold answers).

The dense channel comes from the workspace; when it has none, the default
encoder is trained first. The --no-* flags train CoRAG's ablations.`,
		Example: `  strata train cor ws
  strata eval ws --model ws/runs/cor/best --split test`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			d, err := infer.LoadDense(ws)
			if errors.Is(err, infer.ErrNoDense) {
				d, err = defaultEncoder(cmd.Context(), u, ws, f.cfg.Seed)
			}
			if err != nil {
				return err
			}
			cfg := gating.DefaultConfig(&ws.SKB.Schema, d.Docs.Dim)
			cfg.Textual, cfg.Relational, cfg.Hybrid = !noT, !noR, !noH
			cfg.Hidden, cfg.PoolK = hidden, poolK
			name := "cor"
			switch {
			case noT:
				name = "cor-no-textual"
			case noR:
				name = "cor-no-relational"
			case noH:
				name = "cor-no-hybrid"
			}
			opt := f.options(u, ws, name)
			u.stage("training CoR into %s", opt.RunDir)
			_, res, err := train.TrainCoR(cmd.Context(), ws, d, train.CoROptions{Model: cfg, Train: f.cfg, Run: opt})
			if err != nil {
				return err
			}
			if err := writeRunPipeline(opt.RunDir, name); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained CoR: %d steps (%s), best %s val/mrr %.4f\nevaluate with: strata eval %s --model %s\n",
				res.Steps, res.Stopped, res.Best, res.BestValue, args[0], filepath.Join(opt.RunDir, checkpoints.BestLink))
			return nil
		},
	}
	f.bind(cmd, 10, 64, 3e-3)
	cmd.Flags().BoolVar(&noT, "no-textual", false, "ablation: without the textual retrievers")
	cmd.Flags().BoolVar(&noR, "no-relational", false, "ablation: without the relational retrievers")
	cmd.Flags().BoolVar(&noH, "no-hybrid", false, "ablation: without the hybrid gate (both groups weighted ½)")
	cmd.Flags().IntVar(&hidden, "hidden", 64, "gate hidden units")
	cmd.Flags().IntVar(&poolK, "pool-k", 20, "per-retriever top-k of the training pool")
	return cmd
}

// defaultEncoder trains the default encoder for commands that need a dense
// channel the workspace lacks.
func defaultEncoder(ctx context.Context, u *ui, ws *workspace.Workspace, seed uint64) (*infer.DenseChannel, error) {
	u.stage("no dense channel: training the default encoder first")
	var ef trainFlags
	ef.cfg = train.Config{Epochs: 4, BatchSize: 128, LR: 1e-3, Seed: seed}
	return trainEncoder(ctx, u, ws, ef, models.EncoderConfig{}, 0.05)
}

// writeRunPipeline writes RUNDIR/pipeline.json scoring with RUNDIR/best, so
// what was evaluated is what strata score and eval --pipeline serve.
func writeRunPipeline(runDir, name string) error {
	return infer.WritePipeline(filepath.Join(runDir, infer.PipelineFile), &infer.Pipeline{
		Format: infer.PipelineFormat, Name: name, Scorers: []infer.Stage{{Model: checkpoints.BestLink}}})
}

// loadWithDense loads a workspace and its dense channel, if it has one.
func loadWithDense(dir string) (*workspace.Workspace, *infer.DenseChannel, error) {
	ws, err := workspace.Load(dir)
	if err != nil {
		return nil, nil, err
	}
	d, err := infer.LoadDense(ws)
	if errors.Is(err, infer.ErrNoDense) {
		return ws, nil, nil
	}
	if err != nil {
		ws.Close()
		return nil, nil, err
	}
	return ws, d, nil
}

func newTrainPlannerCmd(u *ui) *cobra.Command {
	var f trainFlags
	var hidden int
	var mined string
	var minF1 float64
	cmd := &cobra.Command{
		Use:   "planner WORKSPACE [--mined FILE]",
		Short: "Train the native query planner (metapath template classifier + entity-linked restrictions)",
		Long: `Train MoR's planner without an LLM: a classifier over the metapath templates of
the training queries' plans, whose input is the dense query vector (when the
workspace has a dense channel), the node types of the entities the query names
and a hashed bag of words.

With the workspace's plans (the generator's ground truth, or plan files such
as MoR's imported with strata import --plans), restrictions come from entity
linking: each path's anchor is a mention linked to a node of the path's first
type, and the rest of the query restricts the target. Checkpoints are selected
by validation accuracy (exact metapath).

A workspace without plans (a real SKB: questions and answers only) trains from
mined plans (strata mine-plans; --mined, default WORKSPACE/mined-plans.jsonl):
the train split's plans of F1 >= --min-f1 are the labels. Templates are
relation paths with untyped anchors (a target type is kept when 90% of a
template's questions agree on it); a hashed linear scorer learns which
mention of the question anchors each path (its context words, the path's
first hop, how many of its nodes have that hop); at inference the most
probable (template, mentions) pairs are executed in turn until one reaches a
candidate, and the rest of the question restricts the target. A plan ranker
(hashed linear, trained on cross-fitted candidates of the training questions
against their answers) chooses among the candidates that reach something:
their probabilities, shape, reach size, how their reaches nest and how sharply
the restriction ranks them. Checkpoints are selected by the validation MRR of
the plans executed (plan-exec); the plan accuracy against the mined val plans
is reported. The run directory's pipeline.json serves the planner with MoR's
mixed traversal; strata eval --planner RUN --method plan-exec executes its
plans.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, d, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			opt := f.options(u, ws, "planner")
			if len(ws.Plans) == 0 || mined != "" {
				recs, path, err := loadMinedPlans(ws, mined)
				if err != nil {
					return err
				}
				fmt.Fprintf(u.out, "training from mined plans (%s)\n", path)
				p, res, st, err := train.TrainLinkingPlanner(cmd.Context(), ws, d, train.LinkingPlannerOptions{Hidden: hidden, Train: f.cfg, Run: opt, Mined: recs, MinF1: minF1, Log: opt.Log})
				if err != nil {
					return err
				}
				if err := writeRunPipeline(opt.RunDir, "planner"); err != nil {
					return err
				}
				fmt.Fprintf(u.out, "trained planner from mined plans: %d of %d train questions with a plan of F1 >= %.2f, %d templates, plan ranker from %d questions; %d steps (%s), best %s val plan-exec mrr %.4f; plan accuracy against %d mined val plans %.4f\n",
					st.Used, st.Train, minF1, len(p.Cfg.Templates), st.RankGroups, res.Steps, res.Stopped, res.Best, res.BestValue, st.Val, st.PlanAcc)
				return nil
			}
			p, res, err := train.TrainPlanner(cmd.Context(), ws, d, train.PlannerOptions{Hidden: hidden, Train: f.cfg, Run: opt})
			if err != nil {
				return err
			}
			if err := writeRunPipeline(opt.RunDir, "planner"); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained planner: %d templates, %d steps (%s), best %s val plan accuracy %.4f\n",
				len(p.Cfg.Templates), res.Steps, res.Stopped, res.Best, res.BestValue)
			return nil
		},
	}
	f.bind(cmd, 20, 64, 3e-3)
	cmd.Flags().IntVar(&hidden, "hidden", 128, "classifier hidden units")
	cmd.Flags().StringVar(&mined, "mined", "", "mined plans file to train from (default WORKSPACE/"+infer.MinedPlansFile+" when the workspace has no plans)")
	cmd.Flags().Float64Var(&minF1, "min-f1", 0.5, "least F1 of a mined plan used as a label")
	return cmd
}

// loadMinedPlans reads the mined plans file (path, or the workspace's
// default); a missing default file is a clear error.
func loadMinedPlans(ws *workspace.Workspace, path string) (map[int]data.MinedPlanRecord, string, error) {
	def := path == ""
	if def {
		path = filepath.Join(ws.Dir, infer.MinedPlansFile)
	}
	recs, err := data.ReadMinedPlans(path)
	if def && errors.Is(err, data.ErrMissingFile) {
		return nil, "", fmt.Errorf("this workspace has neither plans nor mined plans: mine them from the training answers first (strata mine-plans %s), or import plans (strata import --plans)", ws.Dir)
	}
	return recs, path, err
}

func newTrainMoRCmd(u *ui) *cobra.Command {
	var f trainFlags
	var planner, mined string
	var noTF, noSF, noTI, lastNode, noText, noStruct bool
	var negatives int
	cmd := &cobra.Command{
		Use:   "mor WORKSPACE [--planner RUNDIR/best]",
		Short: "Train MoR's structure-aware trajectory reranker over the mixed traversal",
		Long: `Train MoR's reranker: for every training query, walk its plan with the mixed
structural-textual traversal and score each candidate of the pool from its
trajectory (textual fingerprint: BM25 of each path node and the dense score;
structural fingerprint: the node-type sequence; traversal identifier: how
each step was reached), with softmax cross-entropy of a gold candidate
against --negatives others of the pool sampled with replacement. Training
uses the workspace's plans; with --planner, validation and serving plan with
the trained planner instead. A workspace without plans trains from the train
split's mined plans (strata mine-plans; F1 >= 0.5) and needs --planner. The
--no-* flags are MoR's feature ablations.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, d, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			var p *infer.Planner
			if planner != "" {
				if planner, err = filepath.Abs(planner); err != nil {
					return err
				}
				pm, err := infer.LoadModel(ws, planner)
				if err != nil {
					return err
				}
				pt, ok := pm.(*infer.PlannedTraversal)
				if !ok {
					return fmt.Errorf("--planner %s is not a planner checkpoint", planner)
				}
				p = pt.Planner
			}
			name := "mor"
			for _, a := range []struct {
				on     bool
				suffix string
			}{{noTF, "-no-tf"}, {noSF, "-no-sf"}, {noTI, "-no-ti"}, {lastNode, "-last-node"}, {noText, "-no-textual"}, {noStruct, "-no-structural"}} {
				if a.on {
					name += a.suffix
				}
			}
			opt := f.options(u, ws, name)
			var plans map[int]data.Plan
			if len(ws.Plans) == 0 || mined != "" {
				recs, path, err := loadMinedPlans(ws, mined)
				if err != nil {
					return err
				}
				if p == nil {
					return fmt.Errorf("MoR trained from mined plans plans its validation and served queries with a planner: train one (strata train planner %s) and pass --planner", args[0])
				}
				plans = train.MinedPlans(recs, 0.5)
				tqs, err := ws.SKB.QA.Split(data.SplitTrain)
				if err != nil {
					return err
				}
				n := 0
				for _, q := range tqs {
					if _, ok := plans[q.ID]; ok {
						n++
					}
				}
				fmt.Fprintf(u.out, "training from mined plans (%s: %d of %d train questions with F1 >= 0.5)\n", path, n, len(tqs))
			}
			_, res, err := train.TrainMoR(cmd.Context(), ws, d, p, train.MoROptions{
				Model:     models.TrajectoryConfig{UseTF: !noTF, UseSF: !noSF, UseTI: !noTI},
				Negatives: negatives, Train: f.cfg, Run: opt, PlannerDir: planner, LastNodeOnly: lastNode, Plans: plans,
				Traversal: graphops.TraversalConfig{NoTextual: noText, NoStructural: noStruct}})
			if err != nil {
				return err
			}
			if err := writeRunPipeline(opt.RunDir, name); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained MoR: %d steps (%s), best %s val hit@1 %.4f\n", res.Steps, res.Stopped, res.Best, res.BestValue)
			return nil
		},
	}
	f.bind(cmd, 10, 16, 1e-3)
	cmd.Flags().StringVar(&planner, "planner", "", "planner checkpoint to plan with at validation and serving time")
	cmd.Flags().StringVar(&mined, "mined", "", "mined plans file to train from (default WORKSPACE/"+infer.MinedPlansFile+" when the workspace has no plans)")
	cmd.Flags().IntVar(&negatives, "negatives", 100, "negatives per positive, sampled with replacement from the pool")
	cmd.Flags().BoolVar(&noTF, "no-tf", false, "ablation: without the textual fingerprint")
	cmd.Flags().BoolVar(&noSF, "no-sf", false, "ablation: without the structural fingerprint")
	cmd.Flags().BoolVar(&noTI, "no-ti", false, "ablation: without the traversal identifier")
	cmd.Flags().BoolVar(&lastNode, "last-node-only", false, "ablation: features of the candidate only, not its trajectory")
	cmd.Flags().BoolVar(&noText, "no-textual-retrieval", false, "ablation: the traversal adds no textual matches after its seeds")
	cmd.Flags().BoolVar(&noStruct, "no-structural-retrieval", false, "ablation: the traversal follows no edges")
	return cmd
}

func newTrainKGQACmd(u *ui) *cobra.Command {
	var f trainFlags
	var hidden, maxHops int
	var labels string
	var sc infer.SimGRAGConfig
	cmd := &cobra.Command{
		Use:   "kgqa WORKSPACE",
		Short: "Train the KGQA pattern predictor that feeds SimGRAG (knowledge-graph question answering)",
		Long: `Train SimGRAG's query-to-pattern step without an LLM: a classifier over
relation paths (the planner's network), whose predicted path, anchored at
the question's topic entity (MetaQA's [bracketed] mention, else the linked
entity; several [bracketed] topics each anchor a path into one shared
target), becomes a pattern graph such as
  (John Krasinski, starred_actors, UNKNOWN entity 1),
  (UNKNOWN entity 1, directed_by, UNKNOWN entity 0)
that SimGRAG aligns with the graph's subgraphs by Graph Semantic Distance.

Labels: --labels plans uses the workspace's plans (MetaQA's question types,
imported by strata import --format triples); --labels mined finds, for each
training question, the relation path of at most --max-hops steps from the
topic whose end nodes best match the gold answers (F1); auto (the default)
uses plans when the workspace has them. Checkpoints are selected by val
accuracy of the predicted path; evaluate with
  strata eval WORKSPACE --model RUNDIR/best --split test --json
When the workspace has no dense channel, the default encoder is trained
first (SimGRAG embeds pattern nodes and relations with it).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, d, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			if d == nil {
				if d, err = defaultEncoder(cmd.Context(), u, ws, f.cfg.Seed); err != nil {
					return err
				}
			}
			plans := ws.Plans
			switch labels {
			case "auto":
				labels = "plans"
				if len(ws.Plans) == 0 {
					labels = "mined"
				}
			case "plans", "mined":
			default:
				return fmt.Errorf("--labels %q: want auto, plans or mined", labels)
			}
			if labels == "mined" {
				var qs []data.Query
				for _, s := range []string{data.SplitTrain, data.SplitVal} {
					part, err := ws.SKB.QA.Split(s)
					if err != nil {
						return err
					}
					qs = append(qs, part...)
				}
				u.stage("mining relation paths for %d questions", len(qs))
				var missed int
				plans, missed = infer.MinePlans(ws, qs, maxHops)
				fmt.Fprintf(u.err, "mined paths for %d of %d train and val questions (%d without a topic or a path to an answer)\n", len(plans), len(qs), missed)
			}
			opt := f.options(u, ws, "kgqa")
			kc := &infer.KGQAConfig{SimGRAG: sc.WithDefaults(), Labels: labels}
			p, res, err := train.TrainPlanner(cmd.Context(), ws, d, train.PlannerOptions{Hidden: hidden, Train: f.cfg, Run: opt, Plans: plans, KGQA: kc})
			if err != nil {
				return err
			}
			if err := writeRunPipeline(opt.RunDir, "kgqa"); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained KGQA pattern predictor (%s labels): %d relation paths, %d steps (%s), best %s val path accuracy %.4f\nevaluate with: strata eval %s --model %s --json\n",
				labels, len(p.Cfg.Templates), res.Steps, res.Stopped, res.Best, res.BestValue, args[0], filepath.Join(opt.RunDir, checkpoints.BestLink))
			return nil
		},
	}
	f.bind(cmd, 10, 64, 3e-3)
	cmd.Flags().IntVar(&hidden, "hidden", 128, "classifier hidden units")
	cmd.Flags().StringVar(&labels, "labels", "auto", "path labels: auto, plans or mined")
	cmd.Flags().IntVar(&maxHops, "max-hops", 3, "longest mined path")
	cmd.Flags().IntVar(&sc.K, "k", 100, "SimGRAG: subgraphs kept per question")
	cmd.Flags().IntVar(&sc.KNodes, "k-nodes", 8, "SimGRAG: candidate nodes per known pattern node")
	cmd.Flags().IntVar(&sc.KRels, "k-rels", 3, "SimGRAG: candidate relations per pattern triple")
	return cmd
}

func newTrainMFARCmd(u *ui) *cobra.Command {
	var f trainFlags
	var temp float64
	var onnxDir string
	var onnxThreads int
	var hard string
	cmd := &cobra.Command{
		Use:   "mfar WORKSPACE [--onnx-encoder DIR]",
		Short: "Train mFAR: multi-field adaptive retrieval (per-field BM25 and dense scorers, query-conditioned weights)",
		Long: `Train mFAR. Every candidate is decomposed into fields derived from the
schema: the whole document, each text field, and one field per relation
holding the names of its neighbours by that relation. Each field has two
scorers, BM25 over that field and the dot product of the query's and the
field's vectors (one shared encoder: the dense channel's, or an ONNX
BERT-family sentence encoder with --onnx-encoder DIR holding tokenizer.json
and model.onnx). A query's weights are softmax(q·W) over the (field, scorer)
pairs, W initialised to ones; a document's score is the weighted sum.

Training: in-batch contrastive loss with one hard negative per query drawn
from the BM25 ranks 51-100 of the whole document (--hard-negatives), dense scores divided by
--temperature. Inference divides dense scores by the same temperature, so
the weights see the scale they were trained on (mFAR's code does not, which
puts dense scores 20x below their training scale at the default 0.05).
Inference takes the top 100 of every (field, scorer) index, merges them and
rescores the union. strata explain --model RUNDIR shows a query's weights.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, d, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			o := train.MFAROptions{Train: f.cfg, Temperature: temp}
			if _, err := fmt.Sscanf(hard, "%d-%d", &o.HardFrom, &o.HardTo); err != nil {
				return fmt.Errorf("--hard-negatives %q: want FROM-TO, e.g. 51-100", hard)
			}
			var enc infer.TextEncoder
			if onnxDir != "" {
				if onnxDir, err = filepath.Abs(onnxDir); err != nil {
					return err
				}
				oe, err := infer.LoadONNXEncoder(onnxDir, infer.ONNXEncoderConfig{ORT: infer.ORTOptions{Threads: onnxThreads}})
				if err != nil {
					return err
				}
				defer oe.Close()
				enc, o.ONNXEncoder = oe, onnxDir
			} else {
				if d == nil {
					if d, err = defaultEncoder(cmd.Context(), u, ws, f.cfg.Seed); err != nil {
						return err
					}
				}
				if enc, err = infer.DenseTextEncoder(d); err != nil {
					return err
				}
				o.Dense = d.Meta.Hash
			}
			o.Run = f.options(u, ws, "mfar")
			u.stage("indexing every field and training mFAR into %s", o.Run.RunDir)
			m, res, err := train.TrainMFAR(cmd.Context(), ws, enc, o)
			if err != nil {
				return err
			}
			if err := writeRunPipeline(o.Run.RunDir, "mfar"); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained mFAR: %d fields x %d scorers, %d steps (%s), best %s val/mrr %.4f\nevaluate with: strata eval %s --model %s\n",
				len(m.Cfg.Fields), len(infer.MFARScorers), res.Steps, res.Stopped, res.Best, res.BestValue, args[0], filepath.Join(o.Run.RunDir, checkpoints.BestLink))
			return nil
		},
	}
	f.bind(cmd, 10, 32, 1e-2)
	cmd.Flags().Float64Var(&temp, "temperature", 0.05, "dense score temperature (training and inference)")
	cmd.Flags().StringVar(&onnxDir, "onnx-encoder", "", "directory with tokenizer.json and model.onnx of a sentence encoder")
	cmd.Flags().IntVar(&onnxThreads, "onnx-threads", 0, "ONNX Runtime intra-op threads (0: its default)")
	cmd.Flags().StringVar(&hard, "hard-negatives", "51-100", "BM25 ranks of the whole document that hard negatives are drawn from (mFAR: 51-100)")
	return cmd
}
