-- Take a thinking bot's turn (RedisBotQueue.take): the first game due, leased.
-- KEYS[1] the bot queue `tablero:bots:queue` (sorted set: game id by when a worker may take it).
-- ARGV: now (s), now + lease (s).
-- Returns the game id taken (its score now the lease's end), or nil when none is due.
local g = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)[1]
if g then redis.call('ZADD', KEYS[1], ARGV[2], g) end
return g
