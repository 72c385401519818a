#!/usr/bin/env node
import { run } from './run.js';

void run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text)
}).then((code) => {
  process.exitCode = code;
});
