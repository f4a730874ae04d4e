/** What every fleet command needs first: the fleet settings, the Redis URL, a client. */
import { defaultUserConfigDir } from "../config/paths.js";
import { readFleetSettings, type FleetSettings } from "./fleet-settings.js";
import { fleetKeys, type FleetKeys } from "./keys.js";
import { connectRedis, resolveRedisUrl, type RedisClient } from "./redis-connection.js";

export interface FleetContext {
  fleet: FleetSettings;
  redisUrl: string;
  redis: RedisClient;
  keys: FleetKeys;
  queueName: string;
  close(): Promise<void>;
}

export async function openFleet(options: { redisFlag?: string | undefined; queueFlag?: string | undefined; env: NodeJS.ProcessEnv; userConfigDir?: string; patient?: boolean }): Promise<FleetContext> {
  const fleet = await readFleetSettings(options.userConfigDir ?? defaultUserConfigDir(options.env));
  const redisUrl = resolveRedisUrl({ flag: options.redisFlag, env: options.env, settings: fleet.redisUrl });
  const queueName = options.queueFlag ?? options.env["CAIRN_QUEUE"] ?? fleet.queue;
  // A worker or a server may start beside a Redis that is still starting; a one-shot command says at once that none listens.
  const redis = await connectRedis(redisUrl, options.patient ? { refusedWithinMs: Number.POSITIVE_INFINITY } : {});
  return {
    fleet,
    redisUrl,
    redis,
    keys: fleetKeys(queueName),
    queueName,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
