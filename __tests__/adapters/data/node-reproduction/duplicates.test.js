import { test } from 'node:test';

test('same name', () => {});
test('same name', () => {});
