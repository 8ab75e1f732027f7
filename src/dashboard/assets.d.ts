// Browser files embedded with `with { type: "file" }`: the import is the file's path (see platform/http/static-file.ts).
declare module "*/dist/web/dashboard.js" {
  const path: string;
  export default path;
}
declare module "*/altcha.min.js" {
  const path: string;
  export default path;
}
declare module "altcha/*" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
