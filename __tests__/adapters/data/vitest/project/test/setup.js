// A repository setup file: the wrappers must leave the repository's vitest configuration in force.
globalThis.sampleSetupRan = true;
