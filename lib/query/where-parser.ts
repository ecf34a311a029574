import { invalidWhere } from './query-errors.js';
import type {
  AggregateName,
  ArithmeticOperator,
  ComparisonOperator,
  Condition,
  FunctionName,
  ValueExpr,
} from './where-ast.js';
import { FUNCTIONS, isFunctionName, nativeFunctionName } from './where-functions.js';
import { parseBetween, parseInList, parseLike } from './where-predicates.js';
import { parseSpecialForm } from './where-special-forms.js';
import { type Token, tokenize } from './where-tokenizer.js';

/**
 * Recursive-descent parser for the SQL-92 subset of ArcGIS standardized queries.
 * Precedence, loosest first: OR, AND, NOT, predicates (comparison, LIKE, IN, BETWEEN, IS NULL),
 * + -, * /, unary minus. Trees deeper than MAX_WHERE_DEPTH are refused so hostile input cannot
 * exhaust the stack here or in the compiler; AND/OR chains are kept flat and do not add depth.
 */
export const MAX_WHERE_DEPTH = 48;

/** A parsed node with its tree depth; `sort` tells values from conditions. */
export type Parsed =
  | { sort: 'value'; node: ValueExpr; depth: number }
  | { sort: 'condition'; node: Condition; depth: number };

const COMPARISONS = new Set(['=', '<>', '<', '<=', '>', '>=']);
/** Words that start statements or subqueries: named in the error so the reason is clear. */
const STATEMENT_WORDS = new Set(
  'SELECT INSERT UPDATE DELETE DROP CREATE ALTER TRUNCATE UNION EXEC EXECUTE GRANT EXISTS WITH INTO VALUES COPY CALL'.split(
    ' ',
  ),
);
/** Keywords that cannot begin a value. */
const RESERVED = new Set('AND OR NOT LIKE IN BETWEEN IS ESCAPE FROM FOR AS TO'.split(' '));

/**
 * How a clause is read. `dialect` native takes PostgreSQL's function names (see where-functions);
 * `aggregates` admits AVG, COUNT, MAX, MIN, STDDEV, SUM and VAR calls, as a `having` clause does.
 */
export interface ParseOptions {
  dialect?: 'standard' | 'native';
  aggregates?: boolean;
}

const AGGREGATES = new Set<string>(['AVG', 'COUNT', 'MAX', 'MIN', 'STDDEV', 'SUM', 'VAR']);

export function parseWhere(input: string, options: ParseOptions = {}): Condition {
  const parser = new WhereParser(tokenize(input), options);
  if (parser.peek().kind === 'end') throw invalidWhere('the where clause is empty');
  const root = parser.condition();
  const rest = parser.peek();
  if (rest.kind !== 'end') throw invalidWhere(`unexpected ${describe(rest)} at position ${rest.at + 1}`);
  return parser.asCondition(root, rest).node;
}

