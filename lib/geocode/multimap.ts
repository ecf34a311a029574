/** Appends a value to the list a map holds under a key, creating the list on first use. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): V[] {
  const list = map.get(key);
  if (list) {
    list.push(value);
    return list;
  }
  const created = [value];
  map.set(key, created);
  return created;
}

/** Adds a value to the set a map holds under a key, creating the set on first use. */
export function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
