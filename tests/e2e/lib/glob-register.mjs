// Preload (node --import) for the conformance suites on Node 20: their
// bundles import { globSync } from "fs", which Node only has from 22 on.
// When fs lacks globSync, a resolve hook hands the suites' imports of "fs"
// our fs-with-glob.mjs instead. On Node 22 and later it does nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function')
  register('./glob-hook.mjs', import.meta.url);
