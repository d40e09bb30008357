// Package vec holds element-wise float32 kernels of the training loops: the
// ReLU and its backward mask, a row accumulation, and the AdamW update. Each
// has a pure-Go reference and, on amd64 with AVX2, an assembly version that
// runs eight values at a time with the same IEEE operations in the same
// order, so both give bit-identical results (tested value for value on
// random inputs, every length from 0 to beyond a vector, and special values).
package vec
