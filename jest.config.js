/** Jest in ESM mode: the project and its @actions/* dependencies are ESM-only. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  testTimeout: 120000,
  // Builds (or reuses) the Docker test image when an engine is up and PATCHPROOF_TEST_IMAGE is unset.
  globalSetup: '<rootDir>/scripts/test-image-setup.mjs',
  maxWorkers: 2,
  // Untimed files (a fresh clone) in a cost order: the Docker test files first, the largest first.
  testSequencer: '<rootDir>/scripts/jest-sequencer.mjs'
};
