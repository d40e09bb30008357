// Package planner is strata's query planner and what is built on plans:
// plan mining from answers and the native planner. MoR's mixed traversal
// is infer/traversal.
//
// Mining (Mine) needs no LLM: anchor candidates are the question's mentions
// (graphops.MentionIndex: names and alias-like fields), plans are directed
// relation paths of up to three hops from one anchor or two anchors meeting
// at the target (graphops.Miner), scored by F1 against the gold answers,
// after the textual restriction where it helps; ties go to fewer hops, then
// fewer anchors, then the relation structure most questions chose.
//
// The planner replaces MoR's fine-tuned Llama (MoR §3.1) and GRASP's LLM
// planner: a classifier over the training plans' templates. Trained from a
// workspace's plans (generated or imported) it fills anchors by entity
// linking, as before. Trained from mined plans (a real SKB) its templates
// are relation paths with untyped anchors, a hashed linear scorer picks
// each path's anchor mention, and a plan ranker, learned on cross-fitted
// candidates of the training questions, chooses among the candidate plans
// that reach something (plan execution as verification). Checkpoints are
// selected by the validation MRR of the executed plans, and a planner's
// checkpoint serves exactly that: its plans executed (PlannedMethod over
// plan-exec). The chosen plan comes back executed and its restriction
// scored (PlanPrediction.Reach), and PlannedMethod passes that result on
// with the query (data.Query.Reach), so a served query executes its plan
// once.
package planner
