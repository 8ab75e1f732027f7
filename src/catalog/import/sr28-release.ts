/**
 * The repository's compressed copy of SR28, relative to the current directory like `--data-dir ./data`:
 * build.sh and `bun src/main.ts import` run from the project root. The compiled binary does not carry it.
 */
export const DEFAULT_SR28_SOURCE = "data/sr28";

/**
 * The files of SR28's ASCII release and their SHA-256, as the USDA ships them (the files of
 * sr28asc.zip, September 2015, revised May 2016; DATSRCLN.txt, the source-link table, is not part of
 * the release foodapi carries). The one list the importer checks against; data/sr28/SHA256SUMS is this
 * list written out by scripts/pack-sr28.ts, for `sha256sum -c` (a test keeps the two equal).
 */
export const SR28_RELEASE_SHA256: Readonly<Record<string, string>> = {
  "DATA_SRC.txt": "b008c5006062d6c1d25f38da5152486203e9fef4e9773c9d17cc37fae92cdba3",
  "DERIV_CD.txt": "98eeeb71a28f796bec384478c2d8e6ae0375e231a920a611de8e2fff3bdab29a",
  "FD_GROUP.txt": "1f497ae6b4b0127956d0eff4ec2d190d040bac8e6892ff0fb45773d4913033ba",
  "FOOD_DES.txt": "a0b39f3ac21703c75c855c35bd8f99df4710db2904a8c351fc5e7f5ed3596b98",
  "FOOTNOTE.txt": "fc7ad36a6bb0ceae7b5e03835d3a3a4fedef4f39c2c9d6da67f7bbccfc10078f",
  "LANGDESC.txt": "583a6139450b0cc5df46e237a1f8279da3e1298ca70374da4dadd74c6566e0c5",
  "LANGUAL.txt": "6c03b2acb753323b265a2f4d2d3b87cc7af54b22ff1ef6fdc6dd05d633b1b584",
  "NUTR_DEF.txt": "fa0c3bef08d2dbd68baf3496ae09db718f01cc3f3103b90d4c8712456cab3b20",
  "NUT_DATA.txt": "8b86e1d65bfa581e503fdafd16ce41fc04e7e4b00498c3888a04ec0c8f846759",
  "SRC_CD.txt": "4351328c88c7deb275a625c3219d4aced92a265349893ce82b4cc1481c984b7e",
  "WEIGHT.txt": "98484d7e26b3803467e65a9ab2ad8094bc94ed0c50375efb7e26a8bd60b1afae",
};

export const SR28_RELEASE_FILES = Object.keys(SR28_RELEASE_SHA256);

/** The list in `sha256sum` format (two spaces between checksum and name), as data/sr28/SHA256SUMS holds it. */
export function formatSha256Sums(): string {
  return SR28_RELEASE_FILES.map((name) => `${SR28_RELEASE_SHA256[name]}  ${name}\n`).join("");
}