export class WhereParser {
  private pos = 0;
  /** Open recursion levels: checked on the way in, so a wall of '(' fails before the stack does. */
  private nesting = 0;
  /** Set while the arguments of an aggregate are read: aggregates do not nest. */
  private inAggregate = false;
  constructor(
    private readonly tokens: Token[],
    private readonly options: ParseOptions = {},
  ) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }

  next(): Token {
    const t = this.peek();
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'word' && t.upper === word;
  }

  isSymbol(symbol: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'symbol' && t.text === symbol;
  }

  expectSymbol(symbol: string): void {
    const t = this.next();
    if (t.kind !== 'symbol' || t.text !== symbol) {
      throw invalidWhere(`expected '${symbol}' but found ${describe(t)} at position ${t.at + 1}`);
    }
  }

  expectWord(word: string): void {
    const t = this.next();
    if (t.kind !== 'word' || t.upper !== word) {
      throw invalidWhere(`expected ${word} but found ${describe(t)} at position ${t.at + 1}`);
    }
  }

  condition(): Parsed {
    return this.chain('OR', () => this.conjunction());
  }

  private conjunction(): Parsed {
    return this.chain('AND', () => this.negation());
  }

  private chain(word: 'AND' | 'OR', operand: () => Parsed): Parsed {
    const first = operand();
    if (!this.isWord(word)) return first;
    const type = word === 'AND' ? 'and' : 'or';
    const operands: Condition[] = [];
    // Nested chains of the same operator are flattened: (a OR b) OR c is one OR of three.
    const add = (c: Condition) => {
      if (c.type === type) operands.push(...c.operands);
      else operands.push(c);
    };
    add(this.asCondition(first, this.peek()).node);
    let depth = first.depth;
    while (this.isWord(word)) {
      const op = this.next();
      const item = this.asCondition(operand(), op);
      depth = Math.max(depth, item.depth);
      add(item.node);
    }
    return this.checked({ sort: 'condition', node: { type, operands }, depth: depth + 1 });
  }

  private negation(): Parsed {
    if (!this.isWord('NOT')) return this.predicate();
    const at = this.next();
    const operand = this.asCondition(
      this.nested(() => this.negation()),
      at,
    );
    return this.checked({
      sort: 'condition',
      node: { type: 'not', operand: operand.node },
      depth: operand.depth + 1,
    });
  }

  private predicate(): Parsed {
    const left = this.additive();
    const t = this.peek();
    if (t.kind === 'symbol' && COMPARISONS.has(t.text)) {
      this.next();
      const l = this.asValue(left, t);
      const r = this.asValue(this.additive(), t);
      const node: Condition = {
        type: 'compare',
        operator: t.text as ComparisonOperator,
        left: l.node,
        right: r.node,
      };
      return this.checked({ sort: 'condition', node, depth: Math.max(l.depth, r.depth) + 1 });
    }
    if (this.isWord('IS')) {
      this.next();
      const negated = this.isWord('NOT');
      if (negated) this.next();
      this.expectWord('NULL');
      const operand = this.asValue(left, t);
      return this.checked({
        sort: 'condition',
        node: { type: 'isNull', negated, operand: operand.node },
        depth: operand.depth + 1,
      });
    }
    const negated = this.isWord('NOT') && ['LIKE', 'IN', 'BETWEEN'].some((w) => this.isWord(w, 1));
    if (negated) this.next();
    if (this.isWord('LIKE')) return parseLike(this, this.asValue(left, this.next()), negated);
    if (this.isWord('IN')) return parseInList(this, this.asValue(left, this.next()), negated);
    if (this.isWord('BETWEEN')) return parseBetween(this, this.asValue(left, this.next()), negated);
    return left;
  }

  additive(): Parsed {
    return this.arithmetic(['+', '-'], () => this.multiplicative());
  }

  private multiplicative(): Parsed {
    return this.arithmetic(['*', '/'], () => this.unary());
  }

  private arithmetic(operators: string[], operand: () => Parsed): Parsed {
    let left = operand();
    while (operators.some((o) => this.isSymbol(o))) {
      const op = this.next();
      const l = this.asValue(left, op);
      const r = this.asValue(operand(), op);
      const operator = (op.kind === 'symbol' ? op.text : '+') as ArithmeticOperator;
      const node: ValueExpr = { type: 'arithmetic', operator, left: l.node, right: r.node };
      left = this.checked({ sort: 'value', node, depth: Math.max(l.depth, r.depth) + 1 });
    }
    return left;
  }

  private unary(): Parsed {
    if (this.isSymbol('+')) {
      const op = this.next();
      return this.asValue(
        this.nested(() => this.unary()),
        op,
      );
    }
    if (!this.isSymbol('-')) return this.nested(() => this.primary());
    const op = this.next();
    const operand = this.asValue(
      this.nested(() => this.unary()),
      op,
    );
    if (operand.node.type === 'number') {
      const { value, text } = operand.node;
      return {
        sort: 'value',
        node: { type: 'number', value: -value, text: text.startsWith('-') ? text.slice(1) : `-${text}` },
        depth: 1,
      };
    }
    return this.checked({
      sort: 'value',
      node: { type: 'negate', operand: operand.node },
      depth: operand.depth + 1,
    });
  }

  private primary(): Parsed {
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return value({ type: 'number', value: Number(t.text), text: t.text });
      case 'string':
        return value({ type: 'string', value: t.value });
      case 'quoted':
        return value({ type: 'field', name: t.text });
      case 'symbol': {
        if (t.text !== '(') throw invalidWhere(`unexpected '${t.text}' at position ${t.at + 1}`);
        if (this.isWord('SELECT')) throw invalidWhere(`subqueries are not allowed (position ${t.at + 1})`);
        const inner = this.condition();
        this.expectSymbol(')');
        return this.checked({ ...inner, depth: inner.depth + 1 } as Parsed);
      }
      case 'end':
        throw invalidWhere('the where clause ends too early');
      case 'word':
        return this.word(t);
    }
  }

  private word(t: Token & { kind: 'word' }): Parsed {
    // TRUNCATE is both a statement and a math function: followed by '(' it is the function.
    if (STATEMENT_WORDS.has(t.upper) && !(isFunctionName(t.upper) && this.isSymbol('('))) {
      throw invalidWhere(`${t.upper} at position ${t.at + 1}: subqueries and statements are not allowed`);
    }
    if (RESERVED.has(t.upper)) throw invalidWhere(`unexpected keyword ${t.upper} at position ${t.at + 1}`);
    if (t.upper === 'NULL') return value({ type: 'null' });
    const special = parseSpecialForm(this, t);
    if (special) return this.checked(special);
    if (!this.isSymbol('(')) return value({ type: 'field', name: t.text });
    if (this.options.aggregates && AGGREGATES.has(t.upper))
      return this.aggregate(t, t.upper as AggregateName);
    const name: FunctionName | null =
      this.options.dialect === 'native'
        ? nativeFunctionName(t.upper)
        : isFunctionName(t.upper)
          ? t.upper
          : null;
    if (!name) throw invalidWhere(`unknown function ${t.text} at position ${t.at + 1}`);
    const spec = FUNCTIONS[name];
    this.next();
    const args: ValueExpr[] = [];
    let depth = 0;
    if (!this.isSymbol(')')) {
      do {
        const arg = this.asValue(this.additive(), this.peek());
        args.push(arg.node);
        depth = Math.max(depth, arg.depth);
      } while (this.isSymbol(',') && this.next());
    }
    this.expectSymbol(')');
    if (args.length < spec.min || args.length > spec.max) {
      const want = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
      throw invalidWhere(`${t.upper} takes ${want} argument(s), not ${args.length} (position ${t.at + 1})`);
    }
    return this.checked({ sort: 'value', node: { type: 'call', name, args }, depth: depth + 1 });
  }

  private aggregate(t: Token, fn: AggregateName): Parsed {
    if (this.inAggregate) throw invalidWhere(`aggregates do not nest (${fn} at position ${t.at + 1})`);
    this.next();
    if (fn === 'COUNT' && this.isSymbol('*')) {
      this.next();
      this.expectSymbol(')');
      return value({ type: 'aggregate', fn, operand: null });
    }
    this.inAggregate = true;
    try {
      const operand = this.asValue(this.additive(), this.peek());
      this.expectSymbol(')');
      return this.checked({
        sort: 'value',
        node: { type: 'aggregate', fn, operand: operand.node },
        depth: operand.depth + 1,
      });
    } finally {
      this.inAggregate = false;
    }
  }

  private nested<T>(parse: () => T): T {
    if (++this.nesting > MAX_WHERE_DEPTH) {
      throw invalidWhere(`the where clause is nested more than ${MAX_WHERE_DEPTH} levels deep`);
    }
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }

  asValue(p: Parsed, at: Token): Parsed & { sort: 'value' } {
    if (p.sort === 'value') return p;
    throw invalidWhere(`a condition is used where a value is expected near position ${at.at + 1}`);
  }

  asCondition(p: Parsed, at: Token): Parsed & { sort: 'condition' } {
    if (p.sort === 'condition') return p;
    throw invalidWhere(`a value is used where a condition is expected near position ${at.at + 1}`);
  }

  checked<P extends Parsed>(p: P): P {
    if (p.depth > MAX_WHERE_DEPTH)
      throw invalidWhere(`the where clause is nested more than ${MAX_WHERE_DEPTH} levels deep`);
    return p;
  }
}

const value = (node: ValueExpr): Parsed => ({ sort: 'value', node, depth: 1 });

export function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'the end of the where clause';
    case 'string':
      return 'a string literal';
    case 'number':
      return `the number ${t.text}`;
    case 'quoted':
      return `"${t.text}"`;
    default:
      return `'${t.text}'`;
  }
}
