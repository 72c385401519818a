import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import type { ArtifactSource, ListedArtifact } from './github-server.js';

/**
 * A loopback stand-in for the Actions results service, speaking the protocol `@actions/artifact` 6
 * uses, so the real `DefaultArtifactClient` runs against it unchanged:
 *
 * 1. The client reads `ACTIONS_RUNTIME_TOKEN` (a JWT; its `scp` claim carries
 *    `Actions.Results:<workflowRunBackendId>:<workflowJobRunBackendId>`) and `ACTIONS_RESULTS_URL`.
 * 2. Twirp JSON calls `POST /twirp/github.actions.results.api.v1.ArtifactService/<Method>` with
 *    `authorization: Bearer <token>`: `CreateArtifact` returns a signed upload URL;
 *    `FinalizeArtifact` checks size and `sha256:` hash; `ListArtifacts`, `GetSignedArtifactURL`
 *    and `DeleteArtifact` do what they say.
 * 3. The zip goes to the signed URL with the Azure Blob SDK: Put Block (`?comp=block`) then
 *    Put Block List (`?comp=blocklist`), or a single Put Blob. Downloads are a GET on a signed URL.
 *
 * Never answer 5xx: the client retries those with multi-second back-off.
 */

/** An artifact as stored. */
export interface StoredArtifact {
  id: number;
  name: string;
  workflowRunBackendId: string;
  workflowJobRunBackendId: string;
  /** Bytes of the committed blob (the zip, or the raw file for `skipArchive`). */
  bytes: Buffer;
  contentType: string;
  /** `sha256:<hex>` of the bytes as finalized; stays put when {@link ArtifactServer.corrupt} alters the bytes. */
  digest: string;
  finalized: boolean;
  createdAt: Date;
  expiresAt: Date | undefined;
}

/** One request the service received. */
export interface ArtifactServiceRequest {
  method: string;
  /** Path without the query string (the SAS signature is not recorded). */
  path: string;
  /** What was asked: a Twirp method (`CreateArtifact`) or a blob operation (`Put Block`, `Put Block List`, `Put Blob`, `Get Blob`). */
  operation: string;
  status: number;
  /** Why the request broke the protocol; empty when it was fine. */
  errors: string[];
}

/** Options for {@link startArtifactServer}. */
export interface ArtifactServerOptions {
  /** GITHUB_RUN_ID of the simulated run. Default 4242. */
  runId?: number;
  /** GITHUB_REPOSITORY. Default `octo-org/hello-world`. */
  repository?: string;
  /** GITHUB_API_URL to put in `env()` (the loopback GitHub server), for `findBy` look-ups. */
  apiUrl?: string;
  /** The first artifact id handed out (default 7001): services of two runs behind one GitHub server need distinct ids. */
  firstArtifactId?: number;
}

/** A running loopback artifact service. Also an {@link ArtifactSource} for the GitHub server. */
export interface ArtifactServer extends ArtifactSource {
  /** Value for ACTIONS_RESULTS_URL. */
  resultsUrl: string;
  /** Value for ACTIONS_RUNTIME_TOKEN: an unsigned JWT carrying the backend ids. */
  runtimeToken: string;
  /** The environment the client needs: runtime token, results URL and the GITHUB_* it reads. */
  env(): Record<string, string>;
  /** Stored artifacts (finalized or not), bytes copied. */
  artifacts(): StoredArtifact[];
  /** Every request received. */
  requests(): ArtifactServiceRequest[];
  /** Requests that broke the protocol. */
  invalidRequests(): ArtifactServiceRequest[];
  /**
   * Alters the stored bytes of an artifact, leaving its recorded digest alone, so a download with
   * `expectedHash` reports `digestMismatch: true`. A zip stays extractable (a header timestamp
   * changes), because the client retries a failed extraction five times, 5 s apart.
   */
  corrupt(name: string): void;
  /**
   * Stores `bytes` as a finalized artifact, as an uploader speaking the protocol directly can
   * (CreateArtifact, Put Blob with its own content type, FinalizeArtifact with the bytes' hash):
   * whoever controls a run's workflow chooses every byte of its artifacts. Returns the artifact id.
   */
  publish(name: string, bytes: Buffer, contentType?: string): number;
  close(): Promise<void>;
}

