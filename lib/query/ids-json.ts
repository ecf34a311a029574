/**
 * A returnIdsOnly answer written piece by piece: the same text `JSON.stringify` gives for
 * `{ objectIdFieldName, objectIds }` (indented by two spaces for f=pjson, wrapped for JSONP), produced
 * one batch of ids at a time so that no more than a batch is ever held, whatever the number of ids.
 */
export interface JsonTextOptions {
  pretty: boolean;
  /** A JSONP callback name, already checked. */
  callback?: string;
}

export async function* idsJsonText(
  objectIdFieldName: string,
  batches: AsyncIterable<readonly number[]>,
  { pretty, callback }: JsonTextOptions,
): AsyncGenerator<string> {
  const name = JSON.stringify(objectIdFieldName);
  const open = callback ? `${callback}(` : '';
  yield pretty
    ? `${open}{\n  "objectIdFieldName": ${name},\n  "objectIds": [`
    : `${open}{"objectIdFieldName":${name},"objectIds":[`;
  const separator = pretty ? ',\n    ' : ',';
  let empty = true;
  for await (const ids of batches) {
    if (ids.length === 0) continue;
    const text = ids.map(idText).join(separator);
    yield empty ? (pretty ? `\n    ${text}` : text) : `${separator}${text}`;
    empty = false;
  }
  const close = pretty ? (empty ? ']\n}' : '\n  ]\n}') : ']}';
  yield callback ? `${close});` : close;
}

/** An id as JSON.stringify writes a number (a non-finite one is null). */
const idText = (id: number): string => (Number.isFinite(id) ? String(id) : 'null');
