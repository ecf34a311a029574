import type { SoapOperationTypes } from './schema/generated-types.js';

export type SoapOperationName = keyof SoapOperationTypes;
