/**
 * Search folds names and queries the same way: compatibility-decomposed, combining marks dropped,
 * lower-cased. So `Jalapeño` finds "jalapeno" and `BUTTER` finds "Butter".
 */
export function foldForSearch(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}
