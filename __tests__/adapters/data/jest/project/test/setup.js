// A repository setup file: the wrappers must leave the repository's jest configuration in force.
globalThis.sampleSetupRan = true;
