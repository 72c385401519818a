import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';

/**
 * A loopback stand-in for the GitHub Actions cache service v2, speaking the protocol `@actions/cache`
 * 4 uses (with ACTIONS_CACHE_SERVICE_V2 set), so the real client runs against it unchanged:
 *
 * 1. Twirp JSON `POST /twirp/github.actions.results.api.v1.CacheService/<Method>` with
 *    `authorization: Bearer <ACTIONS_RUNTIME_TOKEN>`: `CreateCacheEntry` (key, version) returns a
 *    signed upload URL; `FinalizeCacheEntryUpload` (key, version, size_bytes) checks the size;
 *    `GetCacheEntryDownloadURL` (key, restore_keys, version) returns a signed download URL and the
 *    matched key, or `ok: false`.
 * 2. The archive goes to the signed URL with the Azure Blob SDK (Put Blob, or Put Block + Put Block
 *    List); a restore is a GET on a signed URL.
 * 3. Scopes, as GitHub keeps them: the runtime token carries the job's cache scopes in its `ac` claim
 *    (GITHUB_REF with read and write, the default branch read-only). An entry is written to the
 *    token's own ref; a restore sees the entries of its own ref first, then the default branch's.
 *    Entries are immutable: a second CreateCacheEntry of the same key and version in a scope is refused.
 *
 * A test says which ref a token is for (`tokenFor`); the service signs its tokens and refuses others.
 */

/** An entry as stored. */
export interface StoredCacheEntry {
  id: number;
  /** The ref whose job wrote it: `refs/heads/main`, `refs/pull/7/merge`. */
  scope: string;
  key: string;
  version: string;
  bytes: Buffer;
  finalized: boolean;
  createdAt: Date;
}

/** One request the service received. */
export interface CacheServiceRequest {
  method: string;
  path: string;
  /** A Twirp method (`CreateCacheEntry`) or a blob operation (`Put Blob`, `Put Block`, `Put Block List`, `Get Blob`). */
  operation: string;
  /** The scope of the token that asked (Twirp calls); undefined for blob calls and unknown tokens. */
  scope?: string;
  /** The key asked for (Twirp calls). */
  key?: string;
  status: number;
  /** Why the request broke the protocol; empty when it was fine. */
  errors: string[];
}

export interface CacheServerOptions {
  /** The repository's default branch. Default `main`. */
  defaultBranch?: string;
}

export interface CacheServer {
  /** Value for ACTIONS_RESULTS_URL. */
  resultsUrl: string;
  /** A runtime token of a job whose GITHUB_REF is `ref` (write `ref`, read `ref` and the default branch). */
  tokenFor(ref: string): string;
  /** What the client needs in the environment for a job on `ref`. */
  env(ref: string): Record<string, string>;
  /** Stored entries (finalized or not), bytes copied. */
  entries(): StoredCacheEntry[];
  /** Every request received. */
  requests(): CacheServiceRequest[];
  /** Requests that broke the protocol. */
  invalidRequests(): CacheServiceRequest[];
  /** Removes an entry (as the REST API's DELETE /repos/{o}/{r}/actions/caches?key=&ref= does); true when there was one. */
  remove(key: string, scope: string): boolean;
  /** From now on, answer every Twirp call with this HTTP status and Twirp error code; undefined: work again. */
  fail(error: { status: number; code: string } | undefined): void;
  close(): Promise<void>;
}

const SERVICE = '/twirp/github.actions.results.api.v1.CacheService/';
const BLOB_PREFIX = '/actionscache/entries/';

