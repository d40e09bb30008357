// Package train holds the training loop, optimizers, schedules, losses,
// negative samplers and the determinism rules (the same seed and data give
// bit-identical checkpoints). It must not import cmd.
package train
