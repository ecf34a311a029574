import { Client } from 'minio';
import { stack } from './portal-client.js';

/** A MinIO client on the test stack's server, for what the product's ObjectStore does not do. */
export function minioClient(): Client {
  const { endpoint, accessKey, secretKey } = stack().minio;
  const url = new URL(endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey,
    secretKey,
    region: 'us-east-1',
  });
}
