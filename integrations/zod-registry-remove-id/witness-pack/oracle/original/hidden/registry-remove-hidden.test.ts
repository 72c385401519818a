import { expect, test } from "vitest";
import * as z from "zod/v4";

function tryAdd(register: () => unknown): string {
  try {
    register();
    return "added";
  } catch (error) {
    return (error as Error).message;
  }
}

test("the same schema can be registered again under its old id", () => {
  const reg = z.registry<{ id: string; title?: string }>();
  const point = z.object({ x: z.number(), y: z.number() });
  reg.add(point, { id: "Point" });
  reg.remove(point);
  expect(tryAdd(() => reg.add(point, { id: "Point", title: "again" }))).toBe("added");
  expect(reg.get(point)).toEqual({ id: "Point", title: "again" });
});

test("toJSONSchema of a registry leaves removed schemas out", () => {
  const reg = z.registry<{ id: string }>();
  const a = z.string();
  const b = z.number();
  reg.add(a, { id: "Alpha" });
  reg.add(b, { id: "Beta" });
  reg.remove(a);
  expect(Object.keys(z.toJSONSchema(reg).schemas).sort()).toEqual(["Beta"]);
});

test("removing a schema that has no id keeps the other ids taken", () => {
  const reg = z.registry<{ id?: string; title?: string }>();
  const kept = z.string();
  const plain = z.boolean();
  reg.add(kept, { id: "Kept" });
  reg.add(plain, { title: "no id" });
  reg.remove(plain);
  expect(tryAdd(() => reg.add(z.number(), { id: "Kept" }))).toBe("ID Kept already exists in the registry");
});

test("removing one schema frees its id only", () => {
  const reg = z.registry<{ id: string }>();
  const one = z.string();
  const two = z.number();
  reg.add(one, { id: "One" });
  reg.add(two, { id: "Two" });
  reg.remove(one);
  expect(tryAdd(() => reg.add(z.bigint(), { id: "Two" }))).toBe("ID Two already exists in the registry");
  expect(tryAdd(() => reg.add(z.bigint(), { id: "One" }))).toBe("added");
});

test("an id given with .meta() is freed when the global registry removes the schema", () => {
  const first = z.string().meta({ id: "pp_hidden_meta_id" });
  z.globalRegistry.remove(first);
  let second: z.ZodType | undefined;
  expect(tryAdd(() => (second = z.number().meta({ id: "pp_hidden_meta_id" })))).toBe("added");
  if (second !== undefined) z.globalRegistry.remove(second);
});

test("remove() of a schema that was never added changes nothing", () => {
  const reg = z.registry<{ id: string }>();
  const held = z.string();
  reg.add(held, { id: "Held" });
  reg.remove(z.string());
  expect(reg.get(held)).toEqual({ id: "Held" });
  expect(tryAdd(() => reg.add(z.number(), { id: "Held" }))).toBe("ID Held already exists in the registry");
});
