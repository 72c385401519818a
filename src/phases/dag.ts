import { ConfigurationError } from '../errors.js';
import type { OrchestratorContext, Phase } from './phase.js';

/**
 * The run DAG of the registered phases, in the order they run: every phase after the phases it
 * needs, otherwise in registry order. A name registered twice, a need nobody registered, a cycle
 * and a base-side phase that needs a candidate-side one are refused (a registry error, before any run).
 */
export function orderPhases<C extends OrchestratorContext>(registry: readonly Phase<C>[]): Phase<C>[] {
  const byName = new Map<string, Phase<C>>();
  for (const phase of registry) {
    if (byName.has(phase.name)) throw new ConfigurationError(`phase ${phase.name} is registered twice; register each phase once`);
    byName.set(phase.name, phase);
  }
  for (const phase of registry) {
    for (const need of phase.needs) {
      const needed = byName.get(need);
      if (needed === undefined) throw new ConfigurationError(`phase ${phase.name} needs phase ${need}, which is not registered; register it or drop the need`);
      if (phase.side === 'base' && needed.side === 'candidate') throw new ConfigurationError(`base-side phase ${phase.name} may not need candidate-side phase ${need}`);
    }
  }
  const ordered: Phase<C>[] = [];
  const placed = new Set<string>();
  while (ordered.length < registry.length) {
    // The first phase in registry order whose needs are all placed: a stable topological order.
    const next = registry.find((phase) => !placed.has(phase.name) && phase.needs.every((need) => placed.has(need)));
    if (next === undefined) {
      throw new ConfigurationError(
        `the phases ${registry
          .filter((p) => !placed.has(p.name))
          .map((p) => p.name)
          .join(', ')} need each other in a cycle; break the cycle`
      );
    }
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}
