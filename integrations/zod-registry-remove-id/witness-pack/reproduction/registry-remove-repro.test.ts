import { expect, test } from "vitest";
import * as z from "zod/v4";
import { observe, observeThrows } from "./patchproof-oracle.cjs"; // sealed by patchproof witness seal

// What registering an id gives: "added", or the error's message.
function tryAdd(register: () => unknown): string {
  try {
    register();
    return "added";
  } catch (error) {
    return (error as Error).message;
  }
}

test("an id is free again once its schema is removed", () => {
  const reg = z.registry<{ id: string }>();
  const user = z.object({ name: z.string() });
  reg.add(user, { id: "User" });
  reg.remove(user);
  observe("reproduction:registry-remove-repro.test.ts/19", () => (tryAdd(() => reg.add(z.object({ login: z.string() }), { id: "User" }))));
});

test("register() after remove() takes the freed id", () => {
  const reg = z.registry<{ id: string }>();
  const first = z.string();
  first.register(reg, { id: "Name" });
  reg.remove(first);
  observe("reproduction:registry-remove-repro.test.ts/27", () => (tryAdd(() => z.string().min(1).register(reg, { id: "Name" }))));
});
