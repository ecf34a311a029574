/**
 * Request parameters from the query string, form-urlencoded and multipart bodies, looked up
 * case-insensitively because real clients differ in spelling (itemid / itemId / itemID). Uploaded files are
 * streamed to temporary files under a size limit, never held in memory; they are removed when the request
 * ends, so an interrupted or rejected upload leaves nothing behind. Only the upload operations take file
 * parts, and only from signed-in callers; form data is capped per field, in count, and in all, with a
 * small budget until the caller shows a valid token (body-budget.ts).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { ObjectStore, ObjectUpload } from '../infra/object-store.js';
import { badRequest, GeoError, invalidToken } from '../lib/errors.js';
import type { AnonymousSpool, AnonymousSpools } from './anonymous-spools.js';
import { BodyBudget, type BodyLimits, bodyTooLarge } from './body-budget.js';

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  /** Path of the temporary file holding the upload; deleted when the request ends. */
  path: string;
  size: number;
  /** The same bytes stored in the object store as they arrived (RequestAccess.stage), when they were. */
  staged?: StagedFile;
}

/**
 * A file part's copy in the object store, made while the part arrived. It is removed when the request
 * ends unless the route adopts it (keeps the object as its own, under `key`).
 */
export interface StagedFile {
  /** What the staging chose the key for (for a publish, the job id the key belongs to). */
  id: string;
  key: string;
  adopt(): void;
}

/**
 * Where file parts are stored as they arrive, beside their temporary files, so that a route that keeps
 * the file in the object store does not send it there again after the whole body is read.
 */
export interface FileStaging {
  store: Pick<ObjectStore, 'upload' | 'remove'>;
  /**
   * The id and key (and content type) a part of this field, with this file name and type, is stored
   * under, or undefined to keep it on disk only.
   */
  target(
    field: string,
    file: { filename: string; mimeType: string },
  ): { id: string; key: string; contentType?: string } | undefined;
}

export interface RequestParams {
  get(name: string): string | undefined;
  has(name: string): boolean;
  /** All text parameters, keys lower-cased. */
  all(): Record<string, string>;
  file(name: string): UploadedFile | undefined;
  files(): UploadedFile[];
}

export interface ParamLimits extends BodyLimits {
  tmpDir: string;
  maxUploadBytes: number;
  /** Most parameters (query string and body together). */
  maxFields: number;
}

/** What this request may send: files (upload operations only), and how a token is checked. */
export interface RequestAccess {
  acceptsFiles: boolean;
  /** The token from a header, if any (one in the query string is found here). */
  token?: string;
  signsIn: (token: string) => Promise<boolean>;
  /** Where the request comes from, for the per-address cap on files spooled before a token. */
  address?: string;
  /** The process's bound on files spooled before a token is seen; none when absent. */
  spools?: AnonymousSpools;
  /**
   * The request's body as the Node stream it arrives on, when the server has one (the Node adapter's
   * IncomingMessage). Read directly, a body's bytes are not copied into and out of a web stream on the
   * way (that copy was 13% of an 83 MB upload's CPU samples, with more garbage to collect); without it
   * `request.body` is read.
   */
  body?: Readable;
  /** Staging in the object store (see FileStaging) for the file parts this route keeps there. */
  stage?: FileStaging;
}

/**
 * What a temporary file's write stream holds before it stops the part: chunks that arrive while a write
 * is under way go out together in the next one (one `writev`), instead of one write a 64 KB chunk. An
 * 83 MB file was written in a third of the time as with the default 16 KB.
 */
export const WRITE_BUFFER_BYTES = 1024 * 1024;

const tooManyFields = (max: number) =>
  badRequest('Too many parameters.', [`A request may carry at most ${max} parameters (FORM_MAX_FIELDS).`]);

export function tooLarge(limit: number): GeoError {
  return new GeoError({
    code: 413,
    message: 'Request entity too large.',
    details: [`The upload exceeds the limit of ${limit} bytes.`],
  });
}

function makeParams(fields: Map<string, string>, files: Map<string, UploadedFile>): RequestParams {
  return {
    get: (name) => fields.get(name.toLowerCase()),
    has: (name) => fields.has(name.toLowerCase()) || files.has(name.toLowerCase()),
    all: () => Object.fromEntries(fields),
    file: (name) => files.get(name.toLowerCase()),
    files: () => [...files.values()],
  };
}

/** Later values win, body over query, as servers that merge both usually do. */
function addField(fields: Map<string, string>, name: string, value: string) {
  fields.set(name.toLowerCase(), value);
}

