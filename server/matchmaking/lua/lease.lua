-- The per-engine matcher lease (RedisTickets.lease): taken or renewed by its holder.
-- KEYS[1] the engine's lease key.  ARGV: owner, TTL ms.
-- Returns 1 held by the owner now (for the TTL), 0 another holds it.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
