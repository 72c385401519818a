// A module-global registry of ids, as zod's `globalRegistry` (`.meta({ id })`): an id can be taken once per process.
const ids = new Map();

export function register(id, schema) {
  if (ids.has(id)) throw new Error(`ID ${id} already exists in the registry`);
  ids.set(id, schema);
  return schema;
}

export function lookup(id) {
  return ids.get(id);
}
