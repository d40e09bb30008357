// Package data holds the semi-structured knowledge base (SKB) model and its
// loaders: the skbdir/1 directory format, STaRK's QA CSV files and splits,
// STaRK's processed pickle/.pt files, and MetaQA-style triples with KGQA
// questions.
//
// Conventions:
//   - Node ids are dense uint32 values in file order (0..N-1).
//   - Node and relation types are small integer ids (TypeID, RelID) whose
//     names live in the Schema.
//   - A Node's Fields slice is aligned with Schema.TextFields; an empty string
//     means the field is absent.
//   - Every reader returns a *ParseError naming the file, the line and the
//     field for malformed input; no reader panics on user data.
//
// Nothing in this package knows that a model exists.
package data
