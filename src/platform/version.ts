import pkg from "../../package.json" with { type: "json" };

export const SERVICE_NAME = "foodapi";
export const SERVICE_VERSION: string = pkg.version;

// Set by build.sh (`bun build --define`): package.json's version names no build, and two builds of one version
// can serve different catalogs, so `foodapi version` says which commit (and when) this binary was built from.
declare const FOODAPI_BUILD_COMMIT: string;
declare const FOODAPI_BUILD_DATE: string;

/** The build: its commit ("-dirty" when built from uncommitted changes) and UTC date; "source" when run unbuilt. */
export const BUILD = {
  commit: typeof FOODAPI_BUILD_COMMIT === "string" ? FOODAPI_BUILD_COMMIT : "source",
  date: typeof FOODAPI_BUILD_DATE === "string" ? FOODAPI_BUILD_DATE : undefined,
};
