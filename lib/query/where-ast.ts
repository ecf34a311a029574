/**
 * Typed syntax tree of an ArcGIS standardized where clause. Value nodes compute a value; condition
 * nodes are true, false or unknown. The parser only builds trees where each operand has the right
 * sort, so the compiler never meets `(a = 1) + 2` or `x AND 3`.
 */
export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type ArithmeticOperator = '+' | '-' | '*' | '/';
export type DatePart = 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';
export type TrimSide = 'BOTH' | 'LEADING' | 'TRAILING';
export type CastType = 'INT' | 'FLOAT' | 'CHAR' | 'DATE' | 'TIMESTAMP';
export type CurrentValue = 'CURRENT_DATE' | 'CURRENT_TIME' | 'CURRENT_TIMESTAMP';

export type ValueExpr =
  /** `text` keeps the literal as written so large integers are not rounded through a double. */
  | { type: 'number'; value: number; text: string }
  | { type: 'string'; value: string }
  | { type: 'null' }
  /** A calendar day, `yyyy-mm-dd`. */
  | { type: 'date'; value: string }
  /** An instant, ISO 8601 in UTC with milliseconds (`2012-05-29T15:14:25.000Z`). */
  | { type: 'timestamp'; value: string }
  /** A time of day, `hh:mm:ss[.fff]`. */
  | { type: 'time'; value: string }
  /** A duration as PostgreSQL interval text, e.g. `3 days` or `1 day 02:00:00`. */
  | { type: 'interval'; value: string }
  | { type: 'current'; value: CurrentValue }
  | { type: 'field'; name: string }
  | { type: 'negate'; operand: ValueExpr }
  | { type: 'arithmetic'; operator: ArithmeticOperator; left: ValueExpr; right: ValueExpr }
  | { type: 'call'; name: FunctionName; args: ValueExpr[] }
  | { type: 'extract'; part: DatePart; operand: ValueExpr }
  | { type: 'trim'; side: TrimSide; characters: ValueExpr | null; operand: ValueExpr }
  | { type: 'cast'; operand: ValueExpr; to: CastType }
  /** Only in a `having` clause: an aggregate over the group's rows; a null operand is COUNT(*). */
  | { type: 'aggregate'; fn: AggregateName; operand: ValueExpr | null };

/** The aggregate functions ArcGIS documents for `having`. */
export type AggregateName = 'AVG' | 'COUNT' | 'MAX' | 'MIN' | 'STDDEV' | 'SUM' | 'VAR';

export type Condition =
  | { type: 'and'; operands: Condition[] }
  | { type: 'or'; operands: Condition[] }
  | { type: 'not'; operand: Condition }
  | { type: 'compare'; operator: ComparisonOperator; left: ValueExpr; right: ValueExpr }
  | { type: 'like'; negated: boolean; operand: ValueExpr; pattern: ValueExpr; escape: string | null }
  | { type: 'in'; negated: boolean; operand: ValueExpr; list: ValueExpr[] }
  | { type: 'between'; negated: boolean; operand: ValueExpr; low: ValueExpr; high: ValueExpr }
  | { type: 'isNull'; negated: boolean; operand: ValueExpr };

/**
 * Functions called with the plain `NAME(arg, ...)` form. SUBSTRING and POSITION also have keyword
 * forms (`SUBSTRING(x FROM a FOR b)`, `POSITION(a IN b)`) that the parser turns into the same node.
 */
export type FunctionName =
  | 'UPPER'
  | 'LOWER'
  | 'CHAR_LENGTH'
  | 'CONCAT'
  | 'SUBSTRING'
  | 'POSITION'
  | 'ABS'
  | 'CEILING'
  | 'FLOOR'
  | 'ROUND'
  | 'TRUNCATE'
  | 'MOD'
  | 'POWER'
  | 'LOG'
  | 'LOG10'
  | 'SIN'
  | 'COS'
  | 'TAN'
  | 'COALESCE'
  | 'NULLIF';
