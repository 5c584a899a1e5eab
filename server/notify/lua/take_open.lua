-- The open games (derived, not finished) checked longest ago (RedisQueue.take_open): up to
-- ARGV[3] with a score (when last derived or checked, us) at most ARGV[1], re-scored ARGV[2]
-- (taken by this sweeper), with their cursors.
-- KEYS[1] the queue's prefix `tablero:notify:{n}:`.  ARGV: cutoff, now, limit.
-- Returns a flat list, 2 per game: game id, its cursor ("" none).
local games = redis.call('ZRANGEBYSCORE', KEYS[1] .. 'open', '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, g in ipairs(games) do
  redis.call('ZADD', KEYS[1] .. 'open', 'XX', ARGV[2], g)
  table.insert(out, g); table.insert(out, redis.call('GET', KEYS[1] .. 'cursor:' .. g) or '')
end
return out
