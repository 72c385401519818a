import { test } from 'node:test';

test('reported? no: the process exits first', () => {});
test('exits', () => {
  process.exit(3);
});
