// Bun's import attributes for embedded SQLite databases (`with { type: "sqlite", embed: "true" }`).
declare module "*.sqlite" {
  const database: import("bun:sqlite").Database;
  export default database;
}
