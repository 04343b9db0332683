// An exact JSON parser: JSON.parse turns 382.10 into the binary float
// 382.1, losing the amount's text. parseExact reads the raw response text
// instead and keeps the number of every property named in amountKeys as its
// exact decimal string ("382.10"); other numbers (ids, nights, counts)
// become JavaScript numbers as JSON.parse would make them.

/**
 * Parses JSON text like JSON.parse, except that a number held by a property
 * whose name is in amountKeys is returned as its exact source text.
 */
export function parseExact(text: string, amountKeys: ReadonlySet<string>): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON: ${what} at position ${i}`);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      }
      i += c === '\\' ? 2 : 1;
    }
    return fail('unterminated string');
  };
  const num = (): string => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('bad number');
    i += m![0].length;
    return m![0];
  };
  const value = (key: string | null): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const k = str();
        ws();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        // A JSON object may hold "__proto__": define it as a plain property.
        Object.defineProperty(obj, k, { value: value(k), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        // Items of an array of amounts are amounts too.
        arr.push(value(key));
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const n = num();
      return key !== null && amountKeys.has(key) ? n : Number(n);
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    return fail('unexpected character');
  };
  const v = value(null);
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}
