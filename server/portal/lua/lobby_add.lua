-- A game's lobby entry (RedisLobby.add).
-- KEYS[1] the entry, KEYS[2] the game's meta (same slot), KEYS[3] the index (on a plain server
-- only: on a cluster it is in another slot); ARGV: the entry's JSON, its creation time, the game id.
-- The entry takes the TTL the store gave the game's keys (the abandoned-game TTL, or a finished
-- game's): from then on the store's scripts keep it in step with them.
-- Returns 1.
redis.call('SET', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
if KEYS[3] then redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3]) end
return 1
