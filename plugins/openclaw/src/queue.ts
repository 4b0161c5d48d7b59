// Offline queue for kb_submit. When the KnowHub server is down, slow or rejects the API key,
// the (already redacted) submit body is written to disk and replayed later: after the next
// successful call to the server, at the start of the next task, or by a backoff timer.
//
// Guarantees: at-least-once. A file is deleted only after the server answered 200/201 for it
// (the server's dedup absorbs a replay that raced with another one). A body the server rejects
// as invalid (4xx other than 401/403/408/429) is moved to failed/ and kept, never deleted.
// Nothing here ever blocks a turn: replay runs in the background and timers are unref'd.

import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { KnowHubError, type SubmitBody, type SubmitResponse } from "./client.js";

export interface QueuedSubmit {
  id: string;
  enqueuedAt: string;
  attempts: number;
  lastError?: string;
  body: SubmitBody;
}

export interface ReplayReport {
  sent: { queueId: string; id: string; duplicate: boolean }[];
  failed: { queueId: string; error: string }[];
  remaining: number;
  /** Why replay stopped early (server still unavailable), if it did. */
  stoppedBy?: string;
  /** Replay skipped because another replay (this or another process) holds the lock. */
  busy?: boolean;
}

export interface QueueLogger {
  info: (m: string) => void;
  warn: (m: string) => void;
}

type SubmitFn = (body: SubmitBody) => Promise<SubmitResponse>;

const LOCK_STALE_MS = 120_000;
const BACKOFF_MIN_MS = 5_000;
const BACKOFF_MAX_MS = 300_000;

export class SubmitQueue {
  readonly dir: string;
  readonly failedDir: string;
  private replaying: Promise<ReplayReport> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private backoffMs = BACKOFF_MIN_MS;
  /** Bumped by cancelScheduled, so a replay already running does not schedule the next. */
  private generation = 0;

  constructor(dir: string) {
    this.dir = dir;
    this.failedDir = path.join(dir, "failed");
  }

  /** Durably writes one submit body to the queue (write to a temp file, fsync, rename). */
  async enqueue(body: SubmitBody, error?: string): Promise<QueuedSubmit> {
    await fsp.mkdir(this.dir, { recursive: true });
    const id = `${Date.now().toString().padStart(14, "0")}-${crypto.randomBytes(4).toString("hex")}`;
    const item: QueuedSubmit = { id, enqueuedAt: new Date().toISOString(), attempts: 0, lastError: error, body };
    await this.writeItem(item);
    return item;
  }

  private async writeItem(item: QueuedSubmit): Promise<void> {
    const file = path.join(this.dir, `${item.id}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    const fh = await fsp.open(tmp, "w", 0o600);
    try {
      await fh.writeFile(JSON.stringify(item));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, file);
  }

  /** Queued items, oldest first. Unreadable files are moved to failed/ rather than dropped. */
  async list(): Promise<QueuedSubmit[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const items: QueuedSubmit[] = [];
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      const file = path.join(this.dir, name);
      try {
        const item = JSON.parse(await fsp.readFile(file, "utf8")) as QueuedSubmit;
        if (!item || typeof item.id !== "string" || !item.body) throw new Error("bad queue item");
        items.push(item);
      } catch {
        await this.moveToFailed(name).catch(() => undefined);
      }
    }
    return items;
  }

  /** Number of items waiting (synchronous, cheap: used on hot paths to decide whether to replay). */
  pendingCountSync(): number {
    try {
      return fs.readdirSync(this.dir).filter((n) => n.endsWith(".json")).length;
    } catch {
      return 0;
    }
  }

  private async moveToFailed(name: string): Promise<void> {
    await fsp.mkdir(this.failedDir, { recursive: true });
    await fsp.rename(path.join(this.dir, name), path.join(this.failedDir, name));
  }

  private async acquireLock(): Promise<(() => Promise<void>) | undefined> {
    await fsp.mkdir(this.dir, { recursive: true });
    const lock = path.join(this.dir, "replay.lock");
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fh = await fsp.open(lock, "wx");
        await fh.writeFile(JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
        await fh.close();
        return async () => {
          await fsp.rm(lock, { force: true });
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const st = await fsp.stat(lock).catch(() => undefined);
        if (st && Date.now() - st.mtimeMs > LOCK_STALE_MS) {
          await fsp.rm(lock, { force: true });
          continue; // stale lock left by a crashed process
        }
        return undefined;
      }
    }
    return undefined;
  }

  /**
   * Sends queued items in order. Stops at the first retryable failure (server still down);
   * moves permanently rejected items to failed/. Concurrent calls share one replay.
   */
  replay(submit: SubmitFn, logger?: QueueLogger): Promise<ReplayReport> {
    if (this.replaying) return this.replaying;
    const run = this.replayOnce(submit, logger).finally(() => {
      this.replaying = undefined;
    });
    this.replaying = run;
    return run;
  }

  private async replayOnce(submit: SubmitFn, logger?: QueueLogger): Promise<ReplayReport> {
    const report: ReplayReport = { sent: [], failed: [], remaining: 0 };
    if (this.pendingCountSync() === 0) return report;
    const release = await this.acquireLock();
    if (!release) {
      report.busy = true;
      report.remaining = this.pendingCountSync();
      return report;
    }
    try {
      const items = await this.list();
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        const file = path.join(this.dir, `${item.id}.json`);
        try {
          const res = await submit(item.body);
          await fsp.rm(file, { force: true });
          report.sent.push({ queueId: item.id, id: res.id, duplicate: Boolean(res.duplicate_of) || res.httpStatus === 200 });
          logger?.info(`knowhub: queued submit ${item.id} delivered as experience ${res.id}`);
        } catch (err) {
          const e = err instanceof KnowHubError ? err : new KnowHubError("unreachable", String(err));
          if (e.retryable || e.kind === "aborted" || e.kind === "protocol") {
            item.attempts += 1;
            item.lastError = e.message;
            await this.writeItem(item).catch(() => undefined);
            report.stoppedBy = e.message;
            report.remaining = items.length - i;
            return report;
          }
          await this.moveToFailed(`${item.id}.json`).catch(() => undefined);
          report.failed.push({ queueId: item.id, error: e.message });
          logger?.warn(
            `knowhub: queued submit ${item.id} was rejected by the server and moved to ${this.failedDir}: ${e.message}`,
          );
        }
      }
      report.remaining = this.pendingCountSync();
      return report;
    } finally {
      await release();
    }
  }

  /**
   * Schedules a background replay with exponential backoff (5 s doubling to 5 min) until the
   * queue is empty. The timer is unref'd so a one-shot CLI process can still exit.
   */
  scheduleReplay(submit: SubmitFn, logger?: QueueLogger, delayMs?: number): void {
    if (this.timer) return;
    const wait = delayMs ?? this.backoffMs;
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.replay(submit, logger)
        .then((r) => {
          // Cancelled while this replay ran: do not re-arm (shutdown must stay shut).
          if (generation !== this.generation) return;
          if (r.remaining > 0) {
            this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
            this.scheduleReplay(submit, logger);
          } else {
            this.backoffMs = BACKOFF_MIN_MS;
          }
        })
        .catch((err) => logger?.warn(`knowhub: queue replay failed: ${String(err)}`));
    }, wait);
    this.timer.unref?.();
  }

  /** Cancels a scheduled replay (tests, shutdown). */
  cancelScheduled(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.generation += 1;
  }
}
