// Package planner predicts plans. Plans are mined from answers in
// graphops/mine; MoR's mixed traversal is infer/traversal.
//
// The planner replaces MoR's fine-tuned Llama (MoR §3.1) and GRASP's LLM
// planner: a classifier over the training plans' templates (Classifier),
// in one of two planners behind one interface (Predictor), which every
// plan-based method, MoR, GRASP and KGQA plan through. TemplatePlanner,
// trained from a workspace's plans (generated or imported), fills typed
// anchors by entity linking. LinkingPlanner, trained from mined plans (a
// real SKB), has relation paths with untyped anchors as templates: a
// hashed linear scorer picks each path's anchor mention, every candidate
// plan with a multi-hop path is tried with and without its middle nodes
// ranked by the question (data.RankMark), every restricted candidate whose
// reach states an attribute the question names (a learned key such as
// "released" before a word of the question) is tried filtered to the nodes
// that state it (data.Plan.Attributes), and a plan ranker, learned on
// cross-fitted candidates of the training questions, chooses among the
// candidate plans that reach something (plan execution as verification)
// from their probabilities, reaches and restriction scores, the answer
// type the question's lead words expect (LeadTypes), how well the
// question's words support the plan's relations (RelWords) and whether
// the plan puts first a node the question names (NamedAnswers).
// Checkpoints are selected by the validation MRR of the executed plans,
// and a planner's checkpoint serves exactly that: its plans executed
// (PlannedMethod over plan-exec). The chosen plan comes back executed and
// its restriction scored (infer.PlanPrediction.Reach), and PlannedMethod passes
// that result on with the query (data.Query.Reach), so a served query
// executes its plan once.
package planner
