-- A thinking bot's turn due again now, in the lane its entry is in (RedisBotQueue.again
-- without a lane: a worker handing back a turn it took, not knowing the game's seats).
-- KEYS[1] the bot queue `tablero:bots:queue` (see thinkers_take.lua).
-- ARGV: game id, now, offset + now, the offset BOT_ONLY_LANE (s, as text).
-- An entry scored at or above the offset is bot-only and stays so; any other, or none, is
-- (re)added in the person lane. Returns nothing.
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) >= tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
