import pg from 'pg';

/** The channel every write's revision is announced on: payload `<schema>:<modality>:<revision>`. */
export const REVISION_CHANNEL = 'biostation_revisions';

/**
 * What an API node knows of the store revisions (see PersonRepository.revision) without asking the
 * server: every write sends `pg_notify(REVISION_CHANNEL, ...)` inside its transaction (PostgreSQL
 * delivers it on commit, to every node), this node LISTENs on one dedicated connection and keeps
 * the highest revision heard per application schema and modality; its own writes are recorded as
 * soon as they commit. So a node's 1:N gallery learns of another node's write within the
 * notification's latency (milliseconds on a LAN), with no query before each search.
 *
 * Revisions only grow, so values are merged with max. While the listening connection is down a
 * notification may be lost: `get` then answers undefined (the repository asks the server), the
 * cache is dropped and the connection is retried every `retryMs`.
 */
export class RevisionListener {
  private readonly known = new Map<string, number>();
  private client?: pg.Client;
  private live = false;
  private closed = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly connectionString: string,
    private readonly retryMs = 1000,
  ) {}

  /** Connects and LISTENs; resolves once listening (or once the first attempt failed: reads fall back to queries). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (n) => {
      if (n.channel !== REVISION_CHANNEL || !n.payload) return;
      const i = n.payload.lastIndexOf(':');
      const value = Number(n.payload.slice(i + 1));
      if (i > 0 && Number.isSafeInteger(value)) this.set(n.payload.slice(0, i), value);
    });
    const lost = () => {
      if (this.client !== client) return;
      this.live = false;
      this.known.clear();
      this.client = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.start(), this.retryMs).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${REVISION_CHANNEL}`);
      this.known.clear(); // anything learnt before listening may be behind
      this.live = !this.closed;
    } catch {
      lost();
    }
  }

  /** The revision of `key` (`<schema>:<modality>`) when it is known and current, else undefined. */
  get(key: string): number | undefined {
    return this.live ? this.known.get(key) : undefined;
  }

  /** Records a revision read from the server, committed by this node, or heard (kept: the highest). */
  set(key: string, value: number): void {
    if (!this.live) return;
    const prev = this.known.get(key);
    if (prev === undefined || value > prev) this.known.set(key, value);
  }

  get listening(): boolean {
    return this.live;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
