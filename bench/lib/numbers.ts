export const round = (n: number, digits: number) => Number(n.toFixed(digits));
export const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : null);

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** MiB, as `du -h` and the README count it. */
export function binaryMiB(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}
