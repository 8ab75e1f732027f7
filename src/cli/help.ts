export const HELP = `foodapi: the USDA SR28 food composition API in one binary

Usage:
  foodapi [serve] [options]              serve the API (default)
  foodapi import [SR28] [--out FILE]     build a catalog database from SR28's ASCII files: a directory of
                                         .txt or .txt.zst files, or the USDA's sr28asc.zip (default: ./data/sr28,
                                         the copy in a foodapi checkout)
  foodapi keys create --email E --name N issue an API key (creates the account if needed)
  foodapi version                        print the version
  foodapi help                           this text

Options (flag, environment variable, default):
  --port              PORT                      3000
  --host              HOST                      127.0.0.1
  --data-dir          FOODAPI_DATA_DIR          ./data
  --base-url          FOODAPI_BASE_URL          http://<host>:<port>
  --trusted-origins   FOODAPI_TRUSTED_ORIGINS   (none; comma-separated origins)
  --client-ip-header  FOODAPI_CLIENT_IP_HEADER  cf-connecting-ip (empty: TCP peer address only)
  --free-limit        FOODAPI_FREE_LIMIT        1000/1h
  --auth-limit        FOODAPI_AUTH_LIMIT        10/1m
  --trial-ip-limit    FOODAPI_TRIAL_IP_LIMIT    10/1h
  --key-issue-limit   FOODAPI_KEY_ISSUE_LIMIT   60/1h (API keys issued per account)
  --catalog           FOODAPI_CATALOG           (the embedded catalog)
  --cache-dir         FOODAPI_CACHE_DIR         $XDG_CACHE_HOME/foodapi or ~/.cache/foodapi (the embedded
                                                catalog is copied there once, to be memory-mapped)
  --workers           FOODAPI_WORKERS           one per core (processes sharing the port and state)
                      FOODAPI_TRIAL_SECRET      generated once, kept in the data directory
                      FOODAPI_SR28_DIR          ./data/sr28 (for import, when no SR28 is named)

An invalid setting stops start-up with a message naming it and exit code 2.
`;
