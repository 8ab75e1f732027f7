// Bun's import attributes for the embedded catalog: the compressed files (`with { type: "file" }`, a path) and
// its id (`with { type: "text" }`).
declare module "*.sqlite.zst" {
  const path: string;
  export default path;
}
declare module "*.answers.zst" {
  const path: string;
  export default path;
}
declare module "*.id" {
  const text: string;
  export default text;
}
