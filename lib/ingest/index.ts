/** Pure record mapping and inference behind analyze and publish of uploaded tables. */
export {
  type AttributeValue,
  type CoercedRow,
  coerceRow,
  type ParsedCell,
  type ParseOptions,
  parseCellValue,
} from './cell-values.js';
export { dateFormatsOf, parseDate, parseDateInZone, timeZoneOffsetMinutes } from './date-values.js';
export { ANALYZE_SAMPLE_BYTES, type Delimiter, detectDelimiter, detectQualifier } from './delimited-text.js';
export { cleanHeader, MAX_FIELD_NAME_LENGTH, sanitizeFieldName, sanitizeFieldNames } from './field-names.js';
export type * from './field-types.js';
export {
  type InferOptions,
  inferFields,
  type SampleColumns,
  type SampleRows,
  stringLength,
} from './infer-fields.js';
export { sqlTypeOf, toLayerFields } from './layer-fields.js';
export {
  type AddressRole,
  addressRoleOf,
  detectAddressFields,
  detectLocationFields,
  type LocationDetection,
} from './location-fields.js';
export { type LocaleConventions, localeConventions } from './source-locale.js';
export { decode, decoderFor, detectEncoding, isValidUtf8, type TextEncodingName } from './text-encoding.js';
export { classifyValue, parseNumber, type ValueClass } from './value-classes.js';
