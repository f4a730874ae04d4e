/**
 * A fleet's spend ledger for spend caps across tasks (#36): the day's and the
 * month's spending of every worker of a queue, in two Redis keys that each
 * request's cost is added to at once (INCRBYFLOAT in one script, so a day and
 * its month never disagree), expiring after their period has passed.
 */
import { utcDay, utcMonth, type SpendLedger } from "../security/spend-cap.js";
import type { FleetKeys } from "./keys.js";
import type { RedisClient } from "./redis-connection.js";

const chargeScript = `
redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('INCRBYFLOAT', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1`;

const twoDays = 2 * 86_400;
const twoMonths = 62 * 86_400;

export class RedisSpendLedger implements SpendLedger {
  readonly scope: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: FleetKeys,
    queueName: string,
  ) {
    this.scope = `the fleet (all workers of queue ${queueName})`;
  }

  async spent(now: number): Promise<{ day: number; month: number }> {
    const [day, month] = await this.redis.mget(this.keys.spend(utcDay(now)), this.keys.spend(utcMonth(now)));
    return { day: Number(day ?? 0) || 0, month: Number(month ?? 0) || 0 };
  }

  async charge(cost: number, now: number): Promise<void> {
    await this.redis.eval(chargeScript, 2, this.keys.spend(utcDay(now)), this.keys.spend(utcMonth(now)), String(cost), String(twoDays), String(twoMonths));
  }
}
