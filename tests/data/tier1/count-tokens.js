// Prints the Claude token count of each file named on the command line,
// one per line, measured with @anthropic-ai/tokenizer (a test-only
// dependency found through NODE_PATH). Used by tests/unit/test_miniindex
// and tests/cli/mini-index.sh to check the mini-index budget.
'use strict';
const fs = require('fs');
const { countTokens } = require('@anthropic-ai/tokenizer');
for (const f of process.argv.slice(2))
	console.log(countTokens(fs.readFileSync(f, 'utf8')));