const SERVICE = '/twirp/github.actions.results.api.v1.ArtifactService/';
const BLOB_PREFIX = '/actionsresults/artifacts/';

type FieldKind = 'string' | 'int' | 'int64' | 'timestamp';
const IDS: Record<string, FieldKind> = { workflow_run_backend_id: 'string', workflow_job_run_backend_id: 'string' };
/** Fields of each request message (protobuf field names; the client sends `useProtoFieldName`). */
const MESSAGES: Record<string, Record<string, FieldKind>> = {
  CreateArtifact: { ...IDS, name: 'string', expires_at: 'timestamp', version: 'int', mime_type: 'string' },
  FinalizeArtifact: { ...IDS, name: 'string', size: 'int64', hash: 'string' },
  ListArtifacts: { ...IDS, name_filter: 'string', id_filter: 'int64' },
  GetSignedArtifactURL: { ...IDS, name: 'string' },
  DeleteArtifact: { ...IDS, name: 'string' }
};

class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string
  ) {
    super(message);
  }
}

/** Checks a Twirp JSON body against its message's fields: unknown fields and wrong types are errors. */
function checkMessage(method: string, body: unknown): string[] {
  const fields = MESSAGES[method];
  if (fields === undefined) return [`unknown method ${method}`];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['body must be a JSON object'];
  const errors: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const kind = fields[key];
    const ok =
      kind === 'string'
        ? typeof value === 'string'
        : kind === 'int'
          ? Number.isInteger(value)
          : kind === 'int64'
            ? (typeof value === 'string' && /^-?\d+$/.test(value)) || Number.isInteger(value)
            : kind === 'timestamp'
              ? typeof value === 'string' && !Number.isNaN(Date.parse(value))
              : false;
    if (kind === undefined) errors.push(`unknown field ${key}`);
    else if (!ok) errors.push(`field ${key} must be ${kind}`);
  }
  return errors;
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** Makes a zip's bytes differ without breaking extraction: the first entry's modification time. */
function corruptBytes(bytes: Buffer): void {
  if (bytes.length >= 14 && bytes.readUInt32LE(0) === 0x04034b50) {
    bytes.writeUInt16LE(bytes.readUInt16LE(10) ^ 0x0021, 10);
  } else if (bytes.length > 0) {
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
  }
}

