// Package mfar is multi-field adaptive retrieval (mFAR): every candidate is
// decomposed into fields (the whole document, each text field, one field
// per relation listing the neighbours' names), each field has a BM25 and a
// dense scorer, and a query's weights are softmax(q·W) over the (field,
// scorer) pairs (models.FieldWeights).
//
// Deviations from mFAR: the encoder is frozen (the paper fine-tunes it with
// the weights); dense scores are divided by the training temperature at
// inference too (mFAR's code does not, which shrinks them 20× relative to
// BM25); inference rescores the union of every index's top 100.
package mfar
