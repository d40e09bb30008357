package infer

import (
	"context"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// PlanPrediction is a planner's answer for one question.
type PlanPrediction struct {
	Plan data.Plan
	Prob float32 // the template's probability
	// Conf is the planner's confidence in Plan: the plan ranker's softmax
	// probability of it among the candidates that reach a node, or Prob
	// without a ranker.
	Conf     float32
	Template int // index into the planner's templates; -1 without a plan
	// Reach is Plan executed while choosing it: the candidates it reaches
	// with their restriction scores (nil: no (template, mentions) pair
	// tried reached one, and Plan is the most probable of them, or empty
	// when the question names no node).
	Reach *data.PlanReach
	// NoFit: the text-fit gate (Fit, below its calibrated threshold) says
	// no plan fits the query; Plan is empty, so the method it is passed
	// to answers with its text fallback.
	NoFit bool
	Fit   float32 // the gate's probability (1 without a gate)
	// TooLong: the question has more words than the planner plans
	// (planner.MaxPlanWords); Plan is empty, so the method answers with
	// its text fallback.
	TooLong bool
	// RuledOut: what the question names rules out every plan the planner
	// found, and its lead words the type the best answers with
	// (planner.AnchorConfig.DeclineRuledOut); Plan is empty, so the
	// method answers with its text fallback.
	RuledOut bool
	// ReadAs is the question as the planner read it when the lexicon
	// replaced some of its words (Resolve), "" when it read it as given.
	ReadAs string
}

// Apply returns q as the method the prediction is passed to reads it: with
// the predicted plan (an empty one when none was found: never the
// workspace's), its executed reach, and Passage set when the planner read
// the query as text no plan fits (NoFit) or too long to plan (TooLong).
func (p *PlanPrediction) Apply(q data.Query) data.Query {
	q.Plan, q.Reach = &p.Plan, p.Reach
	q.Passage = p.NoFit || p.TooLong
	return q
}

// Planner predicts a question's plan: what MoR, GRASP and the methods a
// planner wraps take from a trained planner (infer/planner), loaded with
// registry.LoadPlanner.
type Planner interface {
	// Predict returns the question's plan and the planner's confidence in
	// it, executed when the planner executed it to choose it. It stops
	// with ctx.Err() when ctx ends, between templates and between
	// candidate plans.
	Predict(ctx context.Context, q data.Query) (PlanPrediction, error)
	// Workspace is the workspace the planner is bound to.
	Workspace() *workspace.Workspace
}

// PlanningMethod is a method that plans each question before it ranks (a
// planner's run serves one): Planner is its planner.
type PlanningMethod interface {
	Method
	Planner() Planner
}
