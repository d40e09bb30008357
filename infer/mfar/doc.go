// Package mfar is multi-field adaptive retrieval (mFAR): every candidate is
// decomposed into fields (the whole document, the document with its
// neighbour line, each text field, one field per relation listing the
// neighbours' names), each field has a BM25 and a dense scorer, and a
// query's weights are softmax(q·W) over the (field, scorer) pairs
// (models.FieldWeights).
//
// Deviations from mFAR: the encoder is frozen by default (the paper
// fine-tunes it with the weights; --finetune-encoder does); dense scores
// are divided by the training temperature at inference too (mFAR's code
// does not, which shrinks them 20× relative to BM25); inference rescores
// the union of every index's top 100. Three additions, each an option with
// mFAR's behaviour one flag away: the lexical scorer reads Snowball stems
// (Config.Lexical, --lexical bm25 for mFAR's); a relation field names a
// neighbour by its other names too where the SKB has alias fields
// (Config.Aliases, --names-only); and a "doc+neighbours" field, the
// document with the names of its first neighbours by its own edges (as
// the encoder reads it; the "reading" channel reads edges in too), joins
// the fields (--no-reading-field).
package mfar
