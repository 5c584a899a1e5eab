-- Drop the deliveries queued for a target (RedisQueue.drop: `tablero admin webhooks drop`, for an
-- endpoint no server sends to any more): up to ARGV[2] of its lanes, with their attempts, the
-- target's depth counted down (its field gone once no lane is left). Call again until it drops no
-- lane. Its dead letters stay (`tablero admin webhooks dead-letters`).
-- KEYS[1] the queue's prefix `tablero:notify:{n}:`.
-- ARGV: target, at most this many lanes.
-- Returns {lanes dropped, deliveries dropped}.
local due = KEYS[1] .. 'due:' .. ARGV[1]
local lanes = redis.call('ZRANGE', due, 0, tonumber(ARGV[2]) - 1)
local n = 0
for _, lane in ipairs(lanes) do
  local key = KEYS[1] .. 'lane:' .. ARGV[1] .. '|' .. lane
  n = n + redis.call('LLEN', key)
  redis.call('DEL', key)
  redis.call('HDEL', KEYS[1] .. 'att', ARGV[1] .. '|' .. lane)
  redis.call('ZREM', due, lane)
end
if redis.call('ZCARD', due) == 0 then
  redis.call('HDEL', KEYS[1] .. 'depth', ARGV[1])
elseif n > 0 then
  redis.call('HINCRBY', KEYS[1] .. 'depth', ARGV[1], -n)
end
return {#lanes, n}
