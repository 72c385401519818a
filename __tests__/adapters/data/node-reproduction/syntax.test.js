import { test } from 'node:test';

test('never parsed', () => { (; });
