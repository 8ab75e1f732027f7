// Files embedded with import attributes: `type: "file"` gives the file's path, `type: "text"` its contents.
declare module "*/dist/web/scalar.js.gz" {
  const path: string;
  export default path;
}
declare module "*.md" {
  const text: string;
  export default text;
}
