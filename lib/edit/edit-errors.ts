/** Per-edit failures, reported inside the results as ArcGIS does: `{code, description}`. */
export interface EditError {
  code: number;
  description: string;
}

export class EditFailure extends Error {
  readonly error: EditError;
  constructor(code: number, description: string) {
    super(description);
    this.name = 'EditFailure';
    this.error = { code, description };
  }
}

/** A value, geometry or permission that cannot be applied. */
export const editFailure = (description: string): EditFailure => new EditFailure(1000, description);
/** The object id names no feature (or none the caller may see). */
export const objectMissing = (objectId: number): EditFailure =>
  new EditFailure(1019, `Object is missing: no feature has object id ${objectId}.`);
/** Every other edit of a request whose rollbackOnFailure undid all of it. */
export const ROLLED_BACK: EditError = { code: 1003, description: 'Operation rolled back.' };
