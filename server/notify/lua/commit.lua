-- The derivation's one atomic step (RedisQueue.commit): a compare-and-set of the game's cursor,
-- the game's place in the open set, and the deliveries queued, each on its lane.
-- KEYS[1] the game's cursor (named for a cluster's routing; the script builds it from KEYS[2]),
-- KEYS[2] the queue's prefix `tablero:notify:{n}:`.
-- ARGV: game id, expected cursor ("" = none), new cursor, now (us), cursor TTL ms (0 = for ever:
-- the game stays open; > 0: finished, it leaves the open set), then 3 per delivery: target, lane,
-- item JSON. A lane that was empty becomes due now (NX: a due lane keeps its score).
-- Returns 1 written, 0 the cursor is not the expected one (nothing written).
local ckey = KEYS[2] .. 'cursor:' .. ARGV[1]
local cur = redis.call('GET', ckey)
if not cur then cur = '' end
if cur ~= ARGV[2] then return 0 end
if tonumber(ARGV[5]) > 0 then
  redis.call('SET', ckey, ARGV[3], 'PX', ARGV[5])
  redis.call('ZREM', KEYS[2] .. 'open', ARGV[1])
else
  redis.call('SET', ckey, ARGV[3])
  redis.call('ZADD', KEYS[2] .. 'open', ARGV[4], ARGV[1])
end
for i = 6, #ARGV, 3 do
  local target, lane = ARGV[i], ARGV[i + 1]
  local n = redis.call('RPUSH', KEYS[2] .. 'lane:' .. target .. '|' .. lane, ARGV[i + 2])
  redis.call('HINCRBY', KEYS[2] .. 'depth', target, 1)
  if n == 1 then redis.call('ZADD', KEYS[2] .. 'due:' .. target, 'NX', ARGV[4], lane) end
end
return 1
