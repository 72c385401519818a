#!/usr/bin/env node
import { run } from './run.js';

// Off a terminal, stderr is a plain stream with neither isTTY nor columns, whatever @types/node's WriteStream says.
const stderr: { isTTY?: boolean; columns?: number } = process.stderr;

void run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errTTY: stderr.isTTY === true,
  ...(stderr.columns !== undefined ? { errColumns: stderr.columns } : {})
}).then((code) => {
  process.exitCode = code;
});
