module github.com/strata-retrieval/strata

go 1.26.8

require (
	github.com/google/go-cmp v0.6.0
	github.com/kelindar/column v0.4.1
	github.com/klauspost/compress v1.17.11
	github.com/nlpodyssey/gopickle v0.2.0
	github.com/schollz/progressbar/v3 v3.14.6
	github.com/spf13/cobra v1.8.1
	github.com/zeebo/xxh3 v1.0.2
	golang.org/x/term v0.22.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/kelindar/bitmap v1.4.1 // indirect
	github.com/kelindar/intmap v1.1.0 // indirect
	github.com/kelindar/iostream v1.3.0 // indirect
	github.com/kelindar/simd v1.1.2 // indirect
	github.com/kelindar/smutex v1.0.0 // indirect
	github.com/klauspost/cpuid/v2 v2.2.5 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	github.com/tidwall/btree v1.6.0 // indirect
	golang.org/x/sys v0.22.0 // indirect
)
