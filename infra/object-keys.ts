/** Where a publish job keeps its files in the bucket: the source it reads, under the job's own prefix. */

/** Every object of a publish job starts with this; deleting the service removes the prefix. */
export const publishJobPrefix = (jobId: string): string => `publish/${jobId}/`;

/** The job's copy of the data it publishes (uploaded file, item data or tile package). */
export const publishSourceKey = (jobId: string): string => `${publishJobPrefix(jobId)}source`;

/** Every object of an item (its file, thumbnail, metadata) starts with this; deleting the item removes it. */
export const itemPrefix = (itemId: string): string => `items/${itemId}/`;

/** The item's file. */
export const itemDataKey = (itemId: string): string => `${itemPrefix(itemId)}data`;

/** An analyze call's temporary objects (the upload's copy, the answer); the API removes them when it answers. */
export const analyzePrefix = (analysisId: string): string => `analyze/${analysisId}/`;
export const analyzeSourceKey = (analysisId: string): string => `${analyzePrefix(analysisId)}source`;
export const analyzeResultKey = (analysisId: string): string => `${analyzePrefix(analysisId)}result.json`;
