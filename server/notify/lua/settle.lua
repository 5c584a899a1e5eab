-- Settle a claimed lane's head (RedisQueue.settle), only by the holder of the claim's token.
-- KEYS[1] the queue's prefix `tablero:notify:{n}:`.
-- ARGV: target, lane, token, action ('ack' | 'retry' | 'dead'), next due / now (us),
-- attempt JSON (retry) / dead record (dead).
-- retry: the attempt is kept, the lane due again at ARGV[5], its head stays.
-- ack, dead: the head is popped (dead: its record goes to the dead letters); the lane is due
-- at ARGV[5] if it holds more, else leaves the due set.
-- Returns 1 settled, 0 the token is not the lane's score (the claim was lost).
local due = KEYS[1] .. 'due:' .. ARGV[1]
local score = redis.call('ZSCORE', due, ARGV[2])
if not score or tonumber(score) ~= tonumber(ARGV[3]) then return 0 end
local key = KEYS[1] .. 'lane:' .. ARGV[1] .. '|' .. ARGV[2]
local att = ARGV[1] .. '|' .. ARGV[2]
if ARGV[4] == 'retry' then
  redis.call('HSET', KEYS[1] .. 'att', att, ARGV[6])
  redis.call('ZADD', due, ARGV[5], ARGV[2])
  return 1
end
redis.call('LPOP', key)
redis.call('HDEL', KEYS[1] .. 'att', att)
redis.call('HINCRBY', KEYS[1] .. 'depth', ARGV[1], -1)
if ARGV[4] == 'dead' then redis.call('RPUSH', KEYS[1] .. 'dead', ARGV[6]) end
if redis.call('LLEN', key) > 0 then redis.call('ZADD', due, ARGV[5], ARGV[2]) else redis.call('ZREM', due, ARGV[2]) end
return 1
