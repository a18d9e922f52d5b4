#!/usr/bin/env node
// The CLI runs from the compiled sources packed by esbuild, lib/packed/ (made by `npm install` through the
// prepare script: `npm run compile`).
import { main } from '../lib/packed/main.js';

process.exitCode = await main(process.argv.slice(2));
