// Compresses the imported catalog for embedding: build.sh runs it as `bun scripts/compress-catalog.ts IN OUT`.
// Level 19: 47 MB -> 23 MB, ~25 s once per catalog change; every level expands in under 0.1 s, so the level
// costs build time only, and the smaller download is paid for once. (Level 9 gives 24.5 MB in ~1 s.)
const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: compress-catalog.ts IN OUT");
const partial = `${output}.partial`;
await Bun.write(partial, Bun.zstdCompressSync(await Bun.file(input).bytes(), { level: 19 }));
(await import("node:fs")).renameSync(partial, output);
