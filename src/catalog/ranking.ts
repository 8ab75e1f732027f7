/**
 * Relevance order for name search: names that start with the first term, then names where every term
 * starts a word, then the rest; shorter names first within each; food number last, so the order is total.
 */

export interface Candidate {
  readonly foodNumber: string;
  readonly name: string;
  /** The folded name the terms were matched against. */
  readonly searchName: string;
}

export function matchesAllTerms(searchName: string, terms: readonly string[]): boolean {
  return terms.every((term) => searchName.includes(term));
}

export function relevanceTier(searchName: string, terms: readonly string[]): number {
  if (searchName.startsWith(terms[0]!)) return 0;
  if (terms.every((term) => occursAtWordStart(searchName, term))) return 1;
  return 2;
}

function occursAtWordStart(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!)) return true;
  }
  return false;
}

export function rankCandidates<T extends Candidate>(candidates: readonly T[], terms: readonly string[]): T[] {
  const keyed = candidates.map((candidate) => ({ candidate, tier: relevanceTier(candidate.searchName, terms) }));
  keyed.sort(
    (a, b) =>
      a.tier - b.tier ||
      a.candidate.name.length - b.candidate.name.length ||
      (a.candidate.foodNumber < b.candidate.foodNumber ? -1 : a.candidate.foodNumber > b.candidate.foodNumber ? 1 : 0),
  );
  return keyed.map((k) => k.candidate);
}
