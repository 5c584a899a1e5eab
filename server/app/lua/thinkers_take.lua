-- Take a thinking bot's turn (RedisBotQueue.take): the first due game a person waits in, else
-- the first due bot-only game, leased in its own lane.
-- KEYS[1] the bot queue `tablero:bots:queue` (sorted set: game id by its score: when a worker
--   may take it, plus the offset BOT_ONLY_LANE for a game whose every seat is a bot).
-- ARGV: now, now + lease, the offset, offset + now, offset + now + lease (s; the sums made by
--   the caller, as text: no arithmetic here).
-- Returns the game id taken (its score now the lease's end in its lane), or nil when none is due.
-- Entries from before the lanes (plain times) are in the person lane: still taken.
local g = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)[1]
if g then
  redis.call('ZADD', KEYS[1], ARGV[2], g)
  return g
end
g = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[3], ARGV[4], 'LIMIT', 0, 1)[1]
if g then redis.call('ZADD', KEYS[1], ARGV[5], g) end
return g
