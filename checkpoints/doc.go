// Package checkpoints reads and writes model checkpoints: a directory with
// model.safetensors, optimizer.safetensors and manifest.json (kind, config,
// step, epoch, seed, data fingerprint, metrics), written atomically and
// resumable bit for bit.
package checkpoints
