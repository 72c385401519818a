#!/usr/bin/env node
import { run } from './run.js';

void run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errTTY: process.stderr.isTTY === true,
  ...(process.stderr.columns !== undefined ? { errColumns: process.stderr.columns } : {})
}).then((code) => {
  process.exitCode = code;
});