/** Starts the service on 127.0.0.1 with a random port. */
export async function startArtifactServer(options: ArtifactServerOptions = {}): Promise<ArtifactServer> {
  const runId = options.runId ?? 4242;
  const repository = options.repository ?? 'octo-org/hello-world';
  const runBackendId = randomUUID();
  const jobBackendId = randomUUID();
  const signingKey = randomBytes(32);
  const nowSeconds = Math.floor(Date.now() / 1000);
  // alg "none": the client only decodes the token (jwt-decode); it never checks a signature.
  const runtimeToken = [
    base64url(JSON.stringify({ typ: 'JWT', alg: 'none' })),
    base64url(
      JSON.stringify({
        scp: `Actions.GenericRead:${runBackendId} Actions.UploadArtifacts:${runBackendId}:${jobBackendId} Actions.Results:${runBackendId}:${jobBackendId}`,
        iat: nowSeconds,
        nbf: nowSeconds,
        exp: nowSeconds + 6 * 3600
      })
    ),
    ''
  ].join('.');

  const stored = new Map<number, StoredArtifact>();
  const staged = new Map<number, Map<string, Buffer>>();
  const log: ArtifactServiceRequest[] = [];
  let nextId = options.firstArtifactId ?? 7001;
  let origin = '';
  const xml = new XMLParser({ preserveOrder: true, parseTagValue: false, ignoreDeclaration: true });

  const sign = (path: string, permissions: string, expires: string): string => createHmac('sha256', signingKey).update(`${permissions}\n${expires}\n${path}`).digest('base64url');
  const signedUrl = (id: number, permissions: 'cw' | 'r'): string => {
    const path = `${BLOB_PREFIX}${id}`;
    const expires = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const query = new URLSearchParams({ sv: '2025-01-05', sr: 'b', sp: permissions, se: expires, sig: sign(path, permissions, expires) });
    return `${origin}${path}?${query.toString()}`;
  };

  const findByName = (name: string, finalized: boolean): StoredArtifact | undefined =>
    [...stored.values()].find((a) => a.name === name && a.finalized === finalized && a.workflowRunBackendId === runBackendId);

  const twirp = (method: string, body: Record<string, unknown>): object => {
    // checkMessage has refused a body whose name is not a string.
    const name = typeof body['name'] === 'string' ? body['name'] : '';
    if (body['workflow_run_backend_id'] !== runBackendId || (method !== 'ListArtifacts' && body['workflow_job_run_backend_id'] !== jobBackendId)) {
      throw new TwirpError(403, 'permission_denied', 'backend ids do not match the runtime token');
    }
    switch (method) {
      case 'CreateArtifact': {
        if (name === '') throw new TwirpError(400, 'invalid_argument', 'name is required');
        if (findByName(name, true) !== undefined) {
          throw new TwirpError(409, 'already_exists', 'an artifact with this name already exists on the workflow run');
        }
        const pending = findByName(name, false);
        if (pending !== undefined) stored.delete(pending.id);
        const id = nextId++;
        stored.set(id, {
          id,
          name,
          workflowRunBackendId: runBackendId,
          workflowJobRunBackendId: jobBackendId,
          bytes: Buffer.alloc(0),
          contentType: 'application/octet-stream',
          digest: '',
          finalized: false,
          createdAt: new Date(),
          expiresAt: typeof body['expires_at'] === 'string' ? new Date(body['expires_at']) : undefined
        });
        staged.set(id, new Map());
        return { ok: true, signed_upload_url: signedUrl(id, 'cw') };
      }
      case 'FinalizeArtifact': {
        const artifact = findByName(name, false);
        if (artifact === undefined) throw new TwirpError(404, 'not_found', `no pending artifact named ${name}`);
        const size = Number(body['size'] ?? 0);
        if (size !== artifact.bytes.length) {
          throw new TwirpError(400, 'invalid_argument', `size ${size} does not match the uploaded ${artifact.bytes.length} bytes`);
        }
        const actual = `sha256:${createHash('sha256').update(artifact.bytes).digest('hex')}`;
        const hash = body['hash'];
        if (hash !== undefined && hash !== actual) {
          throw new TwirpError(400, 'invalid_argument', `hash ${typeof hash === 'string' ? hash : JSON.stringify(hash)} does not match the uploaded content ${actual}`);
        }
        artifact.digest = actual;
        artifact.finalized = true;
        staged.delete(artifact.id);
        return { ok: true, artifact_id: String(artifact.id) };
      }
      case 'ListArtifacts': {
        const list = [...stored.values()].filter(
          (a) =>
            a.finalized &&
            a.workflowRunBackendId === runBackendId &&
            (body['name_filter'] === undefined || a.name === body['name_filter']) &&
            (body['id_filter'] === undefined || a.id === Number(body['id_filter']))
        );
        return {
          artifacts: list.map((a) => ({
            workflow_run_backend_id: a.workflowRunBackendId,
            workflow_job_run_backend_id: a.workflowJobRunBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.bytes.length),
            created_at: a.createdAt.toISOString(),
            digest: a.digest
          }))
        };
      }
      case 'GetSignedArtifactURL': {
        const artifact = findByName(name, true);
        if (artifact === undefined) throw new TwirpError(404, 'not_found', `no artifact named ${name}`);
        return { signed_url: signedUrl(artifact.id, 'r') };
      }
      case 'DeleteArtifact': {
        const artifact = findByName(name, true);
        if (artifact === undefined) throw new TwirpError(404, 'not_found', `no artifact named ${name}`);
        stored.delete(artifact.id);
        return { ok: true, artifact_id: String(artifact.id) };
      }
      default:
        throw new TwirpError(404, 'bad_route', `no handler for ${method}`);
    }
  };

  const blobError = (res: ServerResponse, status: number, code: string, message: string): void => {
    res
      .writeHead(status, { 'content-type': 'application/xml', 'x-ms-error-code': code })
      .end(`<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
  };

  /** Azure Blob: Put Block, Put Block List, Put Blob, Get Blob on a signed URL. Returns protocol errors. */
  const blob = (req: IncomingMessage, url: URL, raw: Buffer, res: ServerResponse): string[] => {
    const q = url.searchParams;
    const [sp, se, sig] = [q.get('sp') ?? '', q.get('se') ?? '', q.get('sig') ?? ''];
    const write = req.method === 'PUT';
    if (sig !== sign(url.pathname, sp, se) || Date.parse(se) < Date.now() || !sp.includes(write ? 'w' : 'r')) {
      blobError(res, 403, 'AuthenticationFailed', 'Server failed to authenticate the request.');
      return ['blob request with a bad, expired or insufficient signature'];
    }
    const id = Number(url.pathname.slice(BLOB_PREFIX.length));
    const artifact = stored.get(id);
    if (artifact === undefined) {
      blobError(res, 404, 'BlobNotFound', 'The specified blob does not exist.');
      return [];
    }
    const ok = (status: number, extra: Record<string, string> = {}): void => {
      res
        .writeHead(status, {
          'x-ms-request-id': randomUUID(),
          'x-ms-version': String(req.headers['x-ms-version'] ?? '2025-01-05'),
          'x-ms-request-server-encrypted': 'true',
          date: new Date().toUTCString(),
          ...extra
        })
        .end();
    };
    if (req.headers['x-ms-structured-body'] !== undefined) {
      blobError(res, 400, 'UnsupportedHeader', 'structured message bodies are not supported here');
      return ['structured (CRC64) upload bodies are not supported by the test service'];
    }
    const comp = q.get('comp');
    if (!write) {
      if (!artifact.finalized) {
        blobError(res, 404, 'BlobNotFound', 'The specified blob does not exist.');
        return [];
      }
      res
        .writeHead(200, {
          'content-type': artifact.contentType,
          'content-length': String(artifact.bytes.length),
          'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(artifact.contentType === 'application/zip' ? `${artifact.name}.zip` : artifact.name)}`,
          'x-ms-blob-type': 'BlockBlob'
        })
        .end(artifact.bytes);
      return [];
    }
    if (artifact.finalized) {
      blobError(res, 409, 'BlobImmutable', 'The artifact is finalized.');
      return ['upload to a finalized artifact'];
    }
    const blocks = staged.get(id) ?? new Map<string, Buffer>();
    if (comp === 'block') {
      const blockId = q.get('blockid');
      if (blockId === null || blockId === '') {
        blobError(res, 400, 'InvalidQueryParameterValue', 'blockid is required');
        return ['Put Block without blockid'];
      }
      blocks.set(blockId, raw);
      staged.set(id, blocks);
      ok(201);
      return [];
    }
    if (comp === 'blocklist' || (comp === null && req.headers['x-ms-blob-type'] === 'BlockBlob')) {
      let body = raw;
      if (comp === 'blocklist') {
        const parsed = xml.parse(raw.toString('utf8')) as { BlockList?: { [tag: string]: { '#text'?: string }[] }[] }[];
        const list = parsed.find((n) => n.BlockList !== undefined)?.BlockList ?? [];
        const ids = list.flatMap((entry) => Object.values(entry).map((v) => v[0]?.['#text'] ?? ''));
        const missing = ids.filter((b) => !blocks.has(b));
        if (missing.length > 0) {
          blobError(res, 400, 'InvalidBlockList', 'The specified block list is invalid.');
          return [`Put Block List names unstaged blocks ${missing.join(', ')}`];
        }
        body = Buffer.concat(ids.map((b) => blocks.get(b) as Buffer));
      }
      artifact.bytes = body;
      artifact.contentType = String(req.headers['x-ms-blob-content-type'] ?? req.headers['content-type'] ?? 'application/octet-stream');
      ok(201, { etag: `"0x${createHash('md5').update(body).digest('hex').slice(0, 16).toUpperCase()}"`, 'last-modified': new Date().toUTCString() });
      return [];
    }
    blobError(res, 400, 'UnsupportedQueryParameter', `unsupported blob operation comp=${String(comp)}`);
    return [`unsupported blob operation comp=${String(comp)}`];
  };

  const handle = (req: IncomingMessage, raw: Buffer, res: ServerResponse): string[] => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith(BLOB_PREFIX)) return blob(req, url, raw, res);
    const sendTwirp = (status: number, body: object): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !url.pathname.startsWith(SERVICE)) {
      sendTwirp(404, { code: 'bad_route', msg: `no route ${req.method ?? ''} ${url.pathname}` });
      return [`unknown route ${req.method ?? ''} ${url.pathname}`];
    }
    if (req.headers['authorization'] !== `Bearer ${runtimeToken}`) {
      sendTwirp(401, { code: 'unauthenticated', msg: 'missing or wrong runtime token' });
      return ['missing or wrong runtime token'];
    }
    const method = url.pathname.slice(SERVICE.length);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      sendTwirp(400, { code: 'malformed', msg: 'body is not JSON' });
      return ['body is not JSON'];
    }
    const errors = checkMessage(method, body);
    if (errors.length > 0) {
      sendTwirp(400, { code: 'malformed', msg: errors.join('; ') });
      return errors;
    }
    try {
      sendTwirp(200, twirp(method, body as Record<string, unknown>));
      return [];
    } catch (e) {
      if (!(e instanceof TwirpError)) throw e;
      sendTwirp(e.status, { code: e.code, msg: e.message });
      return e.code === 'already_exists' || e.code === 'not_found' ? [] : [e.message];
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let errors: string[];
      try {
        errors = handle(req, Buffer.concat(chunks), res);
      } catch (e) {
        errors = [`test service crashed: ${e instanceof Error ? e.stack : String(e)}`];
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"internal","msg":"test service error"}');
      }
      const url = new URL(req.url ?? '/', 'http://x');
      const comp = url.searchParams.get('comp');
      const operation = url.pathname.startsWith(SERVICE)
        ? url.pathname.slice(SERVICE.length)
        : req.method === 'GET'
          ? 'Get Blob'
          : comp === 'block'
            ? 'Put Block'
            : comp === 'blocklist'
              ? 'Put Block List'
              : 'Put Blob';
      log.push({ method: req.method ?? '', path: url.pathname, operation, status: res.statusCode, errors });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const listed = (): ListedArtifact[] =>
    [...stored.values()]
      .filter((a) => a.finalized)
      .map((a) => ({ id: a.id, name: a.name, size: a.bytes.length, digest: a.digest, createdAt: a.createdAt, expiresAt: a.expiresAt }));

  return {
    resultsUrl: `${origin}/`,
    runtimeToken,
    runId,
    env: () => ({
      ACTIONS_RUNTIME_TOKEN: runtimeToken,
      ACTIONS_RESULTS_URL: `${origin}/`,
      // Any host but github.com, *.ghe.com or *.localhost makes the client refuse as GHES;
      // *.localhost also guarantees nothing ever resolves off this machine.
      GITHUB_SERVER_URL: 'http://github.localhost',
      GITHUB_REPOSITORY: repository,
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: '1',
      ...(options.apiUrl !== undefined ? { GITHUB_API_URL: options.apiUrl } : {})
    }),
    artifacts: () => [...stored.values()].map((a) => ({ ...a, bytes: Buffer.from(a.bytes) })),
    requests: () => [...log],
    invalidRequests: () => log.filter((r) => r.errors.length > 0),
    listArtifacts: listed,
    downloadUrl: (id) => (stored.get(id)?.finalized ? signedUrl(id, 'r') : undefined),
    publish: (name, bytes, contentType = 'application/zip') => {
      if (findByName(name, true) !== undefined) throw new Error(`an artifact named ${name} already exists on the run`);
      const id = nextId++;
      stored.set(id, {
        id,
        name,
        workflowRunBackendId: runBackendId,
        workflowJobRunBackendId: jobBackendId,
        bytes: Buffer.from(bytes),
        contentType,
        digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        finalized: true,
        createdAt: new Date(),
        expiresAt: undefined
      });
      return id;
    },
    corrupt: (name) => {
      const artifact = findByName(name, true);
      if (artifact === undefined) throw new Error(`no finalized artifact named ${name}`);
      corruptBytes(artifact.bytes);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      })
  };
}
