import { defineConfig } from 'vitest/config';

// The repository's own configuration: PatchProof's wrappers replace `include`, the rest applies.
export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    setupFiles: ['./test/setup.js'],
    environment: 'node'
  }
});
