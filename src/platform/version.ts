import pkg from "../../package.json" with { type: "json" };

export const SERVICE_NAME = "foodapi";
export const SERVICE_VERSION: string = pkg.version;
