#!/usr/bin/env node
// The CLI runs from the compiled sources in lib/ (made by `npm install` through the prepare script).
import { main } from '../lib/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
