import { expect } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/**
 * A command's `--json` output parsed and checked against its declared shape (src/cli/admin-model.ts):
 * one JSON document on stdout, nothing else there.
 */
export function parseJsonOutput<T extends TSchema>(schema: T, run: { exitCode: number | null; stdout: string; stderr: string }): T["static"] {
  expect({ exitCode: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr }).toEqual({ exitCode: 0, stderr: "" });
  const value = JSON.parse(run.stdout) as unknown;
  const problems = [...Value.Errors(schema, value)].map((error) => `${error.path}: ${error.message}`);
  expect(problems).toEqual([]);
  return value as T["static"];
}

/** A failed command: its exit code, and one line on stderr that says `words`. */
export function expectRefusal(run: { exitCode: number | null; stdout: string; stderr: string }, exitCode: number, ...words: string[]): void {
  expect({ exitCode: run.exitCode, stdout: run.stdout }).toEqual({ exitCode, stdout: "" });
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("foodapi: ");
  for (const word of words) expect(lines[0]).toContain(word);
}
