import { describe, expect, test } from "bun:test";
import { Kind } from "@sinclair/typebox";
import { Elysia, t, ValidationError } from "elysia";
import { unionEnum } from "../../src/platform/http/schema";

describe("unionEnum", () => {
  test("makes the schema Elysia's t.UnionEnum makes, kind included, options kept", () => {
    const ours = unionEnum(["asc", "desc"], { description: "order" });
    const elysias = t.UnionEnum(["asc", "desc"], { description: "order" });
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(elysias)));
    expect((ours as unknown as Record<symbol, unknown>)[Kind]).toBe("UnionEnum");
    expect(ours).toMatchObject({ type: "string", enum: ["asc", "desc"], default: "asc", description: "order" });
  });

  test("Elysia validates it as its own: a listed value passes, another is refused", async () => {
    const app = new Elysia().onError(({ error }) => (error instanceof ValidationError ? new Response("refused", { status: 422 }) : undefined)).get("/", ({ query }) => query.order, {
      query: t.Object({ order: unionEnum(["asc", "desc"]) }),
    });
    const asc = await app.handle(new Request("http://localhost/?order=asc"));
    expect(asc.status).toBe(200);
    expect(await asc.text()).toBe("asc");
    const other = await app.handle(new Request("http://localhost/?order=sideways"));
    expect(other.status).toBe(422);
  });
});