/** One parameter of a query string (no `?`), read as parseParams reads it: any case, the last one wins. */
export function queryParam(query: string, name: string): string | undefined {
  const fields = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(query)) addField(fields, k, v);
  return fields.get(name.toLowerCase());
}

export async function parseParams(
  request: Request,
  limits: ParamLimits,
  access: RequestAccess,
): Promise<{ params: RequestParams; cleanup: () => Promise<void> }> {
  const fields = new Map<string, string>();
  const files = new Map<string, UploadedFile>();
  /** Every file part written, a repeated name's earlier parts included: all are removed at the end. */
  const written: UploadedFile[] = [];
  const staged = new Map<string, { file: UploadedFile; adopted: boolean }>();
  const cleanup = async () => {
    await Promise.all([
      ...written.map((f) => rm(f.path, { force: true })),
      ...[...staged.values()].flatMap(({ file, adopted }) =>
        adopted || !file.staged ? [] : [access.stage?.store.remove(file.staged.key).catch(() => {})],
      ),
    ]);
  };
  let count = 0;
  for (const [k, v] of new URL(request.url).searchParams) {
    if (++count > limits.maxFields) throw tooManyFields(limits.maxFields);
    addField(fields, k, v);
  }
  const budget = new BodyBudget(limits, access.token ?? fields.get('token'), access.signsIn);

  const type = request.headers.get('content-type') ?? '';
  const hasBody = access.body !== undefined || request.body !== null;
  if (hasBody && (request.method === 'POST' || request.method === 'PUT')) {
    const state: MultipartState = { fields, files, written, staged, count, budget, access };
    try {
      if (type.startsWith('multipart/form-data')) {
        await readMultipart(request, type, limits, state);
        if (files.size > 0) await budget.checkFiles();
      } else if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
        const text = await readText(bodyOf(request, access), budget);
        for (const [k, v] of new URLSearchParams(text)) {
          if (++count > limits.maxFields) throw tooManyFields(limits.maxFields);
          addField(fields, k, v);
        }
      }
    } catch (e) {
      await cleanup();
      throw e;
    } finally {
      // Signed in, or refused and removed: either way the files no longer count as anonymous.
      state.spool?.release();
    }
  }
  return { params: makeParams(fields, files), cleanup };
}

/** The request's body as a Node stream: the one it arrives on when given, else its web stream adapted. */
function bodyOf(request: Request, access: RequestAccess): Readable {
  return access.body ?? Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
}

