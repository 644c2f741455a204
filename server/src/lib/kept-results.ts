/**
 * `make` remembered for the `max` keys first asked most recently (issue 14): each key's result is
 * made once and given again while it is kept; past `max`, the key first asked longest ago is
 * dropped, and made again should it be asked once more. For pure, cheap-to-keep results asked
 * again and again — a room's broadcast target, a sentence's normal form.
 */
export function keptResults<T>(make: (key: string) => T, max: number): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    let result = kept.get(key);
    if (result === undefined) {
      result = make(key);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, result);
    }
    return result;
  };
}
