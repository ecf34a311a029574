/** What the integration global setup started, handed to every test file through vitest's inject(). */
export interface StackInfo {
  baseUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiPort: number;
  taskQueue: string;
  minio: { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  admin: { username: string; password: string };
  dataDir: string;
  cacheDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}
