-- Rating a game, one atomic step (RedisRatings.commit).
-- KEYS: journal, pending, seq, leaderboard, names, then per user its hash and recent list.
-- ARGV: game id, engine, replay ("1": a rebuild, no journal check), n, then 6 per user:
-- user, expected JSON (or "~"), new JSON, score, name ("" = keep), recent JSON.
-- A user's recent list keeps its newest 20 (ratings/store.py's RECENT).
-- Returns 0 when the game was rated already, -1 when a rating moved meanwhile (nothing written),
-- else the sequence (1 on a replay, which neither journals nor counts).
local replay = ARGV[3] == '1'
if not replay and redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local n = tonumber(ARGV[4])
for i = 0, n - 1 do
  local cur = redis.call('HGET', KEYS[6 + i * 2], ARGV[2]) or '~'
  if cur ~= ARGV[6 + i * 6] then return -1 end
end
for i = 0, n - 1 do
  local b, h, l = 5 + i * 6, KEYS[6 + i * 2], KEYS[7 + i * 2]
  redis.call('HSET', h, ARGV[2], ARGV[b + 2])
  redis.call('ZADD', KEYS[4], ARGV[b + 3], ARGV[b])
  if ARGV[b + 4] ~= '' then redis.call('HSET', KEYS[5], ARGV[b], ARGV[b + 4]) end
  redis.call('LPUSH', l, ARGV[b + 5])
  redis.call('LTRIM', l, 0, 19)
end
local seq = 1
if not replay then
  seq = redis.call('INCR', KEYS[3])
  redis.call('ZADD', KEYS[1], seq, ARGV[1])
end
redis.call('ZREM', KEYS[2], ARGV[1])
return seq
