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
//     field for malformed input; no reader panics on user data, hangs, or
//     allocates more than its input justifies (pickle.go, torch.go).
//   - Text must be UTF-8. Every reader refuses invalid UTF-8 with the file,
//     the line and column (or the CSV column, or the path inside a pickle)
//     and ErrEncoding; none replaces bytes, so what is imported is what the
//     file holds.
//   - Values quoted in errors are clipped to about 200 bytes, and a whole
//     message to about 1 KB.
//   - Files are validated where they are read; what depends on another file
//     (plans against the schema and the questions) has a Validate function
//     (validate.go) for the caller that has both.
//
// Nothing in this package knows that a model exists.
package data