type FieldKind = 'string' | 'int64' | 'strings' | 'object';
/** Fields of each request message (protobuf field names; the client sends `useProtoFieldName`). */
const MESSAGES: Record<string, Record<string, FieldKind>> = {
  CreateCacheEntry: { metadata: 'object', key: 'string', version: 'string' },
  FinalizeCacheEntryUpload: { metadata: 'object', key: 'string', size_bytes: 'int64', version: 'string' },
  GetCacheEntryDownloadURL: { metadata: 'object', key: 'string', restore_keys: 'strings', version: 'string' }
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

function checkMessage(method: string, body: unknown): string[] {
  const fields = MESSAGES[method];
  if (fields === undefined) return [`unknown method ${method}`];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['body must be a JSON object'];
  const errors: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const kind = fields[name];
    const ok =
      kind === 'string'
        ? typeof value === 'string'
        : kind === 'int64'
          ? (typeof value === 'string' && /^\d+$/.test(value)) || Number.isInteger(value)
          : kind === 'strings'
            ? Array.isArray(value) && value.every((v) => typeof v === 'string')
            : kind === 'object'
              ? value !== null && typeof value === 'object' && !Array.isArray(value)
              : false;
    if (kind === undefined) errors.push(`unknown field ${name}`);
    else if (!ok) errors.push(`field ${name} must be ${kind}`);
  }
  // The client checks keys itself (at most 512 characters, no commas); a key is always given.
  const key = (body as Record<string, unknown>)['key'];
  if (typeof key !== 'string' || key === '' || key.length > 512 || key.includes(',')) errors.push('key must be 1 to 512 characters without commas');
  if (typeof (body as Record<string, unknown>)['version'] !== 'string') errors.push('version is required');
  return errors;
}

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** Starts the service on 127.0.0.1 with a random port. */
export async function startCacheServer(options: CacheServerOptions = {}): Promise<CacheServer> {
  const defaultRef = `refs/heads/${options.defaultBranch ?? 'main'}`;
  const signingKey = randomBytes(32);
  const entries = new Map<number, StoredCacheEntry>();
  const staged = new Map<number, Map<string, Buffer>>();
  const log: CacheServiceRequest[] = [];
  let nextId = 9001;
  let origin = '';
  let failure: { status: number; code: string } | undefined;
  const xml = new XMLParser({ preserveOrder: true, parseTagValue: false, ignoreDeclaration: true });

  const hmac = (text: string): string => createHmac('sha256', signingKey).update(text).digest('base64url');
  const tokenFor = (ref: string): string => {
    const now = Math.floor(Date.now() / 1000);
    // GitHub's runtime token lists the job's cache scopes in `ac`: Permission 1 read, 3 read and write.
    const ac = JSON.stringify([{ Scope: ref, Permission: 3 }, ...(ref !== defaultRef ? [{ Scope: defaultRef, Permission: 1 }] : [])]);
    const head = `${b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }))}.${b64url(JSON.stringify({ ac, iat: now, nbf: now, exp: now + 6 * 3600 }))}`;
    return `${head}.${hmac(head)}`;
  };
  /** The scopes of a token this service signed: [write scope, ...read scopes in order]; undefined for any other token. */
  const scopesOf = (authorization: string | undefined): { write: string; read: string[] } | undefined => {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
    const [header = '', payload = '', sig = ''] = token.split('.');
    if (sig === '' || sig !== hmac(`${header}.${payload}`)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { ac: string; exp: number };
    if (claims.exp < Date.now() / 1000) return undefined;
    const ac = JSON.parse(claims.ac) as { Scope: string; Permission: number }[];
    const write = ac.find((s) => s.Permission === 3)?.Scope;
    return write === undefined ? undefined : { write, read: ac.map((s) => s.Scope) };
  };

  const sign = (path: string, permissions: string, expires: string): string => hmac(`${permissions}\n${expires}\n${path}`);
  const signedUrl = (id: number, permissions: 'cw' | 'r'): string => {
    const path = `${BLOB_PREFIX}${id}`;
    const expires = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const query = new URLSearchParams({ sv: '2025-01-05', sr: 'b', sp: permissions, se: expires, sig: sign(path, permissions, expires) });
    return `${origin}${path}?${query.toString()}`;
  };
  const find = (scope: string, key: string, version: string, finalized?: boolean): StoredCacheEntry | undefined =>
    [...entries.values()].find((e) => e.scope === scope && e.key === key && e.version === version && (finalized === undefined || e.finalized === finalized));

  const twirp = (method: string, body: Record<string, unknown>, scopes: { write: string; read: string[] }): object => {
    const key = body['key'] as string;
    const version = body['version'] as string;
    switch (method) {
      case 'CreateCacheEntry': {
        if (find(scopes.write, key, version) !== undefined) throw new TwirpError(409, 'already_exists', `a cache entry for key ${key} already exists in ${scopes.write}`);
        const id = nextId++;
        entries.set(id, { id, scope: scopes.write, key, version, bytes: Buffer.alloc(0), finalized: false, createdAt: new Date() });
        staged.set(id, new Map());
        return { ok: true, signed_upload_url: signedUrl(id, 'cw') };
      }
      case 'FinalizeCacheEntryUpload': {
        const entry = find(scopes.write, key, version, false);
        if (entry === undefined) throw new TwirpError(404, 'not_found', `no pending cache entry for key ${key} in ${scopes.write}`);
        const size = Number(body['size_bytes'] ?? 0);
        if (size !== entry.bytes.length) throw new TwirpError(400, 'invalid_argument', `size ${size} does not match the uploaded ${entry.bytes.length} bytes`);
        entry.finalized = true;
        staged.delete(entry.id);
        return { ok: true, entry_id: String(entry.id) };
      }
      case 'GetCacheEntryDownloadURL': {
        const restoreKeys = (body['restore_keys'] as string[] | undefined) ?? [];
        for (const scope of scopes.read) {
          const exact = find(scope, key, version, true);
          if (exact !== undefined) return { ok: true, signed_download_url: signedUrl(exact.id, 'r'), matched_key: exact.key };
          for (const prefix of restoreKeys) {
            const newest = [...entries.values()]
              .filter((e) => e.finalized && e.scope === scope && e.version === version && e.key.startsWith(prefix))
              .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)[0];
            if (newest !== undefined) return { ok: true, signed_download_url: signedUrl(newest.id, 'r'), matched_key: newest.key };
          }
        }
        return { ok: false, signed_download_url: '', matched_key: '' };
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

  const blob = (req: IncomingMessage, url: URL, raw: Buffer, res: ServerResponse): string[] => {
    const q = url.searchParams;
    const [sp, se, sig] = [q.get('sp') ?? '', q.get('se') ?? '', q.get('sig') ?? ''];
    const write = req.method === 'PUT';
    if (sig !== sign(url.pathname, sp, se) || Date.parse(se) < Date.now() || !sp.includes(write ? 'w' : 'r')) {
      blobError(res, 403, 'AuthenticationFailed', 'Server failed to authenticate the request.');
      return ['blob request with a bad, expired or insufficient signature'];
    }
    const entry = entries.get(Number(url.pathname.slice(BLOB_PREFIX.length)));
    if (entry === undefined || (!write && !entry.finalized)) {
      blobError(res, 404, 'BlobNotFound', 'The specified blob does not exist.');
      return [];
    }
    if (!write) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(entry.bytes.length), 'x-ms-blob-type': 'BlockBlob' }).end(entry.bytes);
      return [];
    }
    if (entry.finalized) {
      blobError(res, 409, 'BlobImmutable', 'The cache entry is finalized.');
      return ['upload to a finalized cache entry'];
    }
    const ok = (): void => {
      res
        .writeHead(201, {
          'x-ms-request-id': randomUUID(),
          'x-ms-version': String(req.headers['x-ms-version'] ?? '2025-01-05'),
          'x-ms-request-server-encrypted': 'true',
          etag: `"0x${createHash('md5').update(raw).digest('hex').slice(0, 16).toUpperCase()}"`,
          'last-modified': new Date().toUTCString(),
          date: new Date().toUTCString()
        })
        .end();
    };
    const comp = q.get('comp');
    const blocks = staged.get(entry.id) ?? new Map<string, Buffer>();
    if (comp === 'block') {
      const blockId = q.get('blockid');
      if (blockId === null || blockId === '') {
        blobError(res, 400, 'InvalidQueryParameterValue', 'blockid is required');
        return ['Put Block without blockid'];
      }
      blocks.set(blockId, raw);
      staged.set(entry.id, blocks);
      ok();
      return [];
    }
    if (comp === 'blocklist') {
      const parsed = xml.parse(raw.toString('utf8')) as { BlockList?: { [tag: string]: { '#text'?: string }[] }[] }[];
      const ids = (parsed.find((n) => n.BlockList !== undefined)?.BlockList ?? []).flatMap((e) => Object.values(e).map((v) => v[0]?.['#text'] ?? ''));
      const missing = ids.filter((b) => !blocks.has(b));
      if (missing.length > 0) {
        blobError(res, 400, 'InvalidBlockList', 'The specified block list is invalid.');
        return [`Put Block List names unstaged blocks ${missing.join(', ')}`];
      }
      entry.bytes = Buffer.concat(ids.map((b) => blocks.get(b) as Buffer));
      ok();
      return [];
    }
    if (comp === null && req.headers['x-ms-blob-type'] === 'BlockBlob') {
      entry.bytes = raw;
      ok();
      return [];
    }
    blobError(res, 400, 'UnsupportedQueryParameter', `unsupported blob operation comp=${String(comp)}`);
    return [`unsupported blob operation comp=${String(comp)}`];
  };

  const handle = (req: IncomingMessage, raw: Buffer, res: ServerResponse, note: Partial<CacheServiceRequest>): string[] => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith(BLOB_PREFIX)) return blob(req, url, raw, res);
    const send = (status: number, body: object): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !url.pathname.startsWith(SERVICE)) {
      send(404, { code: 'bad_route', msg: `no route ${req.method ?? ''} ${url.pathname}` });
      return [`unknown route ${req.method ?? ''} ${url.pathname}`];
    }
    const scopes = scopesOf(req.headers['authorization']);
    if (scopes === undefined) {
      send(401, { code: 'unauthenticated', msg: 'missing or wrong runtime token' });
      return ['missing or wrong runtime token'];
    }
    note.scope = scopes.write;
    const method = url.pathname.slice(SERVICE.length);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      send(400, { code: 'malformed', msg: 'body is not JSON' });
      return ['body is not JSON'];
    }
    const key = (body as Record<string, unknown> | null)?.['key'];
    if (typeof key === 'string') note.key = key;
    const errors = checkMessage(method, body);
    if (errors.length > 0) {
      send(400, { code: 'malformed', msg: errors.join('; ') });
      return errors;
    }
    if (failure !== undefined) {
      send(failure.status, { code: failure.code, msg: 'the cache service is failing (test)' });
      return [];
    }
    try {
      send(200, twirp(method, body as Record<string, unknown>, scopes));
      return [];
    } catch (e) {
      if (!(e instanceof TwirpError)) throw e;
      send(e.status, { code: e.code, msg: e.message });
      return e.code === 'already_exists' ? [] : [e.message];
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const note: Partial<CacheServiceRequest> = {};
      let errors: string[];
      try {
        errors = handle(req, Buffer.concat(chunks), res, note);
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
      log.push({ method: req.method ?? '', path: url.pathname, operation, ...note, status: res.statusCode, errors });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    resultsUrl: `${origin}/`,
    tokenFor,
    env: (ref) => ({ ACTIONS_RESULTS_URL: `${origin}/`, ACTIONS_RUNTIME_TOKEN: tokenFor(ref), ACTIONS_CACHE_SERVICE_V2: 'True' }),
    entries: () => [...entries.values()].map((e) => ({ ...e, bytes: Buffer.from(e.bytes) })),
    requests: () => [...log],
    invalidRequests: () => log.filter((r) => r.errors.length > 0),
    remove: (key, scope) => {
      const gone = [...entries.values()].filter((e) => e.key === key && e.scope === scope);
      for (const e of gone) entries.delete(e.id);
      return gone.length > 0;
    },
    fail: (error) => {
      failure = error;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      })
  };
}
