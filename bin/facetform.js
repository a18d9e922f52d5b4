#!/usr/bin/env node
// The CLI runs from the bundle of the compiled sources, lib/bundle/ (made by `npm install` through the
// prepare script: `npm run compile`).
import { main } from '../lib/bundle/main.js';

process.exitCode = await main(process.argv.slice(2));
