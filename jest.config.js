/** Jest in ESM mode: the project and its @actions/* dependencies are ESM-only. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  testTimeout: 120000,
  maxWorkers: 2
};
