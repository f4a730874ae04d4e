/** Every Redis key the fleet writes besides BullMQ's own, under one prefix per queue. */
export interface FleetKeys {
  /** The task's log, one stream entry per log entry (append-only). */
  log(jobId: string): string;
  /** The workspace's patch against the base revision, after the last completed step. */
  patch(jobId: string): string;
  /** What a worker knows of a running job: task id, worker, attempt. */
  job(jobId: string): string;
  /** Set when a cancel was asked for: a worker that picks the job up later sees it. */
  cancelled(jobId: string): string;
  /** Pub/sub channel on which cancels reach the worker running the job. */
  cancelChannel: string;
  /** "Blocked until" for one provider key (named by a hash, never the key); shared by every queue. */
  rateLimit(keyHash: string): string;
  /** Leases of requests in flight for one provider key (a sorted set by expiry). */
  slots(keyHash: string): string;
  /** US dollars the queue's tasks spent on a UTC day (`2026-12-03`) or month (`2026-12`), for spend caps (#36). */
  spend(period: string): string;
}

export const defaultQueueName = "cairn";

export function fleetKeys(queueName: string): FleetKeys {
  const prefix = `cairn-fleet:${queueName}`;
  return {
    log: (jobId) => `${prefix}:log:${jobId}`,
    patch: (jobId) => `${prefix}:patch:${jobId}`,
    job: (jobId) => `${prefix}:job:${jobId}`,
    cancelled: (jobId) => `${prefix}:cancelled:${jobId}`,
    cancelChannel: `${prefix}:cancel`,
    rateLimit: (keyHash) => `cairn-fleet:rate-limit:${keyHash}`,
    slots: (keyHash) => `cairn-fleet:slots:${keyHash}`,
    spend: (period) => `${prefix}:spend:${period}`,
  };
}