/** A urlencoded body; past the anonymous budget, a token among the fields read so far may raise it. */
async function readText(body: AsyncIterable<Uint8Array>, budget: BodyBudget): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    chunks.push(Buffer.from(chunk));
    if (size > budget.allowed) {
      if (!budget.hasToken) budget.sawToken(tokenIn(Buffer.concat(chunks).toString('utf8')));
      await budget.check(size);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The `token` field among the complete fields of a urlencoded prefix. */
function tokenIn(prefix: string): string {
  const complete = prefix.slice(0, prefix.lastIndexOf('&') + 1);
  for (const [k, v] of new URLSearchParams(complete)) if (k.toLowerCase() === 'token' && v) return v;
  return '';
}

interface MultipartState {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
  written: UploadedFile[];
  /** Files staged in the object store, by temporary path, and whether their route adopted them. */
  staged: Map<string, { file: UploadedFile; adopted: boolean }>;
  /** Parameters counted so far (the query string's). */
  count: number;
  budget: BodyBudget;
  access: RequestAccess;
  /** This request's share of the anonymous spool bound, taken at its first file without a token. */
  spool?: AnonymousSpool;
}

/**
 * Whether a file part may be written: at once with a valid token seen before it, never with an invalid
 * one (498), and otherwise within the bound on what callers not yet signed in may spool.
 */
async function admitFile(state: MultipartState): Promise<void> {
  if (state.budget.hasToken) {
    if (await state.budget.signedIn()) return;
    throw invalidToken();
  }
  if (state.access.spools) state.spool ??= state.access.spools.open(state.access.address ?? 'unknown');
}

function readMultipart(
  request: Request,
  contentType: string,
  limits: ParamLimits,
  state: MultipartState,
): Promise<void> {
  const { fields, files, count, budget, access } = state;
  mkdirSync(limits.tmpDir, { recursive: true });
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: {
          fieldSize: limits.maxFormBytes,
          fileSize: limits.maxUploadBytes,
          files: access.acceptsFiles ? 20 : 0,
          fields: Math.max(0, limits.maxFields - count),
        },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(badRequest('Invalid multipart request.', ['The multipart boundary is missing or malformed.']));
      return;
    }
    const body = bodyOf(request, access);
    const pending: Promise<void>[] = [];
    /** File parts not yet written out, ended by `stop`. */
    const streams = new Set<Readable>();
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
    };
    // Stops reading at once; answers only when every file being written is closed, so the caller's
    // cleanup removes complete files rather than racing with writes still opening them.
    let stopped = false;
    const stop = (e: unknown) => {
      fail(e);
      if (stopped) return;
      stopped = true;
      body.unpipe(parser);
      // The connection's own stream is left unread, not destroyed, so the refusal can still be sent on
      // it (with Connection: close, which ends the connection after it).
      if (body === access.body) body.pause();
      else body.destroy();
      parser.destroy();
      for (const stream of streams) stream.destroy();
      void Promise.allSettled(pending).then(() => reject(failure));
    };
    let textBytes = 0;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(bodyTooLarge(limits.maxFormBytes, 'FORM_MAX_BYTES'));
      textBytes += name.length + value.length;
      if (name.toLowerCase() === 'token') budget.sawToken(value);
      if (textBytes > budget.allowed) pending.push(budget.check(textBytes).catch(fail));
      addField(fields, name, value);
    });
    parser.on('fieldsLimit', () => fail(tooManyFields(limits.maxFields)));
    parser.on('filesLimit', () => {
      if (!access.acceptsFiles)
        fail(
          badRequest('This operation does not accept files.', [
            'Files are accepted only by addItem, update, publish, analyze, addAttachment, updateAttachment and loadAddressPoints.',
          ]),
        );
    });
    parser.on('file', (name, stream, info) => {
      const path = join(limits.tmpDir, `upload-${randomBytes(12).toString('hex')}`);
      const file: UploadedFile = {
        field: name,
        filename: info.filename ?? name,
        mimeType: info.mimeType,
        path,
        size: 0,
      };
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
      });
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          try {
            state.spool?.reserve(chunk.length);
          } catch (e) {
            done(e as Error);
            return;
          }
          file.size += chunk.length;
          done(null, chunk);
        },
      });
      streams.add(stream);
      // Until the pipeline below takes it (after admission), a stopped request's error lands here.
      stream.on('error', () => {});
      pending.push(
        admitFile(state)
          .then(async () => {
            files.set(name.toLowerCase(), file);
            state.written.push(file);
            // Staged under the same bounds as the temporary file (a part spooled before the token is
            // counted against the anonymous spool bound, and removed with it when refused).
            const upload = stageFile(state, file, limits.maxUploadBytes);
            try {
              const sink = createWriteStream(path, { highWaterMark: WRITE_BUFFER_BYTES });
              if (upload) await pipeline(stream, counter, sendingTo(upload), sink);
              else await pipeline(stream, counter, sink);
              if (truncated) await upload?.abort();
              else await upload?.end();
            } catch (e) {
              await upload?.abort();
              throw e;
            }
            if (truncated) fail(tooLarge(limits.maxUploadBytes));
            file.size = (await stat(path)).size;
          })
          // A refusal (a bad token, the spool bound) ends the request at once; a failed write at its end.
          .catch((e: unknown) => (e instanceof GeoError ? stop(e) : fail(e)))
          .finally(() => streams.delete(stream)),
      );
    });
    parser.on('error', (e) => stop(badRequest('Invalid multipart request.', [String((e as Error).message)])));
    parser.on('close', () => {
      Promise.all(pending).then(() => (failure ? reject(failure) : resolve()), reject);
    });
    body.on('error', (e) => stop(badRequest('The upload was interrupted.', [String(e.message)])));
    body.pipe(parser);
  });
}

/** Starts the staged copy of a file part when the request's staging wants this field; marks the file. */
function stageFile(state: MultipartState, file: UploadedFile, maxBytes: number): ObjectUpload | undefined {
  const staging = state.access.stage;
  const target = staging?.target(file.field, file);
  if (!staging || !target) return undefined;
  const entry = { file, adopted: false };
  file.staged = {
    id: target.id,
    key: target.key,
    adopt: () => {
      entry.adopted = true;
    },
  };
  state.staged.set(file.path, entry);
  return staging.store.upload(target.key, { maxBytes, contentType: target.contentType });
}

/** Passes each chunk on after handing it to the upload (which waits only while its parts are in flight). */
function sendingTo(upload: ObjectUpload): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      upload.write(chunk).then(
        () => done(null, chunk),
        (e: unknown) => done(e as Error),
      );
    },
  });
}
